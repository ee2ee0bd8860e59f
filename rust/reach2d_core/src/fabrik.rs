//! FABRIK: forward and backward reaching inverse kinematics.

use glam::Vec2;

use crate::angle::{AngleLimit, ChainLimits};
use crate::error::SolveError;
use crate::geom::{TINY_SQ, conform_lengths, direction_or, respace, unit_or};
use crate::refine::Refiner;
use crate::solver::{ChainSolver, FabrikSettings, SolveReport};
use crate::validate;

/// Moves the chain toward `target` with FABRIK; returns what it did.
///
/// `joints` holds the `N + 1` joint positions (bone origins then the tip) and is rewritten in
/// place; `lengths` holds the `N` bone lengths (caller units, `>= 0`, zeros allowed). The root
/// `joints[0]` never moves, and the output joints are `lengths` apart (to `f32` rounding):
/// the incoming spacing is only used for directions.
///
/// * Already within `settings.tolerance` (after re-spacing to `lengths` and applying limits):
///   `iterations == 0`.
/// * Unreachable (`sum(lengths) <= |target - root|`): the straight chain toward the target in
///   one pass, `iterations == 1` (with limits: straightened, then limited root to tip).
/// * Too close, without limits (`|target - root|` at most the longest bone less the others) and
///   with a budget: folded in one pass, `iterations == 1`: the longest bone toward the target
///   and the others back along it, which puts the tip as near as the chain can.
/// * Otherwise up to `settings.max_iterations` backward+forward passes, stopping early as soon
///   as the tip is within tolerance; `iterations` is the number of passes used.
///
/// With `limits`, each bone's angle relative to its parent segment (root bone: relative to
/// `limits.root_direction`) is clamped in both passes, and the final root-to-tip pass makes the
/// limits hold exactly in the output. Passes continue while each one at least halves the
/// distance; the rest of the budget goes to the limit-aware damped least-squares refinement
/// (see the crate docs), which never increases the distance and also keeps the limits exact;
/// `iterations` counts passes plus refinement iterations. Coincident joints and zero-length bones take a
/// deterministic direction: the previous non-zero segment's, else toward the target, else +X.
/// Never allocates, never panics, never writes NaN.
///
/// # Errors
/// [`SolveError::EmptyChain`], [`SolveError::LengthMismatch`], [`SolveError::LimitsMismatch`],
/// [`SolveError::NonFiniteTarget`], [`SolveError::NonFiniteJoint`],
/// [`SolveError::InvalidLength`], [`SolveError::InvalidLimit`],
/// [`SolveError::InvalidDirection`] (zero root direction with limits set) and
/// [`SolveError::InvalidSettings`]. On error the buffers are unchanged.
pub fn solve_fabrik(
    joints: &mut [Vec2],
    lengths: &[f32],
    target: Vec2,
    limits: &ChainLimits,
    settings: &FabrikSettings,
) -> Result<SolveReport, SolveError> {
    validate::chain(joints, lengths, target, limits)?;
    validate::fabrik_settings(settings)?;
    let tol = settings.tolerance;
    let n = lengths.len();
    let root = joints[0];
    let total: f32 = lengths.iter().sum();
    let to_target = target - root;
    let limited = limits.is_active();
    let root_dir = direction_or(limits.root_direction, Vec2::X);

    // Conform to lengths (and limits) first, so that even a zero-iteration answer is exact.
    let tip = if limited {
        forward_limited(joints, lengths, target, limits, root, root_dir)
    } else {
        conform_lengths(joints, lengths, target)
    };
    let distance = tip.distance(target);
    if distance <= tol {
        return Ok(SolveReport::new(0, distance, tol));
    }

    if total <= to_target.length() {
        // Unreachable: straight toward the target.
        let dir = unit_or(to_target, Vec2::X);
        let mut acc = 0.0;
        for (j, &len) in joints[1..].iter_mut().zip(lengths) {
            acc += len;
            *j = root + dir * acc;
        }
        let tip = if limited { forward_limited(joints, lengths, target, limits, root, root_dir) } else { joints[n] };
        return Ok(SolveReport::new(1, tip.distance(target), tol));
    }

    let longest = lengths.iter().copied().fold(0.0, f32::max);
    let inner_reach = 2.0 * longest - total;
    if !limited && to_target.length() <= inner_reach && settings.max_iterations > 0 {
        // Too close: inside the ring the chain reaches. The nearest pose is the one fold whose tip lies on the ring's
        // inner edge toward the target: the longest bone toward it, the others back along it. FABRIK's passes and
        // the refinement only creep toward it, rounding deciding where they stop.
        let longest_bone = lengths.iter().position(|&length| length == longest).unwrap_or(0);
        // A target on the root itself: the long bone keeps its direction.
        let along = joints[longest_bone + 1] - joints[longest_bone];
        let dir = unit_or(to_target, unit_or(along, Vec2::X));
        let mut end = root;
        for (i, (j, &len)) in joints[1..].iter_mut().zip(lengths).enumerate() {
            end += dir * if i == longest_bone { len } else { -len };
            *j = end;
        }
        return Ok(SolveReport::new(1, joints[n].distance(target), tol));
    }
    let toward_root = unit_or(-to_target, -Vec2::X);
    let toward_target = -toward_root;
    let mut distance = distance;
    let mut iterations = 0;
    let mut last_tip = tip;
    let refine_settings =
        RefineSettings { lengths, target, limits, root_dir, tolerance: tol, max_iterations: settings.max_iterations };
    if limited {
        // Limited FABRIK passes while they make progress, then the limit-aware refinement.
        while iterations < settings.max_iterations {
            iterations += 1;
            backward_limited(joints, lengths, target, limits, root_dir, toward_root);
            let tip = forward_limited(joints, lengths, target, limits, root, root_dir);
            let previous = distance;
            distance = tip.distance(target);
            if distance <= tol || tip == last_tip || distance > LIMITED_PROGRESS * previous {
                break;
            }
            last_tip = tip;
        }
        if distance > tol && iterations < settings.max_iterations {
            (iterations, distance) = refine(joints, &refine_settings, iterations, distance);
        }
        return Ok(SolveReport::new(iterations, distance, tol));
    }
    // FABRIK can stall far from a reachable target (a chain folded back on itself, the inner edge
    // of the reachable annulus): when a pass barely helps, or half the budget (at least 8 passes)
    // is spent, far from the target, the refinement takes the rest. Near the target a slow pass
    // is convergence and FABRIK goes on, unless a pass moved nothing, or half the budget is spent
    // and the rest leaves the refinement room: then it hands over too, short of float precision.
    let stuck = STALLED_AT * total;
    let precision = PRECISION_AT * (total + root.abs().max_element());
    let half_budget = (settings.max_iterations / 2).max(8);
    let mut stalled = false;
    while iterations < settings.max_iterations {
        iterations += 1;
        backward(joints, lengths, target, toward_root);
        let tip = respace(joints, lengths, root, toward_target);
        let previous = distance;
        distance = tip.distance(target);
        if distance <= tol {
            break;
        }
        let fixed_point = tip == last_tip;
        let room = settings.max_iterations - iterations >= REFINE_ROOM;
        if fixed_point || (iterations >= half_budget && room) {
            stalled = distance > precision;
        } else if distance > STALL * previous || iterations >= half_budget {
            stalled = distance > stuck;
        }
        if stalled || fixed_point {
            break;
        }
        last_tip = tip;
    }
    if stalled && iterations < settings.max_iterations {
        (iterations, distance) = refine(joints, &refine_settings, iterations, distance);
    }
    Ok(SolveReport::new(iterations, distance, tol))
}

