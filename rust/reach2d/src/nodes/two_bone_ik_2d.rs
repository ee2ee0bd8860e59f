//! `TwoBoneIk2D`: the analytic two-bone solver (law of cosines) for arms and legs; the knee bends the artist's
//! way, the flipped way, or toward a pole.

use glam::Affine2;
use godot::classes::{Bone2D, INode2D, Node2D};
use godot::prelude::*;
use reach2d_core::{BendSide, LimbAim, LimbStretch, Vec2, solve_limb};

use crate::io::bones::{self, Motion, Start, TipEnd};
use crate::io::chain::Shape;
use crate::nodes::chain::drive::{self, Drive, DrivenLeg};
use crate::problem::Problem;
use crate::runtime::frame::{BoneDriver, NodeState, Solved};
use crate::runtime::gizmo;
use crate::runtime::setup::{self, Setup, Slots};

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
#[reach2d_macros::node(frame)]
#[derive(GodotClass)]
#[class(init, tool, base = Node2D)]
pub struct TwoBoneIk2D {
    /// The node the limb reaches for: the end effector goes to its global position.
    #[export]
    target: Option<Gd<Node2D>>,
    /// The upper bone (shoulder, hip). It turns but never moves.
    #[export]
    root_bone: Option<Gd<Bone2D>>,
    /// The lower bone (forearm, shin): a direct Bone2D child of [member root_bone].
    #[export]
    tip_bone: Option<Gd<Bone2D>>,
    /// Optional: a node the knee or elbow points at. The middle joint bends to the pole's side of the line from
    /// [member root_bone] to [member target], whatever the pose or [member flip_bend] say; a pole on that line decides
    /// nothing (the limb bends as without a pole). A pole that mirrors with the character gives the mirror image of
    /// the pose. A pole that was freed, is outside the tree or has a NaN position stops the node (one error and a
    /// configuration warning, the bones keep their pose) until it is fixed or cleared.
    #[export]
    pole: Option<Gd<Node2D>>,
    /// Bend the knee or elbow the other way from the artist's pose: by default the limb bends to the side its pose
    /// (animated, or as set in the scene) bends to. Ignored while [member pole] is set.
    #[export]
    flip_bend: bool,
    /// Shared with the other nodes (declared in `reach2d_macros/src/shared_properties.rs`): `enabled`, `weight`,
    /// `update_mode`, `editor_preview`; *Motion*: `solve_from_rest`, `max_angular_speed`; *Tip Rotation*:
    /// `match_target_rotation`, `target_rotation_weight`.
    #[shared_properties(frame, motion, tip_rotation)]
    _shared: (),

    /// Straighten the limb smoothly instead of snapping straight as the target crosses its reach, like Spine's IK
    /// softness: within this many global pixels of full reach the aim eases into the straight pose, so knees and
    /// elbows never pop. 0 = exact.
    #[export_group(name = "Solver")]
    #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "px"))]
    #[checked(0.0..)]
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
    #[checked(0.0.., then = unstretch_when_off)]
    stretch: f32,
    /// Let the limb shorten instead of bending when the target is closer than its reach, like Spine's IK compress:
    /// the most the upper bone may shorten, as a fraction of its length; 0 = off (the limb bends). The limb stays
    /// straight until the upper bone is that much shorter, then bends. Written like [member stretch]. A value outside
    /// [0, 0.99] (or NaN) is an error and is ignored.
    #[export(range = (0.0, 0.99, 0.01))]
    #[checked(0.0..=0.99, then = unstretch_when_off)]
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
impl TwoBoneIk2D {}

#[reach2d_macros::callbacks]
#[godot_api]
impl INode2D for TwoBoneIk2D {
    fn draw(&mut self) {
        let (target, pole) = (self.target.as_ref(), self.pole.as_ref());
        gizmo::draw(&mut self.to_gd().upcast(), &self.state.bones, target, pole, self.state.limits.active());
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
        bones::read_adjusted(bones, TipEnd::BoneLength, Start::new(motion.from_rest, weight), |poses| {
            if let (Some(position), Some(tip)) = (authored, poses.get_mut(1)) {
                tip.position = position;
            }
        })?;
        let from_own_result = bones.memory.starts_from_own();
        let aim = LimbAim { goal, pole, tip, stretch, softness: self.softness, from_own_result };
        let solved = bones.pose.place_joints(|pose, joints| solve_limb(pose, joints, &aim, &mut side));
        let factor = solved.map_err(Problem::Solver)?;
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
        let slots = Slots {
            target: Some(&self.target),
            pole: Some(&self.pole),
            root: &self.root_bone,
            tip: &self.tip_bone,
            shape: Shape::Limb,
        };
        self.drive.check(&mut self.state.bones, slots)
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
        let slots = Slots { target: None, pole: None, root: &self.root_bone, tip: &self.tip_bone, shape: Shape::Limb };
        setup::check(&mut self.state.bones, slots)?;
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
