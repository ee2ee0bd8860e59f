//! `CcdChain2D`: Cyclic Coordinate Descent over a chain of Bone2D nodes of any length.

use glam::Affine2;
use godot::classes::{Bone2D, INode2D, Node2D};
use godot::prelude::*;
use reach2d_core::{Aim, CcdSettings, Vec2};

use crate::io::bones::{self, Motion, Start, TipEnd};
use crate::io::chain::Shape;
use crate::nodes::chain::drive::{self, Drive, DrivenLeg};
use crate::problem::Problem;
use crate::runtime::frame::{BoneDriver, NodeState, Solved};
use crate::runtime::gizmo;
use crate::runtime::setup::{self, Setup, Slots};

/// Turns a chain of [Bone2D] nodes so that its end reaches [member target], with CCD (Cyclic Coordinate Descent).
///
/// Each iteration sweeps from the tip toward the root, turning every bone so that the end effector points at the
/// target: the bones near the tip make the fine corrections first and the ones near the root then swing the whole
/// corrected sub-chain. [member max_angle_step] damps each bone's turn per iteration, for tails, tentacles and other
/// chains that should curl rather than snap.
///
/// The chain is [member tip_bone] and its Bone2D ancestors up to [member root_bone]. Its end effector is the end
/// of the tip bone: [code]tip_bone.global_transform * (Vector2.from_angle(tip_bone.get_bone_angle()) * tip_bone.get_length())[/code].
/// Each solve reads the bones' transforms once, solves on flat arrays and writes back only each bone's local
/// [member Node2D.rotation]; position, scale and skew are never touched. Mirrored characters (negative scale on
/// the skeleton, an ancestor or a bone, on one axis or both) solve exactly like unmirrored ones.
///
/// Bones only turn, so their lengths are kept exactly. Per-bone angle limits ([method set_angle_limits], or the
/// [i]Angle Limits[/i] group in the inspector) hold exactly after every solve. The node runs after
/// [AnimationPlayer] and [AnimationTree] in the same frame, so IK layers on top of animation; [member weight]
/// blends the animated and the solved pose.
///
/// CCD turns the bones near the tip first, so a chain chasing a target that moves around its root (a hand
/// circling a shoulder) can swing a wrist or tail tip by up to a radian in one frame while the target moves a few
/// pixels. Where that shows, give the tip bones [member max_angle_step], a [member max_angular_speed] or angle
/// limits, as the tentacle demo does.
///
/// [b]A walking leg.[/b] A [LegStepper2D] that names this chain as a leg solves it at run time (this node's own
/// [member update_mode] then rests) toward the stepper's planted or swinging foot instead of [member target]; such a
/// leg needs no target.
#[reach2d_macros::node(frame)]
#[derive(GodotClass)]
#[class(init, tool, base = Node2D)]
pub struct CcdChain2D {
    /// The node the chain reaches for: the end effector goes to its global position.
    #[export]
    target: Option<Gd<Node2D>>,
    /// @shared chain.root_bone
    #[export]
    root_bone: Option<Gd<Bone2D>>,
    /// @shared chain.tip_bone
    #[export]
    tip_bone: Option<Gd<Bone2D>>,
    /// @shared chain.pole
    #[export]
    pole: Option<Gd<Node2D>>,
    /// Shared with the other nodes (declared in `reach2d_macros/src/shared_properties.rs`): `enabled`, `weight`,
    /// `update_mode`, `editor_preview`; *Motion*: `solve_from_rest`, `max_angular_speed`; *Tip Rotation*:
    /// `match_target_rotation`, `target_rotation_weight`.
    #[shared_properties(frame, motion, tip_rotation)]
    _shared: (),

