//! Debug builds (and release builds with the `bench` feature) only: counts the extension's own heap allocations, so
//! a test or the benchmark in Godot can prove that solving allocates nothing per frame in steady state. Shipped
//! release builds use the system allocator untouched.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use godot::prelude::*;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
/// Allocations made while Reach2D's own per-frame code ran (see [`count_in`]).
static IN_NODES: AtomicU64 = AtomicU64::new(0);

/// Runs `f`, adding the heap allocations it makes to the per-frame count the tests read.
pub fn count_in<R>(f: impl FnOnce() -> R) -> R {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let result = f();
    IN_NODES.fetch_add(ALLOCATIONS.load(Ordering::Relaxed) - before, Ordering::Relaxed);
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

/// Diagnostics for Reach2D's own tests and benchmarks; present in debug and bench builds of the extension only.
#[derive(GodotClass)]
#[class(init, base = Object)]
pub struct Reach2DDebug {}

#[godot_api]
impl Reach2DDebug {
    /// How many heap allocations the extension's Rust code has made since it was loaded (debug and bench builds only).
    #[func]
    pub fn rust_heap_allocations() -> i64 {
        ALLOCATIONS.load(Ordering::Relaxed) as i64
    }

    /// How many of those were made inside the nodes' own per-frame code (process callbacks and [code]solve()[/code]:
    /// reading the bones, solving, writing rotations), as opposed to the godot-rust call layer around it.
    #[func]
    pub fn node_heap_allocations() -> i64 {
        IN_NODES.load(Ordering::Relaxed) as i64
    }

    /// [code]true[/code] when the address Reach2D takes from godot-rust for [param object] (to prefetch it) is the
    /// engine's own pointer to it: a check that a godot-rust update did not change that hidden API.
    #[func]
    pub fn object_address_is_engine_object(object: Gd<Object>) -> bool {
        crate::prefetch::address_is_engine_object(&object)
    }
}
