//! Unit tests for every documented behaviour.

use core::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

use glam::Vec2;

use crate::common::{assert_approx_eq, assert_lengths, assert_limits};
use crate::*;

fn straight(n: usize, len: f32) -> (Vec<Vec2>, Vec<f32>) {
    let joints = (0..=n).map(|i| Vec2::new(i as f32 * len, 0.0)).collect();
    (joints, vec![len; n])
}

// ---------------------------------------------------------------- AngleLimit

#[test]
fn angle_limit_new_validates() {
    assert!(AngleLimit::new(-1.0, 1.0).is_some());
    assert!(AngleLimit::new(1.0, 1.0).is_some());
    assert!(AngleLimit::new(0.0, TAU).is_some());
    assert!(AngleLimit::new(1.0, -1.0).is_none());
    assert!(AngleLimit::new(0.0, TAU + 0.01).is_none());
    assert!(AngleLimit::new(f32::NAN, 0.0).is_none());
    assert!(AngleLimit::new(0.0, f32::INFINITY).is_none());
}

#[test]
fn angle_limit_clamp_arc_semantics() {
    let l = AngleLimit::new(-0.5, 0.5).unwrap();
    assert_approx_eq!(l.clamp(0.2), 0.2);
    assert_approx_eq!(l.clamp(1.0), 0.5);
    assert_approx_eq!(l.clamp(-1.0), -0.5);
    // Just past PI wraps to the negative side: nearest edge is -0.5.
    assert_approx_eq!(l.clamp(PI + 0.1), -0.5);
    assert_approx_eq!(l.clamp(PI - 0.1), 0.5);
    // Other turns.
    assert_approx_eq!(l.clamp(TAU + 0.25), 0.25);
    assert!(l.contains(TAU + 0.25, 0.0));
    assert!(!l.contains(0.6, 0.0));
    assert!(l.contains(0.6, 0.2));
    assert!(!l.contains(f32::NAN, 1.0));
    // An arc around PI.
    let back = AngleLimit::new(PI - 0.5, PI + 0.5).unwrap();
    assert!(back.contains(-PI + 0.1, 0.0));
    assert_approx_eq!(back.clamp(0.1), PI - 0.5);
    assert_approx_eq!(back.clamp(-0.1), PI + 0.5);
    // Full turn never clamps.
    let full = AngleLimit::new(0.0, TAU).unwrap();
    assert_eq!(full.clamp(123.0), 123.0);
    assert!(full.contains(-7.0, 0.0));
}

#[test]
fn wrap_angle_range() {
    assert_approx_eq!(wrap_angle(PI), PI);
    assert_approx_eq!(wrap_angle(-PI), PI);
    assert_approx_eq!(wrap_angle(3.0 * PI + 0.1), -PI + 0.1, 1e-5);
    assert_approx_eq!(wrap_angle(-0.1), -0.1);
}

// ---------------------------------------------------------------- FABRIK

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
    assert_eq!(solve_fabrik(&mut j, &[1.0, -1.0, 1.0], Vec2::ONE, &n, &s), Err(SolveError::InvalidLength { index: 1 }));
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
    assert_eq!(solve_fabrik(&mut j, &l, Vec2::ONE, &lim, &s), Err(SolveError::LimitsMismatch { bones: 3, limits: 2 }));
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
        let r =
            solve_fabrik(&mut j, &l, target, &lim, &FabrikSettings { max_iterations: 30, tolerance: 0.01 }).unwrap();
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
    let r =
        solve_fabrik(&mut j, &l, Vec2::new(5.0, 30.0), &lim, &FabrikSettings { max_iterations: 64, tolerance: 0.01 })
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

// ---------------------------------------------------------------- CCD

#[test]
fn ccd_reaches_and_keeps_segments() {
    let mut j = vec![Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(15.0, 5.0), Vec2::new(15.0, 12.0)];
    let l: Vec<f32> = j.windows(2).map(|w| w[0].distance(w[1])).collect();
    let target = Vec2::new(-5.0, 12.0);
    let r = solve_ccd(
        &mut j,
        target,
        &ChainLimits::NONE,
        &CcdSettings { max_iterations: 100, tolerance: 1e-3, ..CcdSettings::default() },
    )
    .unwrap();
    assert!(r.reached, "{r:?}");
    assert_eq!(j[0], Vec2::ZERO);
    assert_lengths(&j, &l, 0.0, 1e-4);
}

#[test]
fn ccd_zero_iterations_when_already_there() {
    let (mut j, _) = straight(3, 1.0);
    let r = solve_ccd(&mut j, Vec2::new(3.0, 0.1), &ChainLimits::NONE, &CcdSettings::default()).unwrap();
    assert_eq!(r.iterations, 0);
    assert_eq!(j, straight(3, 1.0).0);
}

