use crate::common::{assert_approx_eq, assert_lengths};
use crate::*;
use core::f32::consts::FRAC_PI_2;
use glam::Vec2;

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
