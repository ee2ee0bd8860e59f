//! The ground the sole and stance tests share.

use glam::Vec2;

use super::stance::GroundSettings;

/// y down, as on screen: up is (0, -1); the animation's feet stand on y = 100 with the ankle 6 px above the sole;
/// the ray reaches 30 px above and 50 px below; a foot turns at most `max_tilt` rad.
pub fn screen_ground(max_tilt: f32) -> GroundSettings {
    GroundSettings {
        up: Vec2::new(0.0, -1.0),
        ground_line: Vec2::new(0.0, 100.0),
        foot_height: 6.0,
        ray_above: 30.0,
        ray_below: 50.0,
        max_tilt,
    }
}
