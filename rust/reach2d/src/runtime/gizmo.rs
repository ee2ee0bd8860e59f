//! The editor gizmo every node draws on itself: the chain, the target, the pole, and each limited bone's allowed arc;
//! the colours and the drawing space a node's own gizmo (`PathChain2D`'s path, `FabrikRig2D`'s tree,
//! `CopyTransform2D`'s link) draws with.

use core::f32::consts::TAU;

use glam::Affine2;
use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::write_back::ChainPose;
use reach2d_core::{AngleLimit, Vec2};

use crate::engine::convert::{affine, transform2d, vector2};
use crate::io::bones::{self, Bones};

pub const CHAIN_COLOR: Color = Color::from_rgba(1.0, 0.62, 0.2, 0.9);
const LIMIT_COLOR: Color = Color::from_rgba(0.35, 0.85, 1.0, 0.55);
pub const TARGET_COLOR: Color = Color::from_rgba(1.0, 0.3, 0.45, 0.95);
const POLE_COLOR: Color = Color::from_rgba(0.55, 1.0, 0.45, 0.9);

/// Draws the gizmo into `node`, in global coordinates; only in the editor. The pole (if any) is a diamond with a
/// dashed line from the chain's middle joint, the one it pulls.
pub fn draw(
    node: &mut Gd<Node2D>,
    bones: &Bones,
    target: Option<&Gd<Node2D>>,
    pole: Option<&Gd<Node2D>>,
    limits: &[Option<AngleLimit>],
) {
    if !crate::engine::editor::in_editor() {
        return;
    }
    let Some((pose, rotations)) = bones::drawn_pose(bones) else { return };
    // A node scaled to zero has no local space to draw in (and Godot's affine_inverse would complain).
    let Some(scale) = draw_in_global_space(node) else { return };
    let width = 2.0 / scale;

    // The written pose: the read pose with the rotations of the last solve.
    let mut parent = pose.parent;
    let mut origins = Vec::with_capacity(bones.chain.len() + 1);
    for (i, bone) in pose.bones.iter().enumerate() {
        let rotation = rotations.get(i).copied().unwrap_or(bone.rotation);
        if let Some(limit) = limits.get(i).copied().flatten() {
            draw_limit(node, &pose, parent, i, limit, 18.0 / scale, width);
        }
        parent *= bone.local_with(rotation);
        origins.push(parent.translation);
    }
    origins.push(parent.transform_point2(pose.tip_offset));
    for pair in origins.windows(2) {
        node.draw_line_ex(vector2(pair[0]), vector2(pair[1]), CHAIN_COLOR).width(width).done();
    }
    for &origin in &origins {
        node.draw_circle(vector2(origin), 3.0 / scale, CHAIN_COLOR);
    }
    if let Some(target) = target.filter(|t| t.is_instance_valid() && t.is_inside_tree()) {
        let p = target.get_global_position();
        let r = 7.0 / scale;
        node.draw_arc_ex(p, r, 0.0, TAU, 24, TARGET_COLOR).width(width).done();
        node.draw_line_ex(p - Vector2::new(r, 0.0), p + Vector2::new(r, 0.0), TARGET_COLOR).width(width).done();
        node.draw_line_ex(p - Vector2::new(0.0, r), p + Vector2::new(0.0, r), TARGET_COLOR).width(width).done();
    }
    if let Some(pole) = pole.filter(|p| p.is_instance_valid() && p.is_inside_tree()) {
        let p = pole.get_global_position();
        let r = 6.0 / scale;
        let middle = vector2(origins[origins.len() / 2]);
        if p.is_finite() {
            node.draw_dashed_line_ex(middle, p, POLE_COLOR).width(width * 0.75).dash(6.0 / scale).done();
            let corners = [
                p + Vector2::new(r, 0.0),
                p + Vector2::new(0.0, r),
                p - Vector2::new(r, 0.0),
                p - Vector2::new(0.0, r),
            ];
            for i in 0..4 {
                node.draw_line_ex(corners[i], corners[(i + 1) % 4], POLE_COLOR).width(width).done();
            }
        }
    }
    node.draw_set_transform_matrix(transform2d(Affine2::IDENTITY));
}