impl ChainSolver for FabrikSettings {
    fn solve(
        &self,
        joints: &mut [Vec2],
        lengths: &[f32],
        target: Vec2,
        limits: &ChainLimits,
    ) -> Result<SolveReport, SolveError> {
        solve_fabrik(joints, lengths, target, limits, self)
    }
}

/// What the refinement needs of the FABRIK solve that hands over to it: the chain, its target and limits, and the
/// stopping rule.
struct RefineSettings<'a, 'l> {
    lengths: &'a [f32],
    target: Vec2,
    limits: &'a ChainLimits<'l>,
    /// Unit root direction of the limits.
    root_dir: Vec2,
    tolerance: f32,
    max_iterations: u32,
}

/// Hands the rest of the budget (after `iterations` passes that left the tip at `distance`) to the refinement;
/// returns the iterations and distance after it.
///
/// Kept out of line (and cold) so that the passes' hot loop stays as tight as before it existed.
#[cold]
#[inline(never)]
fn refine(joints: &mut [Vec2], settings: &RefineSettings, iterations: u32, distance: f32) -> (u32, f32) {
    let budget = settings.max_iterations - iterations;
    let (used, d) = Refiner::new(Some(settings.lengths), settings.limits, settings.root_dir, f32::INFINITY).run(
        joints,
        settings.target,
        settings.tolerance,
        budget,
        distance,
    );
    (iterations + used, d)
}

