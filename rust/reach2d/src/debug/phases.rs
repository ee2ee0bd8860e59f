//! Bench builds only (`--features bench`): where a solve's time goes, per phase (docs/performance.md, "Where a
//! chain's time goes"). Each [`enter`] reads the CPU's time-stamp counter and charges the time since the last one to
//! the phase it leaves; nothing is read unless a bench script switched the timer on ([`start`]), so the bench's
//! own timings are not disturbed. Other builds compile [`enter`] to nothing.
//!
//! The phases are charged as the code runs, cache misses included: a bone first touched by the read is the read's
//! cost, however much of it is memory.

/// A phase of one solve, in the order the code runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(usize)]
pub enum Phase {
    /// Outside Reach2D: the engine, the calling script and godot-rust's call layer (binding the node).
    Outside,
    /// The batch's own loop: prefetching the chains ahead, liveness, binding each member, remembering its memory.
    Batch,
    /// Around the solve: the allocation count, the tree watch's pass, the character's weight, reporting the outcome.
    Frame,
    /// The setup check (`runtime::setup`): the target's position, liveness, the verified structure; the whole solve
    /// up to the write of a node that marks no phase in between (only the chains mark theirs).
    Check,
    /// Reading the bones (`io::bones::read`): local transforms, the tip's angle and length, the pose in Rust.
    Read,
    /// The solver itself (`reach2d_core`), limits and refinement included.
    Solve,
    /// The solved joints turned into rotations (`io::pose`'s write-back: weight, speed limit, limits), in Rust.
    Rotations,
    /// Writing the rotations (`io::bones::write_rotations`: `set_rotation` per changed bone) and remembering them.
    Write,
}

/// How many phases there are.
pub const PHASES: usize = 8;

#[cfg_attr(not(all(feature = "bench", target_arch = "x86_64")), allow(dead_code))]
const PHASE_ORDER: [Phase; PHASES] = [
    Phase::Outside,
    Phase::Batch,
    Phase::Frame,
    Phase::Check,
    Phase::Read,
    Phase::Solve,
    Phase::Rotations,
    Phase::Write,
];

#[cfg(all(feature = "bench", target_arch = "x86_64"))]
mod timer {
    use super::{PHASE_ORDER, PHASES, Phase};
    use std::cell::Cell;
    use std::time::Instant;

    thread_local! {
        static ON: Cell<bool> = const { Cell::new(false) };
        static CURRENT: Cell<usize> = const { Cell::new(0) };
        static LAST: Cell<u64> = const { Cell::new(0) };
        static TOTALS: [Cell<u64>; PHASES] = const { [const { Cell::new(0) }; PHASES] };
        static STARTED: Cell<Option<(Instant, u64)>> = const { Cell::new(None) };
    }

    fn ticks() -> u64 {
        // SAFETY: `rdtsc` only reads the time-stamp counter, on every x86_64 CPU.
        unsafe { core::arch::x86_64::_rdtsc() }
    }

    #[inline(always)]
    pub fn enter(phase: Phase) -> Phase {
        if !ON.get() {
            return Phase::Outside;
        }
        let now = ticks();
        let left = CURRENT.replace(phase as usize);
        TOTALS.with(|totals| totals[left].set(totals[left].get() + now.wrapping_sub(LAST.replace(now))));
        PHASE_ORDER[left]
    }

    pub fn start() {
        TOTALS.with(|totals| totals.iter().for_each(|t| t.set(0)));
        CURRENT.set(Phase::Outside as usize);
        let now = ticks();
        LAST.set(now);
        STARTED.set(Some((Instant::now(), now)));
        ON.set(true);
    }

    pub fn stop() -> [f64; PHASES] {
        enter(Phase::Outside);
        ON.set(false);
        let Some((at, ticks_then)) = STARTED.take() else { return [0.0; PHASES] };
        let ns_per_tick = at.elapsed().as_nanos() as f64 / ticks().wrapping_sub(ticks_then).max(1) as f64;
        TOTALS.with(|totals| core::array::from_fn(|i| totals[i].get() as f64 * ns_per_tick))
    }
}

#[cfg(all(feature = "bench", target_arch = "x86_64"))]
pub use timer::{enter, start, stop};

/// Charges the time since the last call to the phase left, and enters `phase` (bench builds, timer on). Returns the
/// phase left, for a caller that nests to go back to.
#[cfg(not(all(feature = "bench", target_arch = "x86_64")))]
#[inline(always)]
pub fn enter(_phase: Phase) -> Phase {
    Phase::Outside
}
