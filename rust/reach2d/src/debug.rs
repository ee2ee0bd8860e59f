//! Counting and timing, below every other layer (nothing here imports from the rest of the crate, so every layer may
//! use it): the counting allocator of debug and bench builds that proves a frame allocates nothing (`alloc`), the
//! bench's per-phase timer (`phases`, a no-op elsewhere), and the statistics counters' add ([`bump`]). The classes
//! that report them to Godot are `nodes::debug_probe` and `nodes::bench_probe`.

#[cfg(any(debug_assertions, feature = "bench"))]
pub mod alloc;
pub mod phases;

use std::sync::atomic::{AtomicU64, Ordering};

/// Adds `n` to a statistics counter (how many checks, queries, bone writes): a load and a store, not an atomic add.
/// A locked add waits for every store before it to reach memory, the engine's into bones that are not in the cache
/// among them, which cost about 30 ns per count on the solving path (issue 39). Counted from one thread, the
/// scene's; a count lost to a race between threads would only make a statistic low.
pub fn bump(counter: &AtomicU64, n: u64) {
    if n != 0 {
        counter.store(counter.load(Ordering::Relaxed).wrapping_add(n), Ordering::Relaxed);
    }
}
