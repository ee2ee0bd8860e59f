//! What the step planner is given: how a creature steps ([`StepSettings`]) and one frame's input ([`StepFrame`]).

use glam::Vec2;

use super::reach::LegReach;

/// How a creature steps, in global pixels and seconds.
///
/// The planner uses the values as they are (the node validates them). A value outside its documented range never
/// panics and never gives NaN: a negative or non-finite distance, height, duration or lead counts as 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepSettings {
    /// How far (px, across `up`) a planted foot's home may drift from the foot before the foot steps.
    pub step_distance: f32,
    /// How high (px, along `up`) the arc lifts the foot above the higher of its two ends, halfway through the step.
    pub step_height: f32,
    /// How long a step takes, seconds; 0 lands it on the frame after it lifts.
    pub step_duration: f32,
    /// How far ahead of its home a foot lands, in seconds of the body's velocity (so a fast walk does not fall
    /// behind); the lead is held within [`LEAD_REACH`](crate::stepper::LEAD_REACH) × `step_distance`, so a foot
    /// that lands never has to step again at once.
    pub lead: f32,
    /// The catch-up limit, px: a planted foot whose home drifted farther than this lifts even while another group
    /// is in the air (the one exception to "one group in the air at a time"); 0 = never: the rule always holds.
    pub max_lag: f32,
}

impl Default for StepSettings {
    fn default() -> Self {
        Self { step_distance: 40.0, step_height: 16.0, step_duration: 0.2, lead: 0.1, max_lag: 80.0 }
    }
}

/// One frame's input.
#[derive(Clone, Copy, Debug)]
pub struct StepFrame<'a> {
    /// Each foot's home this frame, global px: where it rests under the body. One per foot (extra feet, or extra
    /// homes, are left alone).
    pub homes: &'a [Vec2],
    /// Unit vector away from the ground: against gravity, or the body's own up.
    pub up: Vec2,
    /// The body's velocity, px/s (a non-finite one counts as zero).
    pub velocity: Vec2,
    /// This frame's time, seconds (a negative or non-finite one counts as 0).
    pub delta: f32,
    /// Each foot's leg reach this frame (its hip and lengths), at the foot's index: a planted foot lifts before its
    /// leg would stretch past it, and a foot lands where its leg reaches ([`LegReach`]). Empty (or shorter than
    /// `homes`): those feet step by their drift alone.
    pub reach: &'a [LegReach],
}

/// `value` if finite and at least 0, else 0.
pub(super) fn non_negative(value: f32) -> f32 {
    if value.is_finite() { value.max(0.0) } else { 0.0 }
}
