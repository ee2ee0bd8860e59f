use core::f32::consts::PI;

use glam::{Affine2, Mat2};

use super::*;
use crate::common::assert_approx_eq;
use crate::ground::fixtures::screen_ground;

/// The screen's ground (y down, feet on y = 100), feet turning at most 0.4 rad.
fn settings() -> GroundSettings {
    screen_ground(0.4)
}

fn mirror(v: Vec2) -> Vec2 {
    Vec2::new(-v.x, v.y)
}

#[test]
fn a_planted_foot_goes_to_the_ground_plus_its_height_and_a_swing_keeps_its_lift() {
    let s = settings();
    let hit = GroundHit { point: Vec2::new(10.0, 120.0), normal: Vec2::new(0.0, -1.0) };
    assert_eq!(s.planted(Vec2::new(10.0, 94.0), hit), Vec2::new(10.0, 114.0));
    // 10 px above its stance: 10 px above the real ground's stance.
    assert_eq!(s.planted(Vec2::new(10.0, 84.0), hit), Vec2::new(10.0, 104.0));
    // A sunk foot is not lifted.
    assert_eq!(s.lift(Vec2::new(10.0, 99.0)), 0.0);
    let ray = s.ray(Vec2::new(10.0, 84.0));
    assert_eq!(ray, FootRay { from: Vec2::new(10.0, 70.0), to: Vec2::new(10.0, 150.0) });
}

#[test]
fn tilt_is_held_within_the_limit_and_mirrors() {
    let s = settings();
    let steep = GroundHit { point: Vec2::ZERO, normal: Vec2::new(0.6, -0.8) };
    let gentle = GroundHit { point: Vec2::ZERO, normal: Vec2::from_angle(-1.4) };
    assert_approx_eq!(s.tilt(steep), 0.4, 1e-6);
    assert_approx_eq!(s.tilt(gentle), signed_angle(s.up, gentle.normal), 1e-6);
    let mirrored = GroundHit { point: Vec2::ZERO, normal: mirror(steep.normal) };
    assert_eq!(s.tilt(mirrored), -s.tilt(steep));
    let zero = GroundHit { point: Vec2::ZERO, normal: Vec2::ZERO };
    assert_eq!(s.tilt(zero), 0.0);
}

#[test]
fn steps_never_exceed_the_limit() {
    let to = Vec2::new(30.0, -40.0);
    assert_approx_eq!(step_offset(Vec2::ZERO, to, 5.0).length(), 5.0, 1e-5);
    assert_eq!(step_offset(Vec2::ZERO, to, f32::INFINITY), to);
    assert_eq!(step_offset(Vec2::NAN, to, 1.0), to);
    assert_eq!(step_offset(Vec2::ONE, to, -1.0), Vec2::ONE);
    assert_eq!(mirror(step_offset(Vec2::ZERO, to, 5.0)), step_offset(Vec2::ZERO, mirror(to), 5.0));
    assert_eq!(step_value(0.0, 3.0, 1.0), 1.0);
    assert_eq!(step_value(0.0, -3.0, 1.0), -1.0);
    assert_eq!(step_value(0.0, 0.5, 1.0), 0.5);
}

#[test]
fn the_hips_drop_so_each_leg_keeps_its_animated_extension_and_never_rise() {
    let up = Vec2::new(0.0, -1.0);
    let hip = Vec2::new(0.0, 0.0);
    let animated = Vec2::new(10.0, 75.0);
    // 12 px lower ground: 12 px of drop, exactly.
    assert_approx_eq!(reach_drop(hip, animated, animated + Vec2::new(0.0, 12.0), up), 12.0, 1e-4);
    // Higher ground: no drop.
    assert_eq!(reach_drop(hip, animated, animated - Vec2::new(0.0, 12.0), up), 0.0);
    // Farther to the side at the same height: a drop that keeps the distance.
    let goal = animated + Vec2::new(3.0, 0.0);
    let drop = reach_drop(hip, animated, goal, up);
    assert_approx_eq!((goal - (hip - up * drop)).length(), animated.length(), 1e-3);
    assert_eq!(reach_drop(hip, mirror(animated), mirror(goal), up), drop);
    // Out of reach to the side: the closest drop.
    assert_approx_eq!(reach_drop(hip, animated, Vec2::new(200.0, 40.0), up), 40.0, 1e-4);
    assert_eq!(hips_drop([3.0, 12.0, f32::NAN], 40.0), 12.0);
    assert_eq!(hips_drop([3.0, 12.0], 5.0), 5.0);
    assert_eq!(hips_drop([], 5.0), 0.0);
}

