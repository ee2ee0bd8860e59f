//! `LegStepper2D`: legs that walk by themselves. One node per creature drives any number of legs (`TwoBoneIk2D`,
//! `FabrikChain2D`, `CcdChain2D`): each foot stays planted until its home has drifted a step away, then lifts along
//! an arc to a point ahead on the ground; the legs step in gait groups that take turns.
//!
//! A helper node like `FootGrounder2D`: it owns no bones, hands each leg its goal on the Rust side (the user's
//! targets are never moved), and marks its legs driven so their own ticks rest. It runs in the one frame loop
//! (`runtime/frame.rs`): its frame is in `leg_stepper_2d/walk.rs`, its state and the steps of the walk in
//! `leg_stepper_2d/state.rs`, its engine callbacks in `leg_stepper_2d/callbacks.rs`; the planning is
//! `reach2d_core::stepper`'s.

use godot::classes::Node2D;
use godot::prelude::*;

use crate::engine::editor::in_editor;
use crate::nodes::leg_stepper_2d::state::StepperState;
use crate::nodes::legs::Creature;
use crate::problem::Problem;
use crate::runtime::checked;
use crate::runtime::frame::{self, UpdateMode};
use crate::runtime::node_property::{NodeList, NodeSlot, NodeValue};

mod callbacks;
mod check;
mod readout;
pub mod state;
mod walk;

/// Makes legs walk by themselves: each foot stays planted until its home (where it rests under the moving body)
/// has drifted more than [member step_distance] away, then lifts along an arc to a point ahead on the ground. Legs
/// in one gait group step together and the groups take turns, so the body is never left unsupported: a spider, a
/// crab, a mech, a centipede, with no walk cycle authored.
///
/// [b]Setup.[/b] Add it as a child of the creature's root (the node your script moves), beside the skeleton and
/// [i]not[/i] under [member body]. List the legs in [member legs]: [TwoBoneIk2D], [FabrikChain2D] or [CcdChain2D]
/// nodes, no target needed. Each leg's home is where its end effector rests in the scene's pose (read on the first
/// frame, kept in this node's space so it moves and turns with the creature), or the point you give in
/// [member home_points]. [member gait_groups] puts each leg in a group (by default the legs alternate: 0, 1, 0,
/// 1...). Move the creature from a script at the default process priority (or in [code]_physics_process[/code] with
/// [member update_mode] on physics): this node runs after it, at process priority 100.
///
/// [b]Stepping.[/b] Each frame, a planted foot keeps its world point exactly (a planted foot never slides). When no
/// group is in the air, the group with a foot more than [member step_distance] from its home that stepped longest
/// ago lifts (each of its feet more than a quarter step from home). A lifting foot aims where its home will be when
/// it lands (its home moved on by the body's velocity over [member step_duration]) plus [member lead] seconds of that
/// velocity ahead, at most three quarters of a step; a ray along gravity there (from [member ray_above] above to
/// [member ray_below] below, on [member collision_mask]) finds where it plants, [member foot_height] off the surface.
/// A wall between the home and that point pulls the landing back in front of the wall; a surface steeper than
/// [member max_slope] is not stood on. The foot swings along an arc [member step_height] above the higher of its
/// two ends. A foot whose ray finds nothing hangs at its home and steps down when there is ground.
///
/// [b]The catch-up rule.[/b] While one group is in the air no other group lifts, unless one of its feet has been
/// left more than [member max_lag] behind: that foot lifts at once, alone (counted in
/// [method get_catch_up_count]). So no planted foot is ever dragged farther than [member max_lag] (plus one frame's
/// motion); beyond the speed the gait can follow, steps overlap. With [member max_lag] 0 the rule always holds and
/// the feet drag instead.
///
/// [b]Turns and teleports.[/b] A turn with a negative scale (a [code]scale.x[/code] sign change above this node)
/// mirrors the planted feet, the swings and the gait's phase with the body, so the legs keep their pose mirrored and
/// nothing pops. A jump of this node beyond [member teleport_distance] in one frame plants every foot at its home at
/// once, without steps across the map and without signals. Everything is plane geometry on global vectors: a
/// mirrored creature on mirrored ground walks as the mirror image.
///
/// [b]The body.[/b] [member body] (optional: the torso bone above every leg's root) is raised or lowered by the
/// planted feet's mean height over their homes, or, with [member tilt_body], along the line fitted through them
/// (tilted too), as an offset to its own position and rotation that this node takes back when disabled or leaving
/// the tree; [member body_speed] and [member body_tilt_speed] limit how fast. A [CharacterWeight2D] above this node
/// scales the raise and tilt (the legs apply it to themselves). A stepper that leaves the tree and comes back (a
/// reparent) walks on where it was: its feet stay planted, and the body's offset goes on from where it was.
///
/// [b]Signals.[/b] [signal foot_lifted] and [signal foot_planted] are emitted once per step, after the legs are
/// solved: footstep sounds, dust.
///
/// In the editor the legs stand on the ground under their homes (with [member editor_preview]; the preview leaves
/// the body alone), and saving stores your own pose. [method advance] steps there too, as a bake runs it: the body's
/// offset is taken back before the scene is saved. The gizmo shows the homes, the planted feet and each step's arc.
#[reach2d_macros::shared_docs]
#[derive(GodotClass)]
#[class(init, tool, base = Node2D)]
pub struct LegStepper2D {
    /// If [code]false[/code], the legs solve by themselves again (toward their targets, if any), the body gets its own
    /// pose back, and the feet are planted anew when it is enabled again.
    #[export]
    #[var(set = set_enabled)]
    #[init(val = true)]
    enabled: bool,
    /// When the legs step: every process frame ([constant UPDATE_PROCESS]), every physics frame
    /// ([constant UPDATE_PHYSICS]), or only when [method advance] is called ([constant UPDATE_MANUAL]). Any other
    /// value is an error and is ignored.
    #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
    update_mode: UpdateMode,
    /// In the editor, stand the legs on the ground under their homes while you edit. Saving stores your own pose.
    #[export]
    #[var(set = set_editor_preview)]
    #[init(val = true)]
    editor_preview: bool,

