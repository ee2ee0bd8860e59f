//! One foot on the ground line, one ray: where the ankle goes on the ground the ray found ([`GroundSettings`]), its
//! tilt, the hips' drop, the speed-limited steps, and where the results go back into the scene
//! ([`offset_in_parent`], [`foot_rotation`]).

use glam::{Affine2, Mat2, Vec2};

use crate::angle::{signed_angle, wrap_angle};

/// One foot's ground settings, in global pixels and radians.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroundSettings {
    /// Unit vector pointing away from gravity.
    pub up: Vec2,
    /// A point on the animation's ground line (the line through it perpendicular to `up`): where the animation's
    /// feet stand. A foot above it by more than `foot_height` is lifted (a swing) and stays lifted by as much.
    pub ground_line: Vec2,
    /// The end effector's (ankle's) height above the sole, px, along the ground's normal.
    pub foot_height: f32,
    /// How far above the ground line the ray starts (the highest step a foot climbs), px.
    pub ray_above: f32,
    /// How far below the ground line the ray ends (the deepest step a foot goes down), px.
    pub ray_below: f32,
    /// The most the foot turns to the ground's slope, radians, in `[0, PI/2]`.
    pub max_tilt: f32,
}

/// The ray a foot casts, global: from above the foot's sole to below it, along `-up`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FootRay {
    /// Start, above the ground line.
    pub from: Vec2,
    /// End, below the ground line.
    pub to: Vec2,
}

/// What a foot's ray found: the contact point and the surface's unit normal, global.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroundHit {
    /// Where the ray met the surface.
    pub point: Vec2,
    /// The surface's unit normal there.
    pub normal: Vec2,
}

impl GroundSettings {
    /// How far the animated end effector `animated` is lifted above where it stands on the ground line, px (0 for a
    /// planted or sunk foot).
    #[must_use]
    pub fn lift(&self, animated: Vec2) -> f32 {
        ((animated - self.ground_line).dot(self.up) - self.foot_height).max(0.0)
    }

    /// The ray for a foot whose animated end effector is at `animated`: through the point of the ground line under
    /// it, from `ray_above` over that line to `ray_below` under it.
    #[must_use]
    pub fn ray(&self, animated: Vec2) -> FootRay {
        let sole = animated - self.up * (animated - self.ground_line).dot(self.up);
        FootRay { from: sole + self.up * self.ray_above, to: sole - self.up * self.ray_below }
    }

    /// Where the end effector goes on `hit`: `foot_height` off the surface along its normal, plus the animation's
    /// lift along `up` (a swinging foot keeps its swing over the real ground).
    #[must_use]
    pub fn planted(&self, animated: Vec2, hit: GroundHit) -> Vec2 {
        hit.point + hit.normal * self.foot_height + self.up * self.lift(animated)
    }

    /// The foot's tilt on `hit`: the signed angle from `up` to the surface normal, held within `±max_tilt` (0 for a
    /// normal that is not a direction).
    #[must_use]
    pub fn tilt(&self, hit: GroundHit) -> f32 {
        self.tilt_to(hit.normal)
    }

    /// The signed angle from `up` to `normal`, held within `±max_tilt` (0 when it is not finite).
    pub(super) fn tilt_to(&self, normal: Vec2) -> f32 {
        let angle = signed_angle(self.up, normal);
        if angle.is_finite() { angle.clamp(-self.max_tilt, self.max_tilt) } else { 0.0 }
    }
}

/// `current` moved toward `wanted` by at most `max_step` (any direction, so reflection-equivariant);
/// `f32::INFINITY` (or a non-finite `current`) jumps to `wanted`.
#[must_use]
pub fn step_offset(current: Vec2, wanted: Vec2, max_step: f32) -> Vec2 {
    if !current.is_finite() || max_step == f32::INFINITY {
        return wanted;
    }
    current + (wanted - current).clamp_length_max(max_step.max(0.0))
}

/// `current` moved toward `wanted` by at most `max_step` (a plain number: px of hips drop, radians of tilt).
#[must_use]
pub fn step_value(current: f32, wanted: f32, max_step: f32) -> f32 {
    if !current.is_finite() || max_step == f32::INFINITY {
        return wanted;
    }
    let step = max_step.max(0.0);
    current + (wanted - current).clamp(-step, step)
}

/// How far (px, at least 0) a leg's root `hip` must come down along `-up` so that `goal` is no farther from it than
/// the animated end effector `animated` is: the leg keeps its animated extension, so a leg the animation nearly
/// straightened still reaches a lower or farther ground. When no drop brings the goal that close (it lies too far
/// to the side), the drop that brings it closest.
#[must_use]
pub fn reach_drop(hip: Vec2, animated: Vec2, goal: Vec2, up: Vec2) -> f32 {
    let reach_sq = (animated - hip).length_squared();
    let to_goal = goal - hip;
    // |to_goal + up * h|^2 = h^2 + 2 b h + |to_goal|^2 must come down to reach^2.
    let b = to_goal.dot(up);
    let excess = to_goal.length_squared() - reach_sq;
    if excess.is_nan() || excess <= 0.0 {
        return 0.0;
    }
    let discriminant = b * b - excess;
    let drop = if discriminant >= 0.0 { -b - discriminant.sqrt() } else { -b };
    if drop.is_finite() { drop.max(0.0) } else { 0.0 }
}

