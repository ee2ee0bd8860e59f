//! CCD: cyclic coordinate descent, tip-to-root sweeps in `O(N)`.
//!
//! # Why tip to root
//! The distal joints make the fine corrections first and the proximal ones then swing the
//! already-corrected sub-chain as a whole, which converges in fewer sweeps than root to tip
//! (where each proximal swing is undone by the distal corrections that follow). Godot's 2D
//! `SkeletonModification2DCCDIK` turns its joints the other way, root to tip, one sweep per frame: a
//! converted chain reaches the same targets, but a chain of three or more bones can settle in another pose.
//!
//! # Why `O(N)` per sweep
//! Rotating bone `i` about joint `i` only moves joints `> i`, and the next step pivots at joint
//! `i - 1`, which has not moved. So a sweep only tracks the tip explicitly and each bone's
//! accumulated rotation as a unit complex number, and rebuilds the joints root to tip once at
//! the end. The accumulated rotations are stored in the joint buffer itself (no allocation):
//! while sweeping, slot `i + 1` holds bone `i`'s segment pre-rotated by the inverse of the
//! rotation of everything distal to it, so that one multiplication by the total rotation
//! gives each bone's final segment.

use core::f32::consts::PI;

use glam::Vec2;

use crate::angle::{ChainLimits, signed_angle};
use crate::error::SolveError;
use crate::geom::{TINY_SQ, conform_lengths, direction_or, unit_or};
use crate::refine::Refiner;
use crate::solver::{CcdSettings, ChainSolver, SolveReport};
use crate::validate;

/// Moves the chain toward `target` with CCD; returns what it did.
///
/// `joints` holds the `N + 1` joint positions (bone origins then the tip, `N >= 1`) and is
/// rewritten in place. CCD rotates rigid sub-chains, so it keeps the segments it is given (no
/// lengths argument; segment lengths are preserved to `f32` rounding). The root never moves.
///
/// Each sweep visits the bones from the tip to the root and rotates each about its origin so
/// that the tip points at the target, capped at `settings.max_angle_step` radians per bone per
/// sweep and clamped into the bone's limit (limits take priority over the cap). Stops after
/// `settings.max_iterations` sweeps or as soon as the tip is within `settings.tolerance`;
/// `iterations` counts the sweeps used (`0` when already within tolerance — after a first
/// root-to-tip pass that brings every bone inside its limit, when limits are set). Zero-length
/// bones and coincident joints are skipped (no rotation). Never allocates, never panics.
///
/// With limits, once a sweep no longer halves the distance (without limits or when damped: once
/// sweeps stall, or after half of `max_iterations`, at least 8 sweeps), the rest of the budget goes to the damped
/// least-squares refinement on the relative angles (see the crate docs): limits exact, each angle change capped at `max_angle_step`, segments kept, the
/// distance never increased; `iterations` then also counts its iterations.
///
/// # Errors
/// [`SolveError::EmptyChain`] (fewer than 2 joints), [`SolveError::LimitsMismatch`],
/// [`SolveError::NonFiniteTarget`], [`SolveError::NonFiniteJoint`],
/// [`SolveError::InvalidLimit`], [`SolveError::InvalidDirection`] and
/// [`SolveError::InvalidSettings`]. On error the buffers are unchanged.
pub fn solve_ccd(
    joints: &mut [Vec2],
    target: Vec2,
    limits: &ChainLimits,
    settings: &CcdSettings,
) -> Result<SolveReport, SolveError> {
    validate::ccd_chain(joints, target, limits)?;
    validate::ccd_settings(settings)?;
    Ok(solve_ccd_unchecked(joints, target, limits, settings))
}

/// CCD keeps the segments it is given, so the chain is first re-spaced to `lengths` along its own directions.
impl ChainSolver for CcdSettings {
    fn solve(
        &self,
        joints: &mut [Vec2],
        lengths: &[f32],
        target: Vec2,
        limits: &ChainLimits,
    ) -> Result<SolveReport, SolveError> {
        validate::chain(joints, lengths, target, limits)?;
        validate::ccd_settings(self)?;
        conform_lengths(joints, lengths, target);
        Ok(solve_ccd_unchecked(joints, target, limits, self))
    }
}

/// Damping cap as `(cos, sin)` of the largest step, or `None` for no cap.
#[derive(Clone, Copy)]
struct Step(Option<(f32, f32)>);

impl Step {
    fn new(max_angle_step: f32) -> Self {
        if max_angle_step < PI {
            let (s, c) = max_angle_step.sin_cos();
            Self(Some((c, s)))
        } else {
            Self(None)
        }
    }

