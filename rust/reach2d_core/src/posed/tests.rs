use core::f32::consts::{FRAC_PI_2, PI};

use crate::common::*;
use crate::write_back::{BonePose, ChainPose};
use crate::{
    Aim, AngleLimit, ChainLimits, ChainSolver, FabrikSettings, PosedChain, SolveError, TipDirection, Vec2,
    follow_tip_direction, solve_posed,
};
use glam::Affine2;

const FABRIK: FabrikSettings = FabrikSettings { max_iterations: 64, tolerance: 1e-3 };

/// A chain of bones each `length` long along its own x axis, turned by `rotations` (local), unmirrored.
struct Read {
    bones: Vec<BonePose>,
    parent: Affine2,
    tip_offset: Vec2,
}

impl Read {
    fn new(lengths: &[f32], rotations: &[f32], mirrored: bool) -> Self {
        let mut bones = Vec::new();
        let mut position = Vec2::ZERO;
        for (&length, &rotation) in lengths.iter().zip(rotations) {
            bones.push(BonePose::new(position, rotation, Vec2::ONE, 0.0));
            position = Vec2::new(length, 0.0);
        }
        let scale = if mirrored { Vec2::new(-1.0, 1.0) } else { Vec2::ONE };
        let parent = Affine2::from_scale_angle_translation(scale, 0.3, Vec2::new(40.0, -20.0));
        Self { bones, parent, tip_offset: Vec2::new(*lengths.last().unwrap(), 0.0) }
    }

    fn pose(&self) -> ChainPose<'_> {
        ChainPose { parent: self.parent, bones: &self.bones, tip_offset: self.tip_offset }
    }

    fn joints(&self) -> Vec<Vec2> {
        let mut joints = vec![Vec2::ZERO; self.bones.len() + 1];
        self.pose().joints(&mut joints);
        joints
    }
}

fn lengths_of(joints: &[Vec2]) -> Vec<f32> {
    joints.windows(2).map(|pair| pair[0].distance(pair[1])).collect()
}

fn solve(read: &Read, joints: &mut [Vec2], aim: Aim, limits: &[Option<AngleLimit>]) -> Result<u32, SolveError> {
    let lengths = lengths_of(&read.joints());
    let mut segment_limits = vec![None; lengths.len()];
    let mut entered = vec![Vec2::ZERO; lengths.len() + 1];
    let chain = PosedChain {
        pose: read.pose(),
        joints,
        lengths: &lengths,
        segment_limits: &mut segment_limits,
        entered: &mut entered,
    };
    solve_posed(&FABRIK, chain, aim, limits).map(|report| report.iterations)
}

/// A character mirrored by a reflection above the chain solves as the exact mirror image of the unmirrored one,
/// with angle limits (where the refinement's restart poses come in), for CCD and FABRIK. Before the solve ran in
/// the root parent's handedness, the restart poses were not mirrored and the mirrored chain often ended elsewhere.
#[test]
fn a_mirrored_parent_solves_the_mirror_image() {
    use crate::CcdSettings;
    let mirror = |p: Vec2| Vec2::new(-p.x, p.y);
    let mut rng = Rng(2107);
    let ccd = CcdSettings { max_iterations: 16, tolerance: 0.5, max_angle_step: f32::INFINITY };
    let mut worst = [0.0f32; 2];
    for _ in 0..300 {
        let n = 3 + rng.below(4);
        let lengths: Vec<f32> = (0..n).map(|_| rng.range(10.0, 40.0)).collect();
        let rotations: Vec<f32> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
        let limits: Vec<Option<AngleLimit>> =
            rotations.iter().map(|&r| AngleLimit::new(r - rng.range(0.3, 1.5), r + rng.range(0.3, 1.5))).collect();
        let plain = Read::new(&lengths, &rotations, false);
        let parent = Affine2::from_angle_translation(rng.range(-3.0, 3.0), Vec2::new(rng.range(-500.0, 500.0), 300.0));
        let plain = Read { parent, ..plain };
        let mirrored =
            Read { parent: Affine2::from_scale(Vec2::new(-1.0, 1.0)) * parent, bones: plain.bones.clone(), ..plain };
        let reach: f32 = lengths.iter().sum();
        let goal = plain.joints()[0] + Vec2::from_angle(rng.range(-PI, PI)) * rng.range(0.2, 1.1) * reach;
        for (slot, use_ccd) in [(0, true), (1, false)] {
            let (mut a, mut b) = (plain.joints(), mirrored.joints());
            for (read, joints, goal) in [(&plain, &mut a, goal), (&mirrored, &mut b, mirror(goal))] {
                let lengths = lengths_of(&read.joints());
                let mut segment_limits = vec![None; lengths.len()];
                // No room for the entered joints: the pose is composed again to compare (the other way).
                let chain = PosedChain {
                    pose: read.pose(),
                    joints,
                    lengths: &lengths,
                    segment_limits: &mut segment_limits,
                    entered: &mut [],
                };
                let aim = Aim { goal, pole: None, tip: None };
                if use_ccd {
                    solve_posed(&ccd, chain, aim, &limits).unwrap();
                } else {
                    solve_posed(&FABRIK, chain, aim, &limits).unwrap();
                }
            }
            for (p, q) in a.iter().zip(&b) {
                worst[slot] = worst[slot].max(mirror(*p).distance(*q));
            }
        }
    }
    assert!(worst[0] < 1e-3 && worst[1] < 1e-3, "worst mirror difference: CCD {} px, FABRIK {} px", worst[0], worst[1]);
}

