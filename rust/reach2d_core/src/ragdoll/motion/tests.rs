use core::f32::consts::PI;

use glam::Vec2;

use super::*;

#[test]
fn motion_between_two_frames() {
    let before = BodyPlacement { origin: Vec2::new(0.0, 0.0), angle: PI - 0.05 };
    let now = BodyPlacement { origin: Vec2::new(2.0, -1.0), angle: -PI + 0.05 };
    let motion = BodyMotion::between(before, now, 0.5);
    assert_eq!(motion.origin_velocity, Vec2::new(4.0, -2.0));
    // The shorter way round across the half turn: +0.1 rad in 0.5 s.
    assert!((motion.angular_velocity - 0.2).abs() < 1e-4);
}

#[test]
fn no_time_or_bad_values_is_no_motion() {
    let a = BodyPlacement::default();
    let b = BodyPlacement { origin: Vec2::new(1.0, 0.0), angle: 0.0 };
    assert_eq!(BodyMotion::between(a, b, 0.0), BodyMotion::default());
    assert_eq!(BodyMotion::between(a, b, f32::NAN), BodyMotion::default());
    let nan = BodyPlacement { origin: Vec2::new(f32::NAN, 0.0), angle: 0.0 };
    assert_eq!(BodyMotion::between(a, nan, 0.1), BodyMotion::default());
}

#[test]
fn a_jump_is_no_velocity() {
    let motion = BodyMotion { origin_velocity: Vec2::new(100.0, 0.0), angular_velocity: 1.0 };
    assert_eq!(motion.unless_faster_than(200.0, 50.0), motion);
    assert_eq!(motion.unless_faster_than(120.0, 50.0), BodyMotion::default());
}

#[test]
fn a_point_on_a_turning_body_moves_across_its_radius() {
    let motion = BodyMotion { origin_velocity: Vec2::new(1.0, 0.0), angular_velocity: 2.0 };
    let v = point_velocity(motion, Vec2::ZERO, Vec2::new(3.0, 0.0));
    // y grows with the angle: a point on +x moves toward +y.
    assert_eq!(v, Vec2::new(1.0, 6.0));
    let placement = BodyPlacement { origin: Vec2::new(1.0, 1.0), angle: PI / 2.0 };
    assert!(placement.point(Vec2::new(2.0, 0.0)).distance(Vec2::new(1.0, 3.0)) < 1e-6);
}
