//! The one home of the core's test helpers: a seeded random generator, random chains, and the approximate-equality,
//! length and limit assertions.
//!
//! Shared by the unit tests in `src/` (lib.rs includes this file as `crate::common` under `cfg(test)`, with the crate
//! also visible as `reach2d_core`), the integration tests (`mod common;`) and the fuzz harness
//! (`tests/fuzz_harness`, which the fuzz targets and `tests/fuzz_replay.rs` include).
#![allow(dead_code, unused_imports, unused_macros)]

use core::f32::consts::PI;

use reach2d_core::{AngleLimit, ChainLimits, Vec2, signed_angle};

/// SplitMix64: tiny, seeded, reproducible.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// `-1.0` or `1.0`, evenly.
    pub fn sign(&mut self) -> f32 {
        if self.unit() < 0.5 { -1.0 } else { 1.0 }
    }
}

/// Approximate equality: `assert_approx_eq!(a, b)` (within `1e-5`) or `assert_approx_eq!(a, b, eps)`, for `f32`
/// (absolute difference) and `Vec2` (per component).
macro_rules! assert_approx_eq {
    ($a:expr, $b:expr) => {
        assert_approx_eq!($a, $b, 1e-5)
    };
    ($a:expr, $b:expr, $eps:expr) => {{
        let (a, b, eps) = ($a, $b, $eps);
        assert!(
            $crate::common::ApproxEq::approx_eq(&a, &b, eps),
            "assertion failed: `(left ≈ right)`\n  left: `{:?}`\n right: `{:?}`\n   eps: `{:?}`",
            a,
            b,
            eps
        );
    }};
}
pub(crate) use assert_approx_eq;

/// What [`assert_approx_eq`] compares.
pub trait ApproxEq {
    fn approx_eq(&self, other: &Self, eps: f32) -> bool;
}
impl ApproxEq for f32 {
    fn approx_eq(&self, other: &Self, eps: f32) -> bool {
        (self - other).abs() <= eps
    }
}
impl ApproxEq for Vec2 {
    fn approx_eq(&self, other: &Self, eps: f32) -> bool {
        self.abs_diff_eq(*other, eps)
    }
}

/// A straight chain of `n` bones `len` long along +x from the origin: its joints and lengths.
pub fn straight(n: usize, len: f32) -> (Vec<Vec2>, Vec<f32>) {
    let joints = (0..=n).map(|i| Vec2::new(i as f32 * len, 0.0)).collect();
    (joints, vec![len; n])
}

/// Joint positions of a chain posed with absolute bone angles `angles` from `root`.
pub fn pose(root: Vec2, lengths: &[f32], angles: &[f32]) -> Vec<Vec2> {
    let mut joints = vec![root];
    let mut p = root;
    for (&l, &a) in lengths.iter().zip(angles) {
        p += Vec2::from_angle(a) * l;
        joints.push(p);
    }
    joints
}

/// A random chain as in the crate docs: N in 1..=64, lengths in 0..100 with 10% zeros, random
/// pose, and a reachable target (the tip of another random pose of the same chain).
pub struct Case {
    pub joints: Vec<Vec2>,
    pub lengths: Vec<f32>,
    pub target: Vec2,
}

pub fn random_case(rng: &mut Rng) -> Case {
    let n = 1 + rng.below(64);
    let lengths: Vec<f32> = (0..n).map(|_| if rng.unit() < 0.1 { 0.0 } else { rng.range(0.0, 100.0) }).collect();
    let root = Vec2::new(rng.range(-500.0, 500.0), rng.range(-500.0, 500.0));
    let a: Vec<f32> = (0..n).map(|_| rng.range(-PI, PI)).collect();
    let b: Vec<f32> = (0..n).map(|_| rng.range(-PI, PI)).collect();
    let joints = pose(root, &lengths, &a);
    let target = *pose(root, &lengths, &b).last().unwrap();
    Case { joints, lengths, target }
}

/// Rounding allowance for positions of magnitude `scale`.
pub fn pos_eps(joints: &[Vec2], target: Vec2) -> f32 {
    let scale = joints.iter().fold(target.abs().max_element(), |m, p| m.max(p.abs().max_element()));
    8.0 * f32::EPSILON * scale.max(1.0)
}

