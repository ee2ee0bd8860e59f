use glam::{Affine2, Mat2, Vec2};

use super::*;
use crate::write_back::BonePose;

/// The global angle of a bone's axis when it has `rotation` under `parent`.
fn axis_angle(parent: Affine2, bone: &BonePose, bone_angle: f32, rotation: f32) -> f32 {
    (parent * bone.local_with(rotation)).matrix2.mul_vec2(Vec2::from_angle(bone_angle)).to_angle()
}

#[test]
fn the_rotation_that_lays_the_bone_along_its_body_comes_back_under_any_mirror() {
    let flips = [Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0), Vec2::new(1.0, -1.0), Vec2::new(-2.0, 2.0)];
    for parent_flip in flips {
        for own_flip in flips {
            let parent = Affine2::from_mat2_translation(
                Mat2::from_angle(0.7) * Mat2::from_diagonal(parent_flip),
                Vec2::new(5.0, 3.0),
            );
            let bone = BonePose::new(Vec2::new(10.0, 0.0), 0.0, own_flip, 0.0);
            let rotation = 0.9;
            let body = axis_angle(parent, &bone, 0.3, rotation);
            let back = bone_rotation(parent, &bone, 0.3, body);
            assert!((back - rotation).abs() < 1e-5, "{parent_flip} {own_flip}: {back}");
        }
    }
}

#[test]
fn a_collapsed_parent_keeps_the_rotation() {
    let bone = BonePose::new(Vec2::ZERO, 0.4, Vec2::ONE, 0.0);
    let collapsed = Affine2::from_scale(Vec2::new(0.0, 1.0));
    assert_eq!(bone_rotation(collapsed, &bone, 0.0, 1.0), 0.4);
    assert_eq!(bone_rotation(Affine2::IDENTITY, &bone, 0.0, f32::NAN), 0.4);
}

#[test]
fn blending_goes_the_short_way_and_clamps_its_weight() {
    let animated = [3.0, 0.0];
    let mut physics = [-3.0, 1.0];
    let mut root = Vec2::new(10.0, 0.0);
    blend_pose(&animated, &mut physics, (Vec2::ZERO, &mut root), 0.5);
    assert!((physics[0].rem_euclid(core::f32::consts::TAU) - core::f32::consts::PI).abs() < 1e-5);
    assert_eq!(physics[1], 0.5);
    assert_eq!(root, Vec2::new(5.0, 0.0));
    let mut physics = [1.0, 1.0];
    blend_pose(&animated[..2], &mut physics, (Vec2::ZERO, &mut root), f32::NAN);
    assert_eq!(physics, animated);
}
