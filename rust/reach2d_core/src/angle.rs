//! Angle limits: [`AngleLimit`] (one arc) and [`ChainLimits`] (one arc per bone).

use core::f32::consts::{PI, TAU};

use glam::Vec2;

/// Largest accepted absolute value of a limit's `min` or `max`, radians.
///
/// Beyond it an `f32` cannot place an angle within a turn to better than about 1e-4 rad (and near
/// `f32::MAX` the arc's middle overflows), so such a limit is rejected rather than misapplied.
pub const MAX_LIMIT_ANGLE: f32 = 1000.0;

/// A closed arc of allowed angles, radians, counter-clockwise from `min` to `max`.
///
/// Angles are compared modulo a full turn (arc semantics): `AngleLimit { min: -0.5, max: 0.5 }`
/// also contains `TAU + 0.25`. Build one with [`AngleLimit::new`], which checks the fields; a
/// value built from the public fields is checked by the solvers instead (they return
/// [`SolveError::InvalidLimit`](crate::SolveError::InvalidLimit) for a bad one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AngleLimit {
    /// Start of the arc, radians.
    pub min: f32,
    /// End of the arc, radians; `min <= max <= min + TAU`.
    pub max: f32,
}

impl AngleLimit {
    /// A limit allowing angles from `min` to `max` (radians, counter-clockwise).
    ///
    /// Returns `None` unless both are finite and within ±[`MAX_LIMIT_ANGLE`], `min <= max` and
    /// `max - min <= TAU`.
    /// An arc of width `TAU` allows every angle. Never panics.
    #[must_use]
    pub fn new(min: f32, max: f32) -> Option<Self> {
        let limit = Self { min, max };
        limit.is_valid().then_some(limit)
    }

    /// `true` when the fields satisfy the rules of [`AngleLimit::new`].
    #[must_use]
    pub fn is_valid(self) -> bool {
        // The bound also rejects NaN and the infinities (every comparison with NaN is false).
        self.min.abs() <= MAX_LIMIT_ANGLE
            && self.max.abs() <= MAX_LIMIT_ANGLE
            && self.min <= self.max
            && self.width() <= TAU
    }

    /// Width of the arc, radians (`max - min`).
    #[must_use]
    pub fn width(self) -> f32 {
        self.max - self.min
    }

    /// Middle of the arc, radians.
    #[must_use]
    pub fn mid(self) -> f32 {
        0.5 * (self.min + self.max)
    }

    /// The allowed angle nearest to `angle` (radians).
    ///
    /// Arc semantics: `d = wrap(angle - mid)` into `(-PI, PI]`; if `d` lies outside
    /// `[-half, half]` it is moved to the nearest edge; the result is `mid + d`, so an angle that
    /// is already allowed may come back shifted by a multiple of `TAU`. An arc of width `>= TAU`
    /// never clamps and returns `angle` unchanged. A non-finite `angle` gives a non-finite
    /// result. Never panics.
    #[must_use]
    pub fn clamp(self, angle: f32) -> f32 {
        let width = self.width();
        if width >= TAU {
            return angle;
        }
        let half = 0.5 * width;
        let mid = self.mid();
        let d = wrap_angle(angle - mid);
        mid + d.clamp(-half, half)
    }

    /// `true` when `angle` (radians, any turn) lies in the arc widened by `eps` on both sides.
    ///
    /// An arc of width `>= TAU` contains every finite angle. A non-finite angle is never
    /// contained. Never panics.
    #[must_use]
    pub fn contains(self, angle: f32, eps: f32) -> bool {
        if !angle.is_finite() {
            return false;
        }
        let width = self.width();
        if width >= TAU {
            return true;
        }
        wrap_angle(angle - self.mid()).abs() <= 0.5 * width + eps
    }

    /// Clamps a unit direction `dir` into this arc measured from the unit direction `parent`.
    ///
    /// Returns `dir` itself (bit for bit) when it is already allowed.
    #[inline]
    pub(crate) fn clamp_direction(self, parent: Vec2, dir: Vec2) -> Vec2 {
        let angle = signed_angle(parent, dir);
        if self.contains(angle, 0.0) { dir } else { parent.rotate(Vec2::from_angle(self.clamp(angle))) }
    }
}

