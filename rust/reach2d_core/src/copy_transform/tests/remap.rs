use core::f32::consts::PI;

use glam::{Affine2, Vec2};

use crate::common::assert_approx_eq;
use crate::copy_transform::{Property, Remap, TransformValues, remap};

#[test]
fn a_remap_is_the_value_times_the_factor_plus_the_offset() {
    assert_eq!(remap(2.0, 3.0, 1.0, None), 7.0);
    assert_eq!(remap(-4.0, 0.5, 0.0, None), -2.0);
    assert_eq!(remap(5.0, 0.0, 1.5, None), 1.5);
}

#[test]
fn a_clamp_holds_between_its_ends_in_either_order() {
    assert_eq!(remap(10.0, 1.0, 0.0, Some((-1.0, 2.0))), 2.0);
    assert_eq!(remap(10.0, 1.0, 0.0, Some((2.0, -1.0))), 2.0);
    assert_eq!(remap(-10.0, 1.0, 0.0, Some((2.0, -1.0))), -1.0);
    assert_eq!(remap(0.5, 1.0, 0.0, Some((2.0, -1.0))), 0.5);
}

#[test]
fn nan_never_panics_and_a_nan_value_stays_nan() {
    assert!(remap(f32::NAN, 1.0, 0.0, Some((-1.0, 1.0))).is_nan());
    assert!(remap(1.0, f32::NAN, 0.0, None).is_nan());
    // A NaN end counts as the other one.
    assert_eq!(remap(5.0, 1.0, 0.0, Some((f32::NAN, 2.0))), 2.0);
    let _ = remap(5.0, 1.0, 0.0, Some((f32::NAN, f32::NAN)));
}

#[test]
fn values_are_taken_apart_as_the_engine_does() {
    // A node flipped by its own scale.x = -1: its x axis points the other way, read as half a turn with a negative
    // y scale (Godot's Transform2D.get_rotation and get_scale).
    let flipped = Affine2::from_scale_angle_translation(Vec2::new(-2.0, 3.0), 0.3, Vec2::new(5.0, 6.0));
    let values = TransformValues::of(flipped);
    assert_approx_eq!(values.rotation, 0.3 + PI - 2.0 * PI, 1e-6);
    assert_approx_eq!(values.scale, Vec2::new(2.0, -3.0), 1e-6);
    assert_eq!(values.position, Vec2::new(5.0, 6.0));
    for (property, expected) in [
        (Property::Rotation, values.rotation),
        (Property::X, 5.0),
        (Property::Y, 6.0),
        (Property::ScaleX, 2.0),
        (Property::ScaleY, -3.0),
    ] {
        assert_eq!(values.get(property), expected);
        assert_eq!(Remap::same(property).apply(&values, 0.0), expected);
        assert!(Remap::same(property).is_same(property));
    }
}
