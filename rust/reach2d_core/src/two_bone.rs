//! Closed-form two-bone solve (law of cosines).

use glam::Vec2;

use crate::error::SolveError;
use crate::geom::unit_or;
use crate::solver::SolveReport;
use crate::validate;

/// Result of [`solve_two_bone`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoBoneSolution {
    /// The middle joint (end of the upper bone), caller units.
    pub joint: Vec2,
    /// The tip (end of the lower bone), caller units.
    pub tip: Vec2,
    /// `iterations` is always 1 (one closed-form evaluation); `distance` is `|tip - target|`.
    pub report: SolveReport,
}

/// Two-bone analytic solve.
///
/// Places the middle joint so that `|joint - root| = upper_length`,
/// `|tip - joint| = lower_length` and the tip is as close to `target` as the lengths allow
/// (exact to `f32` precision when reachable). `bend_sign > 0` puts the middle joint where
/// `cross(target - root, joint - root) > 0`, `< 0` the other side (`0` and NaN are treated as
/// `+1`).
///
/// * Out of reach (`|target - root| >= upper + lower`): straight toward the target.
/// * Closer than `|upper - lower|`: folded back, tip on the line toward the target at distance
///   `|upper - lower|` from the root (the closest reachable point).
/// * Target exactly at the root: folded along +X (deterministic, no NaN).
///
/// `tolerance` (caller units, finite, `>= 0`) only decides `report.reached`. Never panics.
///
/// # Errors
/// [`SolveError::NonFiniteJoint`] `{ index: 0 }` for a bad root, [`SolveError::NonFiniteTarget`],
/// [`SolveError::InvalidLength`] (`index` 0 = upper, 1 = lower) and
/// [`SolveError::InvalidSettings`] for a bad tolerance.
pub fn solve_two_bone(
    root: Vec2,
    upper_length: f32,
    lower_length: f32,
    target: Vec2,
    bend_sign: f32,
    tolerance: f32,
) -> Result<TwoBoneSolution, SolveError> {
    if !validate::coord_ok(root) {
        return Err(SolveError::NonFiniteJoint { index: 0 });
    }
    if !validate::coord_ok(target) {
        return Err(SolveError::NonFiniteTarget);
    }
    for (index, l) in [upper_length, lower_length].into_iter().enumerate() {
        if !validate::length_ok(l) {
            return Err(SolveError::InvalidLength { index });
        }
    }
    if !validate::tolerance_ok(tolerance) {
        return Err(SolveError::InvalidSettings);
    }
    let (l1, l2) = (upper_length, lower_length);
    let to_target = target - root;
    let d = to_target.length();
    let dir = unit_or(to_target, Vec2::X);
    let (joint, tip) = if d >= l1 + l2 {
        let joint = root + dir * l1;
        (joint, joint + dir * l2)
    } else if d <= (l1 - l2).abs() {
        if l1 >= l2 {
            let joint = root + dir * l1;
            (joint, joint - dir * l2)
        } else {
            let joint = root - dir * l1;
            (joint, joint + dir * l2)
        }
    } else {
        // Here l1 > 0, l2 > 0 and d > 0. Projection of the joint on the root-target line:
        let along = (d * d + (l1 - l2) * (l1 + l2)) / (2.0 * d);
        let across = (l1 * l1 - along * along).max(0.0).sqrt();
        let side = if bend_sign < 0.0 { -1.0 } else { 1.0 };
        let joint = root + dir * along + dir.perp() * (across * side);
        (joint, joint + unit_or(target - joint, dir) * l2)
    };
    let distance = tip.distance(target);
    Ok(TwoBoneSolution { joint, tip, report: SolveReport::new(1, distance, tolerance) })
}

/// Softened reach: the distance to aim a limb of total length `reach` at, so that it straightens
/// smoothly instead of snapping straight as the target crosses its reach (Spine's IK softness).
///
/// `distance` is the root-to-target distance and `softness` the width of the easing band (same
/// units, `>= 0`). Below `reach - softness` the distance is returned unchanged; from there to
/// `reach + softness` it eases quadratically into `reach`; beyond, it is `reach` (still straight
/// toward the target). Continuous with a continuous first derivative. `softness <= 0` or a
/// non-finite input returns `distance` unchanged; a softness beyond `reach` acts as `reach` (the
/// result never goes below 0). Never panics.
///
/// ```
/// use reach2d_core::soften_reach;
/// assert_eq!(soften_reach(50.0, 100.0, 10.0), 50.0); // well inside: unchanged
/// assert_eq!(soften_reach(90.0, 100.0, 10.0), 90.0); // the band starts at reach - softness
/// assert!(soften_reach(100.0, 100.0, 10.0) < 100.0); // at full reach the limb is still bent
/// assert_eq!(soften_reach(130.0, 100.0, 10.0), 100.0); // beyond the band: straight
/// ```
#[must_use]
pub fn soften_reach(distance: f32, reach: f32, softness: f32) -> f32 {
    if !(softness > 0.0 && distance.is_finite() && reach.is_finite() && softness.is_finite()) {
        return distance;
    }
    // Softer than the whole reach would ease past the root (1e30 gave a target 2.5e29 behind it).
    let softness = softness.min(reach.max(0.0));
    if softness <= 0.0 {
        return distance;
    }
    let over = distance - (reach - softness);
    if over <= 0.0 {
        return distance;
    }
    // p runs from -1 at the start of the band to 0 at its end: reach - softness * p².
    let p = (over / (2.0 * softness)).min(1.0) - 1.0;
    reach - softness * p * p
}

#[cfg(test)]
mod tests;
