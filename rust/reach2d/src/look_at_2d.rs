//! `LookAt2D`: one bone turned toward a target.

use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::{signed_angle, solve_look_at};

use crate::chain::TipEnd;
use crate::common::Solved;
use crate::node_class;
use crate::problem::Problem;

node_class::ik_node! {
    /// Turns one [Bone2D] so that it points at [member target]: a head, an eye, a turret.
    ///
    /// The bone's direction is [code]Vector2.from_angle(bone.get_bone_angle())[/code] in its own space. Only its local
    /// [member Node2D.rotation] is written, exactly under any mirroring. An angle limit set with
    /// [method set_angle_limits] (index 0) keeps the rotation in range; [member last_error] is then the angle still
    /// left between the bone and the target.
    pub struct LookAt2D {
        target: "The node the bone points at.",
        bones: single {
            /// The bone to turn.
            bone
        }
        solver {}
        last_error: "The angle in radians between the bone's direction and the target after the last solve, \
            [member weight] and limits included; [code]-1.0[/code] before the first solve.",
        last_iterations: "Always 1 after a solve.",
    }
}

impl LookAt2D {
    fn solve_impl(&mut self) -> Result<Solved, Problem> {
        let goal = self.check_setup_impl()?;
        let chain = &mut self.state.chain;
        let (effector, origin) =
            chain.solve_closed_form(TipEnd::Direction, self.weight, self.limits.active(), |_, joints| {
                let origin = joints[0];
                let current = joints[1] - origin;
                let solution = solve_look_at(origin, current, goal, 0.0, None).map_err(Problem::Solver)?;
                joints[1] = origin + solution.direction;
                Ok(origin)
            })?;
        let to_target = goal - origin;
        let error =
            if to_target.length_squared() > 0.0 { signed_angle(effector - origin, to_target).abs() } else { 0.0 };
        Ok(Solved { error, iterations: 1 })
    }
}
