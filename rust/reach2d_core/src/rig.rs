//! Multi-effector FABRIK over a tree of bones: [`FabrikRig`].
//!
//! Aristidou and Lasenby's sub-base method ("FABRIK: a fast, iterative solver for the inverse kinematics problem",
//! 2011, section 4.2), generalized from point joints to rigid bones. A bone carries *points*: the origins of its
//! child bones, or (a tip bone) its end effector. The backward pass runs from the tips toward the root; a bone with
//! one carried point is placed exactly as in FABRIK (on the line from the point's backward position to the bone's
//! old origin, at the point's distance), a bone with several (the sub-base) is the best rigid fit of its shape to
//! where its branches want their points, weighted by the effectors' weights below each, with a faint pull toward its
//! old origin. When the branches start from one point (the paper's case) that fit is the paper's weighted centroid
//! of the branch results; when they start from different points on one bone (two shoulders on a chest), the chest
//! also turns to fit them. The forward pass runs from the root outward: each bone keeps its origin (where its parent
//! put it), turns about it to fit its carried points (one point: FABRIK's forward step), is clamped into its angle
//! limit relative to its parent's axis, and places its carried points rigidly.
//!
//! Every step is plane geometry without a preferred side (sums of dot and cross products, rotations as unit complex
//! numbers), so a mirrored input gives the mirrored output; bone shapes only turn, so lengths (and the angles between
//! a bone's children) are exact to `f32` rounding. Warm-started from the pose it reads and deterministic, the
//! iteration settles on one compromise when not every target can be reached, instead of flipping between them.
//!
//! [`FabrikRig::new`] allocates every buffer a solve needs, once per rig shape; [`FabrikRig::solve`] and the
//! engine-side helpers ([`FabrikRig::pose_points`], [`FabrikRig::segment_limits`], [`FabrikRig::write_back`])
//! allocate nothing and never panic.

use glam::{Affine2, Vec2};

use crate::angle::{AngleLimit, ChainLimits, signed_angle, wrap_angle};
use crate::error::SolveError;
use crate::geom::{TINY_SQ, direction_or, unit_or};
use crate::solver::{FabrikSettings, SolveReport};
use crate::validate::{coord_ok, tolerance_ok};
use crate::write_back::{BonePose, lerp_angle, try_inverse};

/// One end effector's goal: where its tip bone's end should go, and how much it counts against the others.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigEffector {
    /// Global target position.
    pub target: Vec2,
    /// Relative weight, finite and `>= 0`: where the branches disagree, the shared bones side with the heavier
    /// effectors (a weight of 0 follows along and never pulls).
    pub weight: f32,
}

/// Fraction of a sub-base's branch weight with which its old origin pulls it in the backward pass: small enough not
/// to hold back the fit when its branches start from distinct points, enough to choose the turn (FABRIK's rule)
/// when they start from one point.
const ORIGIN_PULL: f32 = 1e-3;
/// The iteration has settled when no point moved more than this fraction of the rig's size in one pass.
const SETTLED: f32 = 1e-6;
/// Squared length below which a bone's axis has no direction (its limit is skipped).
const DEGENERATE_SQ: f32 = 1.0e-12;

/// A tree of bones with end effectors, and the buffers its solves work in.
///
/// Bones are numbered parents first: bone 0 is the root, and each other bone's parent has a smaller index. *Points*
/// are the `bones` bone origins followed by one end per effector (`points.len() == bones + effectors`). Built once
/// per rig shape ([`FabrikRig::new`] allocates); solving allocates nothing.
#[derive(Clone, Debug)]
pub struct FabrikRig {
    /// Per bone: its parent (root: 0, unused).
    parents: Vec<usize>,
    /// Per effector: its tip bone.
    tips: Vec<usize>,
    /// Per bone: its carried points, `carried[first[i]..first[i + 1]]`, the first of them its axis point.
    first: Vec<usize>,
    carried: Vec<usize>,
    /// Per point: its offset from its carrier's origin in the pose the solve started from (global units).
    shape: Vec<Vec2>,
    /// Per bone: its turn since the start pose, a unit complex number.
    turn: Vec<Vec2>,
    /// Per point: the effector weight that pulls through it.
    weight: Vec<f32>,
    /// Per point: its position after the last forward pass (to tell when the iteration has settled).
    last: Vec<Vec2>,
    /// Per bone: the bone's global transform, for the engine-side helpers (written, then solved).
    globals: Vec<Affine2>,
    solved: Vec<Affine2>,
}

