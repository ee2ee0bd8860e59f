//! The arc a swinging foot follows, and where a foot that lifts now aims to land.

use glam::Vec2;

use super::settings::{StepSettings, non_negative};

/// The most a foot lands ahead of its home, as a fraction of `step_distance`: below 1, so the landed foot is
/// within a step of its home and does not lift again at once.
pub const LEAD_REACH: f32 = 0.75;

/// Where a swinging foot is when `progress` (0 at the lift, 1 at the landing) of its step has passed, global px.
///
/// Across `up` the foot eases from `from` to `to` (smoothstep: it starts and stops without a jolt); along `up` it
/// follows the straight line between the ends plus a bump `4t(1 - t)` high enough that halfway through the step it
/// is `height` above the higher end, so a step up a stair clears the stair's edge by `height` at mid-step.
/// `progress` is held in [0, 1] (NaN counts as 1: landed); a negative or non-finite `height` counts as 0. Returns
/// `from` at 0 and `to` at 1 (within rounding). Dot products and lengths only: reflection-equivariant.
#[must_use]
pub fn swing_point(from: Vec2, to: Vec2, up: Vec2, height: f32, progress: f32) -> Vec2 {
    let t = if progress.is_nan() { 1.0 } else { progress.clamp(0.0, 1.0) };
    let eased = t * t * (3.0 - 2.0 * t);
    let bump = 4.0 * t * (1.0 - t);
    let span = to - from;
    let rise = span.dot(up);
    let across = span - up * rise;
    let lift = non_negative(height) + 0.5 * rise.abs();
    let point = from + across * eased + up * (rise * eased + lift * bump);
    if point.is_finite() { point } else { to }
}

/// Where a foot that lifts now aims to land, global px: its `home` moved on by the body's velocity over the step
/// (where the home will be when the foot lands), plus `lead` seconds of that velocity ahead, the lead held within
/// [`LEAD_REACH`] × `step_distance`.
///
/// Only the velocity across `up` counts (the caller's ray finds the height). A non-finite velocity counts as zero,
/// and an aim that would not be finite (an absurd velocity) is the home itself.
#[must_use]
pub fn landing_aim(home: Vec2, velocity: Vec2, up: Vec2, settings: &StepSettings) -> Vec2 {
    let velocity = if velocity.is_finite() { velocity - up * velocity.dot(up) } else { Vec2::ZERO };
    let travel = velocity * non_negative(settings.step_duration);
    let lead =
        (velocity * non_negative(settings.lead)).clamp_length_max(LEAD_REACH * non_negative(settings.step_distance));
    let aim = home + travel + lead;
    if aim.is_finite() { aim } else { home }
}
