//! Property tests over random chains (proptest): N in 1..=64, lengths 0..100 with zeros, random
//! poses, targets reachable, unreachable, at the root and far away, with and without limits.

mod common;

use core::f32::consts::PI;

use common::*;
use proptest::prelude::*;
use reach2d_core::{AngleLimit, CcdSettings, ChainLimits, ChainSolver, FabrikSettings, Vec2, solve_ccd, solve_fabrik};

#[derive(Clone, Debug)]
enum TargetKind {
    /// Tip of another pose of the same chain.
    Reachable(Vec<f32>),
    /// Beyond the total length, in a random direction.
    Unreachable(f32, f32),
    AtRoot,
    AtTip,
    /// Coordinates around 1e6.
    FarAway(f32, f32),
}

#[derive(Clone, Debug)]
struct Input {
    root: Vec2,
    lengths: Vec<f32>,
    angles: Vec<f32>,
    target: TargetKind,
    limits: Option<Vec<Option<AngleLimit>>>,
    root_direction: Vec2,
}

fn length() -> impl Strategy<Value = f32> {
    prop_oneof![1 => Just(0.0f32), 8 => 0.0f32..100.0]
}

fn limit() -> impl Strategy<Value = Option<AngleLimit>> {
    prop_oneof![
        1 => Just(None),
        1 => (-PI..PI, 0.0f32..(2.0 * PI)).prop_map(|(min, w)| AngleLimit::new(min, min + w)),
    ]
}

fn input() -> impl Strategy<Value = Input> {
    (1usize..=64).prop_flat_map(|n| {
        let target = prop_oneof![
            4 => prop::collection::vec(-PI..PI, n).prop_map(TargetKind::Reachable),
            2 => (-PI..PI, 0.0f32..1000.0).prop_map(|(a, d)| TargetKind::Unreachable(a, d)),
            1 => Just(TargetKind::AtRoot),
            1 => Just(TargetKind::AtTip),
            1 => (-1e6f32..1e6, -1e6f32..1e6).prop_map(|(x, y)| TargetKind::FarAway(x, y)),
        ];
        (
            (-500.0f32..500.0, -500.0f32..500.0).prop_map(|(x, y)| Vec2::new(x, y)),
            prop::collection::vec(length(), n),
            prop::collection::vec(-PI..PI, n),
            target,
            prop::option::of(prop::collection::vec(limit(), n)),
            (-PI..PI).prop_map(Vec2::from_angle),
        )
            .prop_map(|(root, lengths, angles, target, limits, root_direction)| Input {
                root,
                lengths,
                angles,
                target,
                limits,
                root_direction,
            })
    })
}

impl Input {
    fn build(&self) -> (Vec<Vec2>, Vec2) {
        let joints = pose(self.root, &self.lengths, &self.angles);
        let total: f32 = self.lengths.iter().sum();
        let target = match &self.target {
            TargetKind::Reachable(b) => *pose(self.root, &self.lengths, b).last().unwrap(),
            TargetKind::Unreachable(a, d) => self.root + Vec2::from_angle(*a) * (total + 1.0 + d),
            TargetKind::AtRoot => self.root,
            TargetKind::AtTip => *joints.last().unwrap(),
            TargetKind::FarAway(x, y) => Vec2::new(*x, *y),
        };
        (joints, target)
    }
    fn limits(&self) -> ChainLimits<'_> {
        match &self.limits {
            Some(per_bone) => ChainLimits { root_direction: self.root_direction, per_bone },
            None => ChainLimits::NONE,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn fabrik_invariants(input in input(), tolerance in 0.0f32..2.0, iters in 0u32..64) {
        let (mut joints, target) = input.build();
        let limits = input.limits();
        let settings = FabrikSettings { max_iterations: iters, tolerance };
        let report = solve_fabrik(&mut joints, &input.lengths, target, &limits, &settings).unwrap();
        assert_finite(&joints);
        prop_assert_eq!(joints[0], input.root);
        let eps = pos_eps(&joints, target);
        assert_lengths(&joints, &input.lengths, 1e-4, eps);
        assert_limits(&joints, &limits, eps);
        prop_assert!(report.distance.is_finite());
        prop_assert!((report.distance - joints.last().unwrap().distance(target)).abs() <= eps);
        prop_assert_eq!(report.reached, report.distance <= tolerance);
        prop_assert!(report.iterations <= iters.max(1));
        if matches!(input.target, TargetKind::Unreachable(..)) && !report.reached {
            prop_assert_eq!(report.iterations, 1);
        }
    }

    #[test]
    fn ccd_invariants(input in input(), tolerance in 0.0f32..2.0, iters in 0u32..64, step in 0.01f32..4.0) {
        let (mut joints, target) = input.build();
        let limits = input.limits();
        let settings = CcdSettings { max_iterations: iters, tolerance, max_angle_step: step };
        let report = solve_ccd(&mut joints, target, &limits, &settings).unwrap();
        assert_finite(&joints);
        prop_assert_eq!(joints[0], input.root);
        let eps = pos_eps(&joints, target);
        assert_lengths(&joints, &input.lengths, 1e-4, 64.0 * eps);
        assert_limits(&joints, &limits, 64.0 * eps);
        prop_assert_eq!(report.reached, report.distance <= tolerance);
        prop_assert!(report.iterations <= iters);
    }

    #[test]
    fn trait_solvers_keep_lengths(input in input(), use_ccd: bool) {
        let (mut joints, target) = input.build();
        // Perturb the spacing: the trait must still return `lengths` apart.
        for p in joints.iter_mut().skip(1) { *p *= 1.1; }
        let root = joints[0];
        let limits = input.limits();
        let solver: &dyn ChainSolver = if use_ccd {
            &CcdSettings { max_iterations: 16, ..CcdSettings::default() }
        } else {
            &FabrikSettings { max_iterations: 16, ..FabrikSettings::default() }
        };
        solver.solve(&mut joints, &input.lengths, target, &limits).unwrap();
        assert_finite(&joints);
        prop_assert_eq!(joints[0], root);
        let eps = pos_eps(&joints, target);
        assert_lengths(&joints, &input.lengths, 1e-4, 64.0 * eps);
        assert_limits(&joints, &limits, 64.0 * eps);
    }

    #[test]
    fn non_finite_input_leaves_buffers_unchanged(input in input(), which in 0usize..3, bad in prop_oneof![Just(f32::NAN), Just(f32::INFINITY), Just(f32::NEG_INFINITY)]) {
        let (mut joints, mut target) = input.build();
        let mut lengths = input.lengths.clone();
        match which {
            0 => target.y = bad,
            1 => { let i = joints.len() / 2; joints[i].x = bad; }
            _ => lengths[0] = bad,
        }
        let before = joints.clone();
        let limits = input.limits();
        prop_assert!(solve_fabrik(&mut joints, &lengths, target, &limits, &FabrikSettings::default()).is_err());
        prop_assert!(before.iter().zip(&joints).all(|(a, b)| a.x.to_bits() == b.x.to_bits() && a.y.to_bits() == b.y.to_bits()));
        if which != 2 {
            prop_assert!(solve_ccd(&mut joints, target, &limits, &CcdSettings::default()).is_err());
            prop_assert!(before.iter().zip(&joints).all(|(a, b)| a.x.to_bits() == b.x.to_bits() && a.y.to_bits() == b.y.to_bits()));
        }
    }
}
