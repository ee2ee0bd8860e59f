use core::f32::consts::FRAC_PI_2;

use glam::{Affine2, Mat2, Vec2};

use super::*;

#[test]
fn capsule_lies_along_the_bone_with_its_bone_angle() {
    let global = Affine2::from_angle_translation(0.3, Vec2::new(10.0, 20.0));
    let capsule = place_capsule(global, 50.0, FRAC_PI_2, 8.0).unwrap();
    assert_eq!(capsule.placement.origin, Vec2::new(10.0, 20.0));
    assert!((capsule.placement.angle - (0.3 + FRAC_PI_2)).abs() < 1e-5);
    assert!((capsule.length - 50.0).abs() < 1e-4);
    assert!((capsule.radius - 4.0).abs() < 1e-6);
}

#[test]
fn a_mirrored_bone_gets_the_mirrored_capsule() {
    let bone = Affine2::from_angle_translation(0.4, Vec2::new(30.0, 5.0));
    let mirror = Affine2::from_mat2(Mat2::from_diagonal(Vec2::new(-1.0, 1.0)));
    let plain = place_capsule(bone, 40.0, 0.2, 6.0).unwrap();
    let mirrored = place_capsule(mirror * bone, 40.0, 0.2, 6.0).unwrap();
    assert_eq!(mirrored.placement.origin, Vec2::new(-30.0, 5.0));
    let reflected = Vec2::from_angle(plain.placement.angle) * Vec2::new(-1.0, 1.0);
    assert!(Vec2::from_angle(mirrored.placement.angle).distance(reflected) < 1e-6);
    assert_eq!(mirrored.length, plain.length);
    assert_eq!(mirrored.radius, plain.radius);
}

#[test]
fn scale_stretches_the_length_and_the_radius() {
    let global = Affine2::from_scale(Vec2::splat(2.0));
    let capsule = place_capsule(global, 10.0, 0.0, 4.0).unwrap();
    assert!((capsule.length - 20.0).abs() < 1e-5);
    assert!((capsule.radius - 4.0).abs() < 1e-6);
}

#[test]
fn bad_input_gives_no_capsule() {
    let collapsed = Affine2::from_scale(Vec2::new(0.0, 1.0));
    assert!(place_capsule(collapsed, 10.0, 0.0, 4.0).is_none());
    assert!(place_capsule(Affine2::IDENTITY, f32::NAN, 0.0, 4.0).is_none());
    assert!(place_capsule(Affine2::IDENTITY, 10.0, 0.0, -1.0).is_none());
    let nan = Affine2::from_translation(Vec2::new(f32::NAN, 0.0));
    assert!(place_capsule(nan, 10.0, 0.0, 4.0).is_none());
}

#[test]
fn mass_comes_from_the_length_unless_given() {
    assert!((mass_of(50.0, 0.02, 0.0) - 1.0).abs() < 1e-6);
    assert_eq!(mass_of(50.0, 0.02, 3.0), 3.0);
    assert_eq!(mass_of(0.0, 0.02, 0.0), 0.01);
    assert_eq!(mass_of(f32::NAN, 0.02, f32::NAN), 0.01);
}

#[test]
fn inertia_of_the_box_around_the_capsule() {
    // 2 kg, 20 px core, radius 5: a 10 x 30 box.
    assert!((capsule_inertia(2.0, 20.0, 5.0) - 2.0 * (100.0 + 900.0) / 12.0).abs() < 1e-4);
    assert!(capsule_inertia(f32::NAN, 20.0, 5.0) > 0.0);
}