    /// Caps the unit rotation `rot` to the step.
    #[inline]
    fn cap(self, rot: Vec2) -> Vec2 {
        match self.0 {
            Some((c, s)) if rot.x < c => Vec2::new(c, s.copysign(rot.y)),
            _ => rot,
        }
    }
}

/// The unit rotation that turns `from` toward `to` (about the origin), or identity when either
/// has no direction.
#[inline]
fn rotation_between(from: Vec2, to: Vec2) -> Vec2 {
    let denom = from.length_squared().sqrt() * to.length_squared().sqrt();
    if denom > TINY_SQ { Vec2::new(from.dot(to), from.perp_dot(to)) / denom } else { Vec2::X }
}

/// Complex product `a * b` renormalized with one Newton step (keeps accumulated rotations
/// unit-length to rounding without a square root).
#[inline]
fn mul_unit(a: Vec2, b: Vec2) -> Vec2 {
    let q = a.rotate(b);
    q * (1.5 - 0.5 * q.length_squared())
}

#[inline]
fn conj(q: Vec2) -> Vec2 {
    Vec2::new(q.x, -q.y)
}

pub(crate) fn solve_ccd_unchecked(
    joints: &mut [Vec2],
    target: Vec2,
    limits: &ChainLimits,
    settings: &CcdSettings,
) -> SolveReport {
    let tol = settings.tolerance;
    let limited = limits.is_active();
    let root_dir = direction_or(limits.root_direction, Vec2::X);
    if limited {
        enforce_limits(joints, limits, root_dir);
    }
    let n = joints.len() - 1;
    let mut distance = joints[n].distance(target);
    if distance <= tol {
        return SolveReport::new(0, distance, tol);
    }
    let step = Step::new(settings.max_angle_step);
    let mut iterations = 0;
    let mut last_tip = joints[n];
    // Progress is measured against the closest any pose can get (the segments are rigid): for a
    // target out of reach the distance itself barely shrinks while the chain straightens; for one
    // inside the ring the chain reaches (its longest bone longer than the others together), while
    // it folds.
    let (reach, longest) = joints
        .windows(2)
        .map(|w| w[0].distance(w[1]))
        .fold((0.0f32, 0.0f32), |(sum, max), length| (sum + length, max.max(length)));
    let to_target = joints[0].distance(target);
    let floor = (to_target - reach).max(2.0 * longest - reach - to_target).max(0.0);
    // Within this of the floor the chain is as near as it gets (the tolerance, or float rounding).
    let at_floor = tol.max(1e-4 * reach);
    // Sweeps continue while they make good progress, then the refinement takes over. With limits,
    // undamped sweeps hand over as soon as a sweep no longer halves the distance (limited CCD
    // converges slowly); without limits, and when damped, only when sweeps (nearly) stall.
    let hand_over = if step.0.is_some() || !limited { DAMPED_STALL } else { SLOW_PROGRESS };
    let mut stalled = false;
    while iterations < settings.max_iterations {
        iterations += 1;
        let q =
            if limited { sweep_limited(joints, target, limits, root_dir, step) } else { sweep(joints, target, step) };
        let tip = rebuild(joints, q);
        let previous = distance - floor;
        distance = tip.distance(target);
        if distance <= tol {
            break;
        }
        // Without limits CCD keeps its own character (distal bones curl first) for most solves; sweeps that
        // still have not arrived after half the budget hand over too, so slow cases still reach.
        if tip == last_tip
            || distance - floor > hand_over * previous
            || iterations >= (settings.max_iterations / 2).max(MIN_PURE_SWEEPS)
        {
            stalled = true;
            break;
        }
        last_tip = tip;
    }
    // A chain already at the floor (straight toward a target out of reach, or folded toward one
    // too close) cannot do better: the refinement would only spend the budget on restarts.
    let optimal = distance - floor <= at_floor;
    if stalled && !optimal && iterations < settings.max_iterations {
        let budget = settings.max_iterations - iterations;
        // The refinement too stops as near as any pose gets: its restarts could not do better.
        let good_enough = tol.max(floor + at_floor);
        let (used, d) = Refiner::new(None, limits, root_dir, settings.max_angle_step).run(
            joints,
            target,
            good_enough,
            budget,
            distance,
        );
        iterations += used;
        distance = d;
    }
    SolveReport::new(iterations, distance, tol)
}