/// A pose already within tolerance comes back bit for bit (the root frame's round trip adds no rounding), so
/// re-solving a solved pose every frame writes the same rotations.
#[test]
fn a_solved_pose_comes_back_unchanged() {
    for mirrored in [false, true] {
        let read = Read::new(&[30.0, 20.0, 10.0], &[0.2, 0.4, -0.3], mirrored);
        let read = Read { parent: Affine2 { translation: Vec2::new(300.0, 290.0), ..read.parent }, ..read };
        let tip = read.joints()[3];
        let mut joints = read.joints();
        let report = solve(&read, &mut joints, Aim { goal: tip + Vec2::new(1e-4, 0.0), pole: None, tip: None }, &[]);
        assert_eq!(report, Ok(0));
        assert_eq!(joints, read.joints(), "mirrored {mirrored}");
    }
}

#[test]
fn without_pole_or_tip_it_is_the_plain_solver() {
    let read = Read::new(&[30.0, 20.0, 10.0], &[0.2, 0.4, -0.3], false);
    let goal = Vec2::new(50.0, 25.0);
    let mut posed = read.joints();
    solve(&read, &mut posed, Aim { goal, pole: None, tip: None }, &[]).unwrap();
    // The plain solver in the root parent's frame (its origin at zero), moved back.
    let origin = read.pose().parent.translation;
    let mut plain: Vec<Vec2> = read.joints().iter().map(|&j| j - origin).collect();
    FABRIK.solve(&mut plain, &lengths_of(&read.joints()), goal - origin, &ChainLimits::NONE).unwrap();
    let plain: Vec<Vec2> = plain.iter().map(|&j| j + origin).collect();
    for (p, q) in posed.iter().zip(&plain) {
        assert!(p.distance(*q) < 1e-4, "{posed:?} {plain:?}");
    }
}

#[test]
fn an_inactive_direction_changes_nothing() {
    let read = Read::new(&[30.0, 20.0, 10.0], &[0.2, 0.4, -0.3], false);
    let goal = Vec2::new(50.0, 25.0);
    let mut plain = read.joints();
    solve(&read, &mut plain, Aim { goal, pole: None, tip: None }, &[]).unwrap();
    for tip in [
        TipDirection { x_axis: Vec2::ZERO, weight: 1.0 },
        TipDirection { x_axis: Vec2::NAN, weight: 1.0 },
        TipDirection { x_axis: Vec2::X, weight: 0.0 },
        TipDirection { x_axis: Vec2::X, weight: f32::NAN },
    ] {
        assert!(!tip.is_active());
        let mut joints = read.joints();
        solve(&read, &mut joints, Aim { goal, pole: None, tip: Some(tip) }, &[]).unwrap();
        assert_eq!(joints, plain, "{tip:?}");
    }
}

#[test]
fn a_one_bone_chain_ignores_the_direction() {
    let read = Read::new(&[30.0], &[0.2], false);
    let goal = Vec2::new(0.0, 100.0);
    let (mut plain, mut turned) = (read.joints(), read.joints());
    solve(&read, &mut plain, Aim { goal, pole: None, tip: None }, &[]).unwrap();
    let tip = Some(TipDirection { x_axis: Vec2::Y, weight: 1.0 });
    solve(&read, &mut turned, Aim { goal, pole: None, tip }, &[]).unwrap();
    assert_eq!(plain, turned);
}

#[test]
fn a_refused_goal_leaves_the_joints_unchanged() {
    let read = Read::new(&[30.0, 20.0, 10.0], &[0.2, 0.4, -0.3], false);
    for weight in [1.0, 0.5] {
        let mut joints = read.joints();
        let tip = Some(TipDirection { x_axis: Vec2::Y, weight });
        let refused = solve(&read, &mut joints, Aim { goal: Vec2::NAN, pole: None, tip }, &[]);
        assert!(refused.is_err());
        assert_eq!(joints, read.joints());
    }
}

