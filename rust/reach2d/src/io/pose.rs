//! The flat buffers one chain's solves work in, reused from solve to solve: the pose as read from the engine, the
//! joints and lengths the solvers move, and the rotations to write back.
//!
//! No Godot types here: `io/bones.rs` fills the buffers from the bones and writes the rotations to them. Once grown to
//! the chain's length, nothing here allocates.

use glam::Affine2;
use reach2d_core::write_back::{BonePose, ChainPose, RotationStep};
use reach2d_core::{Aim, AngleLimit, ChainSolver, PosedChain, SolveError, SolveReport, Vec2, solve_posed, wrap_angle};

/// Rotations (radians) this close to the one read count as unchanged: a few float steps at half a turn.
const SAME_ROTATION: f32 = 4e-6;

/// The most a bone's blend turn (from the rotation it blends from to the solved one) may change in a frame and
/// still count as the same turn moving on (radians; see [`PoseBuffers::blend_continuously`]).
const CONTINUOUS_TURN: f32 = core::f32::consts::FRAC_PI_4;

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
        // Without a branch per number (twice per solve): `x * 0` is zero for every finite `x` and NaN for the rest,
        // so the sum of those zeros is zero exactly when every number is finite (each is zeroed before it is added:
        // two huge finite numbers never overflow the sum).
        let zero = |v: Vec2| v * 0.0;
        let parent = self.parent;
        let mut sum = zero(parent.matrix2.x_axis) + zero(parent.matrix2.y_axis) + zero(parent.translation);
        sum += zero(self.tip_offset);
        for p in &self.bones {
            sum += zero(p.position) + zero(p.basis.x_axis) + zero(p.basis.y_axis) + Vec2::splat(p.rotation * 0.0);
        }
        sum == Vec2::ZERO
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
    /// The solver's room for the joints as it starts them (`PosedChain::entered`).
    entered: Vec<Vec2>,
    /// Rotations to write, one per bone: the last write-back's.
    rotations: Vec<f32>,
    /// Each bone's solved rotation of the last write-back, before `weight`.
    solved: Vec<f32>,
    /// While blending (`weight` below 1): each bone's turn from the rotation it blends from to the solved one, kept
    /// continuous from frame to frame (see [`PoseBuffers::blend_continuously`]).
    blend_turns: Vec<f32>,
    has_blend_turns: bool,
    /// Each bone's rotation as the engine held it at the read (before any start pose replaced it): a rotation to
    /// write that is this one, bit for bit, is not written.
    in_engine: Vec<f32>,
    /// Segment-angle limits for the solvers, derived from rotation limits each solve.
    segment_limits: Vec<Option<AngleLimit>>,
    /// The speed limit's memory: each bone's rotation after the last limited step, before `weight`
    /// (`max_angular_speed`); `stepped_next` receives the next one.
    stepped: Vec<f32>,
    stepped_next: Vec<f32>,
    has_stepped: bool,
}

impl PoseBuffers {
    /// Where each buffer a chain solve touches starts (0: empty), to prefetch (`io::bones::touched`).
    pub fn addresses(&self) -> [usize; 8] {
        [
            start(&self.read.bones),
            start(&self.joints),
            start(&self.lengths),
            start(&self.entered),
            start(&self.rotations),
            start(&self.solved),
            start(&self.in_engine),
            start(&self.segment_limits),
        ]
    }

    /// Starts a read: the root's parent global transform and the tip's end in the tip bone's space.
    pub fn begin(&mut self, parent: Affine2, tip_offset: Vec2) {
        self.read.parent = parent;
        self.read.tip_offset = tip_offset;
        self.read.bones.clear();
        self.in_engine.clear();
    }

    /// Adds the next bone's local pose (root first), as the engine holds it.
    pub fn push_bone(&mut self, pose: BonePose) {
        self.read.bones.push(pose);
        self.in_engine.push(pose.rotation);
    }

