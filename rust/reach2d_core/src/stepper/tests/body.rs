//! The body's raise and tilt from the planted feet, and a global turn as a local one.

use glam::{Mat2, Vec2};

use super::fixtures::UP;
use crate::common::assert_approx_eq;
use crate::stepper::{BodyFit, fit_body, local_turn};

fn feet(points: &[(f32, f32)]) -> Vec<(Vec2, Vec2)> {
    // Each foot's home on the line y = 0, the foot `height` px above it (y down).
    points.iter().map(|&(x, height)| (Vec2::new(x, -height), Vec2::new(x, 0.0))).collect()
}

#[test]
fn the_mean_raises_the_body_by_the_feet_mean_height_and_never_tilts() {
    let planted = feet(&[(-30.0, 4.0), (30.0, 10.0), (60.0, 1.0)]);
    let lean = fit_body(planted.iter().copied(), Vec2::ZERO, UP, BodyFit::Mean).unwrap();
    assert_approx_eq!(lean.raise, 5.0, 1e-5);
    assert_eq!(lean.tilt, 0.0);
    assert!(fit_body(core::iter::empty(), Vec2::ZERO, UP, BodyFit::Line).is_none());
}

#[test]
fn the_line_tilts_the_body_along_the_slope_under_its_feet_and_raises_it_at_its_pivot() {
    // Feet on a 1:4 slope rising to the right (y down): the body turns counter-clockwise on screen (negative).
    let planted = feet(&[(-40.0, -10.0), (0.0, 0.0), (40.0, 10.0), (80.0, 20.0)]);
    let lean = fit_body(planted.iter().copied(), Vec2::new(20.0, 0.0), UP, BodyFit::Line).unwrap();
    assert_approx_eq!(lean.tilt, -(0.25f32).atan(), 1e-5);
    assert_approx_eq!(lean.raise, 5.0, 1e-4);
    // Feet on one point across: the mean.
    let stacked = feet(&[(10.0, 2.0), (10.0, 6.0)]);
    let lean = fit_body(stacked.iter().copied(), Vec2::ZERO, UP, BodyFit::Line).unwrap();
    assert_eq!((lean.raise, lean.tilt), (4.0, 0.0));
}

#[test]
fn a_mirrored_body_gets_the_same_raise_and_the_negated_tilt() {
    let planted = feet(&[(-40.0, -3.0), (5.0, 2.0), (47.0, 11.0)]);
    let mirrored: Vec<(Vec2, Vec2)> =
        planted.iter().map(|&(a, h)| (a * Vec2::new(-1.0, 1.0), h * Vec2::new(-1.0, 1.0))).collect();
    for fit in [BodyFit::Mean, BodyFit::Line] {
        let lean = fit_body(planted.iter().copied(), Vec2::new(3.0, -50.0), UP, fit).unwrap();
        let back = fit_body(mirrored.iter().copied(), Vec2::new(-3.0, -50.0), UP, fit).unwrap();
        assert_eq!(back.raise, lean.raise);
        assert_eq!(back.tilt, -lean.tilt);
    }
}

#[test]
fn a_global_turn_is_the_same_local_turn_but_under_a_reflection() {
    assert_eq!(local_turn(Mat2::from_angle(0.7) * 2.0, 0.3), 0.3);
    assert_eq!(local_turn(Mat2::from_diagonal(Vec2::new(-1.0, 1.0)), 0.3), -0.3);
    assert_eq!(local_turn(Mat2::ZERO, 0.3), 0.0);
    assert_eq!(local_turn(Mat2::IDENTITY, f32::NAN), 0.0);
    assert_eq!(local_turn(Mat2::from_diagonal(Vec2::new(f32::NAN, 1.0)), 0.3), 0.0);
}
