//! A two-bone limb's geometry beyond the law of cosines (`two_bone.rs`): which side it bends to ([`BendSide`]), how
//! far its upper bone may stretch or compress ([`LimbStretch`]), and the stretched limb taken back to its authored
//! length for the write-back. Plain vector geometry; no allocation.

use glam::Vec2;

use crate::error::SolveError;
use crate::pole::side_of;
use crate::posed::{TipDirection, follow_tip_direction};
use crate::two_bone::{soften_reach, solve_two_bone};
use crate::write_back::{BonePose, ChainPose};

/// Where a limb solve goes and how: the target, the pole, the tip's direction, the stretch and the softness.
#[derive(Clone, Copy, Debug)]
pub struct LimbAim {
    /// The target the limb's end reaches for.
    pub goal: Vec2,
    /// The point the middle joint bends toward, if any (it decides the side).
    pub pole: Option<Vec2>,
    /// The lower bone's wanted direction (`match_target_rotation`), if any.
    pub tip: Option<TipDirection>,
    /// How far the upper bone may stretch or compress, when either is on.
    pub stretch: Option<LimbStretch>,
    /// Within this distance of full reach the aim eases into the straight pose ([`soften_reach`]); 0 = exact.
    pub softness: f32,
    /// `true` when the pose read is the node's own last result (a warm start), not the artist's (an animation's,
    /// the scene's, the rest pose): the caller decides, as it tells its own writes back from the engine.
    pub from_own_result: bool,
}

/// Solves a two-bone limb (`joints`: root, joint, tip, as read from `pose`) toward `aim`, bending to the side
/// `side` decides. With a stretch, the limb is solved with its upper bone lengthened or shortened and then moved
/// back to its authored length ([`unstretch_joints`]): returns the factor the upper bone's length was scaled by (1
/// without a stretch), which the caller writes as the tip bone's position.
pub fn solve_limb(
    pose: ChainPose<'_>,
    joints: &mut [Vec2],
    aim: &LimbAim,
    side: &mut BendSide,
) -> Result<f32, SolveError> {
    let [root, joint, tip] = [joints[0], joints[1], joints[2]];
    let from_artist = !aim.from_own_result;
    let bend = side.sign(pose.parent.matrix2.determinant(), [root, joint, tip], from_artist, aim.goal, aim.pole);
    let (upper, lower) = (root.distance(joint), joint.distance(tip));
    let to_goal = aim.goal - root;
    let distance = to_goal.length();
    let stretched = aim.stretch.map_or(upper, |s| s.upper_length(upper, lower, distance));
    let softened = soften_reach(distance, stretched + lower, aim.softness);
    let target = if softened < distance { root + to_goal * (softened / distance) } else { aim.goal };
    let solution = solve_two_bone(root, stretched, lower, target, bend, 0.0)?;
    joints[1] = solution.joint;
    joints[2] = solution.tip;
    if let Some(tip_direction) = aim.tip {
        let upper_range = aim.stretch.map(|s| s.upper_range(upper));
        follow_tip_direction(pose, joints, aim.goal, tip_direction, upper_range);
    }
    let written_upper = root.distance(joints[1]);
    let factor = if upper > 0.0 && written_upper.is_finite() { written_upper / upper } else { 1.0 };
    unstretch_joints(joints, factor);
    Ok(factor)
}

/// How the bend side is decided: the pole's side, else the artist's (the read pose's) side, else the side last
/// seen; then `flip_bend`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BendSide {
    /// `flip_bend`: bend the other way from the artist.
    pub flip: bool,
    /// The artist's side last seen, in the root's parent frame (+1, -1; 0 = none seen yet).
    pub memory: f32,
}

impl BendSide {
    /// The global bend sign for [`solve_two_bone`]. `handedness` is the determinant of the root's parent frame,
    /// `read` the global root, joint and tip as read, `from_artist` whether that pose was posed by someone else (the
    /// animation, the scene) rather than being this node's own last result.
    ///
    /// Sides are measured on global points, where a reflection of the character flips them by itself; the memory
    /// is kept in the parent frame, so a character that turns while its limb is straight keeps its side.
    pub fn sign(&mut self, handedness: f32, read: [Vec2; 3], from_artist: bool, goal: Vec2, pole: Option<Vec2>) -> f32 {
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
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimbStretch {
    /// The most the upper bone may lengthen, a fraction of its length.
    pub longer: f32,
    /// The most the upper bone may shorten, a fraction of its length.
    pub shorter: f32,
}

impl LimbStretch {
    /// The stretch settings, or `None` when both are off (or not usable numbers).
    pub fn new(stretch: f32, compress: f32) -> Option<Self> {
        let longer = if stretch.is_finite() { stretch.max(0.0) } else { 0.0 };
        let shorter = if compress.is_finite() { compress.clamp(0.0, 0.99) } else { 0.0 };
        (longer > 0.0 || shorter > 0.0).then_some(Self { longer, shorter })
    }

    /// The shortest and longest the upper bone may be (global px), `upper` long as authored.
    pub fn upper_range(self, upper: f32) -> (f32, f32) {
        (upper * (1.0 - self.shorter), upper * (1.0 + self.longer))
    }

    /// The upper bone's length (global px) for a target `distance` from the root: long enough to reach it straight
    /// beyond the limb's reach, short enough to reach it straight inside it, within the allowed fractions.
    pub fn upper_length(self, upper: f32, lower: f32, distance: f32) -> f32 {
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
pub fn unstretch_joints(joints: &mut [Vec2], factor: f32) {
    if factor == 1.0 || factor <= 0.0 {
        return;
    }
    let [root, joint, tip] = [joints[0], joints[1], joints[2]];
    let authored_joint = root + (joint - root) / factor;
    joints[1] = authored_joint;
    joints[2] = authored_joint + (tip - joint);
}

/// The global end of the limb written with `rotations`, its tip bone at its authored position times `factor`.
pub fn stretched_end(pose: ChainPose<'_>, rotations: &[f32], factor: f32) -> Option<Vec2> {
    let ([upper, lower], [upper_rotation, lower_rotation, ..]) = (pose.bones, rotations) else { return None };
    let lower = BonePose { position: lower.position * factor, ..*lower };
    let global = pose.parent * upper.local_with(*upper_rotation) * lower.local_with(*lower_rotation);
    Some(global.transform_point2(pose.tip_offset))
}

#[cfg(test)]
mod tests;
