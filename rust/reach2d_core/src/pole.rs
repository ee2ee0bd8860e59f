//! Pole targets: which side a limb bends to, and the start pose that pulls a chain's interior joints toward a pole.
//!
//! Everything here is plain vector geometry on global points (no fixed axis, no fixed orientation), so it commutes
//! with any reflection: a pole that mirrors with the character gives the mirror image of the result.

use glam::Vec2;

use crate::geom::{respace, unit_or};

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
/// FABRIK: the chain is laid from its root straight toward the pole and, past it, from the pole toward `target`,
/// keeping every bone length exactly. A solve that starts there keeps its interior joints on the pole's side; it
/// still reaches the target exactly as well as from any other start.
///
/// `joints` are the chain's `N + 1` joints (bone origins, then the tip) and `lengths` its `N` bone lengths, in the
/// caller's units (global pixels in Godot); the root `joints[0]` never moves. A pole farther than the chain's
/// length lays the whole chain toward it. When the target coincides with the pole, the part past the pole keeps
/// the root-to-pole direction.
///
/// Returns `false` and leaves `joints` untouched when there is nothing to do or the input is unusable: the pole at
/// the root (within `1e-6` of the coordinates' magnitude), a pole, target or root that is not finite, or
/// `lengths.len() + 1 != joints.len()` (including an empty chain). Never panics; does not allocate.
///
/// ```
/// use reach2d_core::{pre_bend_toward_pole, Vec2};
/// let mut joints = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(20.0, 0.0)];
/// assert!(pre_bend_toward_pole(&mut joints, &[10.0, 10.0], Vec2::new(0.0, 10.0), Vec2::new(10.0, 10.0)));
/// // Along the pole's direction up to the pole, then on toward the target.
/// assert!(joints[1].distance(Vec2::new(0.0, 10.0)) < 1e-5);
/// assert!(joints[2].distance(Vec2::new(10.0, 10.0)) < 1e-4);
/// ```
pub fn pre_bend_toward_pole(joints: &mut [Vec2], lengths: &[f32], pole: Vec2, target: Vec2) -> bool {
    let Some(&root) = joints.first() else { return false };
    if lengths.len() + 1 != joints.len() || !(root.is_finite() && pole.is_finite() && target.is_finite()) {
        return false;
    }
    let to_pole = pole - root;
    let scale = root.abs().max_element().max(pole.abs().max_element()).max(1.0);
    let pole_distance = to_pole.length();
    if !pole_distance.is_finite() || pole_distance <= 1e-6 * scale {
        return false;
    }
    let toward_pole = to_pole / pole_distance;
    let past_pole = unit_or(target - pole, toward_pole);
    let mut along = 0.0;
    for (joint, &length) in joints[1..].iter_mut().zip(lengths) {
        along += length;
        *joint = if along <= pole_distance {
            root + toward_pole * along
        } else {
            pole + past_pole * (along - pole_distance)
        };
    }
    // The bone that turns the corner at the pole is a chord, shorter than its length: re-space root to tip.
    respace(joints, lengths, root, toward_pole);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ChainLimits, ChainSolver, FabrikSettings, solve_fabrik};

    fn mirror(p: Vec2) -> Vec2 {
        Vec2::new(-p.x, p.y)
    }

    #[test]
    fn side_of_is_the_cross_sign_and_none_on_the_line() {
        let o = Vec2::new(3.0, -2.0);
        assert_eq!(side_of(o, o + Vec2::X, o + Vec2::new(1.0, 1.0)), Some(1.0));
        assert_eq!(side_of(o, o + Vec2::X, o + Vec2::new(1.0, -1.0)), Some(-1.0));
        assert_eq!(side_of(o, o + Vec2::X, o - Vec2::X * 5.0), None, "behind, on the line");
        assert_eq!(side_of(o, o, o + Vec2::Y), None, "no direction");
        assert_eq!(side_of(o, o + Vec2::X, Vec2::NAN), None);
        assert_eq!(side_of(o, o + Vec2::X, o + Vec2::new(1.0, 1e-5)), None, "within STRAIGHT_SINE");
        assert_eq!(side_of(o, o + Vec2::X, o + Vec2::new(1.0, 1e-3)), Some(1.0), "a slight bend counts");
        // Magnitudes far apart still give the sine.
        assert_eq!(side_of(Vec2::ZERO, Vec2::new(1e-20, 0.0), Vec2::new(1e20, 1e19)), Some(1.0));
        // A reflection flips it.
        let (a, b, c) = (Vec2::new(1.0, 2.0), Vec2::new(7.0, -3.0), Vec2::new(4.0, 5.0));
        assert_eq!(side_of(a, b, c), side_of(mirror(a), mirror(b), mirror(c)).map(|s| -s));
    }

    #[test]
    fn pre_bend_keeps_the_root_and_every_length() {
        let lengths = [30.0, 0.0, 25.0, 12.5, 40.0];
        let mut joints = [Vec2::new(5.0, 5.0); 6];
        joints[0] = Vec2::new(-4.0, 9.0);
        for (pole, target) in [
            (Vec2::new(20.0, 60.0), Vec2::new(60.0, 10.0)),
            (Vec2::new(500.0, -300.0), Vec2::new(60.0, 10.0)),
            (Vec2::new(20.0, 60.0), Vec2::new(20.0, 60.0)),
        ] {
            let root = joints[0];
            assert!(pre_bend_toward_pole(&mut joints, &lengths, pole, target));
            assert_eq!(joints[0], root);
            for (w, &l) in joints.windows(2).zip(&lengths) {
                assert!((w[0].distance(w[1]) - l).abs() < 1e-4, "length {l} kept: {}", w[0].distance(w[1]));
            }
            // The first bone points at the pole.
            assert!((joints[1] - root).normalize().distance((pole - root).normalize()) < 1e-5);
        }
    }

    #[test]
    fn pre_bend_refuses_unusable_input_untouched() {
        let start = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(20.0, 0.0)];
        let target = Vec2::new(5.0, 5.0);
        for (pole, lengths) in [
            (Vec2::ZERO, &[10.0, 10.0][..]),
            (Vec2::new(1e-9, 0.0), &[10.0, 10.0][..]),
            (Vec2::NAN, &[10.0, 10.0][..]),
            (Vec2::new(f32::INFINITY, 0.0), &[10.0, 10.0][..]),
            (Vec2::new(0.0, 10.0), &[10.0][..]),
        ] {
            let mut joints = start;
            assert!(!pre_bend_toward_pole(&mut joints, lengths, pole, target), "{pole} {lengths:?}");
            assert_eq!(joints, start);
        }
        let mut joints = start;
        assert!(!pre_bend_toward_pole(&mut joints, &[10.0, 10.0], Vec2::Y, Vec2::NAN));
        assert!(!pre_bend_toward_pole(&mut [], &[], Vec2::Y, target));
    }

    /// A FABRIK solve from the pre-bent pose reaches the target as exactly as without, with every interior joint
    /// on the pole's side; the mirrored pole gives the mirror image.
    #[test]
    fn fabrik_from_the_pre_bend_follows_the_pole_and_mirrors() {
        let lengths = [40.0, 35.0, 30.0, 25.0];
        let settings = FabrikSettings { max_iterations: 64, tolerance: 0.01 };
        let target = Vec2::new(80.0, 20.0);
        for pole_side in [1.0f32, -1.0] {
            let pole = Vec2::new(50.0, 60.0 * pole_side);
            let solve = |pole: Vec2, target: Vec2| {
                let mut joints = [
                    Vec2::ZERO,
                    Vec2::new(40.0, 0.0),
                    Vec2::new(75.0, 0.0),
                    Vec2::new(105.0, 0.0),
                    Vec2::new(130.0, 0.0),
                ];
                assert!(pre_bend_toward_pole(&mut joints, &lengths, pole, target));
                let report = solve_fabrik(&mut joints, &lengths, target, &ChainLimits::NONE, &settings).unwrap();
                assert!(report.reached, "reached: {report:?}");
                joints
            };
            let joints = solve(pole, target);
            for &joint in &joints[1..4] {
                let pole_side_of_line = side_of(Vec2::ZERO, target, pole).unwrap();
                assert_eq!(side_of(Vec2::ZERO, target, joint), Some(pole_side_of_line), "{joint} on the pole's side");
            }
            let mirrored = solve(mirror(pole), mirror(target));
            for (a, b) in joints.iter().zip(&mirrored) {
                assert!(mirror(*a).distance(*b) < 1e-3, "mirror image: {a} vs {b}");
            }
        }
        // The same through the ChainSolver trait, the way the Godot layer calls it.
        let mut joints =
            [Vec2::ZERO, Vec2::new(40.0, 0.0), Vec2::new(75.0, 0.0), Vec2::new(105.0, 0.0), Vec2::new(130.0, 0.0)];
        assert!(pre_bend_toward_pole(&mut joints, &lengths, Vec2::new(0.0, -50.0), target));
        assert!(settings.solve(&mut joints, &lengths, target, &ChainLimits::NONE).unwrap().reached);
    }
}