    /// The legs: [TwoBoneIk2D], [FabrikChain2D] or [CcdChain2D] nodes, each named once. Their targets are not needed
    /// (and never moved); each leg keeps its pole, limits, weight and speed limit.
    #[export_group(name = "Legs")]
    #[export]
    #[var(set = set_legs)]
    #[init(val = NodeList::named("LegStepper2D", "legs"))]
    legs: NodeList<Node2D>,
    /// The gait group of each leg, at the same index as in [member legs], from 0 to 63: legs in one group step
    /// together, and the groups take turns. A leg without an entry takes [code]index % 2[/code] (the legs alternate).
    /// An entry outside 0..63 is an error, and the groups are kept.
    #[export]
    #[var(set = set_gait_groups)]
    gait_groups: PackedInt32Array,
    /// Each leg's home, in this node's space (it moves and turns with the creature): where its foot rests. A leg
    /// without an entry takes its end effector in the pose the scene (or the animation) gives it, read on the first
    /// frame ([method capture_homes] reads it again). A NaN or infinite entry is an error, and the points are kept.
    #[export]
    #[var(set = set_home_points)]
    home_points: PackedVector2Array,

    /// How far a foot's home may drift from the planted foot (global px, across gravity) before the foot steps. A
    /// negative (or not finite) value is an error and is ignored.
    #[export_group(name = "Stepping")]
    #[export(range = (0.0, 200.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_step_distance)]
    #[init(val = 40.0)]
    step_distance: f32,
    /// How high the arc lifts a stepping foot above the higher of its two ends, halfway through the step, global px.
    /// A negative (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 100.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_step_height)]
    #[init(val = 16.0)]
    step_height: f32,
    /// How long a step takes, seconds; 0 lands it on the next frame. A negative (or not finite) value is an error
    /// and is ignored.
    #[export(range = (0.0, 2.0, 0.01, or_greater, suffix = "s"))]
    #[var(set = set_step_duration)]
    #[init(val = 0.2)]
    step_duration: f32,
    /// How far ahead of its home a foot lands, in seconds of the body's velocity (at most three quarters of
    /// [member step_distance]), so a fast walk does not fall behind. A negative (or not finite) value is an error and
    /// is ignored.
    #[export(range = (0.0, 1.0, 0.01, or_greater, suffix = "s"))]
    #[var(set = set_lead)]
    #[init(val = 0.1)]
    lead: f32,
    /// The catch-up limit, global px: a planted foot whose home drifted farther than this lifts even while another
    /// group is in the air. 0 = never: one group in the air at a time, always. A negative (or not finite) value is an
    /// error and is ignored.
    #[export(range = (0.0, 400.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_max_lag)]
    #[init(val = 80.0)]
    max_lag: f32,
    /// A jump of this node farther than this in one frame (global px) plants every foot at its home at once, with no
    /// steps across the map; 0 = never. A negative (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 2000.0, 1.0, or_greater, suffix = "px"))]
    #[var(set = set_teleport_distance)]
    #[init(val = 200.0)]
    teleport_distance: f32,

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
    /// How far above a foot's aim its ray starts, global px: the highest step a foot climbs, and the height of the
    /// wall check. A negative (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 500.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_ray_above)]
    #[init(val = 40.0)]
    ray_above: f32,
    /// How far below a foot's aim its ray ends, global px: the deepest step a foot goes down. A negative (or not
    /// finite) value is an error and is ignored.
    #[export(range = (0.0, 500.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_ray_below)]
    #[init(val = 60.0)]
    ray_below: f32,
    /// How far the leg's end stays off the ground, global px, along the ground's normal. A negative (or not finite)
    /// value is an error and is ignored.
    #[export(range = (0.0, 100.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_foot_height)]
    foot_height: f32,
    /// The steepest surface a foot stands on, radians from level (from the up the rays are cast against), in
    /// [0, PI]: a steeper hit counts as no ground. PI: anything, walls and ceilings included. Anything else (or NaN)
    /// is an error and is ignored.
    #[export(range = (0.0, 180.0, 0.1, radians_as_degrees))]
    #[var(set = set_max_slope)]
    #[init(val = 0.87)]
    max_slope: f32,
    /// Cast the rays along this node's own down (its global y axis) instead of gravity, and lift the feet along its
    /// up: a creature your script turns onto a wall or a ceiling walks on it (with [member max_slope] measured from
    /// its own up). Off: feet stand only on ground under gravity.
    #[export]
    stick_to_walls: bool,

