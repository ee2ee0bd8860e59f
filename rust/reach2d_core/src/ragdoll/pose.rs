//! The bodies' pose turned back into the bones' local rotations, and blended with the animated pose.

use glam::{Affine2, Vec2};

use crate::write_back::{BonePose, lerp_angle};

/// The local rotation that lays a bone along the body angle `body_angle` (global, radians) under its parent's new
/// global transform `parent_global`: `angle(parent⁻¹ · axis) − angle(basis · from_angle(bone_angle))`, the
/// reflection of the parent or of the bone's own basis living inside the matrices (no sign rule). Undefined
/// directions (a collapsed parent or basis, a value that is not finite) keep the bone's own rotation.
#[must_use]
pub fn bone_rotation(parent_global: Affine2, bone: &BonePose, bone_angle: f32, body_angle: f32) -> f32 {
    let Some(inverse) = parent_global.matrix2.try_inverse() else { return bone.rotation };
    let aim = inverse * Vec2::from_angle(body_angle);
    let own = bone.basis * Vec2::from_angle(bone_angle);
    let rotation = aim.to_angle() - own.to_angle();
    let tiny = f32::EPSILON;
    if rotation.is_finite() && aim.length_squared() > tiny && own.length_squared() > tiny {
        bone.rotation + crate::angle::wrap_angle(rotation - bone.rotation)
    } else {
        bone.rotation
    }
}

/// The written pose: each rotation from `animated` toward `physics` by `weight` (the shorter way round, in place
/// in `physics`), and the root's position likewise. A weight outside [0, 1] is clamped; a NaN weight counts as 0.
pub fn blend_pose(animated: &[f32], physics: &mut [f32], root: (Vec2, &mut Vec2), weight: f32) {
    let weight = if weight.is_nan() { 0.0 } else { weight.clamp(0.0, 1.0) };
    for (written, &from) in physics.iter_mut().zip(animated) {
        *written = lerp_angle(from, *written, weight);
    }
    let (from, to) = root;
    *to = from.lerp(*to, weight);
}

#[cfg(test)]
mod tests;
