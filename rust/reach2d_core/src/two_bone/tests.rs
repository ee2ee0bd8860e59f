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
    assert_eq!(solve_two_bone(Vec2::NAN, 1.0, 1.0, Vec2::ONE, 1.0, 0.1), Err(SolveError::NonFiniteJoint { index: 0 }));
    assert_eq!(solve_two_bone(Vec2::ZERO, 1.0, -1.0, Vec2::ONE, 1.0, 0.1), Err(SolveError::InvalidLength { index: 1 }));
    assert_eq!(solve_two_bone(Vec2::ZERO, 1.0, 1.0, Vec2::INFINITY, 1.0, 0.1), Err(SolveError::NonFiniteTarget));
    let big = solve_two_bone(Vec2::splat(1e6), 300.0, 200.0, Vec2::splat(1e6) + 250.0, -1.0, 0.5).unwrap();
    assert!(big.report.reached, "{:?}", big.report);
}
