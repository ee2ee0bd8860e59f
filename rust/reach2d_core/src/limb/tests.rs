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
    LimbAim { goal, pole: None, tip: None, stretch: None, softness: 0.0, from_own_result: false }
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
        let (end, factor, solved) = limb.solve_and_write(&LimbAim { stretch, ..aim(goal) }, &mut BendSide::default());
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
