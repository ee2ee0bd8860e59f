//! The joints' limits and the active ragdoll's pull toward the animated pose.

use crate::angle::{AngleLimit, wrap_angle};

/// How fast (1/s) a body's velocity moves toward the drive's wanted velocity at `strength` 1.
pub const DRIVE_RATE: f32 = 20.0;
/// Over how long (s) the wanted velocity closes the gap to the animated pose.
pub const DRIVE_TIME: f32 = 0.1;

/// The limits of a pin joint between a parent bone's body and its child's, from the child's rotation limit `limit`
/// (on its local rotation, as `set_angle_limits` takes it), its local `rotation` when the joint is made and the
/// `handedness` of its parent's global matrix (the sign of its determinant).
///
/// A joint measures the child body's angle relative to the parent body's, minus what it was when it was made;
/// under a parent of handedness `s` that relative angle moves by `s` per radian of the local rotation, so the
/// limits are `s · (limit − rotation)`, in increasing order (lower, upper). The rotation is first taken to its
/// turn nearest the limit's middle, so a rotation read as `r + TAU` gives the same joint.
#[must_use]
pub fn joint_limits(limit: AngleLimit, rotation: f32, handedness: f32) -> (f32, f32) {
    let mid = limit.mid();
    let rotation = mid + wrap_angle(rotation - mid);
    let a = limit.min - rotation;
    let b = limit.max - rotation;
    if handedness < 0.0 { (-b, -a) } else { (a, b) }
}

/// One step of the active ragdoll's drive: the velocity (`current`, per second, linear or angular) moved toward
/// `animated + gap / DRIVE_TIME` (the animation's own velocity plus what closes the `gap` to its pose in about
/// `DRIVE_TIME`) by the fraction `1 − exp(−strength · DRIVE_RATE · delta)`. `strength` 0, a non-finite value or a
/// delta that is not positive leaves `current` as it is.
#[must_use]
pub fn drive_velocity(current: f32, gap: f32, animated: f32, strength: f32, delta: f32) -> f32 {
    if !(strength > 0.0 && delta > 0.0) || !(current.is_finite() && gap.is_finite() && animated.is_finite()) {
        return current;
    }
    let fraction = 1.0 - (-strength.min(1.0) * DRIVE_RATE * delta).exp();
    let wanted = animated + gap / DRIVE_TIME;
    current + (wanted - current) * fraction
}

#[cfg(test)]
mod tests;