    /// Optional: the node or bone raised and tilted by the planted feet (the torso, above every leg's root bone;
    /// not this node or one of its ancestors). Its [member Node2D.position] and [member Node2D.rotation] get an
    /// offset this node owns and takes back when disabled or leaving the tree; a value someone else sets (an
    /// animation) becomes the one the offset is added to.
    #[export_group(name = "Body")]
    #[export]
    #[init(val = NodeSlot::named("LegStepper2D", "body"))]
    body: NodeSlot<Node2D>,
    /// Tilt the body too, along the line fitted through the planted feet (least squares); off: raise or lower it by
    /// their mean height only.
    #[export]
    tilt_body: bool,
    /// The most the body is raised or lowered, global px. A negative (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 200.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_max_body_offset)]
    #[init(val = 30.0)]
    max_body_offset: f32,
    /// The most the body is tilted, radians, in [0, PI/2]. Anything else (or NaN) is an error and is ignored.
    #[export(range = (0.0, 90.0, 0.1, radians_as_degrees))]
    #[var(set = set_max_body_tilt)]
    #[init(val = 0.35)]
    max_body_tilt: f32,
    /// The most the body's raise changes per second, global px/s; 0 = no limit. A negative (or not finite) value is
    /// an error and is ignored.
    #[export(range = (0.0, 2000.0, 1.0, or_greater, suffix = "px/s"))]
    #[var(set = set_body_speed)]
    #[init(val = 200.0)]
    body_speed: f32,
    /// The most the body's tilt changes per second, rad/s; 0 = no limit. A negative (or not finite) value is an
    /// error and is ignored.
    #[export(range = (0.0, 50.0, 0.1, or_greater, suffix = "rad/s"))]
    #[var(set = set_body_tilt_speed)]
    #[init(val = 2.0)]
    body_tilt_speed: f32,

    /// The legs, the feet, the body's offset, the ray queries and what the node reported.
    state: StepperState,
    /// The creature it walks (`legs.rs`): found when the legs are first resolved, again after `legs` is set; moved
    /// out from under it (checked when it enters the tree), the node refuses to walk (issue 36).
    creature: Creature,
    base: Base<Node2D>,
}

#[reach2d_macros::api(update_constants)]
#[godot_api]
impl LegStepper2D {
    /// Emitted when the foot of [member legs][[param leg_index]] lands, at [param position] (global px).
    #[signal]
    fn foot_planted(leg_index: i64, position: Vector2);

    /// Emitted when the foot of [member legs][[param leg_index]] lifts off the ground.
    #[signal]
    fn foot_lifted(leg_index: i64);

    /// Steps now, advancing time by [param delta] seconds, whatever [member update_mode] says (not while
    /// disabled). Returns [code]true[/code] when every leg was solved. In the editor too (a bake runs the stepper
    /// this way): it steps and moves the body as at run time, and takes the body's offset back before the scene is
    /// saved. A negative or non-finite [param delta] is an error (reported once) and steps nothing.
    #[func]
    pub fn advance(&mut self, delta: f64) -> bool {
        frame::advance(self, delta)
    }

    /// Starts afresh, as a node just added: the body gets its own position and rotation back (its raise and tilt
    /// start from 0), every foot is planted at its home on the next frame without steps or signals, and the gait
    /// starts over (the same group lifts first as in a new scene; [method get_catch_up_count] and
    /// [method get_teleport_count] count from 0). The homes are kept ([method capture_homes] reads them again). The
    /// bake calls it before it runs the stepper, so bakes repeat whatever ran before them.
    #[func]
    pub fn reset(&mut self) {
        self.state.release_body(&self.body);
        self.state.start_afresh();
        self.state.character.forget();
    }

    /// Reads every home without a [member home_points] entry again from its leg's pose on the next frame (the scene's
    /// or the animation's pose, not the IK's).
    #[func]
    pub fn capture_homes(&mut self) {
        self.state.forget_homes();
    }

