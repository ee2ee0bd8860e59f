//! `TwoBoneIk2D`: the analytic two-bone solver (law of cosines) for arms and legs; the knee bends the artist's
//! way, the flipped way, or toward a pole.

use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::write_back::{BonePose, ChainPose, lerp_angle};
use reach2d_core::{Vec2, side_of, soften_reach, solve_two_bone};

use crate::chain::TipEnd;
use crate::common::{Setup, Solved};
use crate::pose::TipDirection;
use crate::problem::Problem;
use crate::{checked, node_class};

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
    /// Only each bone's local [member Node2D.rotation] is written (and, with [member stretch] or [member compress]
    /// on, the tip bone's local [member Node2D.position]); angle limits set with [method set_angle_limits] (index 0 =
    /// upper, 1 = lower) clamp the written rotations.
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
            /// Let the limb lengthen to reach a target beyond its reach, like Spine's IK stretch: the most the upper
            /// bone may lengthen, as a fraction of its length (0.25 = a quarter longer); 0 = off. The limb then
            /// reaches straight for the target. It lengthens by writing [member tip_bone]'s local
            /// [member Node2D.position]: its authored position times a factor between 1 - [member compress] and
            /// 1 + [member stretch] (so the tip bone slides along the upper bone and the skin stretches with it);
            /// nothing else but rotations is written, and the lower bone keeps its length. The authored position
            /// comes back when stretch and compress are both 0 again, when the node is disabled or leaves the tree,
            /// and before a scene is saved (the preview's stretch returns after saving). A position that differs
            /// from what the last stretch wrote (an animation, your edit) becomes the authored one. A value below 0
            /// (or not finite) is an error and is ignored.
            #[export_group(name = "Stretch")]
            #[export(range = (0.0, 2.0, 0.01, or_greater))]
            #[var(set = set_stretch)]
            stretch: f32,
            /// Let the limb shorten instead of bending when the target is closer than its reach, like Spine's IK
            /// compress: the most the upper bone may shorten, as a fraction of its length; 0 = off (the limb bends).
            /// The limb stays straight until the upper bone is that much shorter, then bends. Written like
            /// [member stretch]. A value outside [0, 0.99] (or NaN) is an error and is ignored.
            #[export(range = (0.0, 0.99, 0.01))]
            #[var(set = set_compress)]
            compress: f32,
        }
        solver_api {
            /// Sets [member stretch]: a value below 0 (or not finite) prints an error and keeps the current one.
            /// Setting it (and [member compress]) to 0 puts [member tip_bone]'s authored position back at once.
            #[func]
            fn set_stretch(&mut self, value: f32) {
                let max = f64::from(f32::MAX);
                if let Some(v) = checked::float_value("TwoBoneIk2D", "stretch", f64::from(value), 0.0, max) {
                    self.stretch = v as f32;
                    self.unstretch_when_off();
                }
            }

            /// Sets [member compress]: a value outside [0, 0.99] (or NaN) prints an error and keeps the current one.
            #[func]
            fn set_compress(&mut self, value: f32) {
                if let Some(v) = checked::float_value("TwoBoneIk2D", "compress", f64::from(value), 0.0, 0.99) {
                    self.compress = v as f32;
                    self.unstretch_when_off();
                }
            }
        }
        last_error: "Distance in global pixels between the target and the end effector after the last solve, \
            [member weight], [member softness] and [member stretch] included; [code]-1.0[/code] before the first solve.",
        last_iterations: "Always 1 after a solve: the two-bone solve is closed-form.",
    }
}

impl TwoBoneIk2D {
    fn solve_impl(&mut self) -> Result<Solved, Problem> {
        let Setup { goal, pole } = self.check_setup_impl()?;
        let (softness, own_rotations, tip_rotation) = (self.softness, self.own_rotations, self.tip_direction());
        let mut side = BendSide { flip: self.flip_bend, memory: self.bend_memory };
        let limb_stretch = LimbStretch::new(self.stretch, self.compress);
        let weight = self.weight;
        let chain = &mut self.state.chain;
        // The solve reads the tip bone at its authored position, however the last solve stretched it.
        let authored = match limb_stretch {
            Some(_) => chain.authored_tip_position(),
            None => {
                chain.restore_tip_position();
                None
            }
        };
        let at_authored = |bones: &mut [BonePose]| {
            if let (Some(position), Some(tip)) = (authored, bones.get_mut(1)) {
                tip.position = position;
            }
        };
        let (effector, factor) = chain.solve_closed_form_adjusted(
            TipEnd::BoneLength,
            weight,
            self.limits.active(),
            at_authored,
            |pose, joints| {
                let [root, joint, tip] = [joints[0], joints[1], joints[2]];
                let read = [pose.bones[0].rotation, pose.bones[1].rotation];
                let from_artist = own_rotations != Some(read);
                let bend = side.sign(pose.parent.matrix2.determinant(), [root, joint, tip], from_artist, goal, pole);
                let (upper, lower) = (root.distance(joint), joint.distance(tip));
                let to_goal = goal - root;
                let distance = to_goal.length();
                let stretched = limb_stretch.map_or(upper, |s| s.upper_length(upper, lower, distance));
                let softened = soften_reach(distance, stretched + lower, softness);
                let aim = if softened < distance { root + to_goal * (softened / distance) } else { goal };
                let solution = solve_two_bone(root, stretched, lower, aim, bend, 0.0).map_err(Problem::Solver)?;
                joints[1] = solution.joint;
                joints[2] = solution.tip;
                if let Some(tip_rotation) = tip_rotation {
                    let upper_range = limb_stretch.map(|s| s.upper_range(upper));
                    follow_tip_direction(pose, joints, goal, tip_rotation, upper_range);
                }
                let written_upper = root.distance(joints[1]);
                let factor = if upper > 0.0 && written_upper.is_finite() { written_upper / upper } else { 1.0 };
                unstretch_joints(joints, factor);
                Ok(factor)
            },
        )?;
        self.bend_memory = side.memory;
        self.own_rotations = chain.drawn_pose().and_then(|(_, written)| Some([*written.first()?, *written.get(1)?]));
        let effector = match limb_stretch {
            Some(_) => {
                let written = 1.0 + (factor - 1.0) * weight.clamp(0.0, 1.0);
                chain.write_tip_position(written);
                chain
                    .drawn_pose()
                    .and_then(|(pose, rotations)| stretched_end(pose, rotations, written))
                    .unwrap_or(effector)
            }
            None => effector,
        };
        Ok(Solved { error: effector.distance(goal), iterations: 1 })
    }

