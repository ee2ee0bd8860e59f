//! One bone's body: a capsule from the bone's origin to its end, in global space.

use glam::{Affine2, Vec2};

use super::motion::BodyPlacement;

/// A bone's body as the physics engine takes it: a rigid placement and a capsule along its x axis from the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    /// Where the body is: the bone's global origin, its x axis along the bone on screen.
    pub placement: BodyPlacement,
    /// The bone's length on screen (px): the capsule's core segment runs from the origin to `length` along x.
    pub length: f32,
    /// The capsule's radius on screen (px).
    pub radius: f32,
}

/// Shortest bone (px) a body is built for; a shorter bone gets a capsule this long.
const MIN_LENGTH: f32 = 1e-3;

/// The capsule of a bone whose global transform is `global` (the bone's own matrix, its scale and any reflection
/// included), `length` and `bone_angle` as `Bone2D` has them, `width` its thickness in the bone's units.
///
/// The axis is `global · from_angle(bone_angle) · length`; the radius is `width / 2` scaled by the square root of
/// the matrix's area factor (its mean scale). `None` when a value is not finite, the matrix is collapsed or the
/// width is negative. Never panics.
#[must_use]
pub fn place_capsule(global: Affine2, length: f32, bone_angle: f32, width: f32) -> Option<Capsule> {
    let axis = global.matrix2 * (Vec2::from_angle(bone_angle) * length.max(MIN_LENGTH));
    let area = global.matrix2.determinant().abs();
    let screen_length = axis.length();
    let radius = 0.5 * width * area.sqrt();
    let finite = global.is_finite() && length.is_finite() && screen_length.is_finite() && radius.is_finite();
    if !finite || area <= f32::EPSILON || screen_length <= MIN_LENGTH * 0.5 || width < 0.0 {
        return None;
    }
    let placement = BodyPlacement { origin: global.translation, angle: axis.to_angle() };
    Some(Capsule { placement, length: screen_length, radius })
}

/// A body's mass (kg): `mass` when it is above 0, else `mass_per_length` times the bone's length on screen, at
/// least 0.01 kg (a physics engine refuses a body of no mass).
#[must_use]
pub fn mass_of(screen_length: f32, mass_per_length: f32, mass: f32) -> f32 {
    let chosen = if mass > 0.0 && mass.is_finite() { mass } else { screen_length * mass_per_length };
    if chosen.is_finite() { chosen.max(0.01) } else { 0.01 }
}

/// A capsule body's moment of inertia about its centre (kg·px²), as Godot's own physics reckons a capsule: the
/// box around it, `mass · (width² + height²) / 12`, its height the core `length` plus both caps. Given to the
/// server rather than left for it to work out, so every physics server turns the bodies alike.
#[must_use]
pub fn capsule_inertia(mass: f32, length: f32, radius: f32) -> f32 {
    let (width, height) = (2.0 * radius, length + 2.0 * radius);
    let inertia = mass * (width * width + height * height) / 12.0;
    if inertia.is_finite() && inertia > 0.0 { inertia } else { 1e-3 }
}

#[cfg(test)]
mod tests;