pub fn assert_finite(joints: &[Vec2]) {
    assert!(joints.iter().all(|p| p.is_finite()), "non-finite output: {joints:?}");
}

/// Checks each segment's length against `lengths`, to `rel * length + abs`.
pub fn assert_lengths(joints: &[Vec2], lengths: &[f32], rel: f32, abs: f32) {
    for (i, (w, &l)) in joints.windows(2).zip(lengths).enumerate() {
        let d = w[0].distance(w[1]);
        assert!((d - l).abs() <= rel * l + abs, "bone {i}: length {d}, expected {l} (abs eps {abs})");
    }
}

/// Checks each limited bone's angle relative to its parent (last non-zero segment, else the
/// root direction) to `1e-5` rad plus the angular size of the positions' rounding `eps_pos` (0: exact positions).
pub fn assert_limits(joints: &[Vec2], limits: &ChainLimits, eps_pos: f32) {
    if limits.per_bone.is_empty() {
        return;
    }
    let mut parent = limits.root_direction.normalize();
    let mut parent_len = f32::INFINITY;
    for (i, w) in joints.windows(2).enumerate() {
        let s = w[1] - w[0];
        let len = s.length();
        if len == 0.0 {
            continue;
        }
        if let Some(l) = limits.per_bone[i] {
            let a = signed_angle(parent, s);
            let eps = 1e-5 + 2.0 * eps_pos / len + 2.0 * eps_pos / parent_len;
            assert!(l.contains(a, eps), "bone {i}: angle {a} outside {l:?} (eps {eps})");
        }
        parent = s / len;
        parent_len = len;
    }
}

/// [`assert_limits`] for any input the fuzzers make (`eps_pos`: the positions' rounding): a bone given zero length
/// is skipped as a parent, and a segment shorter than the rounding leaves the next bone's reference unknown (its
/// direction is noise); angles to `1e-4` rad plus the rounding's angular size.
pub fn assert_limits_of_any_input(joints: &[Vec2], lengths: &[f32], limits: &ChainLimits, eps_pos: f32) {
    if !limits.is_active() {
        return;
    }
    let largest = limits.root_direction.abs().max_element();
    let mut parent = (limits.root_direction / largest).normalize();
    let mut parent_len = f32::INFINITY;
    let mut reference_known = true;
    for (i, w) in joints.windows(2).enumerate() {
        let s = w[1] - w[0];
        let len = s.length();
        if s == Vec2::ZERO && lengths.get(i) == Some(&0.0) {
            continue; // a zero-length bone: the solvers skip it as a parent
        }
        if s.length_squared() <= f32::MIN_POSITIVE || len <= 64.0 * eps_pos {
            // Shorter than the positions' rounding (e.g. 1e-16 at 1000, or 25 at 1e15, rounded to zero): its
            // direction is noise, so the next bone's reference is unknown. The precision floor of f32, not a
            // solver rule.
            reference_known = false;
            continue;
        }
        if let Some(l) = limits.per_bone[i].filter(|_| reference_known) {
            let a = signed_angle(parent, s);
            let eps = 1e-4 + 2.0 * eps_pos / len + 2.0 * eps_pos / parent_len;
            assert!(l.contains(a, eps), "bone {i}: angle {a} outside {l:?} (eps {eps}); joints {joints:?}");
        }
        parent = s / len;
        parent_len = len;
        reference_known = true;
    }
}

/// Random per-bone limits (about half the bones limited).
pub fn random_limits(rng: &mut Rng, n: usize) -> Vec<Option<AngleLimit>> {
    (0..n)
        .map(|_| {
            (rng.unit() < 0.5).then(|| {
                let min = rng.range(-PI, PI);
                AngleLimit::new(min, min + rng.range(0.0, 2.0 * PI)).unwrap()
            })
        })
        .collect()
}