    /// Puts the tip bone's authored position back at once when stretch and compress are both off.
    fn unstretch_when_off(&mut self) {
        if LimbStretch::new(self.stretch, self.compress).is_none() {
            self.state.chain.restore_tip_position();
        }
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

/// How far the upper bone may lengthen and shorten (fractions of its length), when either is on.
#[derive(Clone, Copy, Debug)]
struct LimbStretch {
    longer: f32,
    shorter: f32,
}

impl LimbStretch {
    /// The stretch settings, or `None` when both are off (or not usable numbers).
    fn new(stretch: f32, compress: f32) -> Option<Self> {
        let longer = if stretch.is_finite() { stretch.max(0.0) } else { 0.0 };
        let shorter = if compress.is_finite() { compress.clamp(0.0, 0.99) } else { 0.0 };
        (longer > 0.0 || shorter > 0.0).then_some(Self { longer, shorter })
    }

    /// The shortest and longest the upper bone may be (global px), `upper` long as authored.
    fn upper_range(self, upper: f32) -> (f32, f32) {
        (upper * (1.0 - self.shorter), upper * (1.0 + self.longer))
    }

    /// The upper bone's length (global px) for a target `distance` from the root: long enough to reach it straight
    /// beyond the limb's reach, short enough to reach it straight inside it, within the allowed fractions.
    fn upper_length(self, upper: f32, lower: f32, distance: f32) -> f32 {
        let straight = distance - lower;
        if distance > upper + lower && self.longer > 0.0 {
            straight.min(upper * (1.0 + self.longer))
        } else if distance < upper + lower && self.shorter > 0.0 {
            straight.max(upper * (1.0 - self.shorter))
        } else {
            upper
        }
    }
}

/// Moves a limb solved with its upper bone `factor` times as long (`joints`: root, joint, tip) back to the authored
/// length, keeping both bones' directions: the write-back then turns the bones exactly as the stretched limb needs,
/// and the stretch itself is written as the tip bone's position.
fn unstretch_joints(joints: &mut [Vec2], factor: f32) {
    if factor == 1.0 || factor <= 0.0 {
        return;
    }
    let [root, joint, tip] = [joints[0], joints[1], joints[2]];
    let authored_joint = root + (joint - root) / factor;
    joints[1] = authored_joint;
    joints[2] = authored_joint + (tip - joint);
}

/// The global end of the limb written with `rotations`, its tip bone at its authored position times `factor`.
fn stretched_end(pose: ChainPose<'_>, rotations: &[f32], factor: f32) -> Option<Vec2> {
    let ([upper, lower], [upper_rotation, lower_rotation, ..]) = (pose.bones, rotations) else { return None };
    let lower = BonePose { position: lower.position * factor, ..*lower };
    let global = pose.parent * upper.local_with(*upper_rotation) * lower.local_with(*lower_rotation);
    Some(global.transform_point2(pose.tip_offset))
}

/// `match_target_rotation` on a solved limb (`joints`: root, joint, tip): lays the lower bone along the wanted
/// direction (blended from the solved one by `tip.weight`) so that it ends on `goal`, and points the upper bone at
/// where the lower one must then start. With `upper_range` (stretch or compress on) the upper bone also takes the
/// length that reaches that start, within the range, so the limb reaches the target at that angle. A zero
/// `tip.x_axis` (no direction) or a weight of 0 changes nothing.
fn follow_tip_direction(
    pose: ChainPose<'_>,
    joints: &mut [Vec2],
    goal: Vec2,
    tip: TipDirection,
    upper_range: Option<(f32, f32)>,
) {
    let [root, joint, end] = [joints[0], joints[1], joints[2]];
    if tip.x_axis.length_squared() == 0.0 || tip.weight.is_nan() || tip.weight <= 0.0 {
        return;
    }
    let (upper, lower) = (root.distance(joint), joint.distance(end));
    let from_x_axis = pose.segment_angle_from_x_axis(1);
    let wanted = tip.x_axis.to_angle();
    let x_angle = if tip.weight >= 1.0 {
        wanted
    } else {
        lerp_angle((end - joint).to_angle() - from_x_axis, wanted, tip.weight.clamp(0.0, 1.0))
    };
    let lower_segment = Vec2::from_angle(x_angle + from_x_axis) * lower;
    let to_start = goal - lower_segment - root;
    let upper = upper_range.map_or(upper, |(shortest, longest)| to_start.length().max(shortest).min(longest));
    let toward_start = to_start.normalize_or_zero();
    let joint = if toward_start == Vec2::ZERO { joint } else { root + toward_start * upper };
    joints[1] = joint;
    joints[2] = joint + lower_segment;
}
