//! The `Ragdoll2D` class: its properties (in inspector order) and the methods scripts call.

use godot::classes::{Animation, Bone2D, Node2D};
use godot::prelude::*;

use super::bodies::Bodies;
use super::record::Recording;
use super::state::{Phase, Problem, RagdollState};
use crate::runtime::character_link::CharacterLink;
use crate::runtime::checked;
use crate::runtime::limits::AngleLimits;
use crate::runtime::node_property::{NodeSlot, NodeValue};

/// A ragdoll for a [Skeleton2D] character, or for one branch of it: one physics body per [Bone2D] from
/// [member root_bone] down, built on the [PhysicsServer2D] (no nodes are added to the scene), that the bones follow.
///
/// Each bone's body is a capsule along the bone (its [member Bone2D.length] and [method Bone2D.get_bone_angle]),
/// [member bone_width] thick, with a mass from its length. A pin joint at each bone's origin holds it to its parent's
/// body, and the node keeps it within the bone's angle limit ([method set_angle_limits], on the bone's local
/// rotation as the IK nodes take it). While the animation plays, the bodies follow the animated pose kinematically
/// (they push other bodies).
/// [method start] hands the pose and its velocity to the physics: the character falls with its momentum.
/// [method stop] blends back to the animation over a time, to get up. With [member strength] above 0 the ragdoll
/// is active: each body is pulled toward the animated pose, so a character hit with [method apply_impulse] staggers
/// and recovers.
///
/// Only the bones' rotations are written, and the root bone's position (unless its parent is a [Bone2D]: then the
/// root is pinned to that bone, which the animation keeps moving). A character turned with [code]scale.x = -1[/code]
/// falls as the mirror image of the unturned one. The editor never simulates: it draws the capsules and the limits.
#[reach2d_macros::shared_docs]
#[derive(GodotClass)]
#[class(init, tool, base = Node2D)]
pub struct Ragdoll2D {
    /// The first bone of the ragdoll: it and every [Bone2D] below it get a body. The skeleton's first bone for a
    /// whole character; another bone for one branch (an arm, a tail), pinned to its parent bone.
    #[export]
    #[init(val = NodeSlot::named("Ragdoll2D", "root_bone"))]
    pub(super) root_bone: NodeSlot<Bone2D>,
    /// How much of the physics pose is written while the ragdoll runs: 0 = the animated pose, 1 = the bodies' pose;
    /// between, each rotation blends. A [CharacterWeight2D] above multiplies it. A value outside [0, 1] (or NaN) is
    /// an error and is ignored.
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_weight)]
    #[init(val = 1.0)]
    pub(super) weight: f32,
    /// How strongly the running ragdoll holds the animated pose: 0 = limp (it falls), 1 = each body is pulled back
    /// to its animated place within about 0.1 s and gravity is cancelled, so a hit character staggers and recovers.
    /// Between, gravity acts by [code]1 - strength[/code] and the pull is weaker. A value outside [0, 1] (or NaN) is
    /// an error and is ignored.
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_strength)]
    pub(super) strength: f32,

    /// The thickness of every bone's capsule, in the bone's units (px at scale 1), unless [member bone_widths]
    /// gives one.
    #[export_group(name = "Bodies")]
    #[export(range = (0.0, 200.0, 0.1, or_greater, suffix = "px"))]
    #[var(set = set_bone_width)]
    #[init(val = 8.0)]
    pub(super) bone_width: f32,
    /// Per bone (in [method get_ragdoll_bone] order: the root first, each bone before its children), its capsule's
    /// thickness; a missing entry or 0 takes [member bone_width]. Each value must be finite and >= 0.
    #[export]
    #[var(set = set_bone_widths)]
    pub(super) bone_widths: PackedFloat32Array,
    /// Each body's mass per pixel of bone length on screen, in kg/px, unless [member bone_masses] gives one.
    #[export(range = (0.0, 1.0, 0.001, or_greater, suffix = "kg/px"))]
    #[var(set = set_mass_per_length)]
    #[init(val = 0.02)]
    pub(super) mass_per_length: f32,
    /// Per bone (same order as [member bone_widths]), its mass in kg; a missing entry or 0 takes the mass from the
    /// length. Each value must be finite and >= 0.
    #[export]
    #[var(set = set_bone_masses)]
    pub(super) bone_masses: PackedFloat32Array,

    /// How fast the bodies lose speed, in 1/s, on top of the world's damping. The default 2 lets a pile of
    /// ragdolls come to rest in Godot Physics (without it ten stacked figures kept jittering at a few hundred px/s);
    /// a falling character keeps 97% of its speed per frame at 60 fps.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "1/s"))]
    #[var(set = set_linear_damp)]
    #[init(val = 2.0)]
    pub(super) linear_damp: f32,
    /// How fast the bodies lose their turning speed, in 1/s, on top of the world's damping.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "1/s"))]
    #[var(set = set_angular_damp)]
    pub(super) angular_damp: f32,

    /// How much the pin joints may give (the physics server's pin softness): 0 = rigid.
    #[export_group(name = "Joints")]
    #[export(range = (0.0, 1.0, 0.001, or_greater))]
    #[var(set = set_joint_softness)]
    pub(super) joint_softness: f32,

    /// The physics layers the ragdoll's bodies are on (a 32-bit mask).
    #[export_group(name = "Collision")]
    #[export(flags_2d_physics)]
    #[var(set = set_collision_layer)]
    #[init(val = 1)]
    pub(super) collision_layer: i64,
    /// The physics layers the ragdoll's bodies collide with (a 32-bit mask).
    #[export(flags_2d_physics)]
    #[var(set = set_collision_mask)]
    #[init(val = 1)]
    pub(super) collision_mask: i64,
    /// When on, the ragdoll's bones collide with each other (never with the bone they are pinned to); off, none of
    /// them do.
    #[export]
    pub(super) collide_with_self: bool,

    pub(super) limits: AngleLimits,
    pub(super) state: RagdollState,
    pub(super) bodies: Bodies,
    pub(super) character: CharacterLink,
    pub(super) recording: Option<Recording>,
    pub(super) base: Base<Node2D>,
}

