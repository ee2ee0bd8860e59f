//! The core fuzz targets' bodies, shared by the `cargo fuzz` binaries in `rust/reach2d_core/fuzz/` and by
//! `tests/fuzz_replay.rs`, which replays the committed corpus (and seeded random inputs) as an ordinary test.
//!
//! Each function decodes arbitrary bytes into one solver call, then panics if an invariant breaks
//! (it returns whether the call accepted the input, so the replay can check the inputs are not all rejects):
//! no panic inside the solver, `Ok` exactly when the input is valid, outputs finite, inputs unchanged on
//! error, limits held, bone lengths kept. Floats are drawn mostly from a plausible range and, one time in
//! sixteen, from a table of hostile values (NaN, ±INF, ±1e30, ±`MAX_COORDINATE`, subnormals, raw bits).
#![allow(dead_code)]

use core::f32::consts::{PI, TAU};

// The one home of the test helpers (RNG, asserts), shared with the unit and property tests.
#[path = "../common/mod.rs"]
pub mod common;

use common::{assert_lengths, assert_limits_of_any_input, pos_eps, pose};

use reach2d_core::write_back::{BonePose, ChainPose};
use reach2d_core::{
    AngleLimit, CcdSettings, ChainLimits, FabrikSettings, MAX_COORDINATE, Vec2, signed_angle, solve_ccd, solve_fabrik,
    solve_look_at, solve_two_bone,
};

/// Reads fuzz bytes as numbers; past the end every read is zero, so any input decodes.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    pub fn flag(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// Uniform in `[lo, hi]` most of the time; sometimes a hostile value.
    pub fn float(&mut self, lo: f32, hi: f32) -> f32 {
        let tag = self.u8();
        if tag < 240 {
            return lo + (hi - lo) * (f32::from(self.u16()) / f32::from(u16::MAX));
        }
        match tag - 240 {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => f32::NEG_INFINITY,
            3 => 1.0e30,
            4 => -1.0e30,
            5 => MAX_COORDINATE,
            6 => -MAX_COORDINATE,
            7 => f32::MIN_POSITIVE / 4.0,
            8 => -0.0,
            9 => 0.0,
            10 => f32::EPSILON,
            11 => f32::MAX,
            12 => 1.0e7,
            13 => -1.0e7,
            _ => f32::from_bits(self.u32()),
        }
    }

    pub fn vec(&mut self, lo: f32, hi: f32) -> Vec2 {
        Vec2::new(self.float(lo, hi), self.float(lo, hi))
    }

    /// A limit from raw fields (may be invalid: `min > max`, wider than a turn, non-finite).
    pub fn limit(&mut self) -> Option<AngleLimit> {
        if self.u8() < 100 {
            return None;
        }
        let min = self.float(-PI, PI);
        let width = self.float(-0.2, TAU + 0.2);
        Some(AngleLimit { min, max: min + width })
    }
}

/// Prints a decoded input when `REACH2D_FUZZ_DEBUG` is set (to read a crash reproducer).
fn debug(input: &dyn core::fmt::Debug) {
    if std::env::var_os("REACH2D_FUZZ_DEBUG").is_some() {
        eprintln!("input: {input:#?}");
    }
}

/// Finite and within `MAX_COORDINATE` (the solvers' rule, restated here so a false rejection is caught).
fn coord_ok(v: Vec2) -> bool {
    v.x.abs() <= MAX_COORDINATE && v.y.abs() <= MAX_COORDINATE
}

/// Non-zero, and a squared length that neither underflows nor overflows.
fn direction_ok(d: Vec2) -> bool {
    let length_squared = d.length_squared();
    length_squared.is_finite() && length_squared > f32::MIN_POSITIVE
}

fn length_ok(l: f32) -> bool {
    (0.0..=MAX_COORDINATE).contains(&l)
}

fn tolerance_ok(t: f32) -> bool {
    t.is_finite() && t >= 0.0
}

fn same_bits(a: &[Vec2], b: &[Vec2]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| p.x.to_bits() == q.x.to_bits() && p.y.to_bits() == q.y.to_bits())
}

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
    match solve_fabrik(&mut joints, &input.lengths, input.target, &limits, &settings) {
        Err(e) => {
            assert!(!valid, "valid input refused: {e}");
            assert!(same_bits(&joints, &input.joints), "the joints changed on error {e:?}");
            false
        }
        Ok(report) => {
            assert!(valid, "invalid input accepted");
            assert!(joints.iter().all(|p| p.is_finite()), "non-finite output: {joints:?}");
            assert_eq!(joints[0], input.joints[0], "the root moved");
            let eps = pos_eps(&joints, input.target).max(pos_eps(&input.joints, input.target));
            assert_lengths(&joints, &input.lengths, 1e-4, eps);
            assert_limits_of_any_input(&joints, &input.lengths, &limits, eps);
            check_report(report.distance, report.reached, settings.tolerance, joints[n].distance(input.target), eps);
            assert!(report.iterations <= settings.max_iterations.max(1), "{} iterations", report.iterations);
            true
        }
    }
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
    match solve_ccd(&mut joints, input.target, &limits, &settings) {
        Err(e) => {
            assert!(!valid, "valid input refused: {e}");
            assert!(same_bits(&joints, &input.joints), "the joints changed on error {e:?}");
            false
        }
        Ok(report) => {
            assert!(valid, "invalid input accepted");
            assert!(joints.iter().all(|p| p.is_finite()), "non-finite output: {joints:?}");
            assert_eq!(joints[0], input.joints[0], "the root moved");
            let eps = pos_eps(&joints, input.target).max(pos_eps(&input.joints, input.target));
            assert_lengths(&joints, &segments, 1e-4, 64.0 * eps);
            assert_limits_of_any_input(&joints, &segments, &limits, 64.0 * eps);
            check_report(report.distance, report.reached, settings.tolerance, joints[n].distance(input.target), eps);
            assert!(report.iterations <= settings.max_iterations, "{} iterations", report.iterations);
            true
        }
    }
}