/// With limits, FABRIK passes continue while each one shrinks the distance to at most this
/// fraction of the previous one; then the refinement ([`Refiner`]) takes over.
const LIMITED_PROGRESS: f32 = 0.5;
/// Without limits, a pass that leaves more than this fraction of the distance has stalled...
const STALL: f32 = 0.99;
/// ...and hands over to the refinement when the tip is still this fraction of the chain's length
/// away (closer than that, a slow pass is convergence).
const STALLED_AT: f32 = 1e-3;
/// A pass that moves nothing, or half the budget spent, hands over unless the tip is within this
/// fraction of the chain's extent (its length plus the root's largest coordinate), where `f32`
/// rounding alone can keep it. FABRIK near a fold converges linearly and slowly: two folded bones
/// of 36 px were seen still 0.058 px off after 256 passes, and at a fixed point 0.069 px off on
/// 75 px, both within the 1e-3 above.
const PRECISION_AT: f32 = 1e-5;
/// The refinement takes over near the target at half the budget only with this many iterations
/// left: given two (a budget of 10) it did worse than two more passes (the realistic benchmark's
/// worst tip 0.339 -> 0.434 px).
const REFINE_ROOM: u32 = 8;

/// Tip-to-root pass: pins the tip at `target` and pulls each joint toward its old position at
/// its bone's length. `fallback` is the root-ward direction used when no previous segment has
/// one.
#[inline]
fn backward(joints: &mut [Vec2], lengths: &[f32], target: Vec2, fallback: Vec2) {
    let Some((tip, rest)) = joints.split_last_mut() else {
        return;
    };
    *tip = target;
    let mut next = target;
    let mut last = fallback;
    for (j, &len) in rest.iter_mut().rev().zip(lengths.iter().rev()) {
        let delta = *j - next;
        let d2 = delta.length_squared();
        let placed = if d2 > TINY_SQ {
            if len > 0.0 {
                last = delta;
            }
            next + delta * (len / d2.sqrt())
        } else {
            next + last.normalize_or(fallback) * len
        };
        *j = placed;
        next = placed;
    }
}

/// Limited tip-to-root pass. Bone `i`'s direction is clamped so that its child's limit holds
/// (the inverse arc, measured from the child), and the root bone also to its own limit.
fn backward_limited(
    joints: &mut [Vec2],
    lengths: &[f32],
    target: Vec2,
    limits: &ChainLimits,
    root_dir: Vec2,
    fallback: Vec2,
) {
    let Some((tip, rest)) = joints.split_last_mut() else {
        return;
    };
    *tip = target;
    let mut next = target;
    // Root-to-tip unit direction of the nearest non-zero child bone, with that child's limit.
    let mut child: Option<(Vec2, AngleLimit)> = None;
    let mut last = -fallback; // root-to-tip orientation
    for (i, (j, &len)) in rest.iter_mut().zip(lengths).enumerate().rev() {
        let mut dir = unit_or(next - *j, last);
        if let Some((c, l)) = child {
            let inverse = AngleLimit { min: -l.max, max: -l.min };
            dir = inverse.clamp_direction(c, dir);
        }
        if i == 0
            && let Some(l) = limits.get(0)
        {
            dir = l.clamp_direction(root_dir, dir);
        }
        let placed = next - dir * len;
        *j = placed;
        next = placed;
        if len > 0.0 {
            last = dir;
            child = limits.get(i).map(|l| (dir, l));
        }
    }
}

/// Limited root-to-tip pass: like [`respace`], then each bone's direction is clamped into its
/// limit measured from the last non-zero segment before it (root bone: `root_dir`). The
/// parent direction is measured from the written positions, so the limits hold in the output.
/// Returns the tip.
pub(crate) fn forward_limited(
    joints: &mut [Vec2],
    lengths: &[f32],
    target: Vec2,
    limits: &ChainLimits,
    root: Vec2,
    root_dir: Vec2,
) -> Vec2 {
    let Some((first, rest)) = joints.split_first_mut() else {
        return root;
    };
    *first = root;
    let mut prev = root;
    let mut parent = root_dir;
    let mut last = unit_or(target - root, Vec2::X);
    for (i, (j, &len)) in rest.iter_mut().zip(lengths).enumerate() {
        let mut dir = unit_or(*j - prev, last);
        if let Some(l) = limits.get(i) {
            dir = l.clamp_direction(parent, dir);
        }
        let placed = prev + dir * len;
        *j = placed;
        // The segment actually placed, not `len`: a length too small to move the joint at this
        // magnitude (e.g. 1e-39 at 350) leaves a segment with no direction, which the limits skip.
        if (placed - prev).length_squared() > TINY_SQ {
            last = dir;
            parent = unit_or(placed - prev, dir);
        }
        prev = placed;
    }
    prev
}

#[cfg(test)]
mod tests;
