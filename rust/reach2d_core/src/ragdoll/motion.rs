//! How a body moves: its placement now and the velocity the animated pose gave it over the last frame.

use glam::Vec2;

use crate::angle::wrap_angle;

/// A body's rigid placement: an origin and the angle of its x axis (radians, from the global x axis toward y).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyPlacement {
    /// The body's origin (px, global).
    pub origin: Vec2,
    /// The angle of its x axis (radians).
    pub angle: f32,
}

impl BodyPlacement {
    /// The global position of `local` (in the body's frame).
    #[must_use]
    pub fn point(self, local: Vec2) -> Vec2 {
        self.origin + Vec2::from_angle(self.angle).rotate(local)
    }
}

/// A body's motion: the velocity of its origin (px/s) and its angular velocity (rad/s), estimated from two
/// placements a frame apart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyMotion {
    /// The origin's velocity (px/s).
    pub origin_velocity: Vec2,
    /// The angular velocity (rad/s).
    pub angular_velocity: f32,
}

impl BodyMotion {
    /// The motion from `before` to `now` over `delta` seconds (the angle the shorter way round). No motion when
    /// `delta` is not a positive finite time or a value is not finite: a teleport is not a velocity.
    #[must_use]
    pub fn between(before: BodyPlacement, now: BodyPlacement, delta: f32) -> Self {
        if !(delta > 0.0 && delta.is_finite()) {
            return Self::default();
        }
        let motion = Self {
            origin_velocity: (now.origin - before.origin) / delta,
            angular_velocity: wrap_angle(now.angle - before.angle) / delta,
        };
        if motion.origin_velocity.is_finite() && motion.angular_velocity.is_finite() { motion } else { Self::default() }
    }

    /// The motion when it is no faster than `max_speed` (px/s) at `reach` px from the origin; none otherwise (a
    /// jump of the animated pose, a teleport, is not handed to the bodies as a velocity).
    #[must_use]
    pub fn unless_faster_than(self, max_speed: f32, reach: f32) -> Self {
        let speed = self.origin_velocity.length() + self.angular_velocity.abs() * reach;
        if speed <= max_speed { self } else { Self::default() }
    }
}

/// The velocity of the global point `point` of a body placed at `origin` moving with `motion`: `v + ω × r`.
#[must_use]
pub fn point_velocity(motion: BodyMotion, origin: Vec2, point: Vec2) -> Vec2 {
    motion.origin_velocity + (point - origin).perp() * motion.angular_velocity
}

#[cfg(test)]
mod tests;