/// Rotates `v` by the unit complex number `r`.
#[inline]
fn rotate(r: Vec2, v: Vec2) -> Vec2 {
    Vec2::new(r.x * v.x - r.y * v.y, r.y * v.x + r.x * v.y)
}

impl FabrikRig {
    /// A rig of `parents.len()` bones (`parents[0]` is ignored; `parents[i] < i` for the others) and one effector
    /// per entry of `tips` (a bone index). A tip bone may not carry another bone of the rig: its end is its only
    /// carried point.
    ///
    /// # Errors
    /// [`SolveError::EmptyChain`] without a bone or an effector; [`SolveError::InvalidTree`] when a parent does not
    /// come before its child, a tip is out of range, named twice or has a child bone, or a bone other than a tip
    /// has no child (a branch that leads to no effector).
    pub fn new(parents: &[usize], tips: &[usize]) -> Result<Self, SolveError> {
        let (n, e) = (parents.len(), tips.len());
        if n == 0 || e == 0 {
            return Err(SolveError::EmptyChain);
        }
        if parents.iter().enumerate().skip(1).any(|(i, &p)| p >= i) {
            return Err(SolveError::InvalidTree);
        }
        let mut children = vec![0usize; n];
        for &p in &parents[1..] {
            children[p] += 1;
        }
        let mut tipped = vec![false; n];
        for &t in tips {
            if t >= n || tipped[t] || children[t] > 0 {
                return Err(SolveError::InvalidTree);
            }
            tipped[t] = true;
        }
        if (0..n).any(|i| children[i] == 0 && !tipped[i]) {
            return Err(SolveError::InvalidTree);
        }
        let carrier = |p: usize| if p < n { parents[p] } else { tips[p - n] };
        let mut first = Vec::with_capacity(n + 1);
        let mut carried = Vec::with_capacity(n + e - 1);
        for i in 0..n {
            first.push(carried.len());
            carried.extend((1..n + e).filter(|&p| carrier(p) == i));
        }
        first.push(carried.len());
        Ok(Self {
            parents: parents.to_vec(),
            tips: tips.to_vec(),
            first,
            carried,
            shape: vec![Vec2::ZERO; n + e],
            turn: vec![Vec2::X; n],
            weight: vec![0.0; n + e],
            last: vec![Vec2::ZERO; n + e],
            globals: vec![Affine2::IDENTITY; n],
            solved: vec![Affine2::IDENTITY; n],
        })
    }

    /// Number of bones.
    #[must_use]
    pub fn bone_count(&self) -> usize {
        self.parents.len()
    }

    /// Number of effectors.
    #[must_use]
    pub fn effector_count(&self) -> usize {
        self.tips.len()
    }

    /// Number of points: the bone origins, then one end per effector.
    #[must_use]
    pub fn point_count(&self) -> usize {
        self.parents.len() + self.tips.len()
    }

    /// Bone `i`'s parent (`None` for the root or an index out of range).
    #[must_use]
    pub fn parent(&self, i: usize) -> Option<usize> {
        (i > 0).then(|| self.parents.get(i).copied()).flatten()
    }

    /// Bone `i`'s axis point: the first point it carries (its first child's origin, or a tip's end).
    fn axis_point(&self, i: usize) -> usize {
        self.carried[self.first[i]]
    }

    /// The points bone `i` carries.
    fn carried_by(&self, i: usize) -> core::ops::Range<usize> {
        self.first[i]..self.first[i + 1]
    }

