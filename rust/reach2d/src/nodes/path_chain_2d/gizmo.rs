//! `PathChain2D`'s own gizmo: the path as its chain fits it (the bones are the common gizmo, `runtime/gizmo.rs`).

use core::f32::consts::TAU;

use glam::Affine2;
use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::Vec2;

use crate::engine::convert::{transform2d, vector2};
use crate::runtime::gizmo::draw_in_global_space;

const PATH_COLOR: Color = Color::from_rgba(0.75, 0.55, 1.0, 0.8);

/// `PathChain2D`'s path as its chain fits it: `points` (global px, the curve as sampled and placed) and a ring where
/// the chain enters it (`entry`); only in the editor.
pub fn draw_path(node: &mut Gd<Node2D>, points: &[Vec2], entry: Vec2) {
    if !crate::engine::editor::in_editor() || points.len() < 2 {
        return;
    }
    let Some(scale) = draw_in_global_space(node) else { return };
    let line: PackedVector2Array = points.iter().map(|&p| vector2(p)).collect();
    node.draw_polyline_ex(&line, PATH_COLOR).width(1.5 / scale).done();
    node.draw_arc_ex(vector2(entry), 6.0 / scale, 0.0, TAU, 24, PATH_COLOR).width(2.0 / scale).done();
    node.draw_set_transform_matrix(transform2d(Affine2::IDENTITY));
}
