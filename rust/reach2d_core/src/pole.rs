//! Pole targets: which side a limb bends to, and the start pose that bends a chain's interior joints to a pole's side.
//!
//! Everything here is plain vector geometry on global points (no fixed axis, no fixed orientation), so it commutes
//! with any reflection: a pole that mirrors with the character gives the mirror image of the result.

use glam::Vec2;

use crate::geom::unit_or;
use crate::two_bone::solve_two_bone;

/// `|sin|` of the angle at or below which [`side_of`] calls a point on the line (about 0.006 degrees).
pub const STRAIGHT_SINE: f32 = 1e-4;

/// Which side of the line from `origin` through `toward` the `point` lies on: `Some(1.0)` where
/// `cross(toward - origin, point - origin) > 0`, `Some(-1.0)` on the other side.
///
/// `None` when there is no side: the point is on the line (the sine of the angle between the two
/// directions is at most [`STRAIGHT_SINE`]), either direction is zero, or an input is not finite.
/// The sign is the one [`solve_two_bone`](crate::solve_two_bone) takes as `bend_sign`, so for a
/// limb `side_of(root, tip, joint)` is the bend of a pose and `side_of(root, target, pole)` the
/// bend a pole asks for. A reflection of all three points flips the answer. Never panics.
///
/// ```
/// use reach2d_core::{side_of, Vec2};
/// let root = Vec2::ZERO;
/// assert_eq!(side_of(root, Vec2::new(10.0, 0.0), Vec2::new(5.0, 3.0)), Some(1.0));
/// assert_eq!(side_of(root, Vec2::new(10.0, 0.0), Vec2::new(5.0, -3.0)), Some(-1.0));
/// assert_eq!(side_of(root, Vec2::new(10.0, 0.0), Vec2::new(20.0, 0.0)), None); // on the line
/// ```
#[must_use]
pub fn side_of(origin: Vec2, toward: Vec2, point: Vec2) -> Option<f32> {
    let (a, b) = (toward - origin, point - origin);
    // Scaled to unit length first, so the test is the sine whatever the magnitudes (1e-20 or 1e20).
    let (a, b) = (unit_or(a / a.abs().max_element(), Vec2::ZERO), unit_or(b / b.abs().max_element(), Vec2::ZERO));
    let sine = a.perp_dot(b);
    if !sine.is_finite() || sine.abs() <= STRAIGHT_SINE {
        return None;
    }
    Some(sine.signum())
}

/// Pre-bends a chain toward `pole` before an iterative solve (FABRIK or CCD), like the magnet of Godot's built-in
/// FABRIK: the chain is laid out as a two-bone limb that reaches `target`, bent to the pole's side of the line from
/// the root to the target. Its first half (the first `(N + 1) / 2` bones) lies straight from the root to the middle
/// joint, the rest straight from there toward the target, and every bone keeps its length exactly. A solve that
/// starts there has its interior joints on the pole's side and little left to do; it still reaches the target
/// exactly as well as from any other start. Only the pole's side matters, not its distance, so a far pole bends
/// the chain the same way as a near one.
///
/// `joints` are the chain's `N + 1` joints (bone origins, then the tip) and `lengths` its `N` bone lengths, in the
/// caller's units (global pixels in Godot); the root `joints[0]` never moves. A target out of reach gives the
/// straight chain toward it (as the solve would); one too close folds the limb as far as it goes (see
/// [`solve_two_bone`]).
///
/// Returns `false` and leaves `joints` untouched when there is nothing to bend or the input is unusable: a single
/// bone, a pole on the root-to-target line (see [`side_of`]), a non-finite root, pole or target, a negative or
/// non-finite length, or `lengths.len() + 1 != joints.len()`. Never panics; does not allocate.
///
/// ```
/// use reach2d_core::{pre_bend_toward_pole, side_of, Vec2};
/// let mut joints = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(20.0, 0.0), Vec2::new(30.0, 0.0)];
/// let (pole, target) = (Vec2::new(10.0, 20.0), Vec2::new(20.0, 0.0));
/// assert!(pre_bend_toward_pole(&mut joints, &[10.0, 10.0, 10.0], pole, target));
/// assert!(joints[3].distance(target) < 1e-4); // it already reaches
/// for joint in &joints[1..3] {
///     assert_eq!(side_of(joints[0], target, *joint), Some(1.0)); // the pole's side
/// }
/// ```
pub fn pre_bend_toward_pole(joints: &mut [Vec2], lengths: &[f32], pole: Vec2, target: Vec2) -> bool {
    let Some(&root) = joints.first() else { return false };
    if lengths.len() < 2 || lengths.len() + 1 != joints.len() {
        return false;
    }
    let Some(bend) = side_of(root, target, pole) else { return false };
    let split = lengths.len().div_ceil(2);
    let (upper, lower): (f32, f32) = (lengths[..split].iter().sum(), lengths[split..].iter().sum());
    let Ok(limb) = solve_two_bone(root, upper, lower, target, bend, 0.0) else { return false };
    let first = unit_or(limb.joint - root, unit_or(target - root, Vec2::X));
    let second = unit_or(limb.tip - limb.joint, first);
    let mut along = 0.0;
    for (i, (joint, &length)) in joints[1..].iter_mut().zip(lengths).enumerate() {
        along += length;
        *joint = if i < split { root + first * along } else { limb.joint + second * (along - upper) };
    }
    true
}

#[cfg(test)]
mod tests;
