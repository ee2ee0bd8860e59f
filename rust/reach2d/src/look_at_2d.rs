//! `LookAt2D`: one bone turned toward a target.

use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::{signed_angle, solve_look_at};

use crate::chain::TipEnd;
use crate::common::{self, Solved};
use crate::problem::Problem;

common::ik_node! {
    /// Turns one [Bone2D] so that it points at [member target]: a head, an eye, a turret.
    ///
    /// The bone's direction is [code]Vector2.from_angle(bone.get_bone_angle())[/code] in its own space. Only its local
    /// [member Node2D.rotation] is written, exactly under any mirroring. An angle limit set with
    /// [method set_angle_limits] (index 0) keeps the rotation in range; [member last_error] is then the angle still
    /// left between the bone and the target.
    pub struct LookAt2D {
        target: "The node the bone points at.",
        bones {
            /// The bone to turn.
            #[export]
            bone: Option<Gd<Bone2D>>,
        }
        solver {}
        last_error: "The angle in radians between the bone's direction and the target after the last solve, \
            [member weight] and limits included; [code]-1.0[/code] before the first solve.",
        last_iterations: "Always 1 after a solve.",
    }
}

impl LookAt2D {
    fn check_setup_impl(&mut self) -> Result<(), Problem> {
        common::target_position(self.target.as_ref())?;
        let bone = self.bone.as_ref().ok_or(Problem::NoBone)?;
        self.state.chain.ensure(Some(bone), Some(bone), false)
    }

    fn solve_impl(&mut self) -> Result<Solved, Problem> {
        let goal = common::target_position(self.target.as_ref())?;
        let bone = self.bone.as_ref().ok_or(Problem::NoBone)?;
        let chain = &mut self.state.chain;
        chain.ensure(Some(bone), Some(bone), false)?;
        chain.read(TipEnd::Direction)?;
        let origin = chain.joints[0];
        let current = chain.joints[1] - origin;
        let solution = solve_look_at(origin, current, goal, 0.0, None).map_err(Problem::Solver)?;
        chain.joints[1] = origin + solution.direction;
        let effector = chain.write_back(self.weight, self.limits.active())?;
        let to_target = goal - origin;
        let error =
            if to_target.length_squared() > 0.0 { signed_angle(effector - origin, to_target).abs() } else { 0.0 };
        Ok(Solved { error, iterations: 1 })
    }
}