    /// Why the node cannot step, in the words of its configuration warning; empty when the setup is valid. Checked
    /// when called, also before the first frame (manual mode): legs named, alive, of a leg class and with their own
    /// bones set, the body alive and not carrying this node; or what the last frame found (a leg that could not be
    /// read or solved, no physics world, a collapsed body or node).
    #[func]
    pub fn get_setup_warning(&mut self) -> GString {
        let checked = self.check_everything();
        frame::helper_warning(self, checked, |p| p.found_by_solving() || matches!(p, Problem::NoWorld))
    }

    /// Sets [member enabled]; disabling puts the body back and lets the legs solve by themselves.
    #[func]
    fn set_enabled(&mut self, value: bool) {
        self.enabled = value;
        if !value {
            self.let_go();
        }
    }

    /// Sets [member editor_preview]; turning it off in the editor gives the legs their own pose back.
    #[func]
    fn set_editor_preview(&mut self, value: bool) {
        self.editor_preview = value;
        if !value && in_editor() {
            self.let_go();
        }
    }

    /// Sets [member legs]: a value that is not an array of Node2D (or has an entry of another class) prints one error
    /// naming it, and the current legs are kept (`node_property.rs`); good legs are resolved now (and the feet
    /// planted anew on the next frame).
    #[func]
    fn set_legs(&mut self, value: Variant) {
        let Some(legs) = <Array<Gd<Node2D>> as NodeValue>::checked(&value, "LegStepper2D", "legs") else { return };
        *self.legs = legs;
        self.creature.forget();
        self.resolve_legs();
    }

    /// Sets [member gait_groups]: an entry outside 0..63 prints an error and keeps the current groups.
    #[func]
    fn set_gait_groups(&mut self, value: PackedInt32Array) {
        if checked::each_int_in("LegStepper2D", "gait_groups", value.as_slice(), 0, 63) {
            self.gait_groups = value;
            self.resolve_legs();
        }
    }

    /// Sets [member home_points]: a NaN or infinite entry prints an error and keeps the current points.
    #[func]
    fn set_home_points(&mut self, value: PackedVector2Array) {
        if checked::each_finite_vector("LegStepper2D", "home_points", value.as_slice()) {
            self.home_points = value;
            self.state.forget_homes();
        }
    }

    // The checked setters: a bad value prints one error naming the valid range and keeps the last good one.
    #[func]
    fn set_step_distance(&mut self, value: f32) {
        checked::set_float(&mut self.step_distance, "LegStepper2D", "step_distance", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_step_height(&mut self, value: f32) {
        checked::set_float(&mut self.step_height, "LegStepper2D", "step_height", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_step_duration(&mut self, value: f32) {
        checked::set_float(&mut self.step_duration, "LegStepper2D", "step_duration", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_lead(&mut self, value: f32) {
        checked::set_float(&mut self.lead, "LegStepper2D", "lead", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_max_lag(&mut self, value: f32) {
        checked::set_float(&mut self.max_lag, "LegStepper2D", "max_lag", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_teleport_distance(&mut self, value: f32) {
        checked::set_float(&mut self.teleport_distance, "LegStepper2D", "teleport_distance", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_collision_mask(&mut self, value: i64) {
        checked::set_int(&mut self.collision_mask, "LegStepper2D", "collision_mask", value, 0, i64::from(u32::MAX));
    }
    #[func]
    fn set_ray_above(&mut self, value: f32) {
        checked::set_float(&mut self.ray_above, "LegStepper2D", "ray_above", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_ray_below(&mut self, value: f32) {
        checked::set_float(&mut self.ray_below, "LegStepper2D", "ray_below", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_foot_height(&mut self, value: f32) {
        checked::set_float(&mut self.foot_height, "LegStepper2D", "foot_height", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_max_slope(&mut self, value: f32) {
        checked::set_float(&mut self.max_slope, "LegStepper2D", "max_slope", value, 0.0, core::f32::consts::PI);
    }
    #[func]
    fn set_max_body_offset(&mut self, value: f32) {
        checked::set_float(&mut self.max_body_offset, "LegStepper2D", "max_body_offset", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_max_body_tilt(&mut self, value: f32) {
        checked::set_float(
            &mut self.max_body_tilt,
            "LegStepper2D",
            "max_body_tilt",
            value,
            0.0,
            core::f32::consts::FRAC_PI_2,
        );
    }
    #[func]
    fn set_body_speed(&mut self, value: f32) {
        checked::set_float(&mut self.body_speed, "LegStepper2D", "body_speed", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_body_tilt_speed(&mut self, value: f32) {
        checked::set_float(&mut self.body_tilt_speed, "LegStepper2D", "body_tilt_speed", value, 0.0, f32::MAX);
    }
}
