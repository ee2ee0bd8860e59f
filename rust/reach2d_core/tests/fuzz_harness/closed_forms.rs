//! The closed-form solvers on arbitrary bytes: [`two_bone`] and [`look_at`].

use core::f32::consts::PI;

use reach2d_core::{signed_angle, solve_look_at, solve_two_bone};

use super::common::pos_eps;
use super::input::{Bytes, check_report, coord_ok, debug, direction_ok, length_ok, tolerance_ok};

/// `solve_two_bone` on arbitrary bytes.
pub fn two_bone(data: &[u8]) -> bool {
    let mut b = Bytes::new(data);
    let root = b.vec(-1000.0, 1000.0);
    let upper = b.float(0.0, 200.0);
    let lower = b.float(0.0, 200.0);
    let target = if b.flag() { root + b.vec(-500.0, 500.0) } else { b.vec(-1.0e6, 1.0e6) };
    let bend = b.float(-1.0, 1.0);
    let tolerance = b.float(0.0, 2.0);
    debug(&(root, upper, lower, target, bend, tolerance));
    let valid = coord_ok(root) && coord_ok(target) && length_ok(upper) && length_ok(lower) && tolerance_ok(tolerance);
    match solve_two_bone(root, upper, lower, target, bend, tolerance) {
        Err(e) => {
            assert!(!valid, "valid input refused: {e}");
            false
        }
        Ok(s) => {
            assert!(valid, "invalid input accepted");
            assert!(s.joint.is_finite() && s.tip.is_finite(), "non-finite output {s:?}");
            let eps = pos_eps(&[root, s.joint, s.tip], target);
            assert!((root.distance(s.joint) - upper).abs() <= 1e-4 * upper + eps, "upper length kept: {s:?}");
            assert!((s.joint.distance(s.tip) - lower).abs() <= 1e-4 * lower + eps, "lower length kept: {s:?}");
            check_report(s.report.distance, s.report.reached, tolerance, s.tip.distance(target), eps);
            true
        }
    }
}

/// `solve_look_at` on arbitrary bytes.
pub fn look_at(data: &[u8]) -> bool {
    let mut b = Bytes::new(data);
    let origin = b.vec(-1000.0, 1000.0);
    let current = b.vec(-1.0, 1.0);
    let target = if b.flag() { origin + b.vec(-500.0, 500.0) } else { b.vec(-1.0e6, 1.0e6) };
    let offset = b.float(-PI, PI);
    let limit = b.limit().map(|l| (l, b.vec(-1.0, 1.0)));
    let limit_ok = limit.is_none_or(|(l, r)| l.is_valid() && direction_ok(r));
    debug(&(origin, current, target, offset, limit));
    let valid = coord_ok(origin) && coord_ok(target) && offset.is_finite() && current.is_finite() && limit_ok;
    match solve_look_at(origin, current, target, offset, limit) {
        Err(e) => {
            assert!(!valid, "valid input refused: {e}");
            false
        }
        Ok(s) => {
            assert!(valid, "invalid input accepted");
            assert!(s.direction.is_finite() && (s.direction.length() - 1.0).abs() < 1e-3, "direction {s:?}");
            assert!(s.remaining_angle.is_finite() && (0.0..=PI + 1e-4).contains(&s.remaining_angle), "{s:?}");
            if let Some((l, reference)) = limit {
                let a = signed_angle(reference, s.direction);
                assert!(l.contains(a, 1e-4), "direction angle {a} outside {l:?}");
            }
            true
        }
    }
}
