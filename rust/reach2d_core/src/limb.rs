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
    /// The rotations the node wrote last: a read pose equal to them is the node's own result, not the artist's.
    pub own_rotations: Option<[f32; 2]>,
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
    let read = [pose.bones[0].rotation, pose.bones[1].rotation];
    let from_artist = aim.own_rotations != Some(read);
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
mod tests {
    use core::f32::consts::PI;

    use crate::common::*;
    use crate::write_back::{BonePose, ChainPose};
    use crate::{BendSide, LimbAim, LimbStretch, Vec2, side_of, solve_limb, stretched_end, unstretch_joints};
    use glam::Affine2;

    /// A limb as read: upper `upper` long, lower `lower` long, with local rotations, under a parent (mirrored or not).
    struct Limb {
        bones: [BonePose; 2],
        parent: Affine2,
        tip_offset: Vec2,
    }

    impl Limb {
        fn new(upper: f32, lower: f32, rotations: [f32; 2], mirrored: bool) -> Self {
            let bones = [
                BonePose::new(Vec2::ZERO, rotations[0], Vec2::ONE, 0.0),
                BonePose::new(Vec2::new(upper, 0.0), rotations[1], Vec2::ONE, 0.0),
            ];
            let scale = if mirrored { Vec2::new(-1.0, 1.0) } else { Vec2::ONE };
            let parent = Affine2::from_scale_angle_translation(scale, -0.4, Vec2::new(10.0, 5.0));
            Self { bones, parent, tip_offset: Vec2::new(lower, 0.0) }
        }

        fn pose(&self) -> ChainPose<'_> {
            ChainPose { parent: self.parent, bones: &self.bones, tip_offset: self.tip_offset }
        }

        fn joints(&self) -> [Vec2; 3] {
            let mut joints = [Vec2::ZERO; 3];
            self.pose().joints(&mut joints);
            joints
        }

