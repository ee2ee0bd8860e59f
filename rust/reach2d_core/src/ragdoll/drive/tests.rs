use core::f32::consts::TAU;

use super::*;
use crate::angle::AngleLimit;

#[test]
fn limits_are_measured_from_the_rotation_at_the_joints_making() {
    let limit = AngleLimit::new(-0.5, 1.0).unwrap();
    assert_eq!(joint_limits(limit, 0.25, 1.0), (-0.75, 0.75));
    // A mirrored parent turns the relative angle the other way.
    assert_eq!(joint_limits(limit, 0.25, -1.0), (-0.75, 0.75));
    let (lower, upper) = joint_limits(limit, 0.0, -1.0);
    assert_eq!((lower, upper), (-1.0, 0.5));
    // The same rotation a turn away gives the same joint.
    let (a, b) = joint_limits(limit, 0.25 + TAU, 1.0);
    assert!((a + 0.75).abs() < 1e-5 && (b - 0.75).abs() < 1e-5);
}

#[test]
fn the_drive_closes_the_gap_and_follows_the_animation() {
    let delta = 1.0 / 60.0;
    let (mut angle, mut velocity) = (1.0_f32, 0.0_f32);
    for _ in 0..60 {
        velocity = drive_velocity(velocity, -angle, 0.0, 1.0, delta);
        angle += velocity * delta;
    }
    assert!(angle.abs() < 0.01, "left {angle} rad after a second");
    // At the pose it takes on the animation's own velocity.
    let v = drive_velocity(0.0, 0.0, 3.0, 1.0, delta);
    assert!(v > 0.0 && v < 3.0);
}

#[test]
fn no_strength_or_bad_input_leaves_the_velocity() {
    assert_eq!(drive_velocity(2.0, 1.0, 0.0, 0.0, 0.016), 2.0);
    assert_eq!(drive_velocity(2.0, f32::NAN, 0.0, 1.0, 0.016), 2.0);
    assert_eq!(drive_velocity(2.0, 1.0, 0.0, 1.0, f32::NAN), 2.0);
    assert_eq!(drive_velocity(2.0, 1.0, 0.0, f32::NAN, 0.016), 2.0);
}
