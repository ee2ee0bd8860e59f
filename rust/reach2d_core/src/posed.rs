//! Solving a chain read from bones: the pose as read ([`ChainPose`]) bounds the solve with the bones' rotation limits,
//! an optional pole pre-bends the start, and an optional [`TipDirection`] lays the tip bone along a wanted direction
//! (`match_target_rotation`). Plain vector geometry on the caller's buffers; nothing here allocates.

use glam::{Affine2, Mat2, Vec2};

use crate::angle::{AngleLimit, ChainLimits};
use crate::error::SolveError;
use crate::pole::pre_bend_toward_pole;
use crate::solver::{ChainSolver, SolveReport};
use crate::write_back::{ChainPose, lerp_angle};

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
    /// Room for the joints as the solve starts them, `N + 1`, to tell afterwards whether it moved them without
    /// composing the pose again (shorter: composed again).
    pub entered: &'a mut [Vec2],
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
///
/// The solve runs in the *root parent's frame*, as far as a mirror is concerned: the problem is moved so that the
/// root's parent sits at the origin and, when that parent is mirrored (a negative determinant: a `scale.x` flip
/// anywhere above the chain), reflected across the y axis, then solved and moved back. A mirrored character thus
/// solves the same numbers as the unmirrored one (the joints, derived from the parent's linear part alone, are
/// bit for bit the same; the goal differs by the rounding of its global position), so everything a solver does that
/// is not itself symmetric under reflection or translation (the refinement's deterministic restart poses, a
/// hand-over decided by a threshold) is the same for both, and a character flipped in the middle of a run solves as
/// the mirror image of one that never was. `joints` must be the pose's own joints ([`ChainPose::joints`]); on error
/// they are recomputed from the pose.
pub fn solve_posed(
    solver: &impl ChainSolver,
    chain: PosedChain<'_>,
    aim: Aim,
    rotation_limits: &[Option<AngleLimit>],
) -> Result<SolveReport, SolveError> {
    let PosedChain { pose, joints, lengths, segment_limits, entered } = chain;
    let frame = RootFrame::of(pose.parent);
    let original = pose;
    let pose = ChainPose { parent: frame.enter_affine(pose.parent), ..pose };
    pose.joints(joints);
    let entered = entered.get_mut(..joints.len()).map(|entered| {
        entered.copy_from_slice(joints);
        &*entered
    });
    let aim = Aim {
        goal: frame.enter_point(aim.goal),
        pole: aim.pole.map(|pole| frame.enter_point(pole)),
        tip: aim.tip.map(|tip| TipDirection { x_axis: frame.enter_vector(tip.x_axis), ..tip }),
    };
    let report = solve_in_frame(solver, pose, joints, lengths, segment_limits, aim, rotation_limits);
    if report.is_ok() {
        frame.leave(original, entered.ok_or(pose), joints);
    } else {
        original.joints(joints);
    }
    report
}

/// The frame [`solve_posed`] solves in: the root's parent's origin at zero, reflected across the y axis when the
/// parent is mirrored.
#[derive(Clone, Copy)]
struct RootFrame {
    origin: Vec2,
    mirrored: bool,
}

impl RootFrame {
    fn of(parent: Affine2) -> Self {
        Self { origin: parent.translation, mirrored: parent.matrix2.determinant() < 0.0 }
    }

    fn enter_vector(self, v: Vec2) -> Vec2 {
        if self.mirrored { Vec2::new(-v.x, v.y) } else { v }
    }

    fn enter_point(self, p: Vec2) -> Vec2 {
        self.enter_vector(p - self.origin)
    }

    /// The root's parent in this frame: its linear part reflected, its origin at zero.
    fn enter_affine(self, a: Affine2) -> Affine2 {
        let m = a.matrix2;
        Affine2 {
            matrix2: Mat2::from_cols(self.enter_vector(m.x_axis), self.enter_vector(m.y_axis)),
            translation: Vec2::ZERO,
        }
    }

    /// Moves solved `joints` back from this frame. When the solve left every joint where it started (`entered`: the
    /// joints as entered, or the pose in this frame to compose them from) to within [`UNMOVED`] (a chain already
    /// within tolerance is only re-spaced to its lengths, which rounds), the joints become `original`'s own, bit for
    /// bit: re-solving a solved pose writes the very same rotations, so no rounding creeps in through the frame's
    /// round trip frame after frame.
    fn leave(self, original: ChainPose<'_>, entered: Result<&[Vec2], ChainPose<'_>>, joints: &mut [Vec2]) {
        let mut unmoved = true;
        let mut compare = |i: usize, was: Vec2| unmoved &= joints[i].distance_squared(was) <= UNMOVED * UNMOVED;
        match entered {
            Ok(entered) => entered.iter().enumerate().for_each(|(i, &was)| compare(i, was)),
            Err(pose) => for_each_joint(pose, joints.len(), compare),
        }
        if unmoved {
            original.joints(joints);
        } else {
            for p in joints {
                *p = self.enter_vector(*p) + self.origin;
            }
        }
    }
}

/// A joint the solve moved by at most this (px) counts as not moved (see [`RootFrame::leave`]).
const UNMOVED: f32 = 1e-3;

/// Calls `visit(i, joint)` for each of the first `count` joints of `pose` (see [`ChainPose::joints`]); joints beyond
/// the pose's are NaN.
fn for_each_joint(pose: ChainPose<'_>, count: usize, mut visit: impl FnMut(usize, Vec2)) {
    let mut global = pose.parent;
    let n = pose.bones.len();
    for i in 0..count {
        let joint = if i < n {
            global *= pose.bones[i].local();
            global.translation
        } else if i == n {
            global.transform_point2(pose.tip_offset)
        } else {
            Vec2::NAN
        };
        visit(i, joint);
    }
}

fn solve_in_frame(
    solver: &impl ChainSolver,
    pose: ChainPose<'_>,
    joints: &mut [Vec2],
    lengths: &[f32],
    segment_limits: &mut [Option<AngleLimit>],
    aim: Aim,
    rotation_limits: &[Option<AngleLimit>],
) -> Result<SolveReport, SolveError> {
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

#[cfg(test)]
mod tests;
