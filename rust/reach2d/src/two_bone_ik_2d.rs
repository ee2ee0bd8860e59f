//! `TwoBoneIk2D`: the analytic two-bone solver (law of cosines) for arms and legs, with bend direction.

use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::{soften_reach, solve_two_bone};

use crate::chain::TipEnd;
use crate::common::Solved;
use crate::node_class;
use crate::problem::Problem;

node_class::ik_node! {
    /// Bends a two-bone limb (upper and lower arm, thigh and shin) so that its end reaches [member target], exactly and
    /// in one step (law of cosines).
    ///
    /// [member root_bone] is the upper bone and [member tip_bone] the lower one, a direct Bone2D child of it. The end
    /// effector is the end of the tip bone ([method Bone2D.get_length] along [method Bone2D.get_bone_angle]). A target
    /// out of reach straightens the limb toward it; one closer than the difference of the two lengths folds it as far
    /// as it goes. [member softness] eases the last stretch to straight, so a walking leg never pops.
    ///
    /// [member flip_bend] picks the side the middle joint bends to. It is measured in the frame of the root bone's
    /// parent, so a character mirrored with a negative scale bends its knees the mirrored way, as it should. Only each
    /// bone's local [member Node2D.rotation] is written; angle limits set with [method set_angle_limits] (index 0 =
    /// upper, 1 = lower) clamp the written rotations.
    pub struct TwoBoneIk2D {
        target: "The node the limb reaches for: the end effector goes to its global position.",
        bones: limb {
            /// The upper bone (shoulder, hip). It turns but never moves.
            root_bone,
            /// The lower bone (forearm, shin): a direct Bone2D child of [member root_bone].
            tip_bone,
            /// Bend the middle joint to the other side. With [code]false[/code] the joint lies where
            /// [code]cross(target - root, joint - root) > 0[/code] in the frame of [member root_bone]'s parent.
            #[export]
            flip_bend: bool,
        }
        solver {
            /// Straighten the limb smoothly instead of snapping straight as the target crosses its reach, like
            /// Spine's IK softness: within this many global pixels of full reach the aim eases into the straight
            /// pose, so knees and elbows never pop. 0 = exact.
            #[export_group(name = "Solver")]
            #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "px"))]
            softness: f32,
        }
        last_error: "Distance in global pixels between the target and the end effector after the last solve, \
            [member weight] and [member softness] included; [code]-1.0[/code] before the first solve.",
        last_iterations: "Always 1 after a solve: the two-bone solve is closed-form.",
    }
}

impl TwoBoneIk2D {
    fn solve_impl(&mut self) -> Result<Solved, Problem> {
        let goal = self.check_setup_impl()?;
        let (flip_bend, softness) = (self.flip_bend, self.softness);
        let chain = &mut self.state.chain;
        let (effector, ()) =
            chain.solve_closed_form(TipEnd::BoneLength, self.weight, self.limits.active(), |pose, joints| {
                // The bend side is defined in the root's parent frame: a reflection there flips it in global space.
                let handedness = pose.parent.matrix2.determinant().signum();
                let bend = if flip_bend { -handedness } else { handedness };
                let [root, joint, tip] = [joints[0], joints[1], joints[2]];
                let (upper, lower) = (root.distance(joint), joint.distance(tip));
                let to_goal = goal - root;
                let distance = to_goal.length();
                let softened = soften_reach(distance, upper + lower, softness);
                let aim = if softened < distance { root + to_goal * (softened / distance) } else { goal };
                let solution = solve_two_bone(root, upper, lower, aim, bend, 0.0).map_err(Problem::Solver)?;
                joints[1] = solution.joint;
                joints[2] = solution.tip;
                Ok(())
            })?;
        Ok(Solved { error: effector.distance(goal), iterations: 1 })
    }
}
