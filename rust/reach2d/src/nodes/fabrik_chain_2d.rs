//! `FabrikChain2D`: FABRIK over a chain of Bone2D nodes of any length.

use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::FabrikSettings;

use crate::common::{self, Setup, Solved};
use crate::node_class;
use crate::problem::Problem;

node_class::ik_node! {
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
        solver {
            /// Most forward-and-backward passes per solve.
            #[export_group(name = "Solver")]
            #[export(range = (1.0, 256.0, 1.0, or_greater))]
            #[init(val = 16)]
            max_iterations: i32,
            /// Distance from the end effector to the target, in global pixels, that counts as reached.
            #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "px"))]
            #[init(val = 0.5)]
            tolerance: f32,
        }
        last_error: "Distance in global pixels between the target and the end effector after the last solve, \
            [member weight] included; [code]-1.0[/code] before the first solve.",
        last_iterations: "Passes the last solve used: 0 when the tip was already within [member tolerance], 1 for \
            the straight-line answer to a target out of reach.",
    }
}

impl FabrikChain2D {
    fn solve_impl(&mut self) -> Result<Solved, Problem> {
        let settings =
            FabrikSettings { max_iterations: self.max_iterations.max(1) as u32, tolerance: self.tolerance.max(0.0) };
        let Setup { goal, pole } = self.check_setup_impl()?;
        let tip = self.tip_direction();
        common::solve_chain(&mut self.state, goal, pole, tip, self.weight, &self.limits, &settings)
    }
}
