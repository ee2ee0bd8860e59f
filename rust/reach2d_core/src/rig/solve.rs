//! The solve ([`FabrikRig::solve`]): backward passes from the tips (a sub-base placed as the best rigid fit of its
//! branches), forward passes from the root (each bone turned to fit its points, clamped into its limit).

use glam::Vec2;

use super::tree::{DEGENERATE_SQ, FabrikRig};
use crate::angle::{AngleLimit, ChainLimits};
use crate::error::SolveError;
use crate::fabrik::solve_fabrik;
use crate::geom::{TINY_SQ, direction_or, unit_or};
use crate::solver::{FabrikSettings, SolveReport};
use crate::validate::{coord_ok, tolerance_ok};

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
/// How much worse (relative, in the weighted squared distances) the passes may end than the start and still be the
/// result.
const CLEAR_LOSS: f32 = 1e-2;

impl FabrikRig {
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
    /// `settings.max_iterations` passes; without limits, when the passes ended clearly worse than the start (their
    /// weighted sum of squared distances over 1% and the tolerance squared above the start's), the result is the
    /// start. `reached` means every effector within tolerance; `distance` is the largest
    /// distance. With limits the pose is first conformed to them (`iterations` may then be 0 with the
    /// pose changed). A rig that is one chain (one effector, of non-zero weight) without limits is solved as
    /// [`solve_fabrik`] solves a chain, its passes and refinement counted in `iterations`. Never panics; allocates
    /// nothing.
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
        let limited = limits.iter().any(Option::is_some);
        if !self.chain_lengths.is_empty() && !limited && effectors[0].weight > 0.0 && settings.max_iterations > 0 {
            return self.solve_chain(points, effectors[0].target, settings);
        }
        let n = self.parents.len();
        let tol = settings.tolerance;
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
        // The sub-base compromise is no descent: on some trees the passes end farther from the targets than they
        // began (a reachable pose seen left 21.8 px off from 11.7 px). Then the start is the result.
        let start_misfit = self.misfit(points, effectors);
        self.start.copy_from_slice(points);
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
        // Only a clear loss goes back (judged by the weighted squared distances the fit weighs), and only to the
        // start, so a mirrored rig, whose misfits differ by rounding, ends on the mirror image of the same pose.
        // Not with limits: there the passes can lose far more (a limited two-armed rig in test_fabrik_rig.gd ends
        // about 80 px off from a start 4 px off) and going back freezes the rig until they stop losing, where
        // rounding decides which frame a mirrored twin lets go (0.45 px apart); that solve is still open.
        if !limited && self.misfit(points, effectors) > start_misfit * (1.0 + CLEAR_LOSS) + tol * tol {
            points.copy_from_slice(&self.start);
            distance = self.worst(points, effectors);
        }
        Ok(SolveReport::new(iterations, distance, tol))
    }

    /// A rig that is one chain without limits, solved as [`solve_fabrik`] solves it: FABRIK's passes alone stall
    /// on a chain folded back on itself with its target near the inner edge of its reach (seen 1.85 px off on a
    /// reachable 78 px branch after 256 passes), and the chain's solve hands such a stall to its refinement. With
    /// limits the rig's own passes stay: the limited refinement's active set turns rounding into differences of up
    /// to a pixel between a rig and its mirror image, and the rig node solves in global coordinates.
    fn solve_chain(
        &mut self,
        points: &mut [Vec2],
        target: Vec2,
        settings: &FabrikSettings,
    ) -> Result<SolveReport, SolveError> {
        for (length, pair) in self.chain_lengths.iter_mut().zip(points.windows(2)) {
            *length = pair[0].distance(pair[1]);
        }
        solve_fabrik(points, &self.chain_lengths, target, &ChainLimits::NONE, settings)
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

    /// The weighted sum of the squared distances from the effectors' ends to their targets (px²).
    fn misfit(&self, points: &[Vec2], effectors: &[RigEffector]) -> f32 {
        let n = self.parents.len();
        effectors.iter().enumerate().map(|(k, e)| e.weight * points[n + k].distance_squared(e.target)).sum()
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
}

/// Rotates `v` by the unit complex number `r`.
#[inline]
pub(super) fn rotate(r: Vec2, v: Vec2) -> Vec2 {
    Vec2::new(r.x * v.x - r.y * v.y, r.y * v.x + r.x * v.y)
}

/// The weighted (dot, cross) moment of turning `source` onto `target`: summed over pairs, its angle is the best
/// rotation (2D Procrustes).
#[inline]
fn fit_moment(source: Vec2, target: Vec2, weight: f32) -> Vec2 {
    Vec2::new(source.dot(target), source.perp_dot(target)) * weight
}

/// The unit complex number turning the direction of `from` onto that of `to` (both non-zero).
#[inline]
pub(super) fn rotation_between(from: Vec2, to: Vec2) -> Vec2 {
    unit_or(Vec2::new(from.dot(to), from.perp_dot(to)), Vec2::X)
}