    /// Most sweeps (tip to root) per solve.
    #[export_group(name = "Solver")]
    #[export(range = (1.0, 256.0, 1.0, or_greater))]
    #[checked(1..=1024)]
    #[init(val = 16)]
    max_iterations: i64,
    /// @shared chain.tolerance
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "px"))]
    #[checked(0.0..)]
    #[init(val = 0.5)]
    tolerance: f32,
    /// Largest turn of one bone in one sweep; 0 means no limit. Small values make the chain move smoothly and curl
    /// like a tail, at the cost of more sweeps.
    #[export(range = (0.0, 180.0, 0.1, radians_as_degrees))]
    #[checked(0.0..)]
    max_angle_step: f32,

    /// Distance in global pixels between the target and the end effector after the last solve, [member weight]
    /// included; [code]-1.0[/code] before the first solve.
    #[var(no_set)]
    #[init(val = -1.0)]
    last_error: f32,
    /// Sweeps the last solve used: 0 when the tip was already within [member tolerance].
    #[var(no_set)]
    last_iterations: i32,

    /// What a `LegStepper2D` asks of this chain as a leg (nothing unless one names it).
    drive: Drive,
    state: NodeState,
    base: Base<Node2D>,
}

#[reach2d_macros::api(update_constants, solve, reset, angle_limits, setup_warning, bone_count)]
#[godot_api]
impl CcdChain2D {}

#[reach2d_macros::callbacks]
#[godot_api]
impl INode2D for CcdChain2D {
    fn draw(&mut self) {
        let (target, pole) = (self.target.as_ref(), self.pole.as_ref());
        gizmo::draw(&mut self.to_gd().upcast(), &self.state.bones, target, pole, self.state.limits.active());
    }
}

impl BoneDriver for CcdChain2D {
    fn check_setup(&mut self) -> Result<(), Problem> {
        self.check().map(drop)
    }

    fn needs_delta(&self) -> bool {
        self.max_angular_speed > 0.0
    }

    fn driven_elsewhere(&self) -> bool {
        self.drive.driven()
    }

    /// check → read → solve → write.
    fn solve_frame(&mut self, delta: f64) -> Result<Solved, Problem> {
        let Some(Setup { goal, pole, .. }) = self.check()? else {
            // A helper's leg with no goal now (and no target, or driven) keeps its pose.
            return Ok(Solved { error: 0.0, iterations: 0 });
        };
        let motion = Motion::new(self.solve_from_rest, self.max_angular_speed, delta);
        let weight = self.weight * self.state.character.weight();
        let tip = setup::tip_direction(&self.target, self.match_target_rotation, self.target_rotation_weight);
        // 0 is the property's "no limit".
        let max_angle_step = if self.max_angle_step > 0.0 { self.max_angle_step } else { f32::INFINITY };
        let settings = CcdSettings {
            max_iterations: self.max_iterations as u32,
            tolerance: self.drive.tolerance(self.tolerance),
            max_angle_step,
        };
        let bones = &mut self.state.bones;
        let limits = bones::chain_limits(bones, self.state.limits.active());
        bones::read(bones, TipEnd::BoneLength, Start::new(motion.from_rest, weight))?;
        let report = bones.pose.solve(&settings, Aim { goal, pole, tip }, limits).map_err(Problem::Solver)?;
        let effector = bones::write(bones, weight, limits, motion.max_step)?;
        Ok(Solved { error: effector.distance(goal), iterations: report.iterations as i32 })
    }
}

impl CcdChain2D {
    /// The target (or the goal a `LegStepper2D` set), the pole and the bones, checked in that order without
    /// touching a bone. `None`: a stepper's leg with no goal now (and no target, or driven), which keeps its pose.
    fn check(&mut self) -> Result<Option<Setup>, Problem> {
        let slots = Slots {
            target: Some(&self.target),
            pole: Some(&self.pole),
            root: &self.root_bone,
            tip: &self.tip_bone,
            shape: Shape::Chain,
        };
        self.drive.check(&mut self.state.bones, slots)
    }
}

impl DrivenLeg for CcdChain2D {
    fn drive(&mut self) -> &mut Drive {
        &mut self.drive
    }

    fn read_unwritten(&mut self) -> Result<(Vec2, Vec2, Affine2), Problem> {
        let slots = Slots { target: None, pole: None, root: &self.root_bone, tip: &self.tip_bone, shape: Shape::Chain };
        setup::check(&mut self.state.bones, slots)?;
        let weight = self.weight * self.state.character.weight();
        bones::read(&mut self.state.bones, TipEnd::BoneLength, Start::new(self.solve_from_rest, weight))?;
        drive::unwritten_limb(&self.state.bones)
    }
}