/// The hips' drop (px, in `[0, max_drop]`): the most any leg needs (see [`reach_drop`]).
#[must_use]
pub fn hips_drop(needs: impl IntoIterator<Item = f32>, max_drop: f32) -> f32 {
    let most = needs.into_iter().filter(|n| n.is_finite()).fold(0.0_f32, f32::max);
    most.min(max_drop.max(0.0))
}

/// Rotates `v` by `angle` radians (the same way as `Vec2::from_angle`).
#[must_use]
pub fn rotate(v: Vec2, angle: f32) -> Vec2 {
    Vec2::from_angle(angle).rotate(v)
}

/// The most a value limited to `speed` per second may move in a frame of `delta` seconds (px, radians: the speed's
/// unit).
///
/// `speed <= 0` (or NaN, or `f32::INFINITY`) is no limit: `f32::INFINITY`. A negative or non-finite `delta` counts
/// as 0 (an infinite frame must not lift the limit), so the value stays. Computed in `f64`; a product beyond `f32`
/// gives `f32::INFINITY`.
#[must_use]
pub fn max_step(speed: f32, delta: f64) -> f32 {
    if speed > 0.0 && speed < f32::INFINITY {
        let delta = if delta.is_finite() { delta.max(0.0) } else { 0.0 };
        (f64::from(speed) * delta) as f32
    } else {
        f32::INFINITY
    }
}

/// The unit vector against `gravity` (any length, global): `(0, -1)` (up on a y-down screen) for a gravity that is
/// zero, not finite, or too small or too large to normalize.
#[must_use]
pub fn up_from_gravity(gravity: Vec2) -> Vec2 {
    (-gravity).try_normalize().unwrap_or(Vec2::NEG_Y)
}

/// A node's global basis whose determinant is at most this (in absolute value) is collapsed: no offset is expressed
/// in it.
const COLLAPSED_DETERMINANT: f32 = 1.0e-10;

/// The global offset `global_offset` (px) expressed in the parent space of a node whose global basis is
/// `global_basis` and local basis `local_basis` (rotation, scale and skew, no translation): the change of the node's
/// local position that moves it by `global_offset`. The parent's basis is `global · local⁻¹`, so this is
/// `local · global⁻¹ · global_offset`; a reflection anywhere is inside the matrices.
///
/// `None` for a collapsed global basis (zero scale: determinant within `1e-10` of 0), one that is not finite, or a
/// result that is not finite. Never panics.
#[must_use]
pub fn offset_in_parent(global_basis: Mat2, local_basis: Mat2, global_offset: Vec2) -> Option<Vec2> {
    let determinant = global_basis.determinant();
    if !(determinant.is_finite() && determinant.abs() > COLLAPSED_DETERMINANT) {
        return None;
    }
    let in_parent = local_basis * (global_basis.inverse() * global_offset);
    in_parent.is_finite().then_some(in_parent)
}

/// The local rotation (radians) of a foot bone, a direct child of a leg's tip bone, that keeps the foot's animated
/// angle to the world turned by `tilt`: its global x axis is the animated one rotated by `tilt` radians.
///
/// `animated_tip` is the tip bone's global transform in the animated pose, `animated` the foot's local rotation
/// there; `foot_basis` is the foot's local basis without its rotation (scale and skew: the local basis is
/// `rotate(rotation) · foot_basis`), `tip_basis` the tip bone's global basis now (after the leg's solve). The result
/// is the equal angle within half a turn of `animated` (no jump of a whole turn). The matrices carry any
/// reflection: the mirrored animated tip and tip basis (and the mirrored `-tilt`) give the rotation that draws the
/// mirrored foot, the same local rotation. `None` when `tip_basis` is collapsed (a zero scale: the foot keeps its
/// rotation) or the result is not finite. Never panics.
#[must_use]
pub fn foot_rotation(
    animated_tip: Affine2,
    animated: f32,
    foot_basis: Mat2,
    tilt: f32,
    tip_basis: Mat2,
) -> Option<f32> {
    let along = foot_basis * Vec2::X;
    let animated_axis = animated_tip.matrix2 * (Mat2::from_angle(animated) * along);
    let wanted_axis = rotate(animated_axis, tilt);
    if tip_basis.determinant().abs() <= f32::EPSILON * tip_basis.x_axis.length_squared().max(1e-30) {
        return None;
    }
    let in_tip = tip_basis.inverse() * wanted_axis;
    let rotation = in_tip.to_angle() - along.to_angle();
    let rotation = animated + wrap_angle(rotation - animated);
    rotation.is_finite().then_some(rotation)
}

#[cfg(test)]
mod tests;