fn check_report(distance: f32, reached: bool, tolerance: f32, actual: f32, eps: f32) {
    assert!(distance.is_finite(), "report distance {distance}");
    assert!((distance - actual).abs() <= eps + 1e-5 * actual, "report distance {distance}, tip is {actual} away");
    assert_eq!(reached, distance <= tolerance, "reached disagrees with distance {distance} / tolerance {tolerance}");
}

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

/// `ChainPose::{joints, segment_limits, write_back}` on arbitrary bytes.
pub fn write_back(data: &[u8]) -> bool {
    let mut b = Bytes::new(data);
    let n = 1 + usize::from(b.u8() % 32);
    let similar = b.flag(); // every transform a similarity: then bones land exactly and keep their lengths
    let scale = |b: &mut Bytes| {
        if similar {
            let s = b.float(0.1, 4.0);
            Vec2::new(if b.flag() { -s } else { s }, if b.flag() { -s } else { s })
        } else {
            b.vec(-3.0, 3.0)
        }
    };
    let bones: Vec<BonePose> = (0..n)
        .map(|_| {
            let position = b.vec(-100.0, 100.0);
            let rotation = b.float(-PI, PI);
            let s = scale(&mut b);
            let skew = if similar { 0.0 } else { b.float(-1.5, 1.5) };
            BonePose::new(position, rotation, s, skew)
        })
        .collect();
    let parent_scale = scale(&mut b);
    let parent = glam::Affine2::from_scale_angle_translation(parent_scale, b.float(-PI, PI), b.vec(-1000.0, 1000.0));
    let tip_offset = b.vec(-100.0, 100.0);
    let pose = ChainPose { parent, bones: &bones, tip_offset };
    let mut current = vec![Vec2::ZERO; n + 1];
    pose.joints(&mut current);

    // The goal: the same chain with other rotations (reachable exactly), or arbitrary points.
    let from_pose = b.flag();
    let goal: Vec<Vec2> = if from_pose {
        let goal_bones: Vec<BonePose> =
            bones.iter().map(|bone| BonePose { rotation: b.float(-PI, PI), ..*bone }).collect();
        let mut goal = vec![Vec2::ZERO; n + 1];
        ChainPose { bones: &goal_bones, ..pose }.joints(&mut goal);
        goal
    } else {
        (0..=n).map(|_| b.vec(-2000.0, 2000.0)).collect()
    };
    let weight = if b.flag() { 1.0 } else { b.float(0.0, 1.0) };
    let rotation_limits: Vec<Option<AngleLimit>> =
        if b.flag() { (0..n).map(|_| b.limit()).collect() } else { Vec::new() };
    let valid_limits: Vec<Option<AngleLimit>> = rotation_limits.iter().map(|l| l.filter(|l| l.is_valid())).collect();

    debug(&(&pose, &goal, weight, &rotation_limits));
    let mut segment = vec![None; n];
    let root_direction = pose.segment_limits(&current, &valid_limits, &mut segment);
    assert!(root_direction.is_finite() || !parent.is_finite(), "root direction {root_direction}");

    let mut out = vec![0.0; n];
    let Some(effector) = pose.write_back(&goal, weight, &valid_limits, &mut out) else {
        return false;
    };
    assert!(effector.is_finite() && out.iter().all(|r| r.is_finite()), "non-finite write {effector} {out:?}");
    for (i, (r, l)) in out.iter().zip(&valid_limits).enumerate() {
        if let Some(l) = l {
            assert!(l.contains(*r, 1e-4), "bone {i}: rotation {r} outside {l:?}");
        }
    }
    // A hostile value anywhere in the pose voids the geometric checks below (but not the ones above).
    let sane = |v: Vec2| v.is_finite() && v.abs().max_element() <= 1.0e7;
    let scales_sane = bones.iter().map(|bone| bone.basis.x_axis).chain([parent.matrix2.x_axis]).all(|axis| {
        let s = axis.length();
        (0.1..=10.0).contains(&s)
    });
    if !(similar && scales_sane && current.iter().chain(&goal).all(|&p| sane(p))) {
        return true;
    }
    // Under similarities the written pose keeps every bone's length ...
    let written: Vec<BonePose> = bones.iter().zip(&out).map(|(bone, &r)| BonePose { rotation: r, ..*bone }).collect();
    let mut after = vec![Vec2::ZERO; n + 1];
    ChainPose { bones: &written, ..pose }.joints(&mut after);
    let eps = 1e-3 * (1.0 + current.iter().chain(&after).fold(0.0f32, |m, p| m.max(p.abs().max_element())));
    for i in 0..n {
        let (a, c) = (current[i].distance(current[i + 1]), after[i].distance(after[i + 1]));
        assert!((a - c).abs() <= eps, "bone {i}: length {a} became {c}");
    }
    // ... and at full weight, without limits, lands on a goal that is a pose of the same chain.
    if from_pose && weight == 1.0 && rotation_limits.is_empty() {
        assert!(after[n].distance(goal[n]) <= 64.0 * eps, "effector {} vs goal {}", after[n], goal[n]);
        assert!(effector.distance(after[n]) <= eps, "returned effector {effector} vs written {}", after[n]);
    }
    true
}
