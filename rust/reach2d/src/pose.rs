//! The flat buffers one chain's solves work in, reused from solve to solve: the pose as read from the engine, the
//! joints and lengths the solvers move, and the rotations to write back.
//!
//! No Godot types here: `chain.rs` fills the buffers from the bones and writes the rotations to them. Once grown to
//! the chain's length, nothing here allocates.

use glam::Affine2;
use reach2d_core::write_back::{BonePose, ChainPose, RotationStep, lerp_angle};
use reach2d_core::{AngleLimit, ChainLimits, ChainSolver, SolveError, SolveReport, Vec2, pre_bend_toward_pole};

/// A chain's pose as read: the owned form of [`ChainPose`].
#[derive(Default)]
struct ReadPose {
    /// Global transform of the root bone's parent.
    parent: Affine2,
    /// Each bone's local pose, root first.
    bones: Vec<BonePose>,
    /// The end of the tip bone in its own space.
    tip_offset: Vec2,
}

impl ReadPose {
    fn view(&self) -> ChainPose<'_> {
        ChainPose { parent: self.parent, bones: &self.bones, tip_offset: self.tip_offset }
    }

    fn is_finite(&self) -> bool {
        self.parent.is_finite()
            && self.tip_offset.is_finite()
            && self.bones.iter().all(|p| p.position.is_finite() && p.rotation.is_finite() && p.basis.is_finite())
    }
}

/// One chain's pose and solve buffers. A read is [`PoseBuffers::begin`], one [`PoseBuffers::push_bone`] per bone
/// (root first), then [`PoseBuffers::finish`]; after that the joints can be solved and written back.
#[derive(Default)]
pub struct PoseBuffers {
    read: ReadPose,
    /// Global joints: each bone's origin, then the tip's end. Solvers work on these in place.
    joints: Vec<Vec2>,
    /// Segment lengths between consecutive joints, global px.
    lengths: Vec<f32>,
    /// Rotations to write, one per bone: the last write-back's.
    rotations: Vec<f32>,
    /// Segment-angle limits for the solvers, derived from rotation limits each solve.
    segment_limits: Vec<Option<AngleLimit>>,
    /// The speed limit's memory: each bone's rotation after the last limited step, before `weight`
    /// (`max_angular_speed`); `stepped_next` receives the next one.
    stepped: Vec<f32>,
    stepped_next: Vec<f32>,
    has_stepped: bool,
}

/// The tip bone's wanted global direction (`match_target_rotation`).
#[derive(Clone, Copy, Debug)]
pub struct TipDirection {
    /// The direction the tip bone's global x axis should take (need not be normalized).
    pub x_axis: Vec2,
    /// How much: 0 keeps the direction the plain solve gives, 1 takes `x_axis` exactly.
    pub weight: f32,
}

impl PoseBuffers {
    /// Starts a read: the root's parent global transform and the tip's end in the tip bone's space.
    pub fn begin(&mut self, parent: Affine2, tip_offset: Vec2) {
        self.read.parent = parent;
        self.read.tip_offset = tip_offset;
        self.read.bones.clear();
    }

    /// Adds the next bone's local pose (root first).
    pub fn push_bone(&mut self, pose: BonePose) {
        self.read.bones.push(pose);
    }

    /// The bones' local poses of this read, to adjust before [`PoseBuffers::finish`].
    pub fn bones_mut(&mut self) -> &mut [BonePose] {
        &mut self.read.bones
    }

    /// Ends a read: derives the global joints and the segment lengths, and sizes the rotation and limit buffers.
    ///
    /// Returns `false` when the pose or its joints are not finite; nothing may then be solved or written.
    pub fn finish(&mut self) -> bool {
        if !self.read.is_finite() {
            return false;
        }
        let n = self.read.bones.len();
        self.joints.resize(n + 1, Vec2::ZERO);
        self.read.view().joints(&mut self.joints);
        self.lengths.resize(n, 0.0);
        for (length, pair) in self.lengths.iter_mut().zip(self.joints.windows(2)) {
            *length = pair[0].distance(pair[1]);
        }
        self.rotations.resize(n, 0.0);
        self.segment_limits.resize(n, None);
        self.joints.iter().all(|j| j.is_finite())
    }

