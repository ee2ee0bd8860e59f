//! The angle limits' bookkeeping: what the solvers get, what clearing keeps, and which property names are theirs.

use super::{AngleLimits, Field, MAX_BONES};

fn chars(text: &str) -> Vec<char> {
    text.chars().collect()
}

#[test]
fn a_set_limit_is_what_the_solvers_get_and_clearing_keeps_its_range_for_the_inspector() {
    let mut limits = AngleLimits::default();
    assert!(limits.active().is_empty());
    assert!(limits.set(2, -0.5, 0.75, Some(4)));
    // Bones 0 and 1 have slots now, unlimited; bone 2 is limited.
    assert_eq!(limits.active().len(), 3);
    assert!(limits.active()[0].is_none() && limits.active()[1].is_none());
    let limit = limits.get(2).expect("bone 2 is limited");
    assert_eq!((limit.min, limit.max), (-0.5, 0.75));
    assert!(limits.get(0).is_none() && limits.get(7).is_none() && limits.get(-1).is_none());

    assert!(limits.clear(2, Some(4)));
    assert!(limits.get(2).is_none(), "a cleared bone is not limited");
    assert!(limits.active().iter().all(Option::is_none));
    // The range is kept, disabled: enabling it in the inspector brings the same range back.
    let slot = limits.slots[2];
    assert!(!slot.enabled);
    assert_eq!((slot.min, slot.max), (-0.5, 0.75));
}

#[test]
fn a_bound_of_exactly_pi_is_an_angle_and_is_clamped_into_range() {
    let mut limits = AngleLimits::default();
    // deg_to_rad(180.0) in f32 rounds a hair above PI.
    assert!(limits.set(0, -std::f32::consts::PI - 1e-4, std::f32::consts::PI + 1e-4, None));
    let limit = limits.get(0).expect("limited");
    assert_eq!((limit.min, limit.max), (-std::f32::consts::PI, std::f32::consts::PI));
}

#[test]
fn the_inspector_names_are_parsed_exactly() {
    let parse = |name: &str| AngleLimits::parse_name(&chars(name));
    assert_eq!(parse("angle_limits/bone_0/enabled"), Some((0, Field::Enabled)));
    assert_eq!(parse("angle_limits/bone_12/min_angle"), Some((12, Field::Min)));
    assert_eq!(parse("angle_limits/bone_4095/max_angle"), Some((4095, Field::Max)));
    for other in [
        "last_error",
        "angle_limits/bone_/enabled",
        "angle_limits/bone_1/enable",
        "angle_limits/bone_1/enabled_",
        "angle_limits/bone_1/min_angle/x",
        "angle_limits/bone_x/enabled",
        "angle_limits/bone_-1/enabled",
        "angle_limits/bone_12345/enabled",
        "angle_limits/bone_1",
        "Angle_limits/bone_1/enabled",
        "",
    ] {
        assert_eq!(parse(other), None, "{other:?} is not an angle-limit property");
    }
    assert_eq!(parse(&format!("angle_limits/bone_{MAX_BONES}/enabled")), None, "beyond any chain");
}
