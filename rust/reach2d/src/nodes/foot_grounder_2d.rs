//! `FootGrounder2D`: puts the feet of one or two `TwoBoneIk2D` legs on the physics world's ground, turns each foot
//! bone to the slope and lowers the hips so the lower foot still reaches.
//!
//! A helper node rather than a property of the leg, because lowering the hips needs every leg's ground at once,
//! before either leg solves. It never writes a user's node: each leg reaches for a goal the grounder hands it on the
//! Rust side (`DrivenLeg::solve_toward`), in place of its target; the hips get a position offset the grounder owns
//! and the foot bones a rotation, both remembered and put back when it is disabled, leaves the tree or runs in the
//! editor (where it writes nothing). It runs in the one frame loop (`runtime/frame.rs`): its frame is in
//! `foot_grounder_2d/grounding.rs`, its state and the steps of the frame in `foot_grounder_2d/state.rs`, its setup in
//! `foot_grounder_2d/check.rs`, its engine callbacks in `foot_grounder_2d/callbacks.rs`; its rays in
//! `physics/ground.rs`.

use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;

use crate::engine::convert::vector2;
use crate::nodes::foot_grounder_2d::state::{Foot, GrounderState};
use crate::nodes::two_bone_ik_2d::TwoBoneIk2D;
use crate::problem::Problem;
use crate::runtime::checked;
use crate::runtime::frame::{self, UpdateMode};
use crate::runtime::node_property::NodeSlot;

mod callbacks;
mod check;
mod grounding;
pub mod state;

