//! The staleness flags of all watched chains, side by side in blocks that are never freed, and the free ones.
//!
//! A flag of its own per chain (an `Rc`) was a cache miss every solve with many characters (most of
//! `BoneChain::ensure`'s time in `perf`, BENCHMARKS.md); here the flags of 1000 chains share 16 cache lines. Taken
//! and released only when a chain is resolved or forgotten, never per frame. A flag released while a disconnected
//! callable still held it could at worst mark another chain stale: one extra re-resolve, never a missed change.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

static STALE_FLAGS: Mutex<Vec<&'static AtomicBool>> = Mutex::new(Vec::new());

/// Flags allocated at once when none is free.
const STALE_FLAG_BLOCK: usize = 256;

/// A cleared flag for a newly watched chain.
pub fn take() -> &'static AtomicBool {
    let mut free = STALE_FLAGS.lock().unwrap_or_else(PoisonError::into_inner);
    if free.is_empty() {
        let block: &'static [AtomicBool] =
            Box::leak((0..STALE_FLAG_BLOCK).map(|_| AtomicBool::new(false)).collect::<Box<[_]>>());
        free.extend(block.iter().rev());
    }
    let flag = free.pop().unwrap_or_else(|| Box::leak(Box::new(AtomicBool::new(false))));
    flag.store(false, Ordering::Relaxed);
    flag
}

/// Gives a flag back when its chain is forgotten.
pub fn release(flag: &'static AtomicBool) {
    STALE_FLAGS.lock().unwrap_or_else(PoisonError::into_inner).push(flag);
}