#[godot_api]
impl Ragdoll2D {
    // The checked setters: a bad value prints one error naming the valid range and keeps the last good one.
    #[func]
    fn set_weight(&mut self, value: f32) {
        checked::set_float(&mut self.weight, "Ragdoll2D", "weight", value, 0.0, 1.0);
    }
    #[func]
    fn set_strength(&mut self, value: f32) {
        checked::set_float(&mut self.strength, "Ragdoll2D", "strength", value, 0.0, 1.0);
    }
    #[func]
    fn set_bone_width(&mut self, value: f32) {
        checked::set_float(&mut self.bone_width, "Ragdoll2D", "bone_width", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_mass_per_length(&mut self, value: f32) {
        checked::set_float(&mut self.mass_per_length, "Ragdoll2D", "mass_per_length", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_linear_damp(&mut self, value: f32) {
        checked::set_float(&mut self.linear_damp, "Ragdoll2D", "linear_damp", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_angular_damp(&mut self, value: f32) {
        checked::set_float(&mut self.angular_damp, "Ragdoll2D", "angular_damp", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_joint_softness(&mut self, value: f32) {
        checked::set_float(&mut self.joint_softness, "Ragdoll2D", "joint_softness", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_collision_layer(&mut self, value: i64) {
        checked::set_int(&mut self.collision_layer, "Ragdoll2D", "collision_layer", value, 0, i64::from(u32::MAX));
    }
    #[func]
    fn set_collision_mask(&mut self, value: i64) {
        checked::set_int(&mut self.collision_mask, "Ragdoll2D", "collision_mask", value, 0, i64::from(u32::MAX));
    }
    /// Hands the current pose and the bones' velocities (from the last frames) to the bodies: from now on the
    /// bones follow the physics. Nothing happens in the editor or while the setup is invalid
    /// ([method get_setup_warning]); calling it while running changes nothing.
    #[func]
    pub fn start(&mut self) {
        self.start_simulation();
    }

    /// Blends back from the physics pose to the animated one over [param blend_time] seconds (0: at once); the
    /// bodies follow the animation again. A negative or non-finite time counts as 0.
    #[func]
    pub fn stop(&mut self, blend_time: f32) {
        self.stop_simulation(blend_time);
    }

    /// [code]true[/code] while the bones follow the bodies (after [method start], until [method stop] has blended
    /// back).
    #[func]
    pub fn is_running(&self) -> bool {
        !matches!(self.state.phase, Phase::Animated)
    }

    /// Pushes [param bone]'s body with [param impulse] (kg·px/s, global) at the global point [param at]: a hit.
    /// Starts the ragdoll first when it is not running. A bone that is not one of the ragdoll's prints an error.
    #[func]
    pub fn apply_impulse(&mut self, bone: Variant, impulse: Vector2, at: Vector2) {
        let node = bone.try_to::<Gd<Node>>().ok();
        let index = node.and_then(|n| self.state.rig.index_of(n.instance_id()));
        let Some(index) = index else {
            godot_error!("Ragdoll2D.apply_impulse: {bone} is not a bone of this ragdoll: ignored");
            return;
        };
        if !(impulse.is_finite() && at.is_finite()) {
            godot_error!("Ragdoll2D.apply_impulse: the impulse and the point must be finite: ignored");
            return;
        }
        self.start_simulation();
        if self.is_running() {
            self.bodies.apply_impulse(index, impulse, at);
        }
    }

    /// The ragdoll's bone at [param index] (0 = [member root_bone], each bone before its children: the order of
    /// [member bone_widths], [member bone_masses] and the angle limits), or [code]null[/code].
    #[func]
    pub fn get_ragdoll_bone(&mut self, index: i64) -> Option<Gd<Bone2D>> {
        let _ = self.check_setup();
        usize::try_from(index).ok().and_then(|i| self.state.rig.bones.get(i).cloned())
    }

    /// How many bones the ragdoll has (0 while its setup is invalid).
    #[func]
    pub fn get_bone_count(&mut self) -> i64 {
        let _ = self.check_setup();
        self.state.rig.bones.len() as i64
    }

    /// Limits bone [param bone_index]'s local rotation to [[param min_angle], [param max_angle]] (radians, within
    /// [-PI, PI]): the pin joint between it and its parent bone's body keeps the rotation in that range.
    #[func]
    pub fn set_angle_limits(&mut self, bone_index: i64, min_angle: f32, max_angle: f32) {
        let known = self.known_bones();
        if self.limits.set(bone_index, min_angle, max_angle, known) {
            self.limits_changed();
        }
    }

    /// Removes bone [param bone_index]'s angle limit.
    #[func]
    pub fn clear_angle_limits(&mut self, bone_index: i64) {
        let known = self.known_bones();
        if self.limits.clear(bone_index, known) {
            self.limits_changed();
        }
    }

    /// [code]true[/code] when bone [param bone_index] has an angle limit.
    #[func]
    pub fn has_angle_limits(&self, bone_index: i64) -> bool {
        self.limits.get(bone_index).is_some()
    }

    /// Why the ragdoll cannot run, in one sentence, or an empty string when it can.
    #[func]
    pub fn get_setup_warning(&mut self) -> GString {
        let _ = self.check_setup();
        self.state.problem().map_or_else(GString::new, |p| p.message().into())
    }

    /// Bakes what the ragdoll writes into [param animation]: from now on, every physics tick in which it writes
    /// the bones adds a key per bone's rotation (and the root's position), the track paths taken from
    /// [param root_node] (the [AnimationPlayer]'s root). Keys the current pose at time 0. Call [method start] (and
    /// [method stop]) as usual, then [method stop_recording]: the fall replays as an animation. A recording
    /// already running is finished first.
    #[func]
    pub fn start_recording(&mut self, animation: Variant, root_node: Variant) {
        // Variants, checked here: a wrong class is one sentence, never godot-rust's conversion text.
        let animation =
            <Option<Gd<Animation>> as NodeValue>::checked(&animation, "Ragdoll2D.start_recording", "animation");
        let root_node = <Option<Gd<Node>> as NodeValue>::checked(&root_node, "Ragdoll2D.start_recording", "root_node");
        let (animation, root_node) = match (animation, root_node) {
            (Some(Some(animation)), Some(Some(root_node))) => (animation, root_node),
            // A wrong class was told already, in one sentence.
            (None, _) | (_, None) => return,
            _ => {
                godot_error!(
                    "Ragdoll2D.start_recording needs an Animation and the node its tracks are relative to, got null: \
                     nothing recorded"
                );
                return;
            }
        };
        self.stop_recording();
        if crate::engine::editor::in_editor() || self.check_setup().is_err() {
            godot_error!(
                "Ragdoll2D.start_recording: the ragdoll cannot run here ({}): nothing recorded",
                self.get_setup_warning()
            );
            return;
        }
        let with_position = !self.state.rig.anchored;
        self.recording = Some(Recording::new(animation, &root_node, &self.state.rig.bones, with_position));
    }

    /// Ends the recording: the animation's length is the time recorded.
    #[func]
    pub fn stop_recording(&mut self) {
        if let Some(recording) = self.recording.take() {
            recording.finish();
        }
    }

    /// Builds the bodies again from the bones as they are now (after bones were added, removed or resized).
    #[func]
    pub fn rebuild(&mut self) {
        self.tear_down();
    }

    /// Sets [member bone_widths]: a negative or non-finite entry prints an error and keeps the current widths.
    #[func]
    fn set_bone_widths(&mut self, value: PackedFloat32Array) {
        if checked::each_non_negative("Ragdoll2D", "bone_widths", value.as_slice()) {
            self.bone_widths = value;
            self.tear_down();
        }
    }

    /// Sets [member bone_masses]: a negative or non-finite entry prints an error and keeps the current masses.
    #[func]
    fn set_bone_masses(&mut self, value: PackedFloat32Array) {
        if checked::each_non_negative("Ragdoll2D", "bone_masses", value.as_slice()) {
            self.bone_masses = value;
            self.tear_down();
        }
    }
}

impl Ragdoll2D {
    /// The bone count for the angle limits' index check, once the bones are known.
    fn known_bones(&mut self) -> Option<usize> {
        let _ = self.check_setup();
        Some(self.state.rig.bones.len()).filter(|&n| n > 0)
    }

    /// The inspector's list follows the limits; running joints take them at the next build.
    fn limits_changed(&mut self) {
        self.base_mut().notify_property_list_changed();
        self.base_mut().queue_redraw();
        if !self.is_running() {
            self.tear_down();
        }
    }

    /// The setup's problem, if any, noted as the configuration warning (printed only when a tick meets it:
    /// [`Ragdoll2D::tell`]).
    pub(super) fn check_setup(&mut self) -> Result<(), Problem> {
        let result = self.state.resolve(self.root_bone.as_ref());
        let problem = result.err().or(self.state.build_problem);
        if self.state.note(problem) {
            self.base_mut().update_configuration_warnings();
        }
        result
    }

    /// Prints `problem` once, when a physics tick meets it (the ragdoll cannot run), until the setup works again.
    pub(super) fn tell(&mut self, problem: Problem) {
        if self.state.told != Some(problem) {
            self.state.told = Some(problem);
            godot_warn!("Ragdoll2D '{}': {}", self.base().get_name(), problem.message());
        }
    }
}
