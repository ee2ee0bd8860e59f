//! One spring step ([`step_spring`]): the goal's motion as impulses, then fixed substeps of semi-implicit Euler with
//! the spring and damper implicit.

use glam::Vec2;

use super::settings::{
    ANGLE_STEP_TIME, RIGID_LENGTH, SpringError, SpringGoal, SpringSettings, validate_goal, validate_settings,
};
use super::state::{SpringBone, SpringFrame, measure_goal, reset_unchecked, wrapped};

/// The longest simulation substep, seconds: a step of `delta` runs `ceil(delta / SPRING_SUBSTEP)` equal substeps.
pub const SPRING_SUBSTEP: f32 = 1.0 / 240.0;

/// The longest stretch of time one step simulates, seconds: a longer `delta` (a hitch, a breakpoint) simulates
/// only this much, so one slow frame costs at most 60 substeps.
pub const MAX_SPRING_DELTA: f32 = 0.25;

/// Most substeps in one step: `MAX_SPRING_DELTA / SPRING_SUBSTEP`.
const MAX_SUBSTEPS: u32 = 60;

/// Hard cap on a bone's relative angular speed, rad/s, whatever the settings: keeps every state finite.
pub(super) const MAX_RELATIVE_SPEED: f32 = 2000.0;

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringReport {
    /// Substeps simulated (0 for a step of zero time).
    pub substeps: u32,
    /// Largest deviation of a bone's relative angle from the goal's, radians, after the step.
    pub deviation: f32,
    /// `true` when this step first snapped an unprimed state to the goal pose.
    pub reset: bool,
}

/// Advances the chain by `delta` seconds toward `goal` and writes the simulated global joints into `out`.
///
/// `out[0]` is the goal's root joint; each following joint is the previous one plus the bone's goal length along
/// its simulated direction, so lengths are kept exactly; a bone shorter than [`RIGID_LENGTH`] keeps its goal
/// segment. An unprimed state (`SpringFrame::default()`, or after [`SpringFrame::unprime`]) is first reset to
/// the goal. `delta <= 0` simulates nothing and writes the current state. `delta` beyond [`MAX_SPRING_DELTA`]
/// simulates only that much. Limits hold after every substep (a bone that hits one stops there). Allocates
/// nothing; `O(N)` per substep.
///
/// # Errors
/// [`SpringError`] when the chain, the settings or `delta` are bad (`bones.len() == N`,
/// `goal.joints.len() == out.len() == N + 1`); the state and `out` are then unchanged. Never panics; with valid
/// input every output and every state value is finite.
pub fn step_spring(
    frame: &mut SpringFrame,
    bones: &mut [SpringBone],
    goal: &SpringGoal,
    settings: &SpringSettings,
    delta: f32,
    out: &mut [Vec2],
) -> Result<SpringReport, SpringError> {
    validate_goal(bones.len(), goal, out.len())?;
    validate_settings(settings)?;
    if !delta.is_finite() {
        return Err(SpringError::InvalidDelta);
    }
    let reset = !frame.primed;
    if reset {
        reset_unchecked(frame, bones, goal);
    }
    let velocity_known = frame.velocity_known;
    measure_goal(bones, goal);
    for bone in bones.iter_mut() {
        bone.goal_change = wrapped(bone.goal_change - bone.goal);
    }
    let mut substeps = 0;
    if delta > 0.0 {
        substeps = simulate(frame, bones, goal, settings, delta);
        // Right after a reset the root has not moved yet: its velocity becomes known at the next step.
        frame.velocity_known = velocity_known || !reset;
    } else {
        // No time passes: the chain keeps its relative angles and is carried by the root frame as it is now.
        for bone in bones.iter_mut() {
            bone.goal_change = 0.0;
        }
        frame.angle = wrapped(goal.limits.root_direction.to_angle());
        frame.position = goal.joints[0];
    }
    let mut deviation = 0.0f32;
    let mut angle = frame.angle;
    out[0] = goal.joints[0];
    for (i, (bone, pair)) in bones.iter().zip(goal.joints.windows(2)).enumerate() {
        out[i + 1] = if bone.length > RIGID_LENGTH {
            deviation = deviation.max(wrapped(bone.angle - bone.goal).abs());
            angle += bone.angle;
            out[i] + Vec2::from_angle(angle) * bone.length
        } else {
            out[i] + (pair[1] - pair[0])
        };
    }
    Ok(SpringReport { substeps, deviation, reset })
}

