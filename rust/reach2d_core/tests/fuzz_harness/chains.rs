//! The iterative solvers on arbitrary bytes: [`fabrik`] and [`ccd`].

use core::f32::consts::PI;

use reach2d_core::{
    AngleLimit, CcdSettings, ChainLimits, FabrikSettings, SolveError, SolveReport, Vec2, solve_ccd, solve_fabrik,
};

use super::common::{assert_lengths, assert_limits_of_any_input, pos_eps, pose};
use super::input::{Bytes, check_report, coord_ok, debug, direction_ok, length_ok, same_bits, tolerance_ok};

/// A random chain, target and limits, shaped for either iterative solver.
#[derive(Debug)]
struct ChainInput {
    joints: Vec<Vec2>,
    lengths: Vec<f32>,
    target: Vec2,
    per_bone: Vec<Option<AngleLimit>>,
    root_direction: Vec2,
}

impl ChainInput {
    fn decode(b: &mut Bytes) -> Self {
        let n = usize::from(b.u8() % 65); // 0 bones: an empty chain
        let root = b.vec(-1000.0, 1000.0);
        let mut lengths: Vec<f32> = (0..n).map(|_| if b.u8() < 25 { 0.0 } else { b.float(0.0, 100.0) }).collect();
        let angles: Vec<f32> = (0..n).map(|_| b.float(-PI, PI)).collect();
        let mut joints = pose(root, &lengths, &angles);
        if b.u8() < 64 {
            // Joints not spaced by the lengths (FABRIK re-spaces them; CCD keeps the given spacing).
            for j in joints.iter_mut().skip(1) {
                *j += b.vec(-20.0, 20.0);
            }
        }
        let target = match b.u8() % 5 {
            0 => {
                let other: Vec<f32> = (0..n).map(|_| b.float(-PI, PI)).collect();
                *pose(root, &lengths, &other).last().unwrap_or(&root)
            }
            1 => root,
            2 => *joints.last().unwrap_or(&root),
            3 => b.vec(-1.0e6, 1.0e6),
            _ => b.vec(-3000.0, 3000.0),
        };
        let mut per_bone: Vec<Option<AngleLimit>> = Vec::new();
        if b.flag() {
            per_bone = (0..n).map(|_| b.limit()).collect();
            if b.u8() < 8 {
                per_bone.pop(); // a count that does not match
            }
        }
        if b.u8() < 8 {
            lengths.push(1.0); // a joints/lengths mismatch
        }
        let root_direction = b.vec(-1.0, 1.0);
        Self { joints, lengths, target, per_bone, root_direction }
    }

    fn limits(&self) -> ChainLimits<'_> {
        ChainLimits { root_direction: self.root_direction, per_bone: &self.per_bone }
    }

    /// The solvers' validity rule for limits, restated.
    fn limits_ok(&self, bones: usize) -> bool {
        if self.per_bone.is_empty() {
            return true;
        }
        self.per_bone.len() == bones
            && self.per_bone.iter().all(|l| l.is_none_or(AngleLimit::is_valid))
            && (!self.limits().is_active() || direction_ok(self.root_direction))
    }

    /// What either solver must do with this input: refuse it exactly when it is not `valid`, leaving the joints
    /// untouched, or solve it to finite `joints` with the root in place. For a solve, its report and the position
    /// tolerance (`pos_eps`) of the input and output; `None` for a refusal.
    fn refused_or_sane(
        &self,
        solved: Result<SolveReport, SolveError>,
        valid: bool,
        joints: &[Vec2],
    ) -> Option<(SolveReport, f32)> {
        match solved {
            Err(e) => {
                assert!(!valid, "valid input refused: {e}");
                assert!(same_bits(joints, &self.joints), "the joints changed on error {e:?}");
                None
            }
            Ok(report) => {
                assert!(valid, "invalid input accepted");
                assert!(joints.iter().all(|p| p.is_finite()), "non-finite output: {joints:?}");
                assert_eq!(joints[0], self.joints[0], "the root moved");
                Some((report, pos_eps(joints, self.target).max(pos_eps(&self.joints, self.target))))
            }
        }
    }
}

/// `solve_fabrik` on arbitrary bytes.
pub fn fabrik(data: &[u8]) -> bool {
    let mut b = Bytes::new(data);
    let input = ChainInput::decode(&mut b);
    let settings = FabrikSettings { max_iterations: u32::from(b.u8() % 128), tolerance: b.float(0.0, 2.0) };
    debug(&(&input, &settings));
    let n = input.lengths.len();
    let valid = !(input.joints.len() < 2 && n == 0)
        && input.joints.len() == n + 1
        && input.limits_ok(n)
        && coord_ok(input.target)
        && input.joints.iter().all(|&j| coord_ok(j))
        && input.lengths.iter().all(|&l| length_ok(l))
        && tolerance_ok(settings.tolerance);
    let mut joints = input.joints.clone();
    let limits = input.limits();
    let solved = solve_fabrik(&mut joints, &input.lengths, input.target, &limits, &settings);
    let Some((report, eps)) = input.refused_or_sane(solved, valid, &joints) else { return false };
    assert_lengths(&joints, &input.lengths, 1e-4, eps);
    assert_limits_of_any_input(&joints, &input.lengths, &limits, eps);
    check_report(report.distance, report.reached, settings.tolerance, joints[n].distance(input.target), eps);
    assert!(report.iterations <= settings.max_iterations.max(1), "{} iterations", report.iterations);
    true
}

/// `solve_ccd` on arbitrary bytes. CCD keeps the incoming segment lengths.
pub fn ccd(data: &[u8]) -> bool {
    let mut b = Bytes::new(data);
    let input = ChainInput::decode(&mut b);
    let settings = CcdSettings {
        max_iterations: u32::from(b.u8() % 128),
        tolerance: b.float(0.0, 2.0),
        max_angle_step: if b.flag() { f32::INFINITY } else { b.float(-0.1, 4.0) },
    };
    debug(&(&input, &settings));
    let n = input.joints.len().saturating_sub(1);
    let valid = input.joints.len() >= 2
        && input.limits_ok(n)
        && coord_ok(input.target)
        && input.joints.iter().all(|&j| coord_ok(j))
        && tolerance_ok(settings.tolerance)
        && settings.max_angle_step > 0.0;
    let segments: Vec<f32> = input.joints.windows(2).map(|w| w[0].distance(w[1])).collect();
    let mut joints = input.joints.clone();
    let limits = input.limits();
    let solved = solve_ccd(&mut joints, input.target, &limits, &settings);
    let Some((report, eps)) = input.refused_or_sane(solved, valid, &joints) else { return false };
    assert_lengths(&joints, &segments, 1e-4, 64.0 * eps);
    assert_limits_of_any_input(&joints, &segments, &limits, 64.0 * eps);
    check_report(report.distance, report.reached, settings.tolerance, joints[n].distance(input.target), eps);
    assert!(report.iterations <= settings.max_iterations, "{} iterations", report.iterations);
    true
}