#[test]
fn max_step_is_speed_times_time_and_never_lifted_by_a_bad_frame() {
    assert_eq!(max_step(2.0, 0.5), 1.0);
    assert_eq!(max_step(3.0, 1.0 / 60.0), (3.0f64 * (1.0 / 60.0)) as f32, "computed in f64");
    for no_limit in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert_eq!(max_step(no_limit, 0.5), f32::INFINITY, "speed {no_limit}");
    }
    for no_time in [-0.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0] {
        assert_eq!(max_step(2.0, no_time), 0.0, "delta {no_time}");
    }
    assert_eq!(max_step(f32::MAX, 10.0), f32::INFINITY, "beyond f32");
}

#[test]
fn up_is_against_gravity_and_mirrors() {
    assert_approx_eq!(up_from_gravity(Vec2::new(0.0, 980.0)), Vec2::new(0.0, -1.0), 1e-6);
    let slanted = up_from_gravity(Vec2::new(300.0, 400.0));
    assert_approx_eq!(slanted, Vec2::new(-0.6, -0.8), 1e-6);
    assert_eq!(up_from_gravity(mirror(Vec2::new(300.0, 400.0))), mirror(slanted));
    for none in [Vec2::ZERO, Vec2::new(f32::NAN, 1.0), Vec2::new(f32::INFINITY, 0.0), Vec2::splat(f32::MAX)] {
        assert_eq!(up_from_gravity(none), Vec2::new(0.0, -1.0), "gravity {none}");
    }
    assert_eq!(up_from_gravity(Vec2::new(0.0, 1e-30)), Vec2::new(0.0, -1.0), "too small to normalize");
}

/// A basis: rotation `angle`, then `scale` (either sign) and `skew`, as Godot builds a node's.
fn basis(angle: f32, scale: Vec2, skew: f32) -> Mat2 {
    Mat2::from_angle(angle)
        * Mat2::from_cols(Vec2::new(scale.x, 0.0), Vec2::new(-scale.y * skew.sin(), scale.y * skew.cos()))
}

/// `M·B`: a basis reflected across the y axis with the world.
fn mirrored(b: Mat2) -> Mat2 {
    Mat2::from_cols(mirror(b.x_axis), mirror(b.y_axis))
}

#[test]
fn an_offset_in_the_parent_moves_the_node_by_the_global_offset_also_mirrored() {
    let offset = Vec2::new(0.0, 12.0);
    assert_eq!(offset_in_parent(Mat2::IDENTITY, Mat2::IDENTITY, offset), Some(offset));
    let cases = [
        (basis(0.4, Vec2::new(2.0, 0.5), 0.3), basis(-0.2, Vec2::new(1.5, 1.0), 0.0)),
        (basis(1.1, Vec2::new(-1.0, 1.0), 0.0), basis(0.0, Vec2::new(-1.0, 1.0), 0.0)), // the hips' own flip
        (basis(-2.0, Vec2::new(0.7, -1.3), -0.4), basis(0.9, Vec2::ONE, 0.2)),
    ];
    for (global, local) in cases {
        // The parent's basis is global · local⁻¹: the answer, added to the local position, moves the node by
        // `offset`.
        let parent = global * local.inverse();
        let in_parent = offset_in_parent(global, local, offset).unwrap();
        assert_approx_eq!(parent * in_parent, offset, 1e-4);
        // The world reflected (the node's global basis and the offset): the same local change, which moves the
        // reflected node by the reflected offset.
        let reflected = offset_in_parent(mirrored(global), local, mirror(offset)).unwrap();
        assert_approx_eq!(reflected, in_parent, 1e-4);
        assert_approx_eq!(mirrored(parent) * reflected, mirror(offset), 1e-4);
    }
    assert_eq!(offset_in_parent(Mat2::ZERO, Mat2::IDENTITY, offset), None, "a zero scale");
    assert_eq!(offset_in_parent(Mat2::from_diagonal(Vec2::new(1e-6, 1e-6)), Mat2::IDENTITY, offset), None);
    assert_eq!(offset_in_parent(Mat2::from_diagonal(Vec2::new(f32::NAN, 1.0)), Mat2::IDENTITY, offset), None);
    assert_eq!(offset_in_parent(Mat2::IDENTITY, Mat2::IDENTITY, Vec2::new(f32::INFINITY, 0.0)), None);
}