    /// The pose as last read.
    pub fn pose(&self) -> ChainPose<'_> {
        self.read.view()
    }

    /// The global joints: as read, then as solved.
    pub fn joints(&self) -> &[Vec2] {
        &self.joints
    }

    /// The rotations of the last write-back, one per bone (stale entries beyond a chain that shrank are cut at the
    /// next read).
    pub fn rotations(&self) -> &[f32] {
        &self.rotations
    }

    /// Lets `place` move the joints, seeing the pose as read (closed-form solvers).
    pub fn place_joints<R>(&mut self, place: impl FnOnce(ChainPose<'_>, &mut [Vec2]) -> R) -> R {
        place(self.read.view(), &mut self.joints)
    }

    /// Solves the joints toward `goal` with `solver`, starting from the pose pre-bent toward `pole` when there is one
    /// (see [`pre_bend_toward_pole`]).
    ///
    /// `rotation_limits` bound each bone's local rotation (an empty slice: none); they are translated into the
    /// solver's segment limits for the pose as read (before the pre-bend, which the limits' offsets must not see).
    pub fn solve(
        &mut self,
        solver: &impl ChainSolver,
        goal: Vec2,
        pole: Option<Vec2>,
        rotation_limits: &[Option<AngleLimit>],
    ) -> Result<SolveReport, SolveError> {
        let limits = if rotation_limits.iter().all(Option::is_none) {
            ChainLimits::NONE
        } else {
            let root_direction =
                self.read.view().segment_limits(&self.joints, rotation_limits, &mut self.segment_limits);
            ChainLimits { root_direction, per_bone: &self.segment_limits }
        };
        if let Some(pole) = pole {
            pre_bend_toward_pole(&mut self.joints, &self.lengths, pole, goal);
        }
        solver.solve(&mut self.joints, &self.lengths, goal, &limits)
    }

    /// Turns the joints into rotations, each moved by at most `max_step` radians from the last write-back's
    /// (before `weight`; `f32::INFINITY` for no speed limit), blended by `weight` and held in `rotation_limits` (see
    /// [`ChainPose::write_back_stepped`]). Returns the global end effector of that pose, or `None` when a rotation
    /// would not be finite.
    ///
    /// The first limited write-back steps from the rotations as read; turning the limit off forgets its memory.
    pub fn write_back(&mut self, weight: f32, rotation_limits: &[Option<AngleLimit>], max_step: f32) -> Option<Vec2> {
        if max_step == f32::INFINITY {
            self.has_stepped = false;
            return self.read.view().write_back(&self.joints, weight, rotation_limits, &mut self.rotations);
        }
        let n = self.read.bones.len();
        if !self.has_stepped || self.stepped.len() != n {
            self.stepped.clear();
            self.stepped.extend(self.read.bones.iter().map(|b| b.rotation));
        }
        self.stepped_next.resize(n, 0.0);
        let step = RotationStep { previous: &self.stepped, max_step, stepped: &mut self.stepped_next };
        let effector = self.read.view().write_back_stepped(
            &self.joints,
            weight,
            rotation_limits,
            Some(step),
            &mut self.rotations,
        )?;
        std::mem::swap(&mut self.stepped, &mut self.stepped_next);
        self.has_stepped = true;
        Some(effector)
    }

    /// Forgets the speed limit's memory: the next limited write-back steps from the rotations as read.
    pub fn forget_steps(&mut self) {
        self.has_stepped = false;
    }

    /// Solves the joints toward `goal` with `solver` while the tip bone's global x axis takes `tip.x_axis`: the
    /// bones before the tip reach the tip bone's start, and the tip bone is laid from there along the wanted
    /// direction (the built-in FABRIK's `use_target_rotation`). With `tip.weight` below 1 the direction is
    /// `lerp_angle(plain, wanted, weight)`, where plain is the tip's direction after a solve without it (one more
    /// solve). A one-bone chain, a zero `x_axis` or a weight of 0 solves as [`PoseBuffers::solve`] does. A `pole`
    /// pre-bends the bones before the tip toward it, as in [`PoseBuffers::solve`].
    ///
    /// The direction is exact when the tip bone's global transform is a similarity (see
    /// [`ChainPose::segment_angle_from_x_axis`]); the tip bone's own angle limit, applied at write-back, wins
    /// over it.
    pub fn solve_with_tip_direction(
        &mut self,
        solver: &impl ChainSolver,
        goal: Vec2,
        pole: Option<Vec2>,
        tip: TipDirection,
        rotation_limits: &[Option<AngleLimit>],
    ) -> Result<SolveReport, SolveError> {
        let n = self.read.bones.len();
        if n < 2
            || tip.x_axis.length_squared() == 0.0
            || !tip.x_axis.is_finite()
            || tip.weight.is_nan()
            || tip.weight <= 0.0
        {
            return self.solve(solver, goal, pole, rotation_limits);
        }
        let from_x_axis = self.read.view().segment_angle_from_x_axis(n - 1);
        let wanted = tip.x_axis.to_angle();
        let (x_angle, plain_iterations) = if tip.weight >= 1.0 {
            (wanted, 0)
        } else {
            let plain = self.solve(solver, goal, pole, rotation_limits)?;
            let segment = self.joints[n] - self.joints[n - 1];
            let plain_x = segment.to_angle() - from_x_axis;
            self.read.view().joints(&mut self.joints);
            (lerp_angle(plain_x, wanted, tip.weight.clamp(0.0, 1.0)), plain.iterations)
        };
        let tip_segment = Vec2::from_angle(x_angle + from_x_axis) * self.lengths[n - 1];
        let limits = if rotation_limits.iter().all(Option::is_none) {
            ChainLimits::NONE
        } else {
            let root_direction =
                self.read.view().segment_limits(&self.joints, rotation_limits, &mut self.segment_limits);
            ChainLimits { root_direction, per_bone: &self.segment_limits[..n - 1] }
        };
        let start = goal - tip_segment;
        if let Some(pole) = pole {
            pre_bend_toward_pole(&mut self.joints[..n], &self.lengths[..n - 1], pole, start);
        }
        let mut report = solver.solve(&mut self.joints[..n], &self.lengths[..n - 1], start, &limits)?;
        self.joints[n] = self.joints[n - 1] + tip_segment;
        report.iterations += plain_iterations;
        report.distance = self.joints[n].distance(goal);
        Ok(report)
    }
}
