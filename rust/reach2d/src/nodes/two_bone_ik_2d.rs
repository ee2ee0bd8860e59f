//! `TwoBoneIk2D`: the analytic two-bone solver (law of cosines) for arms and legs; the knee bends the artist's
//! way, the flipped way, or toward a pole.

use glam::Affine2;
use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, INode2D, Node2D};
use godot::prelude::*;
use godot::register::info::PropertyInfo;
use reach2d_core::{BendSide, LimbAim, LimbStretch, Vec2, solve_limb};

use crate::batch;
use crate::debug::phases::{self, Phase};
use crate::io::bones::{self, Motion, Start, TipEnd};
use crate::io::chain::Shape;
use crate::nodes::chain::Chain;
use crate::nodes::chain::drive::{self, Drive, DrivenLeg};
use crate::problem::Problem;
use crate::runtime::checked;
use crate::runtime::frame::{self, BoneDriver, NodeState, RUNTIME_PROCESS_PRIORITY, Solved, Tick, UpdateMode};
use crate::runtime::node_limits;
use crate::runtime::node_property::NodeSlot;
use crate::runtime::setup::{self, Setup};

/// Bends a two-bone limb (upper and lower arm, thigh and shin) so that its end reaches [member target], exactly and
/// in one step (law of cosines).
///
/// [member root_bone] is the upper bone and [member tip_bone] the lower one, a direct Bone2D child of it. The end
/// effector is the end of the tip bone ([method Bone2D.get_length] along [method Bone2D.get_bone_angle]). A target
/// out of reach straightens the limb toward it; one closer than the difference of the two lengths folds it as far
/// as it goes. [member softness] eases the last stretch to straight, so a walking leg never pops.
///
/// [b]Which way the knee bends.[/b] By default the knee (or elbow) bends the way the artist bent it: the side
/// of the pose the node reads, that is the animated pose when an animation poses the limb, or the pose the bones
/// were given in the scene when nothing animates. Drop the node on a leg drawn with its knee forward and the IK
/// knee stays forward, and a character turned around with a negative scale keeps its knees forward too.
/// [member flip_bend] bends it the other way. A limb that starts out perfectly straight keeps the side it bent to
/// last (the first time: the side where [code]cross(target - root, joint - root) > 0[/code] in the frame of the
/// root bone's parent). Set [member pole] to point the knee at a node instead; the pole then decides the side and
/// [member flip_bend] is ignored.
///
/// Only each bone's local [member Node2D.rotation] is written (and, with [member stretch] or [member compress]
/// on, the tip bone's local [member Node2D.position]); angle limits set with [method set_angle_limits] (index 0 =
/// upper, 1 = lower) clamp the written rotations.
///
/// [b]Legs on uneven ground, legs that walk.[/b] A [FootGrounder2D] or a [LegStepper2D] that names this node as a
/// leg solves it at run time (this node's own [member update_mode] then rests), toward the ground under the
/// animated foot or the stepper's planted and swinging foot instead of [member target]; such a leg needs no target
/// (without one, and without the helper's goal, it keeps its pose; so does a leg the helper drives when it is
/// solved without a goal).
#[reach2d_macros::shared_docs]
#[derive(GodotClass, reach2d_macros::NodeFields)]
#[class(init, tool, base = Node2D)]
pub struct TwoBoneIk2D {
    /// The node the limb reaches for: the end effector goes to its global position.
    #[export]
    #[init(val = NodeSlot::named("TwoBoneIk2D", "target"))]
    target: NodeSlot<Node2D>,
    /// The upper bone (shoulder, hip). It turns but never moves.
    #[export]
    #[init(val = NodeSlot::named("TwoBoneIk2D", "root_bone"))]
    root_bone: NodeSlot<Bone2D>,
    /// The lower bone (forearm, shin): a direct Bone2D child of [member root_bone].
    #[export]
    #[init(val = NodeSlot::named("TwoBoneIk2D", "tip_bone"))]
    tip_bone: NodeSlot<Bone2D>,
    /// Optional: a node the knee or elbow points at. The middle joint bends to the pole's side of the line from
    /// [member root_bone] to [member target], whatever the pose or [member flip_bend] say; a pole on that line decides
    /// nothing (the limb bends as without a pole). A pole that mirrors with the character gives the mirror image of
    /// the pose. A pole that was freed, is outside the tree or has a NaN position stops the node (one error and a
    /// configuration warning, the bones keep their pose) until it is fixed or cleared.
    #[export]
    #[init(val = NodeSlot::named("TwoBoneIk2D", "pole"))]
    pole: NodeSlot<Node2D>,
    /// Bend the knee or elbow the other way from the artist's pose: by default the limb bends to the side its pose
    /// (animated, or as set in the scene) bends to. Ignored while [member pole] is set.
    #[export]
    flip_bend: bool,
    /// @shared enabled
    #[export]
    #[init(val = true)]
    enabled: bool,
    /// @shared weight
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_weight)]
    #[init(val = 1.0)]
    weight: f32,
    /// @shared update_mode
    #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
    update_mode: UpdateMode,
    /// @shared editor_preview
    #[export]
    #[init(val = true)]
    editor_preview: bool,

    /// @shared solve_from_rest
    #[export_group(name = "Motion")]
    #[export]
    solve_from_rest: bool,
    /// @shared max_angular_speed
    #[export(range = (0.0, 1440.0, 1.0, or_greater, radians_as_degrees, suffix = "°/s"))]
    #[var(set = set_max_angular_speed)]
    max_angular_speed: f32,

    /// @shared match_target_rotation
    #[export_group(name = "Tip Rotation")]
    #[export]
    match_target_rotation: bool,
    /// @shared target_rotation_weight
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_target_rotation_weight)]
    #[init(val = 1.0)]
    target_rotation_weight: f32,

    /// Straighten the limb smoothly instead of snapping straight as the target crosses its reach, like Spine's IK
    /// softness: within this many global pixels of full reach the aim eases into the straight pose, so knees and
    /// elbows never pop. 0 = exact.
    #[export_group(name = "Solver")]
    #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "px"))]
    #[var(set = set_softness)]
    softness: f32,

    /// Let the limb lengthen to reach a target beyond its reach, like Spine's IK stretch: the most the upper bone may
    /// lengthen, as a fraction of its length (0.25 = a quarter longer); 0 = off. The limb then reaches straight for
    /// the target. It lengthens by writing [member tip_bone]'s local [member Node2D.position]: its authored position
    /// times a factor between 1 - [member compress] and 1 + [member stretch] (so the tip bone slides along the upper
    /// bone and the skin stretches with it); nothing else but rotations is written, and the lower bone keeps its
    /// length. The authored position comes back when stretch and compress are both 0 again (at once), when the node
    /// is disabled or leaves the tree, and before a scene is saved (the preview's stretch returns after saving). A
    /// position that differs from what the last stretch wrote (an animation, your edit) becomes the authored one. A
    /// value below 0 (or not finite) is an error and is ignored.
    #[export_group(name = "Stretch")]
    #[export(range = (0.0, 2.0, 0.01, or_greater))]
    #[var(set = set_stretch)]
    stretch: f32,
    /// Let the limb shorten instead of bending when the target is closer than its reach, like Spine's IK compress:
    /// the most the upper bone may shorten, as a fraction of its length; 0 = off (the limb bends). The limb stays
    /// straight until the upper bone is that much shorter, then bends. Written like [member stretch]. A value outside
    /// [0, 0.99] (or NaN) is an error and is ignored.
    #[export(range = (0.0, 0.99, 0.01))]
    #[var(set = set_compress)]
    compress: f32,

    /// Distance in global pixels between the target and the end effector after the last solve, [member weight],
    /// [member softness] and [member stretch] included; [code]-1.0[/code] before the first solve.
    #[var(no_set)]
    #[init(val = -1.0)]
    last_error: f32,
    /// Always 1 after a solve: the two-bone solve is closed-form.
    #[var(no_set)]
    last_iterations: i32,

    /// The side the limb last bent to without a pole, in the root's parent frame (+1, -1, or 0 before any bent pose
    /// was seen): the side a straight input keeps.
    bend_memory: f32,
    /// What a `FootGrounder2D` or `LegStepper2D` asks of this leg (nothing unless one names it as a leg).
    drive: Drive,
    state: NodeState,
    base: Base<Node2D>,
}

