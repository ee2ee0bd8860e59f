//! Closed-form two-bone solve (law of cosines).

use glam::Vec2;

use crate::fabrik::unit_or;
use crate::{SolveError, SolveReport, validate};

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
