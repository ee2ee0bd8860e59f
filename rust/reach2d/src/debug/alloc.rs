//! Debug builds (and release builds with the `bench` feature) only: counts the extension's own heap allocations, so
//! a test or the benchmark in Godot can prove that solving allocates nothing per frame in steady state. Shipped
//! release builds use the system allocator untouched.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::debug::bump;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
/// Allocations made while Reach2D's own per-frame code ran (see [`count_in`]).
static IN_NODES: AtomicU64 = AtomicU64::new(0);

/// Bone rotations written (`set_rotation` calls) since the library was loaded.
static BONE_WRITES: AtomicU64 = AtomicU64::new(0);

/// Counts one `set_rotation` of a bone (`bump`: no locked instruction).
pub fn count_bone_write() {
    bump(&BONE_WRITES, 1);
}

/// Allocations made inside [`uncount`] since the library was loaded.
static EXCLUDED: AtomicU64 = AtomicU64::new(0);

/// Runs `f`, adding the heap allocations it makes (but those inside [`uncount`]) to the per-frame count the tests
/// read.
pub fn count_in<R>(f: impl FnOnce() -> R) -> R {
    let (before, excluded) = (ALLOCATIONS.load(Ordering::Relaxed), EXCLUDED.load(Ordering::Relaxed));
    let result = f();
    let made = ALLOCATIONS.load(Ordering::Relaxed) - before;
    let left_out = EXCLUDED.load(Ordering::Relaxed) - excluded;
    bump(&IN_NODES, made.saturating_sub(left_out));
    result
}

/// Runs `f` inside [`count_in`] without counting its allocations: godot-rust's own (a `bind_mut`'s borrow tracker
/// in debug builds), not the node's.
pub fn uncount<R>(f: impl FnOnce() -> R) -> R {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let result = f();
    bump(&EXCLUDED, ALLOCATIONS.load(Ordering::Relaxed) - before);
    result
}

/// The system allocator, counting every allocation and reallocation.
struct CountingAllocator;

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only an atomic.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Heap allocations the extension made since the library was loaded.
pub fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// Allocations made while Reach2D's own per-frame code ran ([`count_in`]), less those inside [`uncount`].
pub fn allocations_in_nodes() -> u64 {
    IN_NODES.load(Ordering::Relaxed)
}

/// Bone rotations written since the library was loaded ([`count_bone_write`]).
pub fn bone_writes() -> u64 {
    BONE_WRITES.load(Ordering::Relaxed)
}
