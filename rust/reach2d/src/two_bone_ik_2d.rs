//! `TwoBoneIk2D`: the analytic two-bone solver (law of cosines) for arms and legs; the knee bends the artist's
//! way, the flipped way, or toward a pole.

use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::{Vec2, side_of, soften_reach, solve_two_bone};

use crate::chain::TipEnd;
use crate::common::{self, Solved};
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
    /// [b]Which way the knee bends.[/b] By default the knee (or elbow) bends the way the artist bent it: the side
    /// of the pose the node reads, that is the animated pose when an animation poses the limb, or the pose the bones
    /// were given in the scene when nothing animates. Drop the node on a leg drawn with its knee forward and the IK
    /// knee stays forward, and a character turned around with a negative scale keeps its knees forward too.
    /// [member flip_bend] bends it the other way. A limb that starts out perfectly straight keeps the side it bent to
    /// last (the first time: the side where [code]cross(target - root, joint - root) > 0[/code] in the frame of the
    /// root bone's parent). Set [member pole] to point the knee at a node instead; the pole then decides the side and
    /// [member flip_bend] is ignored.
    ///
    /// Only each bone's local [member Node2D.rotation] is written; angle limits set with [method set_angle_limits]
    /// (index 0 = upper, 1 = lower) clamp the written rotations.
    pub struct TwoBoneIk2D {
        target: "The node the limb reaches for: the end effector goes to its global position.",
        bones: limb {
            /// The upper bone (shoulder, hip). It turns but never moves.
            root_bone,
            /// The lower bone (forearm, shin): a direct Bone2D child of [member root_bone].
            tip_bone,
            /// Optional: a node the knee or elbow points at. The middle joint bends to the pole's side of the line
            /// from [member root_bone] to [member target], whatever the pose or [member flip_bend] say; a pole on
            /// that line decides nothing (the limb bends as without a pole). A pole that mirrors with the character
            /// gives the mirror image of the pose. A pole that was freed, is outside the tree or has a NaN position
            /// stops the node (one error and a configuration warning, the bones keep their pose) until it is fixed
            /// or cleared.
            pole,
            /// Bend the knee or elbow the other way from the artist's pose: by default the limb bends to the side
            /// its pose (animated, or as set in the scene) bends to. Ignored while [member pole] is set.
            #[export]
            flip_bend: bool,
            /// The side the limb last bent to without a pole, in the root's parent frame (+1, -1, or 0 before any
            /// bent pose was seen): the side a straight input keeps.
            bend_memory: f32,
            /// The rotations this node wrote last: a read pose equal to them is the node's own result, not the
            /// artist's.
            own_rotations: Option<[f32; 2]>,
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
        let pole = common::pole_position(self.pole.as_ref())?;
        let (softness, own_rotations) = (self.softness, self.own_rotations);
        let mut side = BendSide { flip: self.flip_bend, memory: self.bend_memory };
        let chain = &mut self.state.chain;
        let (effector, ()) =
            chain.solve_closed_form(TipEnd::BoneLength, self.weight, self.limits.active(), |pose, joints| {
                let [root, joint, tip] = [joints[0], joints[1], joints[2]];
                let read = [pose.bones[0].rotation, pose.bones[1].rotation];
                let from_artist = own_rotations != Some(read);
                let bend = side.sign(pose.parent.matrix2.determinant(), [root, joint, tip], from_artist, goal, pole);
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
        self.bend_memory = side.memory;
        self.own_rotations = chain.drawn_pose().and_then(|(_, written)| Some([*written.first()?, *written.get(1)?]));
        Ok(Solved { error: effector.distance(goal), iterations: 1 })
    }
}

/// How the bend side is decided: the pole's side, else the artist's (the read pose's) side, else the side last
/// seen; then `flip_bend`.
struct BendSide {
    flip: bool,
    /// The artist's side last seen, in the root's parent frame (+1, -1; 0 = none seen yet).
    memory: f32,
}

impl BendSide {
    /// The global bend sign for [`solve_two_bone`]. `handedness` is the determinant of the root's parent frame,
    /// `read` the global root, joint and tip as read, `from_artist` whether that pose was posed by someone else (the
    /// animation, the scene) rather than being this node's own last result.
    ///
    /// Sides are measured on global points, where a reflection of the character flips them by itself; the memory
    /// is kept in the parent frame, so a character that turns while its limb is straight keeps its side.
    fn sign(&mut self, handedness: f32, read: [Vec2; 3], from_artist: bool, goal: Vec2, pole: Option<Vec2>) -> f32 {
        let [root, joint, tip] = read;
        if let Some(side) = pole.and_then(|pole| side_of(root, goal, pole)) {
            return side;
        }
        let handedness = if handedness < 0.0 { -1.0 } else { 1.0 };
        // The node's own last result bends the flipped way when `flip` is set: measure only what others posed.
        let seen = if from_artist { side_of(root, tip, joint) } else { None };
        if let Some(side) = seen {
            self.memory = side * handedness;
        }
        let artist = if self.memory == 0.0 { handedness } else { self.memory * handedness };
        if self.flip { -artist } else { artist }
    }
}
