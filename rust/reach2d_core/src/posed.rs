//! Solving a chain read from bones: the pose as read ([`ChainPose`]) bounds the solve with the bones' rotation limits,
//! an optional pole pre-bends the start, and an optional [`TipDirection`] lays the tip bone along a wanted direction
//! (`match_target_rotation`). Plain vector geometry on the caller's buffers; nothing here allocates.

use glam::Vec2;

use crate::angle::{AngleLimit, ChainLimits};
use crate::pole::pre_bend_toward_pole;
use crate::write_back::{ChainPose, lerp_angle};
use crate::{ChainSolver, SolveError, SolveReport};

/// The tip bone's wanted global direction (`match_target_rotation`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TipDirection {
    /// The direction the tip bone's global x axis should take (need not be normalized).
    pub x_axis: Vec2,
    /// How much: 0 keeps the direction the plain solve gives, 1 takes `x_axis` exactly.
    pub weight: f32,
}

impl TipDirection {
    /// `false` when it changes nothing: a zero or non-finite `x_axis` (no direction), or a weight of 0 (or NaN).
    pub fn is_active(&self) -> bool {
        self.x_axis.length_squared() > 0.0 && self.x_axis.is_finite() && self.weight > 0.0
    }

    /// The tip segment's global angle: `lerp_angle(plain, wanted, weight)`, where `plain` is the segment angle a
    /// solve without the direction gives (only used below a weight of 1) and `from_x_axis` the tip bone's angle from
    /// its x axis to its segment.
    fn segment_angle(&self, plain_segment: impl FnOnce() -> f32, from_x_axis: f32) -> f32 {
        let wanted = self.x_axis.to_angle();
        let x_angle = if self.weight >= 1.0 {
            wanted
        } else {
            lerp_angle(plain_segment() - from_x_axis, wanted, self.weight.clamp(0.0, 1.0))
        };
        x_angle + from_x_axis
    }
}

/// The buffers one posed solve works in: the pose as read, its global joints (moved in place), the segment lengths
/// and room for the segment limits (one per bone).
pub struct PosedChain<'a> {
    /// The pose as read (the limits' offsets and the tip bone's frame).
    pub pose: ChainPose<'a>,
    /// Global joints, `N + 1`: as read, then as solved.
    pub joints: &'a mut [Vec2],
    /// Segment lengths, `N`.
    pub lengths: &'a [f32],
    /// Room for the segment limits the rotation limits give for this pose, `N`.
    pub segment_limits: &'a mut [Option<AngleLimit>],
}

/// Where a posed solve goes: the target, the pole the chain's middle bends toward, and the tip's direction.
#[derive(Clone, Copy, Debug)]
pub struct Aim {
    /// The target the end reaches for.
    pub goal: Vec2,
    /// The point the chain's middle bends toward, if any.
    pub pole: Option<Vec2>,
    /// The tip bone's wanted direction, if any.
    pub tip: Option<TipDirection>,
}