    /// Moves `points` (bone origins, then effector ends: see [`FabrikRig::point_count`]) so that each effector's end
    /// approaches its target; returns the passes used and the largest remaining distance.
    ///
    /// `points` is both the start pose (warm start: the solve continues from it, and its shape, each point's offset
    /// from its bone's origin, is what stays rigid) and the result. The root's origin never moves. `limits` is empty
    /// (no limits) or one entry per bone: the allowed angle (radians) of the bone's axis (origin to axis point)
    /// relative to its parent's axis, for the root relative to `root_direction`; they hold exactly in the result.
    ///
    /// Stops when every end is within `settings.tolerance`, when a pass moves no point by more than a millionth of
    /// the rig's size (settled: the weighted compromise of targets out of reach), or after
    /// `settings.max_iterations` passes. `reached` means every effector within tolerance; `distance` is the
    /// largest distance. With limits the pose is first conformed to them (`iterations` may then be 0 with the
    /// pose changed). Never panics; allocates nothing.
    ///
    /// # Errors
    /// [`SolveError::LengthMismatch`] (`points` or `effectors` of the wrong length), [`SolveError::LimitsMismatch`],
    /// [`SolveError::InvalidLimit`], [`SolveError::InvalidDirection`], [`SolveError::NonFiniteTarget`],
    /// [`SolveError::NonFiniteJoint`], [`SolveError::InvalidWeight`], [`SolveError::InvalidSettings`]. On error
    /// `points` is unchanged.
    pub fn solve(
        &mut self,
        points: &mut [Vec2],
        effectors: &[RigEffector],
        limits: &[Option<AngleLimit>],
        root_direction: Vec2,
        settings: &FabrikSettings,
    ) -> Result<SolveReport, SolveError> {
        self.validate(points, effectors, limits, root_direction, settings)?;
        let n = self.parents.len();
        let tol = settings.tolerance;
        let limited = limits.iter().any(Option::is_some);
        let root_dir = direction_or(root_direction, Vec2::X);
        let root = points[0];

        // The start pose's shape, and the weight pulling through each point (an effector's, summed up the tree).
        let mut span = 0.0;
        for p in 1..points.len() {
            let offset = points[p] - points[self.carrier(p)];
            self.shape[p] = offset;
            span += offset.length();
        }
        self.turn.fill(Vec2::X);
        self.weight.fill(0.0);
        for (k, effector) in effectors.iter().enumerate() {
            self.weight[n + k] = effector.weight;
        }
        for i in (1..n).rev() {
            let sum: f32 = self.carried_by(i).map(|c| self.weight[self.carried[c]]).sum();
            self.weight[i] = sum;
        }
        let settled = SETTLED * span;

        if limited {
            self.forward(points, root, limits, root_dir);
        }
        let mut distance = self.worst(points, effectors);
        let mut iterations = 0;
        while distance > tol && iterations < settings.max_iterations {
            iterations += 1;
            self.last.copy_from_slice(points);
            self.backward(points, effectors);
            self.forward(points, root, limits, root_dir);
            distance = self.worst(points, effectors);
            let moved = points.iter().zip(&self.last).map(|(a, b)| a.distance_squared(*b)).fold(0.0, f32::max);
            if moved <= settled * settled {
                break;
            }
        }
        Ok(SolveReport::new(iterations, distance, tol))
    }

    /// The bone whose shape holds point `p` (`p >= 1`).
    fn carrier(&self, p: usize) -> usize {
        let n = self.parents.len();
        if p < n { self.parents[p] } else { self.tips[p - n] }
    }

    fn validate(
        &self,
        points: &[Vec2],
        effectors: &[RigEffector],
        limits: &[Option<AngleLimit>],
        root_direction: Vec2,
        settings: &FabrikSettings,
    ) -> Result<(), SolveError> {
        let (n, e) = (self.parents.len(), self.tips.len());
        if points.len() != n + e {
            return Err(SolveError::LengthMismatch { joints: points.len(), lengths: n + e });
        }
        if effectors.len() != e {
            return Err(SolveError::LengthMismatch { joints: effectors.len(), lengths: e });
        }
        crate::validate::limits(&ChainLimits { root_direction, per_bone: limits }, n)?;
        if !tolerance_ok(settings.tolerance) {
            return Err(SolveError::InvalidSettings);
        }
        if effectors.iter().any(|effector| !coord_ok(effector.target)) {
            return Err(SolveError::NonFiniteTarget);
        }
        if let Some(index) =
            effectors.iter().position(|effector| !(effector.weight >= 0.0 && effector.weight.is_finite()))
        {
            return Err(SolveError::InvalidWeight { index });
        }
        crate::validate::joints(points)
    }

