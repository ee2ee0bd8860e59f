use core::f32::consts::TAU;

use super::*;
use crate::angle::{AngleLimit, wrap_angle};

/// The relative angle of the child body when the bone has local rotation `r`.
fn relative(frame: JointFrame, r: f32, now: f32, axis_now: f32, handedness: f32, parent_body: f32) -> f32 {
    let axis = axis_now + handedness * (r - now);
    wrap_angle(axis - frame.child_offset - parent_body)
}

#[test]
fn the_limit_becomes_symmetric_about_the_bodies_meeting() {
    let limit = AngleLimit::new(-0.5, 1.0).unwrap();
    for handedness in [1.0_f32, -1.0] {
        let (now, axis_now, parent_body) = (0.25, 2.9, -0.4);
        let frame = joint_frame(limit, now, handedness, axis_now, parent_body);
        assert!((frame.half_width - 0.75).abs() < 1e-6);
        let at = |r| relative(frame, r, now, axis_now, handedness, parent_body);
        assert!(at(0.25).abs() < 1e-5, "the middle meets the parent body");
        assert!((at(1.0).abs() - 0.75).abs() < 1e-5 && (at(-0.5).abs() - 0.75).abs() < 1e-5);
        assert!((at(1.0) + at(-0.5)).abs() < 1e-5, "the ends lie either side");
    }
    // The same rotation a turn away gives the same frame.
    let a = joint_frame(limit, 0.6, 1.0, 1.0, 0.0);
    let b = joint_frame(limit, 0.6 + TAU, 1.0, 1.0, 0.0);
    assert!((a.child_offset - b.child_offset).abs() < 1e-5);
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

#[test]
fn a_limited_joint_ends_its_step_within_the_limit() {
    let delta = 1.0 / 60.0;
    // Inside, slow: untouched.
    assert_eq!(limit_velocity(0.1, 1.0, 0.5, delta), 1.0);
    // Inside, fast toward the end: lands on it.
    let v = limit_velocity(0.4, 30.0, 0.5, delta);
    assert!((0.4 + v * delta - 0.5).abs() < 1e-5);
    // Beyond the lower end: comes back to it.
    let v = limit_velocity(-0.7, 0.0, 0.5, delta);
    assert!((-0.7 + v * delta + 0.5).abs() < 1e-5);
    assert_eq!(limit_velocity(f32::NAN, 2.0, 0.5, delta), 2.0);
    assert_eq!(limit_velocity(0.0, 2.0, 0.5, 0.0), 2.0);
}

#[test]
fn how_far_past_the_limit() {
    assert_eq!(past_limit(0.7, 0.5), 0.7 - 0.5);
    assert_eq!(past_limit(-0.75, 0.5), -0.25);
    assert_eq!(past_limit(0.2, 0.5), 0.0);
    assert_eq!(past_limit(f32::NAN, 0.5), 0.0);
}