/// Puts the feet of one or two [TwoBoneIk2D] legs on the ground of the physics world: each foot's ray finds the
/// ground under where the animation put the foot, the leg reaches for that point, the foot bone turns to the
/// slope, and the hips come down so the lower foot still reaches on a slope or a stair.
///
/// [b]How it works.[/b] Every frame (after the animation, like the IK nodes) and for each leg: the foot's
/// [i]animated[/i] position is the end of the leg's [member TwoBoneIk2D.tip_bone] in the pose the IK did not write
/// (the animation's, or the scene's). A ray along gravity (the world's gravity direction, read once) through that
/// foot, from [member ray_above] above this node's ground line to [member ray_below] below it, finds the ground on
/// [member collision_mask]. The leg then reaches for the hit point plus [member foot_height] along the ground's
/// normal, plus the foot's lift: how far the animation raised the ankle above this node's ground line beyond
/// [member foot_height] (0 for a foot on or below it), so a swinging foot keeps its swing. Put this node where the animation's feet stand: its global position marks the ground line, the line
/// through it perpendicular to gravity. A foot whose ray finds nothing follows its animation.
///
/// [b]Heel and toe.[/b] A leg with a foot bone casts a second ray under its toe (the foot bone's end in the animated
/// pose; [member toe_ray]): the foot turns to the slope between the ground under its heel and under its toe, and the
/// whole foot comes up when its toe would otherwise go into the ground (a bump, a step's edge), keeping the height
/// the animation gave the toe above the ground line.
///
/// This node solves its legs itself, at run time: a leg named here does not solve by itself then (its
/// [member TwoBoneIk2D.update_mode] is unused), but keeps everything else ([member TwoBoneIk2D.pole], limits,
/// [member TwoBoneIk2D.weight], speed limit). A leg needs no [member TwoBoneIk2D.target]: the ground goal replaces
/// it, and the user's target is never moved.
///
/// [b]Feet and hips.[/b] [member first_foot] and [member second_foot] (optional: direct Bone2D children of each
/// leg's tip bone) keep their animated angle to the world, turned by the ground's slope up to [member max_tilt]. The
/// hips node (optional: a bone or node above both legs) is moved down along gravity by as much as the leg that
/// needs it most, up to [member max_hips_drop], so every leg reaches its ground as extended as the animation had it,
/// as an offset to its own position: an animation that moves the hips keeps working, and the offset is taken back
/// when this node is disabled or leaves the tree (a grounder that comes back, reparented, goes on where it was). The
/// feet's goals, the feet's turn and the hips move at most [member foot_speed], [member tilt_speed] and
/// [member hips_speed] per second, so a foot whose ray crosses a stair's edge glides up or down instead of popping.
///
/// Nothing runs in the editor by itself ([method advance] grounds when called, as the bake does), and saving takes
/// back what it wrote: the scene always stores your own pose. Everything is plane geometry on global
/// vectors, so a character mirrored with a negative scale on mirrored ground gets the exact mirror image.
#[reach2d_macros::shared_docs]
#[derive(GodotClass)]
#[class(init, tool, base = Node2D)]
pub struct FootGrounder2D {
    /// If [code]false[/code], the legs solve by themselves again (toward their targets), the hips and feet get their
    /// own pose back, and nothing is cast.
    #[export]
    #[var(set = set_enabled)]
    #[init(val = true)]
    enabled: bool,
    /// When the node grounds the feet: every process frame ([constant UPDATE_PROCESS]), every physics frame
    /// ([constant UPDATE_PHYSICS]), or only when [method advance] is called ([constant UPDATE_MANUAL]). Any other
    /// value is an error and is ignored.
    #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
    update_mode: UpdateMode,
    /// The first leg: a [TwoBoneIk2D] whose [member TwoBoneIk2D.tip_bone] ends at the ankle.
    #[export_group(name = "Legs")]
    #[export]
    #[init(val = NodeSlot::named("FootGrounder2D", "first_leg"))]
    first_leg: NodeSlot<TwoBoneIk2D>,
    /// Optional: the first leg's foot, a direct Bone2D child of its tip bone (at the ankle), turned to the ground's
    /// slope; its end (its length along its bone angle) is the toe, which casts its own ray ([member toe_ray]).
    #[export]
    #[init(val = NodeSlot::named("FootGrounder2D", "first_foot"))]
    first_foot: NodeSlot<Bone2D>,
    /// Optional: the second leg, like [member first_leg].
    #[export]
    #[init(val = NodeSlot::named("FootGrounder2D", "second_leg"))]
    second_leg: NodeSlot<TwoBoneIk2D>,
    /// Optional: the second leg's foot, like [member first_foot].
    #[export]
    #[init(val = NodeSlot::named("FootGrounder2D", "second_foot"))]
    second_foot: NodeSlot<Bone2D>,
    /// @shared ground.collision_mask
    #[export_group(name = "Ground")]
    #[export(flags_2d_physics)]
    #[var(set = set_collision_mask)]
    #[init(val = 1)]
    collision_mask: i64,
    /// @shared ground.collide_with_bodies
    #[export]
    #[init(val = true)]
    collide_with_bodies: bool,
    /// @shared ground.collide_with_areas
    #[export]
    collide_with_areas: bool,
    /// How far above the ground line each ray starts, in global pixels: the highest step a foot climbs. A negative
    /// (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 500.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_ray_above)]
    #[init(val = 40.0)]
    ray_above: f32,
    /// How far below the ground line each ray ends, in global pixels: the deepest step a foot goes down. A negative
    /// (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 500.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_ray_below)]
    #[init(val = 60.0)]
    ray_below: f32,
    /// How far the leg's end (the ankle) stays off the ground, in global pixels, along the ground's normal: the
    /// foot's own height. A negative (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 100.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_foot_height)]
    foot_height: f32,
    /// The most a foot bone turns to the ground's slope, in radians, in [0, PI/2]; steeper ground turns it this
    /// far. Anything else (or NaN) is an error and is ignored.
    #[export_group(name = "Feet")]
    #[export(range = (0.0, 90.0, 0.1, radians_as_degrees))]
    #[var(set = set_max_tilt)]
    #[init(val = 0.6)]
    max_tilt: f32,
    /// When on, each foot with a foot bone ([member first_foot], [member second_foot]) casts a second ray under its
    /// toe (the foot bone's end in the animated pose): the foot turns to the slope between the ground under its
    /// heel (the ankle's ray) and under its toe, and comes up when its toe would go into the ground (a bump, a
    /// step's edge). Off: one ray under the ankle, the foot turned to the ground's normal there, its toe free to
    /// sink into a bump ahead of it.
    #[export]
    #[init(val = true)]
    toe_ray: bool,
    /// The most a foot's turn to the slope changes per second, radians per second; 0 = no limit. A negative (or not
    /// finite) value is an error and is ignored.
    #[export(range = (0.0, 50.0, 0.1, or_greater, suffix = "rad/s"))]
    #[var(set = set_tilt_speed)]
    #[init(val = 8.0)]
    tilt_speed: f32,
    /// The most a foot's ground correction (its goal minus its animated position) changes per second, in global
    /// pixels per second; 0 = no limit. A foot whose ray crosses a stair's edge moves up or down at this speed. A
    /// negative (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 5000.0, 1.0, or_greater, suffix = "px/s"))]
    #[var(set = set_foot_speed)]
    #[init(val = 600.0)]
    foot_speed: f32,
    /// Optional: the node or bone moved down so the lower foot still reaches (the hips or pelvis bone, above both
    /// legs' root bones). Its [member Node2D.position] gets an offset along gravity that this node owns and takes
    /// back when disabled or leaving the tree; a position someone else sets (an animation) becomes the one the offset
    /// is added to.
    #[export_group(name = "Hips")]
    #[export]
    #[init(val = NodeSlot::named("FootGrounder2D", "hips"))]
    hips: NodeSlot<Node2D>,
    /// The most the hips come down, in global pixels; 0 = never. A negative (or not finite) value is an error and is
    /// ignored.
    #[export(range = (0.0, 200.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_max_hips_drop)]
    #[init(val = 30.0)]
    max_hips_drop: f32,
    /// The most the hips' drop changes per second, in global pixels per second; 0 = no limit. Keep it at least
    /// [member foot_speed], or a foot stepping down may briefly be out of reach while the hips follow. A negative
    /// (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 5000.0, 1.0, or_greater, suffix = "px/s"))]
    #[var(set = set_hips_speed)]
    #[init(val = 600.0)]
    hips_speed: f32,
    /// The feet, the hips, the ray queries and what the node reported.
    state: GrounderState,
    base: Base<Node2D>,
}

