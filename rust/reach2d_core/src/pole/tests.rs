use super::*;
use crate::{CcdSettings, ChainLimits, ChainSolver, FabrikSettings, solve_fabrik};

fn mirror(p: Vec2) -> Vec2 {
    Vec2::new(-p.x, p.y)
}

#[test]
fn side_of_is_the_cross_sign_and_none_on_the_line() {
    let o = Vec2::new(3.0, -2.0);
    assert_eq!(side_of(o, o + Vec2::X, o + Vec2::new(1.0, 1.0)), Some(1.0));
    assert_eq!(side_of(o, o + Vec2::X, o + Vec2::new(1.0, -1.0)), Some(-1.0));
    assert_eq!(side_of(o, o + Vec2::X, o - Vec2::X * 5.0), None, "behind, on the line");
    assert_eq!(side_of(o, o, o + Vec2::Y), None, "no direction");
    assert_eq!(side_of(o, o + Vec2::X, Vec2::NAN), None);
    assert_eq!(side_of(o, o + Vec2::X, o + Vec2::new(1.0, 1e-5)), None, "within STRAIGHT_SINE");
    assert_eq!(side_of(o, o + Vec2::X, o + Vec2::new(1.0, 1e-3)), Some(1.0), "a slight bend counts");
    // Magnitudes far apart still give the sine.
    assert_eq!(side_of(Vec2::ZERO, Vec2::new(1e-20, 0.0), Vec2::new(1e20, 1e19)), Some(1.0));
    // A reflection flips it.
    let (a, b, c) = (Vec2::new(1.0, 2.0), Vec2::new(7.0, -3.0), Vec2::new(4.0, 5.0));
    assert_eq!(side_of(a, b, c), side_of(mirror(a), mirror(b), mirror(c)).map(|s| -s));
}

#[test]
fn pre_bend_keeps_the_root_and_every_length_and_bends_to_the_pole() {
    let lengths = [30.0, 0.0, 25.0, 12.5, 40.0];
    for (pole, target, reaches) in [
        (Vec2::new(20.0, 60.0), Vec2::new(60.0, 10.0), true),
        (Vec2::new(5000.0, -3000.0), Vec2::new(60.0, 10.0), true),
        (Vec2::new(-20.0, 60.0), Vec2::new(-4.0, 15.0), false),
    ] {
        let mut joints = [Vec2::new(5.0, 5.0); 6];
        joints[0] = Vec2::new(-4.0, 9.0);
        let root = joints[0];
        assert!(pre_bend_toward_pole(&mut joints, &lengths, pole, target));
        assert_eq!(joints[0], root);
        for (w, &l) in joints.windows(2).zip(&lengths) {
            assert!((w[0].distance(w[1]) - l).abs() < 1e-4, "length {l} kept: {}", w[0].distance(w[1]));
        }
        if reaches {
            assert!(joints[5].distance(target) < 1e-3, "the start already reaches: {}", joints[5]);
            let side = side_of(root, target, pole);
            for &joint in &joints[1..5] {
                assert_eq!(side_of(root, target, joint), side, "{joint} on the pole's side");
            }
        }
    }
}

#[test]
fn pre_bend_refuses_unusable_input_untouched() {
    let start = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(20.0, 0.0)];
    let target = Vec2::new(15.0, 5.0);
    for (pole, lengths) in [
        (Vec2::ZERO, &[10.0, 10.0][..]),
        (Vec2::new(30.0, 10.0), &[10.0, 10.0][..]),
        (Vec2::NAN, &[10.0, 10.0][..]),
        (Vec2::new(f32::INFINITY, 0.0), &[10.0, 10.0][..]),
        (Vec2::new(0.0, 10.0), &[10.0][..]),
        (Vec2::new(0.0, 10.0), &[10.0, f32::NAN][..]),
        (Vec2::new(0.0, 10.0), &[10.0, -1.0][..]),
    ] {
        let mut joints = start;
        assert!(!pre_bend_toward_pole(&mut joints, lengths, pole, target), "{pole} {lengths:?}");
        assert_eq!(joints, start);
    }
    let mut joints = start;
    assert!(!pre_bend_toward_pole(&mut joints, &[10.0, 10.0], Vec2::Y, Vec2::NAN));
    let mut one = [Vec2::ZERO, Vec2::X];
    assert!(!pre_bend_toward_pole(&mut one, &[1.0], Vec2::Y, Vec2::new(0.5, 0.5)), "one bone: nothing to bend");
    assert!(!pre_bend_toward_pole(&mut [], &[], Vec2::Y, target));
}

/// A FABRIK solve from the pre-bent pose reaches the target as exactly as without, with every interior joint
/// on the pole's side; the mirrored pole gives the mirror image.
#[test]
fn fabrik_from_the_pre_bend_follows_the_pole_and_mirrors() {
    let lengths = [40.0, 35.0, 30.0, 25.0];
    let settings = FabrikSettings { max_iterations: 64, tolerance: 0.01 };
    let target = Vec2::new(80.0, 20.0);
    for pole_side in [1.0f32, -1.0] {
        let pole = Vec2::new(50.0, 60.0 * pole_side);
        assert_eq!(side_of(Vec2::ZERO, target, pole), Some(pole_side));
        let solve = |pole: Vec2, target: Vec2| {
            let mut joints =
                [Vec2::ZERO, Vec2::new(40.0, 0.0), Vec2::new(75.0, 0.0), Vec2::new(105.0, 0.0), Vec2::new(130.0, 0.0)];
            assert!(pre_bend_toward_pole(&mut joints, &lengths, pole, target));
            let report = solve_fabrik(&mut joints, &lengths, target, &ChainLimits::NONE, &settings).unwrap();
            assert!(report.reached, "reached: {report:?}");
            joints
        };
        let joints = solve(pole, target);
        for &joint in &joints[1..4] {
            let pole_side_of_line = side_of(Vec2::ZERO, target, pole).unwrap();
            assert_eq!(side_of(Vec2::ZERO, target, joint), Some(pole_side_of_line), "{joint} on the pole's side");
        }
        let mirrored = solve(mirror(pole), mirror(target));
        for (a, b) in joints.iter().zip(&mirrored) {
            assert!(mirror(*a).distance(*b) < 1e-3, "mirror image: {a} vs {b}");
        }
    }
    // CCD through the ChainSolver trait, the way the Godot layer calls it; a far pole decides the side too.
    let ccd = CcdSettings { max_iterations: 64, tolerance: 0.01, max_angle_step: f32::INFINITY };
    for pole in [Vec2::new(0.0, -50.0), Vec2::new(-3000.0, 9000.0)] {
        let mut joints =
            [Vec2::ZERO, Vec2::new(40.0, 0.0), Vec2::new(75.0, 0.0), Vec2::new(105.0, 0.0), Vec2::new(130.0, 0.0)];
        assert!(pre_bend_toward_pole(&mut joints, &lengths, pole, target));
        assert!(ccd.solve(&mut joints, &lengths, target, &ChainLimits::NONE).unwrap().reached);
        let side = side_of(Vec2::ZERO, target, pole);
        assert!(joints[1..4].iter().all(|&j| side_of(Vec2::ZERO, target, j) == side), "CCD keeps the side");
    }
}