    /// The largest distance from an effector's end to its target.
    fn worst(&self, points: &[Vec2], effectors: &[RigEffector]) -> f32 {
        let n = self.parents.len();
        effectors.iter().enumerate().map(|(k, effector)| points[n + k].distance(effector.target)).fold(0.0, f32::max)
    }

    /// Tips to root: each effector's end at its target (a weightless one stays where it is), then each bone placed
    /// from its carried points (see the module docs).
    fn backward(&mut self, points: &mut [Vec2], effectors: &[RigEffector]) {
        let n = self.parents.len();
        for (k, effector) in effectors.iter().enumerate() {
            if effector.weight > 0.0 {
                points[n + k] = effector.target;
            }
        }
        for i in (0..n).rev() {
            let range = self.carried_by(i);
            let old = points[i];
            if range.len() == 1 {
                let p = self.carried[range.start];
                let offset = self.shape[p];
                let toward_old = unit_or(old - points[p], -unit_or(rotate(self.turn[i], offset), Vec2::X));
                points[i] = points[p] + toward_old * offset.length();
                let along = points[p] - points[i];
                if along.length_squared() > TINY_SQ && offset.length_squared() > TINY_SQ {
                    self.turn[i] = rotation_between(offset, along);
                }
                continue;
            }
            // The sub-base: the best rigid fit of the bone's carried points onto their backward positions, and of
            // its origin (faintly) onto its old one.
            let uniform = range.clone().all(|c| self.weight[self.carried[c]] <= 0.0);
            let weight_of = |p: usize| if uniform { 1.0 } else { self.weight[p] };
            let total: f32 = range.clone().map(|c| weight_of(self.carried[c])).sum();
            let origin_weight = ORIGIN_PULL * total;
            let sum = total + origin_weight;
            let (mut source_mean, mut target_mean) = (Vec2::ZERO, old * origin_weight);
            for c in range.clone() {
                let p = self.carried[c];
                source_mean += rotate(self.turn[i], self.shape[p]) * weight_of(p);
                target_mean += points[p] * weight_of(p);
            }
            source_mean /= sum;
            target_mean /= sum;
            // Cross and dot sums of the centred pairs; the origin's source is the origin itself (0).
            let mut moment = fit_moment(-source_mean, old - target_mean, origin_weight);
            for c in range {
                let p = self.carried[c];
                let source = rotate(self.turn[i], self.shape[p]) - source_mean;
                moment += fit_moment(source, points[p] - target_mean, weight_of(p));
            }
            let r = unit_or(moment, Vec2::X);
            self.turn[i] = unit_or(rotate(r, self.turn[i]), Vec2::X);
            points[i] = target_mean - rotate(r, source_mean);
        }
    }

    /// Root outward: each bone keeps its origin, turns about it to fit its carried points' backward positions, is
    /// clamped into its limit and places its carried points rigidly.
    fn forward(&mut self, points: &mut [Vec2], root: Vec2, limits: &[Option<AngleLimit>], root_dir: Vec2) {
        points[0] = root;
        for i in 0..self.parents.len() {
            let origin = points[i];
            let range = self.carried_by(i);
            let uniform = range.clone().all(|c| self.weight[self.carried[c]] <= 0.0);
            let mut moment = Vec2::ZERO;
            for c in range.clone() {
                let p = self.carried[c];
                let w = if uniform { 1.0 } else { self.weight[p] };
                moment += fit_moment(rotate(self.turn[i], self.shape[p]), points[p] - origin, w);
            }
            let r = unit_or(moment, Vec2::X);
            let mut turn = unit_or(rotate(r, self.turn[i]), Vec2::X);
            if let Some(limit) = limits.get(i).copied().flatten() {
                let axis = rotate(turn, self.shape[self.axis_point(i)]);
                if axis.length_squared() > DEGENERATE_SQ {
                    let reference = self.reference(points, i, root_dir);
                    let unit = axis.normalize();
                    let clamped = limit.clamp_direction(reference, unit);
                    if clamped != unit {
                        turn = unit_or(rotate(rotation_between(unit, clamped), turn), Vec2::X);
                    }
                }
            }
            self.turn[i] = turn;
            for c in range {
                let p = self.carried[c];
                points[p] = origin + rotate(turn, self.shape[p]);
            }
        }
    }

