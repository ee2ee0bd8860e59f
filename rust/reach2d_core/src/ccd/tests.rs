use crate::common::{assert_approx_eq, assert_lengths, assert_limits, straight};
use crate::*;
use core::f32::consts::FRAC_PI_4;
use glam::Vec2;

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

#[test]
fn a_target_inside_the_inner_ring_ends_near_the_fold_without_spending_the_budget() {
    // The 42 px bone less the others (10 + 5) leaves a ring of inner radius 27.4 px; the target is 20 px from the
    // root, so no pose gets nearer than 7.43 px. The restarts used to spend the whole budget looking for one.
    let root = Vec2::new(3.0, -2.0);
    let start = [root, root + Vec2::new(0.0, 10.0), root + Vec2::new(30.0, 40.0), root + Vec2::new(30.0, 35.0)];
    let lengths: Vec<f32> = start.windows(2).map(|w| w[0].distance(w[1])).collect();
    let target = root + Vec2::new(0.0, 20.0);
    let floor = 2.0 * lengths[1] - lengths.iter().sum::<f32>() - 20.0;
    for max_angle_step in [f32::INFINITY, 0.2] {
        let mut joints = start;
        let settings = CcdSettings { max_iterations: 64, tolerance: 0.01, max_angle_step };
        let report = solve_ccd(&mut joints, target, &ChainLimits::NONE, &settings).unwrap();
        assert!(report.distance - floor <= 0.01 + 1e-4, "{report:?} floor {floor}");
        assert!(report.iterations < 48, "{report:?}");
        assert_lengths(&joints, &lengths, 0.0, 1e-3);
    }
}
