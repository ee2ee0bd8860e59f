//! What the copy's tests share: transforms built like the engine's, reflections, and the bone's global transform
//! after a copy.

use glam::{Affine2, Mat2, Vec2};

use crate::copy_transform::{BoneFrame, Copied, LocalPose};

/// A local transform from `Node2D`'s properties: position, rotation, scale, skew.
pub fn pose(position: Vec2, rotation: f32, scale: Vec2, skew: f32) -> LocalPose {
    LocalPose { position, rotation, scale, skew }
}

/// A plain bone: at `position`, turned by `rotation`, unit scale.
pub fn plain(position: Vec2, rotation: f32) -> LocalPose {
    pose(position, rotation, Vec2::ONE, 0.0)
}

/// The reflection across the line through `through` at `angle` radians.
pub fn reflection(angle: f32, through: Vec2) -> Affine2 {
    let turn = Mat2::from_angle(angle);
    let m = turn * Mat2::from_diagonal(Vec2::new(1.0, -1.0)) * turn.transpose();
    Affine2::from_translation(through) * Affine2::from_mat2(m) * Affine2::from_translation(-through)
}

/// A bone found with `unwritten` under a parent at `parent`, resting at `rest`.
pub fn frame(unwritten: LocalPose, parent: Affine2, rest: Affine2) -> BoneFrame {
    BoneFrame { unwritten, parent, rest }
}

/// The bone's local pose after `copied` (skew as it was).
pub fn written(bone: &BoneFrame, copied: &Copied) -> LocalPose {
    LocalPose { position: copied.position, rotation: copied.rotation, scale: copied.scale, skew: bone.unwritten.skew }
}

/// The bone's global transform after `copied`.
pub fn global_after(bone: &BoneFrame, copied: &Copied) -> Affine2 {
    bone.parent * written(bone, copied).transform()
}

/// The angle from `a` to `b`, radians, the short way round.
pub fn angle_between(a: Vec2, b: Vec2) -> f32 {
    crate::angle::signed_angle(a, b).abs()
}