/// Joint positions of a chain posed with *relative* bone angles `rel` from `root`: bone `i`'s
/// angle is measured from the last non-zero segment before it, else from `root_angle` (the
/// solvers' limit convention).
pub fn pose_relative(root: Vec2, root_angle: f32, lengths: &[f32], rel: &[f32]) -> Vec<Vec2> {
    let mut joints = vec![root];
    let mut p = root;
    let mut parent = root_angle;
    for (&l, &a) in lengths.iter().zip(rel) {
        let abs = parent + a;
        p += Vec2::from_angle(abs) * l;
        joints.push(p);
        if l > 0.0 {
            parent = abs;
        }
    }
    joints
}

/// Relative angles uniform inside each bone's limit (free bones: uniform in `[-PI, PI)`).
pub fn random_in_limits(rng: &mut Rng, limits: &[Option<AngleLimit>]) -> Vec<f32> {
    limits
        .iter()
        .map(|l| match l {
            Some(l) => rng.range(l.min, l.max),
            None => rng.range(-PI, PI),
        })
        .collect()
}

/// A limited chain for the limited reach-rate test: N in 2..=16, lengths in 5..60 with 10%
/// zeros, ~90% of the bones limited to an arc of width 0.3..2.5 rad with a random middle.
pub struct LimitedChain {
    pub root: Vec2,
    pub root_direction: Vec2,
    pub lengths: Vec<f32>,
    pub per_bone: Vec<Option<AngleLimit>>,
}

impl LimitedChain {
    pub fn random(rng: &mut Rng) -> Self {
        let n = 2 + rng.below(15);
        let lengths = (0..n).map(|_| if rng.unit() < 0.1 { 0.0 } else { rng.range(5.0, 60.0) }).collect();
        let per_bone = (0..n)
            .map(|_| {
                (rng.unit() < 0.9).then(|| {
                    let width = rng.range(0.3, 2.5);
                    let min = rng.range(-PI, PI) - 0.5 * width;
                    AngleLimit::new(min, min + width).unwrap()
                })
            })
            .collect();
        let root = Vec2::new(rng.range(-200.0, 200.0), rng.range(-200.0, 200.0));
        let root_direction = Vec2::from_angle(rng.range(-PI, PI));
        Self { root, root_direction, lengths, per_bone }
    }

    /// The probe chain of the limits work: 4 bones along +X.
    pub fn probe() -> Self {
        let per_bone = [(-0.5, 0.8), (0.0, 1.2), (-1.0, 0.0), (-0.3, 0.3)];
        Self {
            root: Vec2::ZERO,
            root_direction: Vec2::X,
            lengths: vec![40.0, 35.0, 30.0, 25.0],
            per_bone: per_bone.iter().map(|&(a, b)| AngleLimit::new(a, b)).collect(),
        }
    }

    pub fn limits(&self) -> ChainLimits<'_> {
        ChainLimits { root_direction: self.root_direction, per_bone: &self.per_bone }
    }

    /// Joints of a random pose inside the limits.
    pub fn random_pose(&self, rng: &mut Rng) -> Vec<Vec2> {
        let rel = random_in_limits(rng, &self.per_bone);
        pose_relative(self.root, self.root_direction.to_angle(), &self.lengths, &rel)
    }

    /// The straight pose along the root direction (may violate the limits).
    pub fn straight(&self) -> Vec<Vec2> {
        pose_relative(self.root, self.root_direction.to_angle(), &self.lengths, &vec![0.0; self.lengths.len()])
    }
}

/// The two-armed creature the rig tests share: the parent of each of its 7 bones (a three-bone spine whose chest,
/// bone 2, carries both shoulders at different points; two two-bone arms), its tips (4, the left hand's bone; 6,
/// the right's) and its start points (the 7 bone origins, then the two hands' ends).
pub const TWO_ARMS_PARENTS: [usize; 7] = [0, 0, 1, 2, 3, 2, 5];
pub const TWO_ARMS_TIPS: [usize; 2] = [4, 6];
pub const TWO_ARMS_POINTS: [Vec2; 9] = [
    Vec2::new(0.0, 0.0),
    Vec2::new(0.0, 20.0),
    Vec2::new(0.0, 40.0),
    Vec2::new(-10.0, 50.0),
    Vec2::new(-25.0, 50.0),
    Vec2::new(10.0, 50.0),
    Vec2::new(25.0, 50.0),
    Vec2::new(-40.0, 50.0),
    Vec2::new(40.0, 50.0),
];