/// The global direction of the foot's x axis when it has the local rotation `rotation` under a tip of basis `tip`.
fn drawn_axis(tip: Mat2, rotation: f32, foot_basis: Mat2) -> Vec2 {
    (tip * Mat2::from_angle(rotation) * foot_basis * Vec2::X).normalize()
}

#[test]
fn the_foot_keeps_its_animated_angle_to_the_world_turned_by_the_tilt() {
    let foot_basis = basis(0.0, Vec2::new(1.2, 0.8), 0.2);
    let animated_tip = Affine2::from_mat2_translation(basis(0.7, Vec2::new(1.0, 1.5), 0.1), Vec2::new(40.0, 90.0));
    let (animated, tilt) = (0.3, -0.25);
    let wanted = rotate(drawn_axis(animated_tip.matrix2, animated, foot_basis), tilt);
    // The leg's solve turned the tip; the foot turns back so that it stays level with the world (plus the tilt).
    for tip_now in [basis(1.9, Vec2::new(1.0, 1.5), 0.1), basis(-0.4, Vec2::new(-1.0, 1.5), 0.1), animated_tip.matrix2]
    {
        let rotation = foot_rotation(animated_tip, animated, foot_basis, tilt, tip_now).unwrap();
        assert_approx_eq!(drawn_axis(tip_now, rotation, foot_basis), wanted, 1e-5);
        assert!((rotation - animated).abs() <= PI, "within half a turn of the animated rotation: {rotation}");
    }
    // Unmoved and untilted: the animated rotation.
    assert_approx_eq!(
        foot_rotation(animated_tip, animated, foot_basis, 0.0, animated_tip.matrix2).unwrap(),
        animated,
        1e-6
    );
    // An animated rotation many turns around stays near it, not wrapped.
    let far = foot_rotation(animated_tip, animated + 20.0 * PI, foot_basis, tilt, animated_tip.matrix2).unwrap();
    assert!((far - (animated + 20.0 * PI)).abs() <= PI, "{far}");
    assert_eq!(foot_rotation(animated_tip, animated, foot_basis, tilt, Mat2::ZERO), None, "a collapsed tip");
    assert_eq!(foot_rotation(animated_tip, f32::NAN, foot_basis, tilt, animated_tip.matrix2), None);
}

#[test]
fn a_mirrored_tip_gives_the_rotation_that_draws_the_mirrored_foot() {
    let foot_basis = basis(0.0, Vec2::new(-1.0, 1.0), 0.0); // a foot that is itself flipped
    let cases = [
        (basis(0.7, Vec2::ONE, 0.0), basis(1.3, Vec2::ONE, 0.0), 0.3, 0.2),
        (basis(-2.2, Vec2::new(1.0, -1.0), 0.0), basis(2.8, Vec2::new(1.0, -1.0), 0.0), -1.1, -0.35),
        (basis(0.1, Vec2::new(1.5, 0.8), 0.3), basis(-0.6, Vec2::new(1.5, 0.8), 0.3), 2.9, 0.4),
    ];
    for (animated_tip, tip_now, animated, tilt) in cases {
        let animated_tip = Affine2::from_mat2_translation(animated_tip, Vec2::new(25.0, 60.0));
        let rotation = foot_rotation(animated_tip, animated, foot_basis, tilt, tip_now).unwrap();
        let reflected_tip =
            Affine2::from_mat2_translation(mirrored(animated_tip.matrix2), mirror(animated_tip.translation));
        let reflected = foot_rotation(reflected_tip, animated, foot_basis, -tilt, mirrored(tip_now)).unwrap();
        assert_approx_eq!(
            drawn_axis(mirrored(tip_now), reflected, foot_basis),
            mirror(drawn_axis(tip_now, rotation, foot_basis)),
            1e-5
        );
        assert_approx_eq!(reflected, rotation, 1e-5);
    }
}