#[reach2d_macros::api(update_constants, solve, reset, angle_limits, setup_warning, bone_count)]
#[godot_api]
impl TwoBoneIk2D {
    // The checked setters: a bad value prints one error naming the valid range and keeps the last good one.
    #[func]
    fn set_weight(&mut self, value: f32) {
        checked::set_float(&mut self.weight, "TwoBoneIk2D", "weight", value, 0.0, 1.0);
    }
    #[func]
    fn set_max_angular_speed(&mut self, value: f32) {
        checked::set_float(&mut self.max_angular_speed, "TwoBoneIk2D", "max_angular_speed", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_target_rotation_weight(&mut self, value: f32) {
        checked::set_float(&mut self.target_rotation_weight, "TwoBoneIk2D", "target_rotation_weight", value, 0.0, 1.0);
    }
    #[func]
    fn set_softness(&mut self, value: f32) {
        checked::set_float(&mut self.softness, "TwoBoneIk2D", "softness", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_stretch(&mut self, value: f32) {
        checked::set_float(&mut self.stretch, "TwoBoneIk2D", "stretch", value, 0.0, f32::MAX);
        self.unstretch_when_off();
    }
    #[func]
    fn set_compress(&mut self, value: f32) {
        checked::set_float(&mut self.compress, "TwoBoneIk2D", "compress", value, 0.0, 0.99);
        self.unstretch_when_off();
    }
}

#[godot_api]
impl INode2D for TwoBoneIk2D {
    fn ready(&mut self) {
        batch::ready(self, RUNTIME_PROCESS_PRIORITY);
    }
    fn process(&mut self, delta: f64) {
        frame::tick(self, Tick::Process, delta);
    }
    fn physics_process(&mut self, delta: f64) {
        frame::tick(self, Tick::Physics, delta);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        batch::notification(self, what);
    }
    fn draw(&mut self) {
        let mut node = self.to_gd().upcast();
        self.chain().draw(&mut node);
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        frame::configuration_warnings(self)
    }
    fn on_get_property_list(&mut self) -> Vec<PropertyInfo> {
        node_limits::property_list(self)
    }
    fn on_get(&self, property: StringName) -> Option<Variant> {
        node_limits::get_property(self, &property)
    }
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        node_limits::set_property(self, &property, &value)
    }
    fn on_property_get_revert(&self, property: StringName) -> Option<Variant> {
        node_limits::property_revert(&property)
    }
}

impl BoneDriver for TwoBoneIk2D {
    fn check_setup(&mut self) -> Result<(), Problem> {
        self.check().map(drop)
    }

    fn needs_delta(&self) -> bool {
        self.max_angular_speed > 0.0
    }

    fn driven_elsewhere(&self) -> bool {
        self.drive.driven()
    }

    /// The bend side a straight limb keeps is learned again from the poses it reads.
    fn reset_own(&mut self) {
        self.bend_memory = 0.0;
    }

    fn solve_frame(&mut self, delta: f64) -> Result<Solved, Problem> {
        let Some(Setup { goal, pole, .. }) = self.check()? else {
            // A grounded leg without a target and no ground goal (the editor, a disabled grounder) keeps its pose.
            return Ok(Solved { error: 0.0, iterations: 0 });
        };
        let motion = Motion::new(self.solve_from_rest, self.max_angular_speed, delta);
        let weight = self.weight * self.state.character.weight();
        let tip = setup::tip_direction(&self.target, self.match_target_rotation, self.target_rotation_weight);
        let stretch = LimbStretch::new(self.stretch, self.compress);
        let mut side = BendSide { flip: self.flip_bend, memory: self.bend_memory };
        let bones = &mut self.state.bones;
        let limits = bones::chain_limits(bones, self.state.limits.active());
        // The solve reads the tip bone at its authored position, however the last solve stretched it.
        let authored = bones::authored_tip_position(bones, stretch.is_some());
        phases::enter(Phase::Read);
        bones::read_adjusted(bones, TipEnd::BoneLength, Start::new(motion.from_rest, weight), |poses| {
            if let (Some(position), Some(tip)) = (authored, poses.get_mut(1)) {
                tip.position = position;
            }
        })?;
        phases::enter(Phase::Solve);
        let from_own_result = bones.memory.starts_from_own();
        let aim = LimbAim { goal, pole, tip, stretch, softness: self.softness, from_own_result };
        let solved = bones.pose.place_joints(|pose, joints| solve_limb(pose, joints, &aim, &mut side));
        let factor = solved.map_err(Problem::Solver)?;
        phases::enter(Phase::Rotations);
        let effector = bones::write(bones, weight, limits, motion.max_step)?;
        self.bend_memory = side.memory;
        let effector = match stretch {
            Some(_) => bones::write_tip_position(bones, factor, weight).unwrap_or(effector),
            None => effector,
        };
        Ok(Solved { error: effector.distance(goal), iterations: 1 })
    }
}

impl TwoBoneIk2D {
    /// The target (or the goal a helper set), the pole and the two bones, checked in that order without touching a
    /// bone. `None`: a helper's leg with no goal now (and no target, or driven), which keeps its pose.
    fn check(&mut self) -> Result<Option<Setup>, Problem> {
        self.chain().check()
    }

    fn chain(&mut self) -> Chain<'_> {
        Chain {
            target: &self.target,
            pole: &self.pole,
            root: &self.root_bone,
            tip: &self.tip_bone,
            shape: Shape::Limb,
            drive: &self.drive,
            state: &mut self.state,
        }
    }

    /// `FootGrounder2D`, `LegStepper2D`: the limb's animated pose, that is each bone's last rotation this node did
    /// not write (the animation's, the scene's): the root bone's origin and the end effector, global px, and the tip
    /// bone's global transform in that pose ([`drive::animated_limb`]).
    pub(crate) fn animated_limb(&mut self) -> Result<Option<(Vec2, Vec2, Affine2)>, ()> {
        drive::animated_limb(self)
    }

    /// The tip bone of the resolved limb (`None` before it is resolved).
    pub(crate) fn resolved_tip(&self) -> Option<&Gd<Bone2D>> {
        self.state.bones.chain.bones().get(1)
    }

    /// Puts the tip bone's authored position back at once when stretch and compress are both off.
    fn unstretch_when_off(&mut self) {
        if LimbStretch::new(self.stretch, self.compress).is_none() {
            bones::restore_tip_position(&mut self.state.bones);
        }
    }
}

impl DrivenLeg for TwoBoneIk2D {
    fn drive(&mut self) -> &mut Drive {
        &mut self.drive
    }

    /// The limb read as a solve reads it: the tip bone at its authored position, however a stretch moved it.
    fn read_unwritten(&mut self) -> Result<(Vec2, Vec2, Affine2), Problem> {
        self.chain().check_bones()?;
        let stretch = LimbStretch::new(self.stretch, self.compress);
        let weight = self.weight * self.state.character.weight();
        let bones = &mut self.state.bones;
        let authored = bones::authored_tip_position(bones, stretch.is_some());
        bones::read_adjusted(bones, TipEnd::BoneLength, Start::new(self.solve_from_rest, weight), |poses| {
            if let (Some(position), Some(tip)) = (authored, poses.get_mut(1)) {
                tip.position = position;
            }
        })?;
        drive::unwritten_limb(bones)
    }
}
