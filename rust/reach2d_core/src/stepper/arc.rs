//! The arc a swinging foot follows, and where a foot that lifts now aims to land.

use glam::Vec2;

use super::settings::{StepSettings, non_negative};

/// The most a foot lands ahead of its home, as a fraction of `step_distance`: below 1, so the landed foot is
/// within a step of its home and does not lift again at once.
pub const LEAD_REACH: f32 = 0.75;

/// Where a swinging foot is when `progress` (0 at the lift, 1 at the landing) of its step has passed, global px.
///
/// The foot lifts in a bump `4t(1 - t)` × `height` along `up`, and its path bends around a step's edge: stepping
/// up it climbs first and moves across after; stepping down it moves across first and drops after, so it clears the
/// edge between its ends (a stair's riser) instead of cutting through it. How much depends on the rise, up to a rise
/// of `height` (or 1 px) and beyond: a full climb rises during the first half while the across motion waits until
/// 30% of the step; a full drop moves across by 70% of the step and drops during the second half. Flat, both
/// follow one smoothstep (no jolt at the lift or the landing). Halfway through a full climb or drop the foot is
/// `height` above the higher end.
///
/// `progress` is held in [0, 1] (NaN counts as 1: landed); a negative or non-finite `height` counts as 0. Returns
/// `from` at 0 and `to` at 1 (within rounding). Dot products, lengths and functions of `progress` and the rise only:
/// reflection-equivariant.
#[must_use]
pub fn swing_point(from: Vec2, to: Vec2, up: Vec2, height: f32, progress: f32) -> Vec2 {
    let t = if progress.is_nan() { 1.0 } else { progress.clamp(0.0, 1.0) };
    let height = non_negative(height);
    let span = to - from;
    let rise = span.dot(up);
    let across = span - up * rise;
    // How much of a climb (> 0) or a drop (< 0) the step is, -1..1.
    let bend = (rise / height.max(1.0)).clamp(-1.0, 1.0);
    let (climb, drop) = (bend.max(0.0), (-bend).max(0.0));
    let across_t = window(t, ACROSS_WAIT * climb, 1.0 - ACROSS_WAIT * drop);
    let rise_t = window(t, HALF * drop, 1.0 - HALF * climb);
    let lift = height * 4.0 * t * (1.0 - t);
    let point = from + across * smoothstep(across_t) + up * (rise * smoothstep(rise_t) + lift);
    if point.is_finite() { point } else { to }
}

/// How long the across motion waits for a full climb (and ends early for a full drop), as a fraction of the step.
const ACROSS_WAIT: f32 = 0.3;
/// The vertical motion of a full climb ends (of a full drop starts) halfway through the step.
const HALF: f32 = 0.5;

/// `t` mapped from `[start, end]` to `[0, 1]`, held there.
fn window(t: f32, start: f32, end: f32) -> f32 {
    ((t - start) / (end - start).max(f32::EPSILON)).clamp(0.0, 1.0)
}

fn smoothstep(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
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