/// Undamped sweeps continue while each one shrinks the distance to at most this fraction of
/// the previous one; then the refinement ([`Refiner`]) takes over.
const SLOW_PROGRESS: f32 = 0.5;
/// The same for damped or unlimited sweeps.
const DAMPED_STALL: f32 = 0.99;
/// Without limits or when damped, sweeps also hand over after half the budget, but never before
/// this many: a small budget is plain CCD.
const MIN_PURE_SWEEPS: u32 = 8;

/// One unlimited tip-to-root sweep. Leaves slot `i + 1` holding bone `i`'s pre-rotated
/// segment and returns the total rotation (see the module docs); [`rebuild`] finishes it.
fn sweep(joints: &mut [Vec2], target: Vec2, step: Step) -> Vec2 {
    let mut iter = joints.iter_mut().rev();
    let Some(mut upper) = iter.next() else {
        return Vec2::X;
    };
    let mut tip = *upper;
    // Rotation of everything distal to the current bone, accumulated this sweep.
    let mut q = Vec2::X;
    for pivot_slot in iter {
        let pivot = *pivot_slot;
        let segment = *upper - pivot;
        let arm = tip - pivot;
        let rot = step.cap(rotation_between(arm, target - pivot));
        tip = pivot + rot.rotate(arm);
        *upper = conj(q).rotate(segment);
        q = mul_unit(rot, q);
        upper = pivot_slot;
    }
    q
}

/// Unit direction of the last non-zero segment ending at or before joint `i` (original
/// positions), else `root_dir`.
fn parent_direction(joints: &[Vec2], i: usize, root_dir: Vec2) -> Vec2 {
    joints[..=i]
        .windows(2)
        .rev()
        .map(|w| w[1] - w[0])
        .find(|s| s.length_squared() > TINY_SQ)
        .map_or(root_dir, Vec2::normalize)
}

/// One limited tip-to-root sweep (same contract as [`sweep`]). Each bone's rotation is capped,
/// then clamped so that its angle relative to its parent stays inside its limit; zero-length
/// bones are skipped (they share their pivot with the next bone).
fn sweep_limited(joints: &mut [Vec2], target: Vec2, limits: &ChainLimits, root_dir: Vec2, step: Step) -> Vec2 {
    let n = joints.len() - 1;
    let mut tip = joints[n];
    let mut q = Vec2::X;
    for i in (0..n).rev() {
        let pivot = joints[i];
        let segment = joints[i + 1] - pivot;
        let mut rot = Vec2::X;
        if segment.length_squared() > TINY_SQ {
            let arm = tip - pivot;
            rot = step.cap(rotation_between(arm, target - pivot));
            if let Some(limit) = limits.get(i) {
                let parent = parent_direction(joints, i, root_dir);
                let current = signed_angle(parent, segment);
                let wanted = current + rot.y.atan2(rot.x);
                if !limit.contains(wanted, 0.0) {
                    rot = Vec2::from_angle(limit.clamp(wanted) - current);
                }
            }
            tip = pivot + rot.rotate(arm);
        }
        joints[i + 1] = conj(q).rotate(segment);
        q = mul_unit(rot, q);
    }
    q
}

/// Finishes a sweep: slot `i + 1` becomes `joints[i] + q * slot[i + 1]`, root to tip.
/// Returns the tip.
fn rebuild(joints: &mut [Vec2], q: Vec2) -> Vec2 {
    let Some((&mut root, rest)) = joints.split_first_mut() else {
        return Vec2::ZERO;
    };
    let mut prev = root;
    for slot in rest {
        let p = prev + q.rotate(*slot);
        *slot = p;
        prev = p;
    }
    prev
}

/// Root-to-tip pass that rotates sub-chains so that every bone lies inside its limit.
fn enforce_limits(joints: &mut [Vec2], limits: &ChainLimits, root_dir: Vec2) {
    let Some((&mut root, rest)) = joints.split_first_mut() else {
        return;
    };
    let mut cum = Vec2::X;
    let mut parent = root_dir;
    let mut prev_orig = root;
    let mut prev_new = root;
    for (i, slot) in rest.iter_mut().enumerate() {
        let mut s = cum.rotate(*slot - prev_orig);
        prev_orig = *slot;
        if s.length_squared() > TINY_SQ {
            if let Some(limit) = limits.get(i) {
                let a = signed_angle(parent, s);
                if !limit.contains(a, 0.0) {
                    let corr = Vec2::from_angle(limit.clamp(a) - a);
                    s = corr.rotate(s);
                    cum = mul_unit(corr, cum);
                }
            }
            parent = unit_or(s, parent);
        }
        let p = prev_new + s;
        *slot = p;
        prev_new = p;
    }
}

#[cfg(test)]
mod tests;