    /// Each bone's rotation to write, and whether it differs from what the engine holds (bit for bit).
    pub fn rotations_to_write(&self) -> impl DoubleEndedIterator<Item = (f32, bool)> + ExactSizeIterator + '_ {
        self.rotations.iter().zip(&self.in_engine).map(|(&r, &held)| (r, r.to_bits() != held.to_bits()))
    }

    /// The bones' local poses of this read, to adjust before [`PoseBuffers::finish`].
    pub fn bones_mut(&mut self) -> &mut [BonePose] {
        &mut self.read.bones
    }

    /// Ends a read: derives the global joints and the segment lengths, and sizes the rotation and limit buffers.
    ///
    /// Returns `false` when the pose or its joints are not finite; nothing may then be solved or written.
    pub fn finish(&mut self) -> bool {
        if !self.is_finite() {
            return false;
        }
        let n = self.read.bones.len();
        self.joints.resize(n + 1, Vec2::ZERO);
        self.entered.resize(n + 1, Vec2::ZERO);
        self.read.view().joints(&mut self.joints);
        self.lengths.resize(n, 0.0);
        for (length, pair) in self.lengths.iter_mut().zip(self.joints.windows(2)) {
            *length = pair[0].distance(pair[1]);
        }
        self.rotations.resize(n, 0.0);
        self.segment_limits.resize(n, None);
        self.joints.iter().all(|j| j.is_finite())
    }

    /// `true` when every number of the pose as read is finite.
    pub fn is_finite(&self) -> bool {
        self.read.is_finite()
    }

    /// Each bone's solved rotation of the last write-back, before `weight` (the rotation written at weight 1).
    pub fn solved(&self) -> &[f32] {
        &self.solved
    }

    /// Keeps the rotations of the last write-back as the solved ones (`FabrikRig2D`: its write-back at weight 1).
    pub fn keep_as_solved(&mut self) {
        self.solved.clear();
        self.solved.extend_from_slice(&self.rotations);
        self.size_blend_turns();
    }

    /// Sizes the blend's turns with the solve's other buffers (so a blend that starts later allocates nothing).
    fn size_blend_turns(&mut self) {
        if self.blend_turns.len() != self.solved.len() {
            self.has_blend_turns = false;
            self.blend_turns.resize(self.solved.len(), 0.0);
        }
    }

    /// Makes `from` (one rotation per bone) the rotations the write-back blends from by `weight`, after the solve
    /// started from the pose as read (see `PoseMemory::start_pose`: a blending solve starts from the last solved
    /// pose but blends from the unwritten one).
    pub fn blend_from(&mut self, from: &[f32]) {
        for (bone, &rotation) in self.read.bones.iter_mut().zip(from) {
            bone.rotation = rotation;
        }
    }

    /// The pose as last read and the rotations to write, together (`FabrikRig2D`'s write-back fills the rotations
    /// from the pose).
    pub fn pose_and_rotations(&mut self) -> (ChainPose<'_>, &mut [f32]) {
        (self.read.view(), &mut self.rotations)
    }

    /// Ends a read for a tree of bones that derives its own points (`FabrikRig2D`): sizes the rotations.
    pub fn finish_tree(&mut self) {
        self.rotations.resize(self.read.bones.len(), 0.0);
    }

    /// The pose as last read.
    pub fn pose(&self) -> ChainPose<'_> {
        self.read.view()
    }

    /// The segment lengths between consecutive joints as last read, global px.
    pub fn lengths(&self) -> &[f32] {
        &self.lengths
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

    /// Solves the joints toward `aim` with `solver` (see [`solve_posed`]: the pole's pre-bend, `rotation_limits` for
    /// the pose as read, the tip's direction).
    pub fn solve(
        &mut self,
        solver: &impl ChainSolver,
        aim: Aim,
        rotation_limits: &[Option<AngleLimit>],
    ) -> Result<SolveReport, SolveError> {
        let chain = PosedChain {
            pose: self.read.view(),
            joints: &mut self.joints,
            lengths: &self.lengths,
            segment_limits: &mut self.segment_limits,
            entered: &mut self.entered,
        };
        solve_posed(solver, chain, aim, rotation_limits)
    }

    /// Turns the joints into rotations, each moved by at most `max_step` radians from the last write-back's
    /// (before `weight`; `f32::INFINITY` for no speed limit), blended by `weight` and held in `rotation_limits` (see
    /// [`ChainPose::write_back_stepped`]). Returns the global end effector of that pose, or `None` when a rotation
    /// would not be finite.
    ///
    /// The first limited write-back steps from the rotations as read; turning the limit off forgets its memory.
    pub fn write_back(&mut self, weight: f32, rotation_limits: &[Option<AngleLimit>], max_step: f32) -> Option<Vec2> {
        let mut effector = self.write_back_unsnapped(weight, rotation_limits, max_step)?;
        if self.blend_continuously(weight, rotation_limits) {
            effector = self.written_end()?;
        }
        // A rotation that differs from the one read by rounding only (joints turned back into angles) is the one
        // read, bit for bit: a chain that is already solved keeps its pose exactly instead of wandering by ulps.
        for (rotation, bone) in self.rotations.iter_mut().zip(&self.read.bones) {
            if (*rotation - bone.rotation).abs() <= SAME_ROTATION {
                *rotation = bone.rotation;
            }
        }
        Some(effector)
    }

    fn write_back_unsnapped(
        &mut self,
        weight: f32,
        rotation_limits: &[Option<AngleLimit>],
        max_step: f32,
    ) -> Option<Vec2> {
        let n = self.read.bones.len();
        self.solved.resize(n, 0.0);
        self.size_blend_turns();
        if max_step == f32::INFINITY {
            self.has_stepped = false;
            // No previous rotations: nothing is limited, and `stepped` receives each solved rotation before `weight`.
            let step = RotationStep { previous: &[], max_step, stepped: &mut self.solved };
            let view = self.read.view();
            return view.write_back_stepped(&self.joints, weight, rotation_limits, Some(step), &mut self.rotations);
        }
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
        self.solved.copy_from_slice(&self.stepped);
        Some(effector)
    }

    /// While blending, keeps each bone's blend on the way round it took last frame: the write-back blends from the
    /// rotation read toward the solved one the short way (`lerp_angle`), so when the solved rotation passes the
    /// point opposite the one blended from, the short way flips to the other side and the written rotation would
    /// jump by `weight` times a turn (a pop of the whole limb, issue 36). While the turn moves on by less than
    /// [`CONTINUOUS_TURN`] a frame it is taken as the equal angle nearest last frame's instead, so the blend moves as
    /// the solve does (the way blending unwrapped rotation keys does). Rewrites only the bones whose turn is not the
    /// short one; returns `true` when it rewrote any. At weight 1 and beyond it forgets the turns.
    pub fn blend_continuously(&mut self, weight: f32, rotation_limits: &[Option<AngleLimit>]) -> bool {
        let n = self.read.bones.len();
        if weight >= 1.0 || weight.is_nan() || self.solved.len() != n || self.rotations.len() != n {
            self.has_blend_turns = false;
            return false;
        }
        let fresh = !self.has_blend_turns || self.blend_turns.len() != n;
        self.blend_turns.resize(n, 0.0);
        self.has_blend_turns = true;
        let weight = weight.max(0.0);
        let mut rewrote = false;
        for i in 0..n {
            let from = self.read.bones[i].rotation;
            let short = wrap_angle(self.solved[i] - from);
            // Only a turn that moved on continuously is kept on its way round: a solve or an animation that jumped
            // (a cold start each frame, a pop of its own) has no way round to keep, and blends the short way.
            let last = self.blend_turns[i];
            let moved_on = last + wrap_angle(short - last);
            let turn = if fresh || (moved_on - last).abs() > CONTINUOUS_TURN { short } else { moved_on };
            if !turn.is_finite() {
                self.has_blend_turns = false;
                return rewrote;
            }
            self.blend_turns[i] = turn;
            if (turn - short).abs() > core::f32::consts::PI {
                let written = from + turn * weight;
                let limit = rotation_limits.get(i).copied().flatten();
                self.rotations[i] = limit.map_or(written, |l| l.clamp(wrap_angle(written)));
                rewrote = true;
            }
        }
        rewrote
    }

    /// The global end effector of the rotations to write.
    fn written_end(&self) -> Option<Vec2> {
        let mut global = self.read.parent;
        for (bone, &rotation) in self.read.bones.iter().zip(&self.rotations) {
            global *= bone.local_with(rotation);
        }
        let end = global.transform_point2(self.read.tip_offset);
        end.is_finite().then_some(end)
    }

    /// Replaces each rotation of the last write-back by the equal angle within half a turn of `near`'s (bones
    /// beyond `near` are left as they are).
    pub fn keep_near(&mut self, near: &[f32]) {
        for (rotation, &reference) in self.rotations.iter_mut().zip(near) {
            if (*rotation - reference).abs() > core::f32::consts::PI && reference.is_finite() {
                *rotation = reference + wrap_angle(*rotation - reference);
            }
        }
    }

    /// Forgets the speed limit's memory (the next limited write-back steps from the rotations as read) and the
    /// blend's turns (the next blend takes the short way).
    pub fn forget_steps(&mut self) {
        self.has_stepped = false;
        self.has_blend_turns = false;
    }
}

/// Where a slice's memory starts (0 when it has none): an address to prefetch, never read through.
pub fn start<T>(slice: &[T]) -> usize {
    if slice.is_empty() { 0 } else { slice.as_ptr() as usize }
}

#[cfg(test)]
mod tests;
