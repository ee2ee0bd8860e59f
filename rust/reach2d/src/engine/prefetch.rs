//! Cache prefetch hints: in the batch (`batch.rs`), while one chain solves, the memory of the chains after it is asked
//! for, so their cache misses overlap instead of queueing one node at a time (docs/performance.md, the batch path); a
//! node solved by itself asks for all its bones at once before it reads the first (`io::bones::prefetch`).
//!
//! A prefetch is only a hint: it never faults, whatever the address (a freed object's costs one wasted fetch), and
//! nothing here ever *reads* through an address. x86_64: `prefetcht0` (`_mm_prefetch`); aarch64: `prfm pldl1keep`;
//! every other target (wasm32) does nothing, so batching alone helps there.
//!
//! This is also the one place that takes an engine object's address from godot-rust: `Gd::obj_sys()` is public but
//! `#[doc(hidden)]`, so it may change meaning in a godot-rust update. `Reach2DDebug.object_address_is_engine_object`
//! (debug builds) checks, in `tests/engine/test_batch.gd`, that it still is the engine's `Object*`.

use godot::obj::{Gd, GodotClass};

/// Cache line size assumed for the hints, bytes (x86_64 and the common aarch64 cores).
pub const LINE: usize = 64;

/// Lines asked for per engine object (its first 512 bytes). A Bone2D is about 1.2 KB; issue 22 measured 24 lines best
/// when the solve itself took longer. Issue 39 measured again with the faster solve (FABRIK, N = 8, 1000 chains):
/// 24 lines asked for 240 lines per chain, two chains ahead, more than L1 holds, and spent 600-760 ns per chain on
/// the hints alone; 8 lines kept what the hints buy in the read and the write for 410-450 ns (0: none, 4: less).
pub const OBJECT_LINES: usize = 8;

/// Lines asked for per Rust buffer (a node's pose buffers are small: a few lines each).
pub const BUFFER_LINES: usize = 2;

/// The engine object's address (`Object*`) behind `object`, only ever to prefetch; 0 for a null handle.
pub fn object_address<T: GodotClass>(object: &Gd<T>) -> usize {
    object.obj_sys() as usize
}

/// Asks the cache for `lines` lines starting at `address`. A hint only: never faults, never reads.
#[inline(always)]
pub fn prefetch(address: usize, lines: usize) {
    for line in line_addresses(address, lines) {
        prefetch_line(line);
    }
}

/// The addresses of `lines` cache lines from `address` on, wrapping at the end of the address space; none for a
/// null address.
#[inline(always)]
fn line_addresses(address: usize, lines: usize) -> impl Iterator<Item = usize> {
    let lines = if address == 0 { 0 } else { lines };
    (0..lines).map(move |line| address.wrapping_add(line.wrapping_mul(LINE)))
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch_line(address: usize) {
    use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    // SAFETY: `prefetcht0` is a hint: it never faults and has no architectural effect, for any address.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(address as *const i8) }
}

#[cfg(target_arch = "aarch64")]
#[inline(always)]
fn prefetch_line(address: usize) {
    // SAFETY: `prfm` is a hint: it never faults and has no architectural effect, for any address.
    unsafe { core::arch::asm!("prfm pldl1keep, [{0}]", in(reg) address, options(nostack, readonly, preserves_flags)) }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[inline(always)]
fn prefetch_line(_address: usize) {}

/// Debug builds: `true` when [`object_address`] of `object` is the engine's `Object*` for it (the engine answers
/// the object's instance id from that pointer). Catches a godot-rust update that changes what `obj_sys` returns.
#[cfg(any(debug_assertions, feature = "bench"))]
pub fn address_is_engine_object(object: &Gd<godot::classes::Object>) -> bool {
    if !object.is_instance_valid() {
        return false;
    }
    let address = object_address(object);
    // SAFETY: the object is alive (checked above, and `object` keeps it so for this call) and `address` is what
    // godot-rust passes the engine as this object's pointer in every call; the engine only reads its id.
    let id = unsafe { godot::sys::interface_fn!(object_get_instance_id)(address as godot::sys::GDExtensionObjectPtr) };
    address != 0 && id as i64 == object.instance_id().to_i64()
}

#[cfg(test)]
mod tests;