/// The substeps of one step; returns how many ran. The goal angles move from `goal` by `goal_change`.
fn simulate(
    frame: &mut SpringFrame,
    bones: &mut [SpringBone],
    goal: &SpringGoal,
    settings: &SpringSettings,
    delta: f32,
) -> u32 {
    let root_angle = goal.limits.root_direction.to_angle();
    let turn = wrapped(root_angle - frame.angle);
    let speed_cap = (settings.max_angle_step / ANGLE_STEP_TIME).min(MAX_RELATIVE_SPEED);
    let capped = |velocity: f32| if velocity.is_finite() { velocity.clamp(-speed_cap, speed_cap) } else { 0.0 };

    // Each bone's pivot and parent direction in the goal pose: their change of velocity since the last step is
    // an impulse on the bone (the mass keeps its velocity; only the pivot's push across the bone turns it).
    let mut reference = goal.limits.root_direction;
    let mut simulated_angle = frame.angle;
    for (bone, pair) in bones.iter_mut().zip(goal.joints.windows(2)) {
        let parent_angle = reference.to_angle();
        let pivot_velocity = (pair[0] - bone.pivot) / delta;
        let parent_velocity = wrapped(parent_angle - bone.parent_angle) / delta;
        let (pivot_velocity, parent_velocity) = if pivot_velocity.is_finite() && parent_velocity.is_finite() {
            (pivot_velocity, parent_velocity)
        } else {
            (Vec2::ZERO, 0.0)
        };
        if bone.length > RIGID_LENGTH {
            simulated_angle += bone.angle;
            if frame.velocity_known && !frame.coast {
                let pivot_change = pivot_velocity - bone.pivot_velocity;
                let push = Vec2::from_angle(simulated_angle).perp_dot(-pivot_change) / bone.length;
                bone.velocity = capped(bone.velocity + push - (parent_velocity - bone.parent_velocity));
            }
            reference = pair[1] - pair[0];
        }
        bone.pivot = pair[0];
        bone.parent_angle = parent_angle;
        if !frame.coast {
            bone.pivot_velocity = pivot_velocity;
            bone.parent_velocity = parent_velocity;
        }
    }
    frame.coast = false;

    let simulated = delta.min(MAX_SPRING_DELTA);
    // At least 1, at most MAX_SUBSTEPS; the float-to-int cast saturates.
    let steps = ((simulated / SPRING_SUBSTEP).ceil() as u32).clamp(1, MAX_SUBSTEPS);
    let h = simulated / steps as f32;
    let acceleration = settings.gravity + settings.external_force;
    for step in 0..steps {
        let end = (step + 1) as f32 / steps as f32;
        let mut absolute = frame.angle + turn * (step as f32 / steps as f32);
        for (i, bone) in bones.iter_mut().enumerate() {
            if bone.length <= RIGID_LENGTH {
                continue;
            }
            let scale = goal.scales.get(i).copied().unwrap_or_default();
            let k = settings.stiffness * scale.stiffness;
            let c = settings.damping * scale.damping;
            absolute += bone.angle;
            let torque = Vec2::from_angle(absolute).perp_dot(acceleration) / bone.length;
            let target = bone.goal + bone.goal_change * end;
            let deviation = wrapped(bone.angle - target);
            // Semi-implicit Euler with the spring and damper taken at the end of the substep: stable for any k, c.
            let explicit = bone.velocity + h * (torque - k * deviation);
            let mut velocity = capped(explicit / (1.0 + h * c + h * h * k));
            let mut angle = wrapped(bone.angle + h * velocity);
            if let Some(limit) = goal.limits.get(i)
                && !limit.contains(angle, 0.0)
            {
                angle = wrapped(limit.clamp(angle));
                velocity = 0.0;
            }
            bone.angle = angle;
            bone.velocity = velocity;
        }
    }
    for bone in bones.iter_mut() {
        bone.goal = wrapped(bone.goal + bone.goal_change);
        bone.goal_change = 0.0;
    }
    frame.position = goal.joints[0];
    frame.angle = wrapped(root_angle);
    frame.velocity_known = true;
    steps
}