/// Random chains (mirrored or not) and reachable goals: at full weight the tip segment takes the wanted direction
/// and ends on the goal, every bone keeps its length, and a pole or limits do not change that.
#[test]
fn the_tip_takes_the_wanted_direction_and_reaches() {
    let mut rng = Rng(0x5eed_0001);
    for case in 0..300 {
        let n = 2 + rng.below(5);
        let lengths: Vec<f32> = (0..n).map(|_| rng.range(5.0, 40.0)).collect();
        let rotations: Vec<f32> = (0..n).map(|_| rng.range(-PI, PI)).collect();
        let read = Read::new(&lengths, &rotations, rng.unit() < 0.5);
        let wanted = rng.range(-PI, PI);
        let joints = read.joints();
        // A goal the bones before the tip reach at the wanted direction (segment angle = x angle + parent's turn).
        let from_x_axis = read.pose().segment_angle_from_x_axis(n - 1);
        let angles: Vec<f32> = (0..n - 1).map(|_| rng.range(-PI, PI)).collect();
        let start = *crate::common::pose(joints[0], &lengths[..n - 1], &angles).last().unwrap();
        let goal = start + Vec2::from_angle(wanted + from_x_axis) * lengths[n - 1];
        let pole = (rng.unit() < 0.3).then(|| Vec2::new(rng.range(-100.0, 100.0), rng.range(-100.0, 100.0)));
        let mut solved = joints.clone();
        let tip = Some(TipDirection { x_axis: Vec2::from_angle(wanted) * rng.range(0.5, 3.0), weight: 1.0 });
        solve(&read, &mut solved, Aim { goal, pole, tip }, &[]).unwrap();
        let segment = solved[n] - solved[n - 1];
        assert_approx_eq!(Vec2::from_angle(segment.to_angle() - from_x_axis), Vec2::from_angle(wanted), 1e-3);
        assert!(solved[n].distance(goal) < 0.05, "case {case}: {} from the goal", solved[n].distance(goal));
        assert_lengths(&solved, &lengths_of(&joints), 1e-4, 1e-3);
        assert_eq!(solved[0], joints[0]);
    }
}

/// Below full weight the direction is `lerp_angle(plain, wanted, weight)`: weight 0 is the plain solve's.
#[test]
fn the_weight_blends_from_the_plain_direction() {
    let read = Read::new(&[30.0, 20.0, 10.0], &[0.2, 0.4, -0.3], false);
    let goal = Vec2::new(40.0, 30.0);
    let mut plain = read.joints();
    solve(&read, &mut plain, Aim { goal, pole: None, tip: None }, &[]).unwrap();
    let plain_angle = (plain[3] - plain[2]).to_angle();
    let wanted = plain_angle + FRAC_PI_2;
    let mut half = read.joints();
    let tip = Some(TipDirection { x_axis: Vec2::from_angle(wanted), weight: 0.5 });
    let iterations = solve(&read, &mut half, Aim { goal, pole: None, tip }, &[]).unwrap();
    assert!(iterations > 0);
    let half_angle = (half[3] - half[2]).to_angle();
    assert_approx_eq!(Vec2::from_angle(half_angle), Vec2::from_angle(plain_angle + FRAC_PI_2 / 2.0), 1e-3);
}

/// Limits on the bones before the tip still hold with a tip direction.
#[test]
fn limits_hold_with_a_tip_direction() {
    let mut rng = Rng(0x5eed_0002);
    for _ in 0..100 {
        let read = Read::new(&[30.0, 25.0, 20.0, 10.0], &[0.0; 4], false);
        let limits: Vec<_> = (0..4).map(|_| AngleLimit::new(-0.6, 0.6)).collect();
        let goal = Vec2::new(rng.range(-60.0, 90.0), rng.range(-60.0, 90.0));
        let mut joints = read.joints();
        let tip = Some(TipDirection { x_axis: Vec2::from_angle(rng.range(-PI, PI)), weight: 1.0 });
        solve(&read, &mut joints, Aim { goal, pole: None, tip }, &limits).unwrap();
        let mut segment_limits = vec![None; 4];
        let root_direction = read.pose().segment_limits(&read.joints(), &limits, &mut segment_limits);
        let chain = ChainLimits { root_direction, per_bone: &segment_limits[..3] };
        assert_limits(&joints[..4], &chain, 1e-3);
    }
}

#[test]
fn a_limb_follows_the_direction_and_still_ends_on_the_goal() {
    let read = Read::new(&[30.0, 20.0], &[0.5, 0.8], false);
    let goal = Vec2::new(60.0, 10.0);
    let mut joints = read.joints();
    let tip = TipDirection { x_axis: Vec2::Y, weight: 1.0 };
    follow_tip_direction(read.pose(), &mut joints, goal, tip, None);
    let from_x_axis = read.pose().segment_angle_from_x_axis(1);
    assert_approx_eq!((joints[2] - joints[1]).normalize(), Vec2::from_angle(FRAC_PI_2 + from_x_axis), 1e-5);
    assert_approx_eq!(joints[2].distance(joints[1]), 20.0, 1e-3);
    // Without a stretch the upper bone keeps its length, so the end lands on the goal only where it can.
    assert_approx_eq!(joints[1].distance(joints[0]), 30.0, 1e-3);
    // With a stretch range wide enough it does land on the goal.
    let mut stretched = read.joints();
    follow_tip_direction(read.pose(), &mut stretched, goal, tip, Some((1.0, 500.0)));
    assert_approx_eq!(stretched[2], goal, 1e-3);
    // An inactive direction changes nothing.
    let mut untouched = read.joints();
    follow_tip_direction(read.pose(), &mut untouched, goal, TipDirection { x_axis: Vec2::ZERO, weight: 1.0 }, None);
    assert_eq!(untouched, read.joints());
}
