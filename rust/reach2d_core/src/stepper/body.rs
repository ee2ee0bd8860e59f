//! How high and how tilted the body rides on its planted feet: the mean of their heights, or a line fitted through
//! them; and a global turn expressed as a change of a node's local rotation.

use glam::{Mat2, Vec2};

use super::reach::{LIFT_REACH, LegReach};

/// How the body follows the planted feet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BodyFit {
    /// Raised or lowered by the feet's mean height over their homes; never tilted.
    #[default]
    Mean,
    /// Raised or lowered and tilted along the least-squares line through the feet's heights over their homes,
    /// measured across `up` from the body's pivot (the mean when the feet stand on one point across).
    Line,
}

/// What the planted feet ask of the body.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyLean {
    /// How far to move the body along `up`, px (negative: down).
    pub raise: f32,
    /// How far to turn it, radians, in the global frame's sense (as `Vec2::from_angle`: clockwise on a y-down
    /// screen, like Godot's rotation); 0 for [`BodyFit::Mean`].
    pub tilt: f32,
}

/// The raise and tilt the planted feet ask for: `planted` yields each planted foot's point and its home (global px);
/// a foot's height is `(point - home)·up`. `pivot` is the body's own point (where the line's height is taken).
///
/// `None` without a planted foot, or for a result that is not finite. The tilt is the angle from the direction
/// across `up` (`up.perp()`) to the fitted line. Dot products only: a reflected input gives the same raise and the
/// negated tilt, as a mirrored body's turn is.
#[must_use]
pub fn fit_body(
    planted: impl Iterator<Item = (Vec2, Vec2)> + Clone,
    pivot: Vec2,
    up: Vec2,
    fit: BodyFit,
) -> Option<BodyLean> {
    let across = up.perp();
    let sample = |(at, home): (Vec2, Vec2)| ((at - pivot).dot(across), (at - home).dot(up));
    let (count, sum_x, sum_y) =
        planted.clone().map(sample).fold((0.0f32, 0.0f32, 0.0f32), |(n, sx, sy), (x, y)| (n + 1.0, sx + x, sy + y));
    if count == 0.0 {
        return None;
    }
    let (mean_x, mean_y) = (sum_x / count, sum_y / count);
    let lean = match fit {
        BodyFit::Mean => BodyLean { raise: mean_y, tilt: 0.0 },
        BodyFit::Line => {
            let (sxx, sxy) = planted.map(sample).fold((0.0f32, 0.0f32), |(sxx, sxy), (x, y)| {
                let dx = x - mean_x;
                (sxx + dx * dx, sxy + dx * (y - mean_y))
            });
            // Feet on (nearly) one point across: no line, the mean.
            let slope = if sxx > 1e-6 { sxy / sxx } else { 0.0 };
            let tilt = (slope * across.perp_dot(up)).atan2(1.0);
            BodyLean { raise: mean_y - slope * mean_x, tilt }
        }
    };
    (lean.raise.is_finite() && lean.tilt.is_finite()).then_some(lean)
}

/// The change of a node's local rotation (radians) that turns it by `global_turn` in the global frame, for a node
/// whose parent's global basis is `parent_basis`: the same angle, negated under a reflection (a mirrored parent
/// turns its children's rotations the other way on screen). Exact for rotation, uniform scale and reflection; under
/// a non-uniform scale or skew, the turn's sense is kept and its size is approximate. 0 for a collapsed basis.
#[must_use]
pub fn local_turn(parent_basis: Mat2, global_turn: f32) -> f32 {
    let determinant = parent_basis.determinant();
    if !(determinant.is_finite() && determinant != 0.0 && global_turn.is_finite()) {
        return 0.0;
    }
    if determinant < 0.0 { -global_turn } else { global_turn }
}

/// How far a raise is kept inside the planted legs' reach, as a fraction of the reach: a foot held there is not at
/// the edge where it lifts.
const HELD_REACH: f32 = LIFT_REACH - 0.005;

/// `raise` (px along `up`) held where every foot stays within reach of its leg: `feet` yields each foot's point
/// with its leg's reach (the hip unraised) and whether it is planted there. A body raised higher would pull a
/// planted foot off its point; moved further toward a foot (planted or swinging), it would fold that leg onto its
/// hip, so the body stays on the side of that fold it is on at `from` (the raise now). Where no raise keeps them
/// all (they want more than one body can give), or a reach is not usable, `raise` is kept.
#[must_use]
pub fn raise_within_reach(raise: f32, from: f32, feet: impl Iterator<Item = (Vec2, LegReach, bool)>, up: Vec2) -> f32 {
    let (mut low, mut high) = (f32::NEG_INFINITY, f32::INFINITY);
    for (foot, reach, planted) in feet.filter(|(_, reach, _)| reach.usable()) {
        let offset = foot - reach.hip;
        let height = offset.dot(up);
        // The raises r at which |foot - (hip + up r)| = d are h ± sqrt(h² - |offset|² + d²).
        let at = |d: f32| {
            let room = height * height - offset.length_squared() + d * d;
            (room.is_finite() && room >= 0.0).then(|| room.sqrt())
        };
        if let Some(s) = at(HELD_REACH * reach.longest).filter(|_| planted) {
            low = low.max(height - s);
            high = high.min(height + s);
        }
        // Not so near that the leg folds: the hip stays on the side of the fold's band it is on now (already
        // inside it, it may move only away).
        if let Some(s) = at(reach.standing_range().0) {
            if from >= height + s {
                low = low.max(height + s);
            } else if from <= height - s {
                high = high.min(height - s);
            } else if from >= height {
                low = low.max(from);
            } else {
                high = high.min(from);
            }
        }
    }
    if low <= high && raise.is_finite() { raise.clamp(low, high) } else { raise }
}