    /// The unit direction bone `i`'s limit is measured from: its nearest ancestor's axis that has one, else
    /// `root_dir`.
    fn reference(&self, points: &[Vec2], i: usize, root_dir: Vec2) -> Vec2 {
        let mut bone = i;
        while bone > 0 {
            bone = self.parents[bone];
            let axis = points[self.axis_point(bone)] - points[bone];
            if axis.length_squared() > DEGENERATE_SQ {
                return axis.normalize();
            }
        }
        root_dir
    }

    /// Writes the global points of `pose` (bone origins, then each effector's end). `bones` holds each bone's local
    /// pose (parents first, as numbered in this rig), `tip_offsets` each effector's end in its tip bone's own space.
    /// Points without a bone or an offset are left as they are.
    pub fn pose_points(&mut self, pose: &RigPose, points: &mut [Vec2]) {
        let n = self.parents.len();
        for (i, bone) in pose.bones.iter().enumerate().take(n) {
            let parent = if i == 0 { pose.parent } else { self.globals[self.parents[i]] };
            self.globals[i] = parent * bone.local();
            if let Some(point) = points.get_mut(i) {
                *point = self.globals[i].translation;
            }
        }
        if pose.bones.len() < n {
            return;
        }
        for (k, (&tip, &offset)) in self.tips.iter().zip(pose.tip_offsets).enumerate() {
            if let Some(point) = points.get_mut(n + k) {
                *point = self.globals[tip].transform_point2(offset);
            }
        }
    }

