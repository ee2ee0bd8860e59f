//! The joints' limits and the active ragdoll's pull toward the animated pose.

use crate::angle::{AngleLimit, wrap_angle};

/// How fast (1/s) a body's velocity moves toward the drive's wanted velocity at `strength` 1.
pub const DRIVE_RATE: f32 = 30.0;
/// Over how long (s) the wanted velocity closes the gap to the animated pose.
pub const DRIVE_TIME: f32 = 0.08;

/// How a child bone's body is set in its frame so that its pin joint's limits are symmetric about 0.
///
/// A pin joint measures the child body's angle relative to its parent body's (both rigid placements). The child's
/// body angle is its bone's axis angle minus `child_offset`, chosen so that with the bone's local rotation at the
/// middle of its limit the two bodies have the same angle; the joint, made with the bodies at the same angle,
/// then allows `[-half_width, half_width]`. (Symmetric limits about a relative angle of 0 never cross the half
/// turn, and read the same under Godot's 4.3-4.6 pin joint, which measures from the bodies' angles at the
/// joint's making differently from later versions.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointFrame {
    /// The bone's axis angle minus the child body's angle (radians).
    pub child_offset: f32,
    /// Half the limit's width (radians): the joint allows `[-half_width, half_width]`.
    pub half_width: f32,
}

/// The joint frame of a child bone whose local rotation is `rotation` now and is held in `limit`, its axis at
/// global angle `child_axis` now, under a parent of `handedness` (the sign of its global matrix's determinant)
/// whose body is at angle `parent_body`.
///
/// Under a parent of handedness `s` the axis turns by `s` per radian of local rotation, so at the limit's middle
/// `m` it is at `child_axis + s · (m − rotation)`; the offset puts the body there at `parent_body`. The rotation is
/// taken to its turn nearest `m` first, so `r` and `r + TAU` give the same frame.
#[must_use]
pub fn joint_frame(limit: AngleLimit, rotation: f32, handedness: f32, child_axis: f32, parent_body: f32) -> JointFrame {
    let mid = limit.mid();
    let rotation = mid + wrap_angle(rotation - mid);
    let sign = if handedness < 0.0 { -1.0 } else { 1.0 };
    let axis_at_mid = child_axis + sign * (mid - rotation);
    JointFrame { child_offset: wrap_angle(axis_at_mid - parent_body), half_width: 0.5 * limit.width() }
}

/// The relative angular velocity (rad/s) a limited joint may have over the next step of `delta` seconds: the
/// `velocity` it has, held so that its `relative` angle (radians, measured in its [`JointFrame`]) ends the step
/// within `[-half_width, half_width]`; a joint already beyond an end comes back to it in that step. A non-finite
/// value or a delta that is not positive leaves `velocity` as it is.
#[must_use]
pub fn limit_velocity(relative: f32, velocity: f32, half_width: f32, delta: f32) -> f32 {
    let usable = delta > 0.0 && relative.is_finite() && velocity.is_finite() && half_width.is_finite();
    if !usable {
        return velocity;
    }
    let half_width = half_width.max(0.0);
    let upper = (half_width - relative) / delta;
    let lower = (-half_width - relative) / delta;
    velocity.clamp(lower, upper)
}

/// How far (radians) a joint's `relative` angle is past `[-half_width, half_width]`: positive past the upper end,
/// negative past the lower, 0 within (or for a value that is not finite).
#[must_use]
pub fn past_limit(relative: f32, half_width: f32) -> f32 {
    let half_width = half_width.max(0.0);
    let past = relative - relative.clamp(-half_width, half_width);
    if past.is_finite() { past } else { 0.0 }
}

/// One step of the active ragdoll's drive: the velocity (`current`, per second, linear or angular) moved toward
/// `animated + gap / DRIVE_TIME` (the animation's own velocity plus what closes the `gap` to its pose in about
/// `DRIVE_TIME`) by the fraction `1 − exp(−strength · DRIVE_RATE · delta)`. `strength` 0, a non-finite value or a
/// delta that is not positive leaves `current` as it is.
#[must_use]
pub fn drive_velocity(current: f32, gap: f32, animated: f32, strength: f32, delta: f32) -> f32 {
    let usable = strength > 0.0 && delta > 0.0 && current.is_finite() && gap.is_finite() && animated.is_finite();
    if !usable {
        return current;
    }
    let fraction = 1.0 - (-strength.min(1.0) * DRIVE_RATE * delta).exp();
    let wanted = animated + gap / DRIVE_TIME;
    current + (wanted - current) * fraction
}

#[cfg(test)]
mod tests;
