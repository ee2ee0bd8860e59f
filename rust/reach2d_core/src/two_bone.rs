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
mod tests {
    use super::soften_reach;
    use crate::common::assert_approx_eq;
    use crate::*;
    use glam::Vec2;

    #[test]
    fn soften_reach_is_continuous_monotonic_and_ends_straight() {
        let (reach, softness) = (100.0, 12.0);
        let mut last = 0.0;
        for i in 0..=1600 {
            let d = i as f32 * 0.1;
            let s = soften_reach(d, reach, softness);
            assert!(s >= last - 1e-4, "monotonic at {d}: {s} < {last}");
            assert!(s <= reach + 1e-4 && s <= d + 1e-4, "never beyond reach nor the target at {d}: {s}");
            if d > 0.0 {
                assert!((s - last).abs() <= 0.1 + 1e-3, "continuous at {d}");
            }
            last = s;
        }
        assert_eq!(soften_reach(reach - softness, reach, softness), reach - softness);
        assert!((soften_reach(reach, reach, softness) - (reach - softness / 4.0)).abs() < 1e-4);
        assert_eq!(soften_reach(reach + softness, reach, softness), reach);
        assert_eq!(soften_reach(70.0, reach, 0.0), 70.0);
        assert!(soften_reach(f32::NAN, reach, softness).is_nan());
        // A softness beyond the reach (a script's 1e30) acts as the reach: never below 0, never past the reach.
        for d in [0.0, 50.0, 100.0, 150.0] {
            let s = soften_reach(d, reach, 1e30);
            assert!((0.0..=reach).contains(&s) && s <= d + 1e-4, "softness 1e30 at {d}: {s}");
        }
    }

    #[test]
    fn two_bone_law_of_cosines() {
        let root = Vec2::new(1.0, 2.0);
        let target = root + Vec2::new(5.0, 0.0);
        let up = solve_two_bone(root, 3.0, 4.0, target, 1.0, 1e-4).unwrap();
        assert!(up.report.reached);
        assert_eq!(up.report.iterations, 1);
        assert_approx_eq!(up.joint, root + Vec2::new(1.8, 2.4), 1e-5);
        assert_approx_eq!(up.tip, target, 1e-5);
        assert!((target - root).perp_dot(up.joint - root) > 0.0);
        let down = solve_two_bone(root, 3.0, 4.0, target, -2.0, 1e-4).unwrap();
        assert_approx_eq!(down.joint, root + Vec2::new(1.8, -2.4), 1e-5);
        let zero = solve_two_bone(root, 3.0, 4.0, target, 0.0, 1e-4).unwrap();
        assert_eq!(zero.joint, up.joint);
    }

    #[test]
    fn two_bone_out_of_reach_and_too_close() {
        let far = solve_two_bone(Vec2::ZERO, 3.0, 4.0, Vec2::new(0.0, 10.0), 1.0, 0.1).unwrap();
        assert_approx_eq!(far.joint, Vec2::new(0.0, 3.0));
        assert_approx_eq!(far.tip, Vec2::new(0.0, 7.0));
        assert!(!far.report.reached);
        assert_approx_eq!(far.report.distance, 3.0);
        // |l1 - l2| = 1 > 0.5: folded, tip at distance 1 toward the target.
        let near = solve_two_bone(Vec2::ZERO, 3.0, 4.0, Vec2::new(0.5, 0.0), 1.0, 0.1).unwrap();
        assert_approx_eq!(near.tip, Vec2::new(1.0, 0.0));
        assert_approx_eq!(near.joint, Vec2::new(-3.0, 0.0));
        let near2 = solve_two_bone(Vec2::ZERO, 4.0, 3.0, Vec2::new(0.5, 0.0), 1.0, 0.1).unwrap();
        assert_approx_eq!(near2.joint, Vec2::new(4.0, 0.0));
        assert_approx_eq!(near2.tip, Vec2::new(1.0, 0.0));
    }

    #[test]
    fn two_bone_target_at_root_and_bad_input() {
        let r = solve_two_bone(Vec2::ONE, 2.0, 2.0, Vec2::ONE, 1.0, 0.1).unwrap();
        assert_approx_eq!(r.joint, Vec2::new(3.0, 1.0));
        assert_approx_eq!(r.tip, Vec2::ONE);
        assert!(r.report.reached);
        let z = solve_two_bone(Vec2::ZERO, 0.0, 0.0, Vec2::ONE, 1.0, 0.1).unwrap();
        assert!(z.joint.is_finite() && z.tip.is_finite());
        assert_eq!(
            solve_two_bone(Vec2::NAN, 1.0, 1.0, Vec2::ONE, 1.0, 0.1),
            Err(SolveError::NonFiniteJoint { index: 0 })
        );
        assert_eq!(
            solve_two_bone(Vec2::ZERO, 1.0, -1.0, Vec2::ONE, 1.0, 0.1),
            Err(SolveError::InvalidLength { index: 1 })
        );
        assert_eq!(solve_two_bone(Vec2::ZERO, 1.0, 1.0, Vec2::INFINITY, 1.0, 0.1), Err(SolveError::NonFiniteTarget));
        let big = solve_two_bone(Vec2::splat(1e6), 300.0, 200.0, Vec2::splat(1e6) + 250.0, -1.0, 0.5).unwrap();
        assert!(big.report.reached, "{:?}", big.report);
    }
}
