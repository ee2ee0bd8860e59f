//! The flat buffers one chain's solves work in, reused from solve to solve: the pose as read from the engine, the
//! joints and lengths the solvers move, and the rotations to write back.
//!
//! No Godot types here: `chain.rs` fills the buffers from the bones and writes the rotations to them. Once grown to
//! the chain's length, nothing here allocates.

use glam::Affine2;
use reach2d_core::write_back::{BonePose, ChainPose};
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

    /// Turns the joints into rotations, blended by `weight` and held in `rotation_limits` (see
    /// [`ChainPose::write_back`]). Returns the global end effector of that pose, or `None` when a rotation would
    /// not be finite.
    pub fn write_back(&mut self, weight: f32, rotation_limits: &[Option<AngleLimit>]) -> Option<Vec2> {
        self.read.view().write_back(&self.joints, weight, rotation_limits, &mut self.rotations)
    }
}