#[test]
fn ccd_sweep_matches_naive_quadratic_ccd() {
    // Reference: the textbook O(N^2) tip-to-root sweep.
    fn naive(j: &mut [Vec2], target: Vec2) {
        let n = j.len() - 1;
        for i in (0..n).rev() {
            let pivot = j[i];
            let a = j[n] - pivot;
            let b = target - pivot;
            let rot = Vec2::from_angle(signed_angle(a, b));
            for p in &mut j[i + 1..] {
                *p = pivot + rot.rotate(*p - pivot);
            }
        }
    }
    let start = vec![Vec2::ZERO, Vec2::new(3.0, 1.0), Vec2::new(5.0, -1.0), Vec2::new(8.0, 0.0), Vec2::new(9.0, 2.0)];
    let target = Vec2::new(-2.0, 6.0);
    let mut a = start.clone();
    let mut b = start.clone();
    for _ in 0..3 {
        naive(&mut a, target);
    }
    let r = solve_ccd(
        &mut b,
        target,
        &ChainLimits::NONE,
        &CcdSettings { max_iterations: 3, tolerance: 0.0, max_angle_step: f32::INFINITY },
    )
    .unwrap();
    assert_eq!(r.iterations, 3);
    for (p, q) in a.iter().zip(&b) {
        assert_approx_eq!(*p, *q, 1e-4);
    }
}

#[test]
fn ccd_damping_caps_rotation_per_sweep() {
    let (mut j, _) = straight(1, 1.0);
    let step = 0.1;
    let r = solve_ccd(
        &mut j,
        Vec2::new(0.0, 1.0),
        &ChainLimits::NONE,
        &CcdSettings { max_iterations: 3, tolerance: 0.0, max_angle_step: step },
    )
    .unwrap();
    assert_eq!(r.iterations, 3);
    assert_approx_eq!(signed_angle(Vec2::X, j[1]), 3.0 * step, 1e-5);
}

#[test]
fn ccd_limits_hold_exactly() {
    let per_bone = [AngleLimit::new(-0.5, 0.5), AngleLimit::new(0.1, 0.8), None, AngleLimit::new(-FRAC_PI_4, 0.0)];
    let lim = ChainLimits { root_direction: Vec2::X, per_bone: &per_bone };
    for target in [Vec2::new(-3.0, -3.0), Vec2::new(0.0, 4.0), Vec2::new(2.0, 0.5)] {
        // Starts outside the limits on purpose.
        let mut j =
            vec![Vec2::ZERO, Vec2::new(0.0, 1.0), Vec2::new(-1.0, 1.0), Vec2::new(-1.0, 0.0), Vec2::new(0.0, 0.0)];
        let r =
            solve_ccd(&mut j, target, &lim, &CcdSettings { max_iterations: 50, tolerance: 0.01, max_angle_step: 0.3 })
                .unwrap();
        assert!(j.iter().all(|p| p.is_finite()));
        assert_lengths(&j, &[1.0; 4], 0.0, 1e-4);
        assert_limits(&j, &lim, 0.0);
        assert!(r.iterations >= 1);
    }
}

#[test]
fn ccd_degenerate_and_bad_input() {
    let s = CcdSettings::default();
    let n = ChainLimits::NONE;
    let mut j = vec![Vec2::ZERO; 3];
    let r = solve_ccd(&mut j, Vec2::new(1.0, 1.0), &n, &s).unwrap();
    assert!(j.iter().all(|p| *p == Vec2::ZERO) && r.distance.is_finite());
    let (mut j, _) = straight(2, 1.0);
    solve_ccd(&mut j, Vec2::ZERO, &n, &s).unwrap();
    assert!(j.iter().all(|p| p.is_finite()));
    let j0 = j.clone();
    assert_eq!(solve_ccd(&mut j, Vec2::NAN, &n, &s), Err(SolveError::NonFiniteTarget));
    assert_eq!(solve_ccd(&mut [Vec2::ZERO], Vec2::ONE, &n, &s), Err(SolveError::EmptyChain));
    for bad in [0.0, -1.0, f32::NAN] {
        let s = CcdSettings { max_angle_step: bad, ..s };
        assert_eq!(solve_ccd(&mut j, Vec2::ONE, &n, &s), Err(SolveError::InvalidSettings));
    }
    assert_eq!(j, j0);
}

// ---------------------------------------------------------------- trait

#[test]
fn chain_solver_trait_both_keep_lengths() {
    let solvers: [&dyn ChainSolver; 2] = [
        &FabrikSettings { max_iterations: 64, tolerance: 0.01 },
        &CcdSettings { max_iterations: 64, tolerance: 0.01, ..CcdSettings::default() },
    ];
    for solver in solvers {
        // Incoming spacing differs from the lengths.
        let mut j = vec![Vec2::ZERO, Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0)];
        let l = [3.0, 2.0];
        let r = solver.solve(&mut j, &l, Vec2::new(2.0, 3.0), &ChainLimits::NONE).unwrap();
        assert!(r.reached, "{r:?}");
        assert_lengths(&j, &l, 0.0, 1e-4);
        assert_eq!(
            solver.solve(&mut j, &[1.0], Vec2::ONE, &ChainLimits::NONE),
            Err(SolveError::LengthMismatch { joints: 3, lengths: 1 })
        );
    }
}