        /// Solves toward `aim`, writes back at full weight, and returns the written end (stretched by the factor).
        fn solve_and_write(&self, aim: &LimbAim, side: &mut BendSide) -> (Vec2, f32, [Vec2; 3]) {
            let mut joints = self.joints();
            let factor = solve_limb(self.pose(), &mut joints, aim, side).unwrap();
            let mut rotations = [0.0; 2];
            let end = self.pose().write_back(&joints, 1.0, &[], &mut rotations).unwrap();
            let end = stretched_end(self.pose(), &rotations, factor).unwrap_or(end);
            (end, factor, joints)
        }
    }

    fn aim(goal: Vec2) -> LimbAim {
        LimbAim { goal, pole: None, tip: None, stretch: None, softness: 0.0, own_rotations: None }
    }

    #[test]
    fn stretch_settings() {
        assert_eq!(LimbStretch::new(0.0, 0.0), None);
        assert_eq!(LimbStretch::new(-1.0, f32::NAN), None);
        assert_eq!(LimbStretch::new(f32::INFINITY, 0.0), None);
        assert_eq!(LimbStretch::new(0.5, 2.0), Some(LimbStretch { longer: 0.5, shorter: 0.99 }));
        let stretch = LimbStretch::new(0.5, 0.25).unwrap();
        assert_eq!(stretch.upper_range(40.0), (30.0, 60.0));
        // Beyond reach: as long as it takes, up to the limit; inside: as short as it takes, down to the limit.
        assert_approx_eq!(stretch.upper_length(40.0, 20.0, 70.0), 50.0);
        assert_approx_eq!(stretch.upper_length(40.0, 20.0, 200.0), 60.0);
        assert_approx_eq!(stretch.upper_length(40.0, 20.0, 55.0), 35.0);
        assert_approx_eq!(stretch.upper_length(40.0, 20.0, 10.0), 30.0);
        assert_approx_eq!(stretch.upper_length(40.0, 20.0, 60.0), 40.0);
    }

    #[test]
    fn unstretching_keeps_directions_and_restores_the_upper_length() {
        let mut joints = [Vec2::ZERO, Vec2::new(30.0, 40.0), Vec2::new(30.0, 60.0)];
        unstretch_joints(&mut joints, 2.0);
        assert_approx_eq!(joints[1], Vec2::new(15.0, 20.0));
        assert_approx_eq!(joints[2], Vec2::new(15.0, 40.0));
        let mut same = [Vec2::ZERO, Vec2::X, Vec2::Y];
        for factor in [1.0, 0.0, -1.0] {
            unstretch_joints(&mut same, factor);
            assert_eq!(same, [Vec2::ZERO, Vec2::X, Vec2::Y]);
        }
    }

    #[test]
    fn the_pole_decides_the_side_and_flip_follows_the_artist() {
        let read = [Vec2::ZERO, Vec2::new(10.0, 10.0), Vec2::new(20.0, 0.0)];
        let goal = Vec2::new(20.0, 0.0);
        let artist = side_of(read[0], read[2], read[1]).unwrap();
        for flip in [false, true] {
            let mut side = BendSide { flip, memory: 0.0 };
            let pole_below = side.sign(1.0, read, true, goal, Some(Vec2::new(10.0, -50.0)));
            assert_eq!(pole_below, side_of(read[0], goal, Vec2::new(10.0, -50.0)).unwrap());
            let from_pose = side.sign(1.0, read, true, goal, None);
            assert_eq!(from_pose, if flip { -artist } else { artist });
        }
    }

    #[test]
    fn a_straight_limb_keeps_the_side_it_bent_to_last_mirrored_with_its_parent() {
        let bent = [Vec2::ZERO, Vec2::new(10.0, -10.0), Vec2::new(20.0, 0.0)];
        let straight = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(20.0, 0.0)];
        let goal = Vec2::new(15.0, 0.0);
        let mut side = BendSide::default();
        let seen = side.sign(1.0, bent, true, goal, None);
        assert_eq!(side.sign(1.0, straight, true, goal, None), seen);
        // The memory is kept in the parent's frame: a mirrored parent bends the mirrored way.
        assert_eq!(side.sign(-1.0, straight, true, goal, None), -seen);
        // The node's own last result is not the artist's: it does not change the memory.
        let mut own = BendSide { flip: true, memory: seen };
        own.sign(1.0, [bent[0], Vec2::new(10.0, 10.0), bent[2]], false, goal, None);
        assert_eq!(own.memory, seen);
    }

    /// Random limbs (mirrored or not) and goals within reach: the end lands on the goal, both bones keep their length,
    /// and the factor is 1 without a stretch.
    #[test]
    fn a_reachable_goal_is_reached_exactly() {
        let mut rng = Rng(0x11b_0001);
        for case in 0..500 {
            let (upper, lower) = (rng.range(5.0, 60.0), rng.range(5.0, 60.0));
            let limb = Limb::new(upper, lower, [rng.range(-PI, PI), rng.range(-PI, PI)], rng.unit() < 0.5);
            let joints = limb.joints();
            let other = Limb::new(upper, lower, [rng.range(-PI, PI), rng.range(-PI, PI)], false);
            let goal = joints[0] + (other.joints()[2] - other.joints()[0]);
            let (end, factor, solved) = limb.solve_and_write(&aim(goal), &mut BendSide::default());
            assert_approx_eq!(factor, 1.0, 1e-4);
            assert!(end.distance(goal) < 1e-3 * (upper + lower), "case {case}: {} off", end.distance(goal));
            assert_approx_eq!(solved[0].distance(solved[1]), upper, 1e-3);
            assert_approx_eq!(solved[1].distance(solved[2]), lower, 1e-3);
        }
    }

    /// Random limbs and goals beyond reach but within the stretch: the written, stretched limb lands on the goal; the
    /// joints handed to the write-back keep the authored lengths.
    #[test]
    fn a_stretched_limb_reaches_beyond_its_length() {
        let mut rng = Rng(0x11b_0002);
        for case in 0..500 {
            let (upper, lower) = (rng.range(10.0, 60.0), rng.range(10.0, 60.0));
            let limb = Limb::new(upper, lower, [rng.range(-PI, PI), rng.range(-PI, PI)], rng.unit() < 0.5);
            let joints = limb.joints();
            let distance = upper + lower + rng.range(0.01, 0.45) * upper;
            let goal = joints[0] + Vec2::from_angle(rng.range(-PI, PI)) * distance;
            let stretch = LimbStretch::new(0.5, 0.0);
            let (end, factor, solved) =
                limb.solve_and_write(&LimbAim { stretch, ..aim(goal) }, &mut BendSide::default());
            assert!(factor > 1.0 && factor <= 1.5 + 1e-4, "case {case}: factor {factor}");
            assert!(end.distance(goal) < 1e-3 * distance, "case {case}: {} off", end.distance(goal));
            assert_approx_eq!(solved[0].distance(solved[1]), upper, 1e-2);
            assert_approx_eq!(solved[1].distance(solved[2]), lower, 1e-2);
        }
    }

    /// Softness eases the last stretch to straight: the end stops short of a goal at full reach.
    #[test]
    fn softness_stops_short_of_full_reach() {
        let limb = Limb::new(30.0, 30.0, [0.3, 0.6], false);
        let goal = limb.joints()[0] + Vec2::new(60.0, 0.0);
        let (hard, ..) = limb.solve_and_write(&aim(goal), &mut BendSide::default());
        let (soft, ..) = limb.solve_and_write(&LimbAim { softness: 10.0, ..aim(goal) }, &mut BendSide::default());
        assert!(hard.distance(goal) < 1e-3);
        assert!(soft.distance(goal) > 0.5);
    }
}