/// The arc swept by bone `i`'s child joint as its rotation runs from `limit.min` to `limit.max`.
fn draw_limit(
    node: &mut Gd<Node2D>,
    pose: &ChainPose<'_>,
    parent: Affine2,
    i: usize,
    limit: AngleLimit,
    radius: f32,
    width: f32,
) {
    let bone = pose.bones[i];
    let offset = pose.bones.get(i + 1).map_or(pose.tip_offset, |b| b.position);
    let at = |rotation: f32| (parent * bone.local_with(rotation)).transform_vector2(offset);
    let (start, end) = (at(limit.min), at(limit.max));
    if start.length_squared() < 1e-12 || end.length_squared() < 1e-12 {
        return;
    }
    // A reflection in the parent turns the sweep the other way round.
    let handedness = parent.matrix2.determinant().signum();
    let from = start.to_angle();
    let to = from + handedness * limit.width();
    let center = vector2((parent * bone.local()).translation);
    let (a, b) = if from <= to { (from, to) } else { (to, from) };
    node.draw_arc_ex(center, radius, a, b, 24, LIMIT_COLOR).width(width).done();
    for edge in [start, end] {
        node.draw_line_ex(center, center + vector2(edge.normalize_or_zero() * radius), LIMIT_COLOR)
            .width(width * 0.75)
            .done();
    }
}

const HOME_COLOR: Color = Color::from_rgba(0.55, 0.75, 1.0, 0.9);
const FOOT_COLOR: Color = Color::from_rgba(1.0, 0.62, 0.2, 0.95);
const ARC_COLOR: Color = Color::from_rgba(1.0, 0.85, 0.35, 0.6);

/// What `LegStepper2D`'s gizmo shows, global px.
pub struct StepGizmo<'a> {
    pub homes: &'a [Vec2],
    pub feet: &'a [reach2d_core::stepper::StepFoot],
    pub up: Vec2,
    pub step_distance: f32,
    pub step_height: f32,
}

/// Draws `LegStepper2D`'s gizmo into `node` (only in the editor): each home (a ring) with the step its foot takes
/// through it (the arc from half a step behind to half a step ahead), each planted foot (a dot) and each swing's arc.
pub fn draw_steps(node: &mut Gd<Node2D>, gizmo: &StepGizmo<'_>) {
    use reach2d_core::stepper::{FootPhase, swing_point};
    if !crate::engine::editor::in_editor() {
        return;
    }
    let Some(scale) = draw_in_global_space(node) else { return };
    let width = 1.5 / scale;
    let arc = |node: &mut Gd<Node2D>, from: Vec2, to: Vec2| {
        let mut last = from;
        for k in 1..=12 {
            let next = swing_point(from, to, gizmo.up, gizmo.step_height, k as f32 / 12.0);
            node.draw_line_ex(vector2(last), vector2(next), ARC_COLOR).width(width).done();
            last = next;
        }
    };
    let half_step = gizmo.up.perp() * gizmo.step_distance * 0.5;
    for (foot, &home) in gizmo.feet.iter().zip(gizmo.homes) {
        node.draw_arc_ex(vector2(home), 5.0 / scale, 0.0, TAU, 16, HOME_COLOR).width(width).done();
        match foot.phase() {
            FootPhase::Planted { at } => {
                let level = home - gizmo.up * (home - at).dot(gizmo.up);
                arc(node, level - half_step, level + half_step);
                node.draw_circle(vector2(at), 3.5 / scale, FOOT_COLOR);
            }
            FootPhase::Swinging { from, to, .. } => arc(node, from, to),
            FootPhase::Hanging => {}
        }
    }
    node.draw_set_transform_matrix(transform2d(Affine2::IDENTITY));
}

/// Sets `node`'s drawing to global px and returns the global-to-local scale (line widths divided by it stay the same
/// on screen), or `None` when the node's global transform cannot be inverted (a zero scale: nothing is drawn).
pub fn draw_in_global_space(node: &mut Gd<Node2D>) -> Option<f32> {
    let global = affine(node.get_global_transform());
    let inverse = global.matrix2.try_inverse()?;
    let to_local = Affine2::from_mat2_translation(inverse, -(inverse * global.translation));
    node.draw_set_transform_matrix(transform2d(to_local));
    Some(to_local.matrix2.x_axis.length().max(1e-3))
}
