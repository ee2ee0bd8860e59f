//! The editor's drawing of a `Ragdoll2D`: each bone's capsule and, at each joint, its angle limit (the arc its
//! bone may sweep). Drawn only in the editor; nothing here runs in a game.

use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::ragdoll::place_capsule;

use super::state::Rig;
use crate::engine::convert::{affine, vector2};
use crate::runtime::limits::AngleLimits;

const CAPSULE: Color = Color::from_rgba(1.0, 0.55, 0.2, 0.9);
const LIMIT: Color = Color::from_rgba(0.3, 0.8, 1.0, 0.6);

/// Draws `rig`'s capsules and limits on `node` (in its local space).
pub fn draw(node: &mut Gd<Node2D>, rig: &Rig, width: f32, widths: &PackedFloat32Array, limits: &AngleLimits) {
    if !rig.alive() {
        return;
    }
    let Some(to_local) = affine(node.get_global_transform()).matrix2.try_inverse().map(|m| {
        let origin = affine(node.get_global_transform()).translation;
        move |p: reach2d_core::Vec2| m * (p - origin)
    }) else {
        return;
    };
    for (i, bone) in rig.bones.iter().enumerate() {
        let global = affine(bone.get_global_transform());
        let w = widths.get(i).filter(|w| *w > 0.0).unwrap_or(width);
        let Some(capsule) = place_capsule(global, rig.lengths[i], rig.bone_angles[i], w) else { continue };
        let p = capsule.placement;
        let (start, end) = (p.origin, p.point(reach2d_core::Vec2::new(capsule.length, 0.0)));
        let side = reach2d_core::Vec2::from_angle(p.angle).perp() * capsule.radius;
        for offset in [side, -side] {
            node.draw_line(vector2(to_local(start + offset)), vector2(to_local(end + offset)), CAPSULE);
        }
        let radius = capsule.radius.max(1.0);
        for (centre, from) in
            [(start, p.angle + core::f32::consts::FRAC_PI_2), (end, p.angle - core::f32::consts::FRAC_PI_2)]
        {
            let c = vector2(to_local(centre));
            node.draw_arc(c, radius, from, from + core::f32::consts::PI, 12, CAPSULE);
        }
        if let (Some(limit), Some(parent)) = (limits.get(i as i64), rig.parents[i].map(|p| &rig.bones[p])) {
            // The arc of directions the bone may point in: its limit on the local rotation, seen in its parent.
            let parent_global = affine(parent.get_global_transform());
            let rest = bone.get_rotation();
            let sweep = |rotation: f32| {
                let turned = global.matrix2 * reach2d_core::Vec2::from_angle(rig.bone_angles[i]);
                let delta = rotation - rest;
                let sign = parent_global.matrix2.determinant().signum();
                turned.to_angle() + sign * delta
            };
            let (a, b) = (sweep(limit.min), sweep(limit.max));
            let (from, to) = if a <= b { (a, b) } else { (b, a) };
            let c = vector2(to_local(start));
            node.draw_arc(c, capsule.length * 0.4, from, to, 24, LIMIT);
        }
    }
}