/// Solves `chain.joints` toward `aim.goal` with `solver`, starting from the pose pre-bent toward `aim.pole` when
/// there is one (see [`pre_bend_toward_pole`]).
///
/// `rotation_limits` bound each bone's local rotation (an empty slice: none); they are translated into the solver's
/// segment limits for the pose as read (before the pre-bend, which the limits' offsets must not see).
///
/// With `aim.tip`, the tip bone's global x axis takes `tip.x_axis`: the bones before the tip reach the tip bone's
/// start, and the tip bone is laid from there along the wanted direction (the built-in FABRIK's
/// `use_target_rotation`). With `tip.weight` below 1 the direction is `lerp_angle(plain, wanted, weight)`, where
/// plain is the tip's direction after a solve without it (one more solve). A one-bone chain or an inactive direction
/// solves as without it. The direction is exact when the tip bone's global transform is a similarity (see
/// [`ChainPose::segment_angle_from_x_axis`]); the tip bone's own angle limit, applied at write-back, wins over it.
pub fn solve_posed(
    solver: &impl ChainSolver,
    chain: PosedChain<'_>,
    aim: Aim,
    rotation_limits: &[Option<AngleLimit>],
) -> Result<SolveReport, SolveError> {
    let PosedChain { pose, joints, lengths, segment_limits } = chain;
    let n = lengths.len();
    let tip = match aim.tip {
        Some(tip) if n >= 2 && tip.is_active() => tip,
        _ => return solve_bent(solver, pose, joints, lengths, segment_limits, aim.goal, aim.pole, rotation_limits),
    };
    let from_x_axis = pose.segment_angle_from_x_axis(n - 1);
    let mut plain_iterations = 0;
    let mut plain_error = Ok(());
    let segment_angle = tip.segment_angle(
        || match solve_bent(solver, pose, joints, lengths, segment_limits, aim.goal, aim.pole, rotation_limits) {
            Ok(plain) => {
                plain_iterations = plain.iterations;
                let angle = (joints[n] - joints[n - 1]).to_angle();
                pose.joints(joints);
                angle
            }
            Err(error) => {
                plain_error = Err(error);
                0.0
            }
        },
        from_x_axis,
    );
    plain_error?;
    let tip_segment = Vec2::from_angle(segment_angle) * lengths[n - 1];
    let limits = chain_limits(pose, joints, rotation_limits, segment_limits);
    let limits = ChainLimits { per_bone: &limits.per_bone[..limits.per_bone.len().min(n - 1)], ..limits };
    let start = aim.goal - tip_segment;
    if let Some(pole) = aim.pole {
        pre_bend_toward_pole(&mut joints[..n], &lengths[..n - 1], pole, start);
    }
    let mut report = solver.solve(&mut joints[..n], &lengths[..n - 1], start, &limits)?;
    joints[n] = joints[n - 1] + tip_segment;
    report.iterations += plain_iterations;
    report.distance = joints[n].distance(aim.goal);
    Ok(report)
}

/// The plain posed solve: limits for the pose as read, the pole's pre-bend, the solver.
#[allow(clippy::too_many_arguments)] // The parts of a `PosedChain` and an `Aim`, borrowed twice by `solve_posed`.
fn solve_bent(
    solver: &impl ChainSolver,
    pose: ChainPose<'_>,
    joints: &mut [Vec2],
    lengths: &[f32],
    segment_limits: &mut [Option<AngleLimit>],
    goal: Vec2,
    pole: Option<Vec2>,
    rotation_limits: &[Option<AngleLimit>],
) -> Result<SolveReport, SolveError> {
    let limits = chain_limits(pose, joints, rotation_limits, segment_limits);
    if let Some(pole) = pole {
        pre_bend_toward_pole(joints, lengths, pole, goal);
    }
    solver.solve(joints, lengths, goal, &limits)
}

/// The solver's limits for the pose as read: none when no bone has a rotation limit.
fn chain_limits<'l>(
    pose: ChainPose<'_>,
    joints: &[Vec2],
    rotation_limits: &[Option<AngleLimit>],
    segment_limits: &'l mut [Option<AngleLimit>],
) -> ChainLimits<'l> {
    if rotation_limits.iter().all(Option::is_none) {
        return ChainLimits::NONE;
    }
    let root_direction = pose.segment_limits(joints, rotation_limits, segment_limits);
    ChainLimits { root_direction, per_bone: segment_limits }
}

/// `match_target_rotation` on a solved limb (`joints`: root, joint, tip): lays the lower bone along the wanted
/// direction (blended from the solved one by `tip.weight`) so that it ends on `goal`, and points the upper bone at
/// where the lower one must then start. With `upper_range` (stretch or compress on) the upper bone also takes the
/// length that reaches that start, within the range, so the limb reaches the target at that angle. An inactive
/// direction changes nothing.
pub fn follow_tip_direction(
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
    let segment_angle = tip.segment_angle(|| (end - joint).to_angle(), pose.segment_angle_from_x_axis(1));
    let lower_segment = Vec2::from_angle(segment_angle) * lower;
    let to_start = goal - lower_segment - root;
    let upper = upper_range.map_or(upper, |(shortest, longest)| to_start.length().max(shortest).min(longest));
    let toward_start = to_start.normalize_or_zero();
    let joint = if toward_start == Vec2::ZERO { joint } else { root + toward_start * upper };
    joints[1] = joint;
    joints[2] = joint + lower_segment;
}