#[reach2d_macros::api(update_constants)]
#[godot_api]
impl FootGrounder2D {
    /// Grounds the feet now, advancing the speed limits by [param delta] seconds, whatever [member update_mode]
    /// says (not while disabled; in the editor only when called, as the bake does: what it wrote there is taken back
    /// before the scene is saved). Returns [code]true[/code] when every named leg was solved and nothing is wrong with
    /// the setup; [code]false[/code] when the frame reported a problem ([method get_setup_warning] says which), even
    /// if the legs were still solved (a freed foot bone: the legs are grounded, the foot is not turned).
    #[func]
    pub fn advance(&mut self, delta: f64) -> bool {
        frame::advance(self, delta)
    }

    /// Starts afresh, as a node just added: the hips and the feet get their own position and rotation back and the
    /// smoothing (the hips' drop, each foot's correction and tilt) starts from 0 on the next frame. The bake calls it
    /// before it runs the grounder, so bakes repeat whatever ran before them.
    #[func]
    pub fn reset(&mut self) {
        self.state.let_go(&self.hips, [&*self.first_foot, &*self.second_foot]);
        self.state.character.forget();
    }

    /// Why the node cannot ground the feet, in the words of its configuration warning; empty when the setup is
    /// valid. Checked when called, also before the first frame (manual mode): legs set, alive and with their bones
    /// set, each foot a direct child of its leg's tip bone, the hips alive; or what the last frame found (a leg that
    /// could not be read, no physics world, collapsed hips).
    #[func]
    pub fn get_setup_warning(&mut self) -> GString {
        self.mark_legs(); // A leg it names needs no target of its own.
        // A good setup does not clear what only a frame can find: no world, collapsed hips, a bad delta.
        let frame_found = |p: &Problem| p.found_by_solving() || matches!(p, Problem::NoWorld | Problem::HipsCollapsed);
        let checked = self.check_setup().and(self.check_claims());
        frame::helper_warning(self, checked, frame_found)
    }

