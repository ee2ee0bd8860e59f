//! Look-at: one bone pointing at a target.

use glam::Vec2;

use crate::angle::{AngleLimit, signed_angle};
use crate::error::SolveError;
use crate::geom::direction_or;
use crate::validate;

/// Result of [`solve_look_at`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LookAtSolution {
    /// The bone's new direction, unit length.
    pub direction: Vec2,
    /// `|angle|` (radians, `0..=PI`) from `direction` to the exact target direction including
    /// the offset; `0` when the target is at the origin.
    pub remaining_angle: f32,
}

/// The new unit direction of a bone at `origin` that points at `target`, rotated by `offset`.
///
/// `offset` is radians, counter-clockwise (e.g. the angle between the bone's local axis and the
/// way its art points). With `limit = Some((arc, reference_direction))` the angle of the result
/// relative to `reference_direction` (need not be normalized) is clamped into `arc`
/// (nearest edge, arc semantics). A target at the origin, or within `1e-6` relative to the
/// coordinates' magnitude (`1e-6 * max(1, |origin|, |target|)`), keeps `current_direction`
/// (normalized; +X if it is zero), still clamped into the limit. Never panics.
///
/// # Errors
/// [`SolveError::NonFiniteJoint`] `{ index: 0 }` for a bad origin,
/// [`SolveError::NonFiniteTarget`], [`SolveError::InvalidSettings`] for a non-finite offset,
/// [`SolveError::InvalidLimit`] `{ index: 0 }` and [`SolveError::InvalidDirection`] for a
/// non-finite `current_direction` or a zero / non-finite reference direction.
pub fn solve_look_at(
    origin: Vec2,
    current_direction: Vec2,
    target: Vec2,
    offset: f32,
    limit: Option<(AngleLimit, Vec2)>,
) -> Result<LookAtSolution, SolveError> {
    if !validate::coord_ok(origin) {
        return Err(SolveError::NonFiniteJoint { index: 0 });
    }
    if !validate::coord_ok(target) {
        return Err(SolveError::NonFiniteTarget);
    }
    if !offset.is_finite() {
        return Err(SolveError::InvalidSettings);
    }
    if !current_direction.is_finite() {
        return Err(SolveError::InvalidDirection);
    }
    if let Some((arc, reference)) = limit {
        if !arc.is_valid() {
            return Err(SolveError::InvalidLimit { index: 0 });
        }
        if !validate::direction_ok(reference) {
            return Err(SolveError::InvalidDirection);
        }
    }
    let to_target = target - origin;
    let scale = origin.abs().max_element().max(target.abs().max_element()).max(1.0);
    let (wanted, has_target) = if to_target.length() <= 1e-6 * scale {
        (direction_or(current_direction, Vec2::X), false)
    } else {
        (Vec2::from_angle(offset).rotate(to_target.normalize()), true)
    };
    let direction = match limit {
        Some((arc, reference)) => arc.clamp_direction(reference.normalize(), wanted),
        None => wanted,
    };
    let remaining_angle = if has_target { signed_angle(direction, wanted).abs() } else { 0.0 };
    Ok(LookAtSolution { direction, remaining_angle })
}

#[cfg(test)]
mod tests;
