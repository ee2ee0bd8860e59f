//! Every check keeps a good value as it is and refuses a bad one with one sentence that names the property, the
//! value and what is valid. (The printing itself needs Godot; the tests in `tests/` see it.)

use super::*;
use crate::runtime::frame::UpdateMode;

/// A refusal: one sentence that names `what`, says the value is not kept, and carries no Rust debug text.
fn assert_refused<T: std::fmt::Debug>(checked: Checked<T>, what: &str) -> String {
    let message = checked.expect_err("a bad value is refused");
    assert!(message.contains(what), "{message:?} names {what:?}");
    assert!(message.ends_with("ignored") || message.ends_with("unchanged"), "{message:?} says the value is not kept");
    for debug in ["Some(", "None", "Err(", "{", "}", "\n"] {
        assert!(!message.contains(debug), "{message:?} holds {debug:?}");
    }
    message
}

#[test]
fn floats_keep_their_range_inclusive_and_refuse_what_is_outside_or_not_finite() {
    assert_eq!(float("N", "weight", 0.0, 0.0, 1.0), Ok(0.0));
    assert_eq!(float("N", "weight", 1.0, 0.0, 1.0), Ok(1.0));
    assert_eq!(float("N", "weight", 0.25, 0.0, 1.0), Ok(0.25));
    for bad in [-0.001, 1.001, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let message = assert_refused(float("N", "weight", bad, 0.0, 1.0), "N.weight");
        assert!(message.contains("[0, 1]"), "{message:?} names the range");
    }
    // No upper bound: the message says "at least".
    assert_eq!(float("N", "tolerance", 1e30, 0.0, f64::from(f32::MAX)), Ok(1e30));
    let message = assert_refused(float("N", "tolerance", -1.0, 0.0, f64::from(f32::MAX)), "N.tolerance");
    assert!(message.contains("at least 0"), "{message:?}");
}

#[test]
fn ints_and_vectors() {
    assert_eq!(int("N", "max_iterations", 1, 1, 1024), Ok(1));
    assert_eq!(int("N", "max_iterations", 1024, 1, 1024), Ok(1024));
    for bad in [0, 1025, i64::MIN, i64::MAX] {
        let message = assert_refused(int("N", "max_iterations", bad, 1, 1024), "N.max_iterations");
        assert!(message.contains(&bad.to_string()) && message.contains("[1, 1024]"), "{message:?}");
    }
    assert_eq!(vector("N", "gravity", Vector2::new(0.0, 980.0)), Ok(Vector2::new(0.0, 980.0)));
    assert_refused(vector("N", "gravity", Vector2::new(f32::NAN, 0.0)), "N.gravity");
    assert_refused(vector("N", "gravity", Vector2::new(0.0, f32::INFINITY)), "N.gravity");
}

#[test]
fn arrays_name_their_first_bad_entry() {
    assert_eq!(non_negative_entries("N", "widths", &[0.0, 2.5]), Ok(()));
    let message = assert_refused(non_negative_entries("N", "widths", &[1.0, -2.0, f32::NAN]), "N.widths[1]");
    assert!(message.contains("-2"), "{message:?}");
    assert_eq!(int_entries("N", "gait_groups", &[0, 3], 0, 3), Ok(()));
    assert_refused(int_entries("N", "gait_groups", &[0, 4, -1], 0, 3), "N.gait_groups[1]");
    assert_eq!(finite_vector_entries("N", "home_points", &[Vector2::ZERO]), Ok(()));
    assert_refused(finite_vector_entries("N", "home_points", &[Vector2::ZERO, Vector2::new(f32::NAN, 1.0)]), "[1]");
    assert_eq!(non_negative_entries("N", "widths", &[]), Ok(()), "an empty array is fine");
}

#[test]
fn angles_are_radians_within_pi_and_a_limit_is_ordered() {
    let pi = std::f32::consts::PI;
    assert_eq!(radians(format_args!("a"), pi + 1e-4), Ok(pi), "deg_to_rad(180) rounds above PI in f32");
    assert_eq!(radians(format_args!("a"), -1.0), Ok(-1.0));
    let message = assert_refused(radians(format_args!("set_angle_limits: min_angle"), 90.0), "min_angle = 90");
    assert!(message.contains("deg_to_rad"), "{message:?} tells how to pass degrees");
    assert_refused(radians(format_args!("a"), f32::NAN), "a = NaN");
    assert_eq!(angle_limit("set_angle_limits", -1.0, 1.0), Ok((-1.0, 1.0)));
    assert_eq!(angle_limit("set_angle_limits", 0.5, 0.5), Ok((0.5, 0.5)), "an empty arc holds a bone still");
    let message = assert_refused(angle_limit("set_angle_limits", 1.0, -1.0), "min_angle (1) is greater");
    assert!(message.ends_with("unchanged"), "{message:?}");
    assert_refused(angle_limit("set_angle_limits", -1.0, 4.0), "max_angle = 4");
}

#[test]
fn bone_indices_and_choices() {
    assert_eq!(index_below("set_angle_limits", 0, 3), Ok(0));
    assert_eq!(index_below("set_angle_limits", 2, 3), Ok(2));
    for bad in [-1, 3, i64::MAX] {
        let message = assert_refused(index_below("set_angle_limits", bad, 3), "bone_index");
        assert!(message.contains("0 = root_bone .. 2"), "{message:?} says which indices are valid");
    }
    // A chain not resolved yet: no underflow in the message.
    assert_refused(index_below("set_angle_limits", 0, 0), "bone_index 0");

    assert_eq!(choice::<UpdateMode>("update_mode", 2), Ok(UpdateMode::Manual));
    let message = assert_refused(choice::<UpdateMode>("update_mode", 3), "update_mode = 3");
    assert!(message.contains("UPDATE_PROCESS (0), UPDATE_PHYSICS (1), UPDATE_MANUAL (2)"), "{message:?}");
    assert_refused(choice::<UpdateMode>("update_mode", -1), "update_mode = -1");
}