/// Angle limits for a chain of `N` bones.
///
/// Per bone, the allowed angle (radians, counter-clockwise) of the bone's segment relative to
/// its parent segment; for the root bone relative to `root_direction`. A zero-length parent
/// segment is skipped: the angle is measured from the last non-zero segment before it (or from
/// `root_direction`). `per_bone` empty means "no limits"; otherwise its length must be `N`.
#[derive(Clone, Copy, Debug)]
pub struct ChainLimits<'a> {
    /// Global direction the root bone's limit is measured from. Need not be normalized; must be
    /// finite and non-zero when any limit is set.
    pub root_direction: Vec2,
    /// One entry per bone (`None` = free), or empty for an unlimited chain.
    pub per_bone: &'a [Option<AngleLimit>],
}

impl ChainLimits<'static> {
    /// No limits at all.
    pub const NONE: Self = Self { root_direction: Vec2::X, per_bone: &[] };
}

impl Default for ChainLimits<'static> {
    fn default() -> Self {
        Self::NONE
    }
}

impl ChainLimits<'_> {
    /// `true` when at least one bone has a limit.
    #[must_use]
    pub fn is_active(&self) -> bool {
        self.per_bone.iter().any(Option::is_some)
    }

    /// Limit of bone `i`, if any.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<AngleLimit> {
        self.per_bone.get(i).copied().flatten()
    }
}

/// Moves the angle `from` toward `to` by at most `max_step` (radians), staying inside `limit`.
///
/// Without a limit (or with one of width `>= TAU`) it turns the shorter way round and returns `to` itself once it
/// is within `max_step`. With a limit it moves along the allowed arc, never across the excluded side, even when
/// that is the longer way round; `from` outside the limit is first clamped into it (the limit wins over the step).
/// `to` should already be inside the limit. An infinite `max_step` returns `to` (clamped into the limit); a
/// negative or NaN `max_step` counts as 0. A non-finite `from` or `to` gives `to`. Never panics.
#[must_use]
pub fn step_toward(from: f32, to: f32, max_step: f32, limit: Option<AngleLimit>) -> f32 {
    let limit = limit.filter(|l| l.width() < TAU);
    if !from.is_finite() || !to.is_finite() || max_step == f32::INFINITY {
        return limit.map_or(to, |l| l.clamp(to));
    }
    let max_step = if max_step > 0.0 { max_step } else { 0.0 };
    match limit {
        None => {
            let d = wrap_angle(to - from);
            if d.abs() <= max_step { to } else { wrap_angle(from) + d.signum() * max_step }
        }
        Some(l) => {
            // Both ends as offsets from the arc's middle, within half its width: moving between them never
            // leaves the arc.
            let half = 0.5 * l.width();
            let along = |angle: f32| wrap_angle(angle - l.mid()).clamp(-half, half);
            let (a, b) = (along(from), along(to));
            l.mid() + a + (b - a).clamp(-max_step, max_step)
        }
    }
}

/// Wraps an angle into `(-PI, PI]` (radians): `(angle + PI).rem_euclid(TAU) - PI`, with `-PI` taken to `PI`.
/// Non-finite input gives NaN.
#[must_use]
#[inline]
pub fn wrap_angle(angle: f32) -> f32 {
    let shifted = angle + PI;
    // Within a turn the remainder is the number itself, bit for bit: no division (a software `fmodf`, called per
    // bone per frame) for nearly every call, a difference of two nearby angles.
    let remainder = if (0.0..TAU).contains(&shifted) { shifted } else { shifted.rem_euclid(TAU) };
    let r = remainder - PI;
    if r <= -PI { r + TAU } else { r }
}

/// Signed angle (radians, `(-PI, PI]`) that rotates direction `from` onto direction `to`.
///
/// Neither needs to be normalized; zero vectors give `0`.
#[inline]
#[must_use]
pub fn signed_angle(from: Vec2, to: Vec2) -> f32 {
    from.perp_dot(to).atan2(from.dot(to))
}

#[cfg(test)]
mod tests;
