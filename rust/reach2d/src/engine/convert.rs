//! The one place where Godot's math types meet glam's.
//!
//! Reach2D builds with Godot's default single precision, so `real` is `f32` and every conversion is exact.

use glam::{Affine2, Mat2};
use godot::builtin::{Transform2D, Vector2};
use reach2d_core::Vec2;

/// A Godot vector as a glam vector.
pub fn vec2(v: Vector2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// A glam vector as a Godot vector.
pub fn vector2(v: Vec2) -> Vector2 {
    Vector2::new(v.x, v.y)
}

/// A Godot transform as a glam affine transform (same matrix, same meaning).
pub fn affine(t: Transform2D) -> Affine2 {
    Affine2::from_mat2_translation(Mat2::from_cols(vec2(t.a), vec2(t.b)), vec2(t.origin))
}

/// A glam affine transform as a Godot transform.
pub fn transform2d(a: Affine2) -> Transform2D {
    Transform2D::from_cols(vector2(a.matrix2.x_axis), vector2(a.matrix2.y_axis), vector2(a.translation))
}
