//! `FabrikChain2D`: FABRIK over a chain of Bone2D nodes of any length.

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, INode2D, Node2D};
use godot::prelude::*;
use reach2d_core::{Aim, FabrikSettings};

use crate::frame::{self, IkNode, RUNTIME_PROCESS_PRIORITY, Solved, Tick};
use crate::io::bones::{self, Motion, Start, TipEnd};
use crate::io::chain::Shape;
use crate::limits::AngleLimits;
use crate::problem::Problem;
use crate::setup::{self, Setup};
use crate::{checked, gizmo};

crate::nodes::declare::node_class! {
    /// Moves a chain of [Bone2D] nodes so that its end reaches [member target], with FABRIK (Forward And Backward
    /// Reaching Inverse Kinematics).
    ///
    /// The chain is [member tip_bone] and its Bone2D ancestors up to [member root_bone]. Its end effector is the end
    /// of the tip bone: [code]tip_bone.global_transform * (Vector2.from_angle(tip_bone.get_bone_angle()) * tip_bone.get_length())[/code].
    /// Each solve reads the bones' transforms once, solves on flat arrays and writes back only each bone's local
    /// [member Node2D.rotation]; position, scale and skew are never touched. Mirrored characters (negative scale on
    /// the skeleton, an ancestor or a bone, on one axis or both) solve exactly like unmirrored ones.
    ///
    /// Bone lengths are kept exactly. A target out of reach gives the straight chain pointing at it. Per-bone angle
    /// limits ([method set_angle_limits], or the [i]Angle Limits[/i] group in the inspector) hold exactly after every
    /// solve. The node runs after [AnimationPlayer] and [AnimationTree] in the same frame, so IK layers on top of
    /// animation; [member weight] blends the animated and the solved pose.
    pub struct FabrikChain2D {
        target: "The node the chain reaches for: the end effector goes to its global position.",
        bones: chain,
        settings {
            /// Most forward-and-backward passes per solve.
            #[export_group(name = "Solver")]
            #[export(range = (1.0, 256.0, 1.0, or_greater))]
            #[var(set = set_max_iterations)]
            #[init(val = 16)]
            max_iterations: i64,
            /// Distance from the end effector to the target, in global pixels, that counts as reached.
            #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "px"))]
            #[var(set = set_tolerance)]
            #[init(val = 0.5)]
            tolerance: f32,
        }
        setters {
            /// Sets [member max_iterations]: a value outside 0..=1024 prints an error and keeps the current one.
            #[func]
            fn set_max_iterations(&mut self, value: i64) {
                checked::set_iterations(&mut self.max_iterations, "FabrikChain2D", value);
            }

            /// Sets [member tolerance]: a negative (or not finite) value prints an error and keeps the current one.
            #[func]
            fn set_tolerance(&mut self, value: f32) {
                checked::set_float(&mut self.tolerance, "FabrikChain2D", "tolerance", value, 0.0, f32::MAX);
            }
        }
        last_error: "Distance in global pixels between the target and the end effector after the last solve, \
            [member weight] included; [code]-1.0[/code] before the first solve.",
        last_iterations: "Passes the last solve used: 0 when the tip was already within [member tolerance], 1 for \
            the straight-line answer to a target out of reach.",
    }
}

#[godot_api]
impl INode2D for FabrikChain2D {
    fn ready(&mut self) {
        crate::batch::ready(self, RUNTIME_PROCESS_PRIORITY);
    }
    fn process(&mut self, delta: f64) {
        frame::tick(self, Tick::Process, delta);
    }
    fn physics_process(&mut self, delta: f64) {
        frame::tick(self, Tick::Physics, delta);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        crate::batch::notification(self, what);
    }
    fn draw(&mut self) {
        let (target, pole) = (self.target.as_ref(), self.pole.as_ref());
        gizmo::draw(&mut self.to_gd().upcast(), &self.state.bones, target, pole, self.limits.active());
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        frame::configuration_warnings(self)
    }
    fn on_get_property_list(&mut self) -> Vec<godot::register::info::PropertyInfo> {
        self.limits.property_list(self.state.bones.chain.len())
    }
    fn on_get(&self, property: StringName) -> Option<Variant> {
        frame::counted(|| self.limits.get_property(&property))
    }
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        frame::counted(|| self.limits.set_property(&property, &value))
    }
    fn on_property_get_revert(&self, property: StringName) -> Option<Variant> {
        AngleLimits::property_revert(&property)
    }
}

impl IkNode for FabrikChain2D {
    fn check_setup(&mut self) -> Result<(), Problem> {
        self.check().map(drop)
    }

    fn solve_frame(&mut self, delta: f64) -> Result<Solved, Problem> {
        let Setup { goal, pole } = self.check()?;
        let motion = Motion::new(self.solve_from_rest, self.max_angular_speed, delta);
        let tip = setup::tip_direction(self.target.as_ref(), self.match_target_rotation, self.target_rotation_weight);
        let (max_iterations, tolerance) = (self.max_iterations.max(1) as u32, self.tolerance.max(0.0));
        let settings = FabrikSettings { max_iterations, tolerance };
        let bones = &mut self.state.bones;
        let limits = bones::chain_limits(bones, self.limits.active());
        bones::read(bones, TipEnd::BoneLength, Start::new(motion.from_rest, self.weight))?;
        let report = bones.pose.solve(&settings, Aim { goal, pole, tip }, limits).map_err(Problem::Solver)?;
        let effector = bones::write(bones, self.weight, limits, motion.max_step)?;
        Ok(Solved { error: effector.distance(goal), iterations: report.iterations })
    }
}

impl FabrikChain2D {
    /// The target, the pole and the bones, checked in that order without touching a bone.
    fn check(&mut self) -> Result<Setup, Problem> {
        let setup = setup::target_and_pole(self.target.as_ref(), self.pole.as_ref())?;
        setup::ensure_chain(&mut self.state.bones, self.root_bone.as_ref(), self.tip_bone.as_ref(), Shape::Chain)?;
        Ok(setup)
    }
}