// ---------------------------------------------------------------- two-bone

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
    assert_eq!(solve_two_bone(Vec2::NAN, 1.0, 1.0, Vec2::ONE, 1.0, 0.1), Err(SolveError::NonFiniteJoint { index: 0 }));
    assert_eq!(solve_two_bone(Vec2::ZERO, 1.0, -1.0, Vec2::ONE, 1.0, 0.1), Err(SolveError::InvalidLength { index: 1 }));
    assert_eq!(solve_two_bone(Vec2::ZERO, 1.0, 1.0, Vec2::INFINITY, 1.0, 0.1), Err(SolveError::NonFiniteTarget));
    let big = solve_two_bone(Vec2::splat(1e6), 300.0, 200.0, Vec2::splat(1e6) + 250.0, -1.0, 0.5).unwrap();
    assert!(big.report.reached, "{:?}", big.report);
}

// ---------------------------------------------------------------- look-at

#[test]
fn look_at_points_with_offset_and_limit() {
    let r = solve_look_at(Vec2::ONE, Vec2::X, Vec2::new(1.0, 5.0), 0.0, None).unwrap();
    assert_approx_eq!(r.direction, Vec2::Y);
    assert_approx_eq!(r.remaining_angle, 0.0);
    let r = solve_look_at(Vec2::ZERO, Vec2::X, Vec2::Y, -FRAC_PI_2, None).unwrap();
    assert_approx_eq!(r.direction, Vec2::X);
    let lim = (AngleLimit::new(-0.5, 0.5).unwrap(), Vec2::new(3.0, 0.0));
    let r = solve_look_at(Vec2::ZERO, Vec2::X, Vec2::Y, 0.0, Some(lim)).unwrap();
    assert_approx_eq!(signed_angle(Vec2::X, r.direction), 0.5);
    assert_approx_eq!(r.remaining_angle, FRAC_PI_2 - 0.5);
    assert_approx_eq!(r.direction.length(), 1.0);
}

#[test]
fn look_at_target_at_origin_keeps_direction() {
    let r = solve_look_at(Vec2::splat(1e6), Vec2::new(0.0, -2.0), Vec2::splat(1e6), 1.0, None).unwrap();
    assert_approx_eq!(r.direction, -Vec2::Y);
    assert_eq!(r.remaining_angle, 0.0);
    let r = solve_look_at(Vec2::ZERO, Vec2::ZERO, Vec2::ZERO, 0.0, None).unwrap();
    assert_eq!(r.direction, Vec2::X);
    assert_eq!(solve_look_at(Vec2::ZERO, Vec2::X, Vec2::NAN, 0.0, None).err(), Some(SolveError::NonFiniteTarget));
    assert_eq!(
        solve_look_at(Vec2::ZERO, Vec2::X, Vec2::ONE, 0.0, Some((AngleLimit::new(0.0, 1.0).unwrap(), Vec2::ZERO)))
            .err(),
        Some(SolveError::InvalidDirection)
    );
}

#[test]
fn errors_display_says_what_to_fix() {
    let msg = SolveError::LengthMismatch { joints: 4, lengths: 2 }.to_string();
    assert!(msg.contains('4') && msg.contains('2') && msg.contains("one more joint"));
    let e: Box<dyn std::error::Error> = Box::new(SolveError::EmptyChain);
    assert!(e.to_string().contains("at least 2"));
}

#[test]
fn ccd_unreachable_straightens_toward_the_target() {
    // A curled chain and a target far out of reach: the sweeps must keep straightening the chain
    // even though the distance itself shrinks by well under 1% per sweep.
    let mut joints = vec![Vec2::ZERO, Vec2::new(30.0, 10.0), Vec2::new(40.0, 40.0), Vec2::new(20.0, 60.0)];
    let reach: f32 = joints.windows(2).map(|w| w[0].distance(w[1])).sum();
    let target = Vec2::new(300.0, -200.0);
    let r = solve_ccd(
        &mut joints,
        target,
        &ChainLimits::NONE,
        &CcdSettings { max_iterations: 64, tolerance: 0.5, max_angle_step: f32::INFINITY },
    )
    .unwrap();
    let direction = target.normalize();
    let mut along = 0.0;
    for w in joints.windows(2) {
        along += w[0].distance(w[1]);
        assert_approx_eq!(w[1], direction * along, 0.05);
    }
    assert_approx_eq!(r.distance, target.length() - reach, 0.05);
    // Once straight the chain is optimal: no budget is spent on refinement restarts.
    assert!(r.iterations < 64, "{r:?}");
}

#[test]
fn fabrik_escapes_a_chain_folded_onto_the_target_line() {
    // Collinear and folded back: every FABRIK pass maps this pose onto itself, 5 units from the
    // target (seen in the stress demo). The refinement takes over and reaches it.
    let mut joints = vec![Vec2::ZERO, Vec2::new(11.0, 0.0), Vec2::ZERO];
    let target = Vec2::new(5.0, 0.0);
    let r = solve_fabrik(&mut joints, &[11.0, 11.0], target, &ChainLimits::NONE, &FabrikSettings::default()).unwrap();
    assert!(r.reached, "{r:?}");
    assert_approx_eq!(joints[2], target, 0.5);
    assert_lengths(&joints, &[11.0, 11.0], 0.0, 1e-4);
}
