use super::*;
use crate::common::assert_approx_eq;
use core::f32::consts::{PI, TAU};

#[test]
fn step_toward_turns_the_short_way_by_at_most_the_step() {
    assert_eq!(step_toward(0.0, 0.05, 0.1, None), 0.05);
    assert!((step_toward(0.0, 1.0, 0.1, None) - 0.1).abs() < 1e-6);
    // Across ±PI: the short way.
    let s = step_toward(3.0, -3.0, 0.1, None);
    assert!(wrap_angle(s - 3.1).abs() < 1e-5, "{s}");
    assert_eq!(step_toward(0.0, 1.0, f32::INFINITY, None), 1.0);
    assert_eq!(step_toward(0.0, 1.0, f32::NAN, None), 0.0);
}

#[test]
fn step_toward_stays_inside_the_limit() {
    // The allowed arc is [-2.5, 2.5]; from 2.4 to -2.4 the short way (across PI) is excluded.
    let limit = AngleLimit::new(-2.5, 2.5);
    let mut angle = 2.4;
    for _ in 0..100 {
        let next = step_toward(angle, -2.4, 0.2, limit);
        assert!(wrap_angle(next - angle).abs() <= 0.2 + 1e-5);
        assert!(limit.unwrap().contains(next, 1e-5), "{next} left the limit");
        // Moving the long way round: never past 2.5.
        assert!(next <= angle + 1e-6, "{next} turned the excluded way from {angle}");
        angle = next;
    }
    assert!((angle + 2.4).abs() < 1e-5);
    // From outside the limit: clamped first.
    assert!((step_toward(3.0, 0.0, 0.0, limit) - 2.5).abs() < 1e-6);
}

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

#[test]
fn wrap_angle_is_the_remainder_of_a_division_bit_for_bit_without_dividing_within_a_turn() {
    let by_division = |angle: f32| {
        let r = (angle + PI).rem_euclid(TAU) - PI;
        if r <= -PI { r + TAU } else { r }
    };
    // Both ways through: within a turn (no division) and beyond it, to huge angles.
    let mut a = -1000.0_f32;
    while a < 1000.0 {
        for angle in [a, a * 1e-6, a * 1e30] {
            assert_eq!(wrap_angle(angle).to_bits(), by_division(angle).to_bits(), "{angle}");
            assert!(wrap_angle(angle) > -PI && wrap_angle(angle) <= PI, "{angle}");
        }
        a += 0.0137;
    }
    for edge in [-PI, PI, -PI - 1e-7, PI - 1e-7, TAU, -TAU, 0.0, -0.0] {
        assert_eq!(wrap_angle(edge).to_bits(), by_division(edge).to_bits(), "{edge}");
    }
    assert!(wrap_angle(f32::NAN).is_nan());
    assert!(wrap_angle(f32::INFINITY).is_nan());
    assert!(wrap_angle(f32::NEG_INFINITY).is_nan());
}