    /// The goal the leg at [param index] (0: [member first_leg], 1: [member second_leg]) reached for last, global
    /// px; [code]Vector2.ZERO[/code] for another index (with an error).
    #[func]
    pub fn get_foot_goal(&self, index: i64) -> Vector2 {
        self.foot(index).map_or(Vector2::ZERO, |f| vector2(f.goal))
    }

    /// [code]true[/code] when the ray of the leg at [param index] found ground on the last frame.
    #[func]
    pub fn is_foot_grounded(&self, index: i64) -> bool {
        self.foot(index).is_some_and(|f| f.grounded)
    }

    /// The turn to the slope the foot at [param index] was given on the last frame, radians (clockwise on screen is
    /// positive, as for [member Node2D.rotation]).
    #[func]
    pub fn get_foot_tilt(&self, index: i64) -> f32 {
        self.foot(index).map_or(0.0, |f| f.tilt)
    }

    /// How far the hips are lowered now, global px along gravity (0 without [member hips]).
    #[func]
    pub fn get_hips_drop(&self) -> f32 {
        self.state.hips.amount
    }

    /// Sets [member enabled]; disabling puts the hips and feet back and lets the legs solve by themselves.
    #[func]
    fn set_enabled(&mut self, value: bool) {
        self.enabled = value;
        if !value {
            self.let_go();
        }
    }

    // The checked setters: a bad value prints one error naming the valid range and keeps the last good one.
    #[func]
    fn set_collision_mask(&mut self, value: i64) {
        checked::set_int(&mut self.collision_mask, "FootGrounder2D", "collision_mask", value, 0, i64::from(u32::MAX));
    }
    #[func]
    fn set_ray_above(&mut self, value: f32) {
        checked::set_float(&mut self.ray_above, "FootGrounder2D", "ray_above", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_ray_below(&mut self, value: f32) {
        checked::set_float(&mut self.ray_below, "FootGrounder2D", "ray_below", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_foot_height(&mut self, value: f32) {
        checked::set_float(&mut self.foot_height, "FootGrounder2D", "foot_height", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_max_tilt(&mut self, value: f32) {
        checked::set_float(&mut self.max_tilt, "FootGrounder2D", "max_tilt", value, 0.0, core::f32::consts::FRAC_PI_2);
    }
    #[func]
    fn set_tilt_speed(&mut self, value: f32) {
        checked::set_float(&mut self.tilt_speed, "FootGrounder2D", "tilt_speed", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_foot_speed(&mut self, value: f32) {
        checked::set_float(&mut self.foot_speed, "FootGrounder2D", "foot_speed", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_max_hips_drop(&mut self, value: f32) {
        checked::set_float(&mut self.max_hips_drop, "FootGrounder2D", "max_hips_drop", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_hips_speed(&mut self, value: f32) {
        checked::set_float(&mut self.hips_speed, "FootGrounder2D", "hips_speed", value, 0.0, f32::MAX);
    }
}

impl FootGrounder2D {
    /// The foot at `index`, or one error.
    fn foot(&self, index: i64) -> Option<&Foot> {
        let foot = usize::try_from(index).ok().and_then(|i| self.state.feet.get(i));
        if foot.is_none() {
            godot_error!("FootGrounder2D: leg index {index} is not 0 or 1");
        }
        foot
    }
}
