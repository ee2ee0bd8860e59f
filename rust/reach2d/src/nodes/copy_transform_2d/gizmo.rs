//! `CopyTransform2D`'s gizmo: the bone it drives and its link to the source, drawn with the colours and the global
//! drawing space of the shared gizmo (`runtime/gizmo.rs`).

use core::f32::consts::TAU;

use glam::Affine2;
use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::Vec2;

use crate::engine::convert::{affine, transform2d, vector2};
use crate::runtime::gizmo::{CHAIN_COLOR, TARGET_COLOR, draw_in_global_space};

/// Draws the bone it drives (its origin to its end), the source as a ring, and a dashed line from the source to the
/// bone (the source link); only in the editor.
pub fn draw_link(node: &mut Gd<Node2D>, source: Option<&Gd<Node2D>>, bone: Option<&Gd<Bone2D>>) {
    if !crate::engine::editor::in_editor() {
        return;
    }
    let Some(bone) = bone.filter(|b| b.is_instance_valid() && b.is_inside_tree()) else { return };
    let Some(scale) = draw_in_global_space(node) else { return };
    let width = 2.0 / scale;
    let bone_global = affine(bone.get_global_transform());
    let origin = bone_global.translation;
    let end = bone_global.transform_point2(Vec2::from_angle(bone.get_bone_angle()) * bone.get_length());
    if origin.is_finite() && end.is_finite() {
        node.draw_line_ex(vector2(origin), vector2(end), CHAIN_COLOR).width(width).done();
        node.draw_circle(vector2(origin), 3.0 / scale, CHAIN_COLOR);
        if let Some(source) = source.filter(|s| s.is_instance_valid() && s.is_inside_tree()) {
            let p = source.get_global_position();
            if p.is_finite() {
                node.draw_arc_ex(p, 7.0 / scale, 0.0, TAU, 24, TARGET_COLOR).width(width).done();
                node.draw_dashed_line_ex(p, vector2(origin), TARGET_COLOR).width(width * 0.5).dash(4.0 / scale).done();
            }
        }
    }
    node.draw_set_transform_matrix(transform2d(Affine2::IDENTITY));
}
