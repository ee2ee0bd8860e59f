//! `CcdChain2D`: Cyclic Coordinate Descent over a chain of Bone2D nodes of any length.

use glam::Affine2;
use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, INode2D, Node2D};
use godot::prelude::*;
use godot::register::info::PropertyInfo;
use reach2d_core::{CcdSettings, Vec2};

use crate::batch;
use crate::io::bones::{Motion, Start};
use crate::io::chain::Shape;
use crate::nodes::chain::Chain;
use crate::nodes::chain::drive::{Drive, DrivenLeg};
use crate::problem::Problem;
use crate::runtime::checked;
use crate::runtime::frame::{self, BoneDriver, NodeState, RUNTIME_PROCESS_PRIORITY, Solved, Tick, UpdateMode};
use crate::runtime::node_property::NodeSlot;
use crate::runtime::{node_limits, setup};

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
#[reach2d_macros::shared_docs]
#[derive(GodotClass, reach2d_macros::NodeFields)]
#[class(init, tool, base = Node2D)]
pub struct CcdChain2D {
    /// The node the chain reaches for: the end effector goes to its global position.
    #[export]
    #[init(val = NodeSlot::named("CcdChain2D", "target"))]
    target: NodeSlot<Node2D>,
    /// @shared chain.root_bone
    #[export]
    #[init(val = NodeSlot::named("CcdChain2D", "root_bone"))]
    root_bone: NodeSlot<Bone2D>,
    /// @shared chain.tip_bone
    #[export]
    #[init(val = NodeSlot::named("CcdChain2D", "tip_bone"))]
    tip_bone: NodeSlot<Bone2D>,
    /// @shared chain.pole
    #[export]
    #[init(val = NodeSlot::named("CcdChain2D", "pole"))]
    pole: NodeSlot<Node2D>,
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

    /// Most sweeps (tip to root) per solve.
    #[export_group(name = "Solver")]
    #[export(range = (1.0, 256.0, 1.0, or_greater))]
    #[var(set = set_max_iterations)]
    #[init(val = 16)]
    max_iterations: i64,
    /// @shared chain.tolerance
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "px"))]
    #[var(set = set_tolerance)]
    #[init(val = 0.5)]
    tolerance: f32,
    /// Largest turn of one bone in one sweep; 0 means no limit. Small values make the chain move smoothly and curl
    /// like a tail, at the cost of more sweeps.
    #[export(range = (0.0, 180.0, 0.1, radians_as_degrees))]
    #[var(set = set_max_angle_step)]
    max_angle_step: f32,

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
impl CcdChain2D {
    // The checked setters: a bad value prints one error naming the valid range and keeps the last good one.
    #[func]
    fn set_weight(&mut self, value: f32) {
        checked::set_float(&mut self.weight, "CcdChain2D", "weight", value, 0.0, 1.0);
    }
    #[func]
    fn set_max_iterations(&mut self, value: i64) {
        checked::set_int(&mut self.max_iterations, "CcdChain2D", "max_iterations", value, 1, 1024);
    }
    #[func]
    fn set_tolerance(&mut self, value: f32) {
        checked::set_float(&mut self.tolerance, "CcdChain2D", "tolerance", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_max_angle_step(&mut self, value: f32) {
        checked::set_float(&mut self.max_angle_step, "CcdChain2D", "max_angle_step", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_max_angular_speed(&mut self, value: f32) {
        checked::set_float(&mut self.max_angular_speed, "CcdChain2D", "max_angular_speed", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_target_rotation_weight(&mut self, value: f32) {
        checked::set_float(&mut self.target_rotation_weight, "CcdChain2D", "target_rotation_weight", value, 0.0, 1.0);
    }
}

#[godot_api]
impl INode2D for CcdChain2D {
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

impl BoneDriver for CcdChain2D {
    fn check_setup(&mut self) -> Result<(), Problem> {
        self.chain().check().map(drop)
    }

    fn needs_delta(&self) -> bool {
        self.max_angular_speed > 0.0
    }

    fn driven_elsewhere(&self) -> bool {
        self.drive.driven()
    }

    fn solve_frame(&mut self, delta: f64) -> Result<Solved, Problem> {
        // 0 is the property's "no limit".
        let max_angle_step = if self.max_angle_step > 0.0 { self.max_angle_step } else { f32::INFINITY };
        let settings = CcdSettings {
            max_iterations: self.max_iterations as u32,
            tolerance: self.drive.tolerance(self.tolerance),
            max_angle_step,
        };
        let motion = Motion::new(self.solve_from_rest, self.max_angular_speed, delta);
        let weight = self.weight * self.state.character.weight();
        let tip = setup::tip_direction(&self.target, self.match_target_rotation, self.target_rotation_weight);
        self.chain().solve(&settings, motion, weight, tip)
    }
}

impl DrivenLeg for CcdChain2D {
    fn drive(&mut self) -> &mut Drive {
        &mut self.drive
    }

    fn read_unwritten(&mut self) -> Result<(Vec2, Vec2, Affine2), Problem> {
        let weight = self.weight * self.state.character.weight();
        let start = Start::new(self.solve_from_rest, weight);
        self.chain().read_unwritten(start)
    }
}

impl CcdChain2D {
    fn chain(&mut self) -> Chain<'_> {
        Chain {
            target: &self.target,
            pole: &self.pole,
            root: &self.root_bone,
            tip: &self.tip_bone,
            shape: Shape::Chain,
            drive: &self.drive,
            state: &mut self.state,
        }
    }
}
