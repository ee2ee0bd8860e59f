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
    /// The direction that faces the target is [code]Vector2.from_angle(bone.get_bone_angle() + angle_offset)[/code] in
    /// the bone's own space: with [member angle_offset] 0 the bone itself points at the target; a head bone drawn
    /// pointing up (toward the crown) faces a target to its side with an offset of 90 degrees. Only its local
    /// [member Node2D.rotation] is written, exactly under any mirroring. An angle limit set with
    /// [method set_angle_limits] (index 0) keeps the rotation in range; [member last_error] is then the angle still
    /// left between the bone and the target.
    pub struct LookAt2D {
        target: "The node the bone points at.",
        bones: single {
            /// The bone to turn.
            bone
        }
        solver {
            /// Which direction of the bone faces the target, in radians from the bone's own direction
            /// ([method Bone2D.get_bone_angle]) in its own space, counter-clockwise in the bone's frame (clockwise
            /// on screen, as rotations are). 0 = the bone points at the target; for a head bone that points from
            /// the neck to the crown, +/-90 degrees turns the face (the bone's side) toward the target. Between
            /// -180 and 180 degrees; a value outside (or NaN) is an error and is ignored. Under mirroring it stays
            /// the same direction of the bone, so the mirrored character looks at the mirrored target the same way.
            #[export(range = (-180.0, 180.0, 0.1, radians_as_degrees))]
            angle_offset: f32,
        }
        last_error: "The angle in radians between the bone's direction and the target after the last solve, \
            [member weight] and limits included; [code]-1.0[/code] before the first solve.",
        last_iterations: "Always 1 after a solve.",
    }
}

impl LookAt2D {
    fn solve_impl(&mut self) -> Result<Solved, Problem> {
        let goal = self.check_setup_impl()?.goal;
        let (chain, tip_end) = (&mut self.state.chain, TipEnd::Direction(self.angle_offset));
        let (effector, origin) = chain.solve_closed_form(tip_end, self.weight, self.limits.active(), |_, joints| {
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
