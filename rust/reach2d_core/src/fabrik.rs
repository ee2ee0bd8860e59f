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
    // is spent, the refinement takes the rest. Near float precision a slow pass is just
    // convergence, not a stall, and FABRIK goes on.
    let stuck = STALLED_AT * total;
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
        if tip == last_tip || distance > STALL * previous || iterations >= (settings.max_iterations / 2).max(8) {
            stalled = distance > stuck;
            if stalled || tip == last_tip {
                break;
            }
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
/// away (closer than that, a slow pass is convergence at float precision).
const STALLED_AT: f32 = 1e-3;

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
mod tests {
    use crate::common::{assert_approx_eq, assert_lengths, assert_limits, straight};
    use crate::*;
    use core::f32::consts::FRAC_PI_2;
    use glam::Vec2;

    #[test]
    fn fabrik_reaches_reachable_target() {
        let (mut j, l) = straight(3, 10.0);
        let target = Vec2::new(5.0, 12.0);
        let s = FabrikSettings { max_iterations: 64, tolerance: 1e-3 };
        let r = solve_fabrik(&mut j, &l, target, &ChainLimits::NONE, &s).unwrap();
        assert!(r.reached, "{r:?}");
        assert!(r.iterations >= 1 && r.iterations <= 64);
        assert_approx_eq!(r.distance, j[3].distance(target));
        assert_eq!(j[0], Vec2::ZERO);
        assert_lengths(&j, &l, 0.0, 1e-4);
    }

    #[test]
    fn fabrik_zero_iterations_when_already_there() {
        let (mut j, l) = straight(3, 10.0);
        let r = solve_fabrik(&mut j, &l, Vec2::new(30.2, 0.0), &ChainLimits::NONE, &FabrikSettings::default()).unwrap();
        assert_eq!(r.iterations, 0);
        assert!(r.reached);
        assert_approx_eq!(r.distance, 0.2, 1e-5);
    }

    #[test]
    fn fabrik_early_exit_counts_iterations() {
        let (mut j, l) = straight(4, 10.0);
        let target = Vec2::new(10.0, 20.0);
        let loose = FabrikSettings { max_iterations: 100, tolerance: 1.0 };
        let r_loose = solve_fabrik(&mut j.clone(), &l, target, &ChainLimits::NONE, &loose).unwrap();
        let tight = FabrikSettings { max_iterations: 100, tolerance: 1e-4 };
        let r_tight = solve_fabrik(&mut j, &l, target, &ChainLimits::NONE, &tight).unwrap();
        assert!(r_loose.reached && r_tight.reached);
        assert!(r_loose.iterations < r_tight.iterations, "{r_loose:?} {r_tight:?}");
        assert!(r_tight.iterations < 100);
    }

    #[test]
    fn fabrik_unreachable_is_straight_in_one_pass() {
        let mut j = vec![Vec2::new(1.0, 1.0), Vec2::new(1.0, 5.0), Vec2::new(-3.0, 5.0)];
        let l = [4.0, 4.0];
        let target = Vec2::new(101.0, 1.0);
        let r = solve_fabrik(&mut j, &l, target, &ChainLimits::NONE, &FabrikSettings::default()).unwrap();
        assert_eq!(r.iterations, 1);
        assert!(!r.reached);
        assert_eq!(j[0], Vec2::new(1.0, 1.0));
        assert_approx_eq!(j[1], Vec2::new(5.0, 1.0));
        assert_approx_eq!(j[2], Vec2::new(9.0, 1.0));
        assert_approx_eq!(r.distance, 92.0, 1e-4);
    }

    #[test]
    fn fabrik_uses_lengths_not_incoming_spacing() {
        let mut j = vec![Vec2::ZERO, Vec2::new(3.0, 0.0), Vec2::new(3.0, 7.0)];
        let l = [10.0, 5.0];
        let r = solve_fabrik(
            &mut j,
            &l,
            Vec2::new(8.0, 6.0),
            &ChainLimits::NONE,
            &FabrikSettings { max_iterations: 50, tolerance: 1e-3 },
        )
        .unwrap();
        assert!(r.reached);
        assert_lengths(&j, &l, 0.0, 1e-4);
    }

    #[test]
    fn fabrik_degenerate_chains_stay_finite() {
        let cases: Vec<(Vec<Vec2>, Vec<f32>, Vec2)> = vec![
            // all joints coincident
            (vec![Vec2::ZERO; 4], vec![1.0, 2.0, 3.0], Vec2::new(2.0, 2.0)),
            // coincident joints, target at the root
            (vec![Vec2::ZERO; 4], vec![1.0, 2.0, 3.0], Vec2::ZERO),
            // zero-length bones
            (vec![Vec2::ZERO, Vec2::X, Vec2::X, Vec2::new(2.0, 0.0)], vec![1.0, 0.0, 1.0], Vec2::new(0.5, 1.0)),
            // all lengths zero
            (vec![Vec2::ZERO, Vec2::X, Vec2::Y], vec![0.0, 0.0], Vec2::new(3.0, 3.0)),
            // target exactly at the tip
            (vec![Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)], vec![1.0, 1.0], Vec2::new(2.0, 0.0)),
            // large coordinates
            (
                vec![Vec2::splat(1e6), Vec2::splat(1e6) + Vec2::X * 100.0, Vec2::splat(1e6) + Vec2::X * 200.0],
                vec![100.0, 100.0],
                Vec2::splat(1e6) + Vec2::new(50.0, 120.0),
            ),
        ];
        for (mut j, l, t) in cases {
            let r = solve_fabrik(&mut j, &l, t, &ChainLimits::NONE, &FabrikSettings::default()).unwrap();
            assert!(j.iter().all(|p| p.is_finite()), "{j:?}");
            assert!(r.distance.is_finite());
            let scale = j[0].abs().max_element().max(1.0);
            assert_lengths(&j, &l, 0.0, 1e-4 * 100.0 + 1e-6 * scale);
        }
    }

    #[test]
    fn fabrik_coincident_joints_fallback_is_deterministic() {
        let l = [1.0, 1.0];
        let target = Vec2::new(0.0, 5.0);
        let mut a = vec![Vec2::ZERO; 3];
        let mut b = vec![Vec2::ZERO; 3];
        let s = FabrikSettings::default();
        solve_fabrik(&mut a, &l, target, &ChainLimits::NONE, &s).unwrap();
        solve_fabrik(&mut b, &l, target, &ChainLimits::NONE, &s).unwrap();
        assert_eq!(a, b);
        // Unreachable: straight toward the target.
        assert_approx_eq!(a[2], Vec2::new(0.0, 2.0));
    }

    #[test]
    fn fabrik_rejects_bad_input_without_writing() {
        let (j0, l) = straight(3, 1.0);
        let s = FabrikSettings::default();
        let n = ChainLimits::NONE;
        let mut j = j0.clone();
        assert_eq!(solve_fabrik(&mut j, &l, Vec2::new(f32::NAN, 0.0), &n, &s), Err(SolveError::NonFiniteTarget));
        assert_eq!(solve_fabrik(&mut j, &l, Vec2::new(f32::INFINITY, 0.0), &n, &s), Err(SolveError::NonFiniteTarget));
        let mut bad = j0.clone();
        bad[2].y = f32::NAN;
        assert_eq!(solve_fabrik(&mut bad, &l, Vec2::ONE, &n, &s), Err(SolveError::NonFiniteJoint { index: 2 }));
        assert!(bad[2].y.is_nan() && bad[0] == j0[0] && bad[3] == j0[3]);
        assert_eq!(
            solve_fabrik(&mut j, &[1.0, -1.0, 1.0], Vec2::ONE, &n, &s),
            Err(SolveError::InvalidLength { index: 1 })
        );
        assert_eq!(
            solve_fabrik(&mut j, &[1.0, 1.0, f32::NAN], Vec2::ONE, &n, &s),
            Err(SolveError::InvalidLength { index: 2 })
        );
        assert_eq!(
            solve_fabrik(&mut j, &[1.0, 1.0], Vec2::ONE, &n, &s),
            Err(SolveError::LengthMismatch { joints: 4, lengths: 2 })
        );
        assert_eq!(solve_fabrik(&mut [], &[], Vec2::ONE, &n, &s), Err(SolveError::EmptyChain));
        assert_eq!(solve_fabrik(&mut [Vec2::ZERO], &[], Vec2::ONE, &n, &s), Err(SolveError::EmptyChain));
        let bad_settings = FabrikSettings { max_iterations: 5, tolerance: f32::NAN };
        assert_eq!(solve_fabrik(&mut j, &l, Vec2::ONE, &n, &bad_settings), Err(SolveError::InvalidSettings));
        let per_bone = [None, Some(AngleLimit { min: 1.0, max: 0.0 }), None];
        let lim = ChainLimits { root_direction: Vec2::X, per_bone: &per_bone };
        assert_eq!(solve_fabrik(&mut j, &l, Vec2::ONE, &lim, &s), Err(SolveError::InvalidLimit { index: 1 }));
        let per_bone = [None, None];
        let lim = ChainLimits { root_direction: Vec2::X, per_bone: &per_bone };
        assert_eq!(
            solve_fabrik(&mut j, &l, Vec2::ONE, &lim, &s),
            Err(SolveError::LimitsMismatch { bones: 3, limits: 2 })
        );
        let per_bone = [AngleLimit::new(-1.0, 1.0), None, None];
        let lim = ChainLimits { root_direction: Vec2::ZERO, per_bone: &per_bone };
        assert_eq!(solve_fabrik(&mut j, &l, Vec2::ONE, &lim, &s), Err(SolveError::InvalidDirection));
        assert_eq!(solve_fabrik(&mut j, &l, Vec2::splat(1e30), &n, &s), Err(SolveError::NonFiniteTarget));
        assert_eq!(j, j0, "buffers must be unchanged on error");
    }

    #[test]
    fn fabrik_limits_hold_exactly() {
        let per_bone = [AngleLimit::new(-0.3, 0.3), AngleLimit::new(0.0, 0.5), AngleLimit::new(-0.2, 0.2), None];
        let lim = ChainLimits { root_direction: Vec2::new(0.0, 2.0), per_bone: &per_bone };
        for target in
            [Vec2::new(-30.0, 5.0), Vec2::new(30.0, -30.0), Vec2::new(0.0, 100.0), Vec2::new(5.0, 30.0), Vec2::ZERO]
        {
            let (mut j, l) = straight(4, 10.0);
            let r = solve_fabrik(&mut j, &l, target, &lim, &FabrikSettings { max_iterations: 30, tolerance: 0.01 })
                .unwrap();
            assert!(j.iter().all(|p| p.is_finite()));
            assert_lengths(&j, &l, 0.0, 1e-4);
            assert_limits(&j, &lim, 0.0);
            assert!(r.iterations <= 30);
        }
    }

    #[test]
    fn fabrik_limits_still_reach_when_possible() {
        // Root bone may swing ±90° around +Y, others ±60°: (5, 30) is reachable.
        let per_bone = [
            AngleLimit::new(-FRAC_PI_2, FRAC_PI_2),
            AngleLimit::new(-1.0, 1.0),
            AngleLimit::new(-1.0, 1.0),
            AngleLimit::new(-1.0, 1.0),
        ];
        let lim = ChainLimits { root_direction: Vec2::Y, per_bone: &per_bone };
        let (mut j, l) = straight(4, 10.0);
        let r = solve_fabrik(
            &mut j,
            &l,
            Vec2::new(5.0, 30.0),
            &lim,
            &FabrikSettings { max_iterations: 64, tolerance: 0.01 },
        )
        .unwrap();
        assert!(r.reached, "{r:?}");
        assert_limits(&j, &lim, 0.0);
    }

    #[test]
    fn fabrik_unreachable_with_limits_is_one_pass() {
        let per_bone = [AngleLimit::new(-0.1, 0.1), AngleLimit::new(-0.1, 0.1)];
        let lim = ChainLimits { root_direction: Vec2::X, per_bone: &per_bone };
        let (mut j, l) = straight(2, 1.0);
        let r = solve_fabrik(&mut j, &l, Vec2::new(0.0, 50.0), &lim, &FabrikSettings::default()).unwrap();
        assert_eq!(r.iterations, 1);
        assert_limits(&j, &lim, 0.0);
        // Root bone pinned at its +0.1 edge, the second one bent another +0.1.
        assert_approx_eq!(signed_angle(Vec2::X, j[1] - j[0]), 0.1);
        assert_approx_eq!(signed_angle(Vec2::X, j[2] - j[1]), 0.2);
    }

    #[test]
    fn fabrik_limit_skips_zero_length_parent() {
        let per_bone = [None, None, AngleLimit::new(-0.1, 0.1)];
        let lim = ChainLimits { root_direction: Vec2::X, per_bone: &per_bone };
        let mut j = vec![Vec2::ZERO, Vec2::X, Vec2::X, Vec2::new(1.0, 1.0)];
        let l = [1.0, 0.0, 1.0];
        solve_fabrik(&mut j, &l, Vec2::new(-5.0, 5.0), &lim, &FabrikSettings::default()).unwrap();
        let a = signed_angle(j[1] - j[0], j[3] - j[2]);
        assert!(a.abs() <= 0.1 + 1e-5, "{a}");
    }

    #[test]
    fn fabrik_max_iterations_zero_only_conforms() {
        let mut j = vec![Vec2::ZERO, Vec2::new(2.0, 0.0)];
        let r = solve_fabrik(
            &mut j,
            &[1.0],
            Vec2::new(0.0, 0.5),
            &ChainLimits::NONE,
            &FabrikSettings { max_iterations: 0, tolerance: 0.0 },
        )
        .unwrap();
        assert_eq!(r.iterations, 0);
        assert_approx_eq!(j[1], Vec2::X);
    }
}