    /// Translates limits on each bone's local rotation into [`FabrikRig::solve`]'s limits on axis angles for this
    /// pose (its points from [`FabrikRig::pose_points`]); the tree form of
    /// [`ChainPose::segment_limits`](crate::write_back::ChainPose::segment_limits): exact under similarity transforms
    /// of either handedness. Returns the root direction.
    pub fn segment_limits(
        &mut self,
        pose: &RigPose,
        points: &[Vec2],
        rotation_limits: &[Option<AngleLimit>],
        out: &mut [Option<AngleLimit>],
    ) -> Vec2 {
        let root_direction = if pose.parent.matrix2.x_axis.length_squared() > DEGENERATE_SQ {
            pose.parent.matrix2.x_axis
        } else {
            Vec2::X
        };
        let n = self.parents.len().min(pose.bones.len());
        for i in 0..n {
            let parent = if i == 0 { pose.parent } else { self.globals[self.parents[i]] };
            self.globals[i] = parent * pose.bones[i].local();
        }
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = None;
            let (Some(limit), true) = (rotation_limits.get(i).copied().flatten(), i < n) else { continue };
            let axis = match (points.get(i), points.get(self.axis_point(i))) {
                (Some(&a), Some(&b)) => b - a,
                _ => continue,
            };
            if axis.length_squared() <= DEGENERATE_SQ {
                continue;
            }
            let parent = if i == 0 { pose.parent } else { self.globals[self.parents[i]] };
            let reference = self.reference(points, i, root_direction.normalize_or(Vec2::X));
            let handedness = parent.matrix2.determinant().signum();
            let offset = wrap_angle(signed_angle(reference, axis) - handedness * pose.bones[i].rotation);
            let (a, b) = (offset + handedness * limit.min, offset + handedness * limit.max);
            *slot = AngleLimit::new(a.min(b), a.max(b));
        }
        root_direction
    }

    /// Each bone's new local rotation from solved `points`, blended by `weight` (Godot's `lerp_angle` from the read
    /// rotation) and clamped into `rotation_limits`, into `out`; each effector's end in the written pose into
    /// `ends`. Parents first, keeping each parent's new global transform (never read back), with
    /// [`ChainPose::write_back`](crate::write_back::ChainPose::write_back)'s formula: exact under any reflection. A
    /// bone whose axis is undefined keeps its rotation. Returns `false` (`out` unspecified: write nothing) when a
    /// result would not be finite or a buffer is short.
    pub fn write_back(
        &mut self,
        pose: &RigPose,
        points: &[Vec2],
        weight: f32,
        rotation_limits: &[Option<AngleLimit>],
        out: &mut [f32],
        ends: &mut [Vec2],
    ) -> bool {
        let (n, e) = (self.parents.len(), self.tips.len());
        if pose.bones.len() < n
            || pose.tip_offsets.len() < e
            || points.len() < n + e
            || out.len() < n
            || ends.len() < e
            || !weight.is_finite()
        {
            return false;
        }
        let weight = weight.clamp(0.0, 1.0);
        // Indexed: each bone reads its parent's transforms from the buffers it writes.
        #[allow(clippy::needless_range_loop)]
        for i in 0..n {
            let bone = &pose.bones[i];
            let (solved_parent, written_parent) = if i == 0 {
                (pose.parent, pose.parent)
            } else {
                (self.solved[self.parents[i]], self.globals[self.parents[i]])
            };
            let limit = rotation_limits.get(i).copied().flatten();
            let clamp = |angle: f32| limit.map_or(angle, |l| l.clamp(wrap_angle(angle)));
            let axis_point = self.axis_point(i);
            let local_axis =
                if axis_point < n { pose.bones[axis_point].position } else { pose.tip_offsets[axis_point - n] };
            let aim = bone.basis * local_axis;
            let v =
                try_inverse(solved_parent).map(|inverse| inverse.transform_point2(points[axis_point]) - bone.position);
            let solved = match v {
                Some(v) if v.length_squared() > DEGENERATE_SQ && aim.length_squared() > DEGENERATE_SQ => {
                    v.to_angle() - aim.to_angle()
                }
                _ => bone.rotation,
            };
            let solved = if solved.is_finite() { clamp(solved) } else { bone.rotation };
            let from = if bone.rotation.abs() <= 1000.0 { bone.rotation } else { wrap_angle(bone.rotation) };
            let written = clamp(lerp_angle(from, solved, weight));
            if !written.is_finite() {
                return false;
            }
            out[i] = written;
            self.solved[i] = solved_parent * bone.local_with(solved);
            self.globals[i] = written_parent * bone.local_with(written);
        }
        for (k, (&tip, &offset)) in self.tips.iter().zip(pose.tip_offsets).enumerate() {
            ends[k] = self.globals[tip].transform_point2(offset);
            if !ends[k].is_finite() {
                return false;
            }
        }
        true
    }
}

/// A rig's pose as read from the engine: the root bone's parent's global transform, each bone's local pose (parents
/// first) and each effector's end in its tip bone's own space.
#[derive(Clone, Copy, Debug)]
pub struct RigPose<'a> {
    /// Global transform of the root bone's parent.
    pub parent: Affine2,
    /// Local poses, numbered as in the [`FabrikRig`].
    pub bones: &'a [BonePose],
    /// Per effector: the end in its tip bone's space (Godot: `Vector2.from_angle(bone_angle) * length`).
    pub tip_offsets: &'a [Vec2],
}

/// The weighted (dot, cross) moment of turning `source` onto `target`: summed over pairs, its angle is the best
/// rotation (2D Procrustes).
#[inline]
fn fit_moment(source: Vec2, target: Vec2, weight: f32) -> Vec2 {
    Vec2::new(source.dot(target), source.perp_dot(target)) * weight
}

/// The unit complex number turning the direction of `from` onto that of `to` (both non-zero).
#[inline]
fn rotation_between(from: Vec2, to: Vec2) -> Vec2 {
    unit_or(Vec2::new(from.dot(to), from.perp_dot(to)), Vec2::X)
}

#[cfg(test)]
mod tests;
