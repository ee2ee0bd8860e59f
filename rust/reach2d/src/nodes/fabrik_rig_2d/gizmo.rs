//! `FabrikRig2D`'s gizmo: a tree of bones, not one chain, so not the common gizmo of `runtime/gizmo.rs`.

use core::f32::consts::TAU;

use glam::Affine2;
use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::{FabrikRig, Vec2};

use crate::engine::convert::{transform2d, vector2};
use crate::runtime::gizmo::{CHAIN_COLOR, TARGET_COLOR, draw_in_global_space};

/// `FabrikRig2D`'s gizmo: the rig's bones as solved last (each origin to its parent's, each tip to its end) and a
/// line from each end to its target; only in the editor.
pub fn draw_rig(node: &mut Gd<Node2D>, rig: Option<&FabrikRig>, points: &[Vec2], targets: &[Gd<Node2D>]) {
    if !crate::engine::editor::in_editor() {
        return;
    }
    let Some(rig) = rig.filter(|rig| points.len() == rig.point_count()) else { return };
    let Some(scale) = draw_in_global_space(node) else { return };
    let width = 2.0 / scale;
    let n = rig.bone_count();
    for i in 1..n {
        if let Some(parent) = rig.parent(i) {
            node.draw_line_ex(vector2(points[parent]), vector2(points[i]), CHAIN_COLOR).width(width).done();
        }
    }
    for (k, target) in targets.iter().enumerate() {
        let Some(&end) = points.get(n + k) else { break };
        node.draw_circle(vector2(end), 3.0 / scale, CHAIN_COLOR);
        if target.is_instance_valid() && target.is_inside_tree() {
            let p = target.get_global_position();
            let r = 7.0 / scale;
            node.draw_arc_ex(p, r, 0.0, TAU, 24, TARGET_COLOR).width(width).done();
            node.draw_dashed_line_ex(vector2(end), p, TARGET_COLOR).width(width * 0.5).dash(4.0 / scale).done();
        }
    }
    for &origin in &points[..n] {
        node.draw_circle(vector2(origin), 3.0 / scale, CHAIN_COLOR);
    }
    node.draw_set_transform_matrix(transform2d(Affine2::IDENTITY));
}
