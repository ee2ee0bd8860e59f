//! Property tests of the spring chain (proptest): any finite input gives finite joints with the goal's bone
//! lengths, the root on the goal's root, limits held; a chain at rest under zero gravity stays at rest.

use core::f32::consts::PI;

use glam::Vec2;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

use crate::angle::{AngleLimit, ChainLimits, signed_angle};
use crate::spring::{SpringBone, SpringFrame, SpringGoal, SpringScale, SpringSettings, step_spring};

fn coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![4 => -1000.0f32..1000.0, 1 => -1e9f32..1e9, 1 => Just(0.0f32)]
}

fn point() -> impl Strategy<Value = Vec2> {
    (coordinate(), coordinate()).prop_map(|(x, y)| Vec2::new(x, y))
}

fn settings() -> impl Strategy<Value = SpringSettings> {
    (0.0f32..1e7, 0.0f32..1e4, point(), point(), prop_oneof![Just(f32::INFINITY), 1e-6f32..10.0]).prop_map(
        |(stiffness, damping, gravity, external_force, max_angle_step)| SpringSettings {
            stiffness,
            damping,
            gravity,
            external_force,
            max_angle_step,
        },
    )
}

fn limit() -> impl Strategy<Value = Option<AngleLimit>> {
    prop_oneof![1 => Just(None), 1 => (-PI..PI, 0.0f32..(2.0 * PI)).prop_map(|(min, w)| AngleLimit::new(min, min + w))]
}

#[derive(Debug, Clone)]
struct Run {
    frames: Vec<(Vec<Vec2>, Vec2, f32)>,
    limits: Option<Vec<Option<AngleLimit>>>,
    scales: Option<Vec<SpringScale>>,
    settings: SpringSettings,
}

fn run() -> impl Strategy<Value = Run> {
    (1usize..=12).prop_flat_map(|n| {
        let frame = (
            prop::collection::vec(point(), n + 1),
            (-PI..PI).prop_map(Vec2::from_angle),
            prop_oneof![0.0f32..0.3, Just(0.0), 1e-7f32..1e-3, 0.3f32..100.0],
        );
        (
            prop::collection::vec(frame, 1..8),
            prop::option::of(prop::collection::vec(limit(), n)),
            prop::option::of(prop::collection::vec(
                (0.0f32..100.0, 0.0f32..100.0).prop_map(|(stiffness, damping)| SpringScale { stiffness, damping }),
                n,
            )),
            settings(),
        )
            .prop_map(|(frames, limits, scales, settings)| Run { frames, limits, scales, settings })
    })
}

proptest! {
    // The seeds of past failures beside this file (proptest's default for a file under src/ is a tree of its own).
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::with_cases(512)
    })]

    #[test]
    fn any_finite_input_gives_finite_joints_with_the_goal_lengths(run in run()) {
        let n = run.frames[0].0.len() - 1;
        let mut frame = SpringFrame::default();
        let mut bones = vec![SpringBone::default(); n];
        let mut out = vec![Vec2::ZERO; n + 1];
        for (joints, direction, delta) in &run.frames {
            let per_bone = run.limits.as_deref().unwrap_or(&[]);
            let goal = SpringGoal {
                joints,
                limits: ChainLimits { root_direction: *direction, per_bone },
                scales: run.scales.as_deref().unwrap_or(&[]),
            };
            let report = step_spring(&mut frame, &mut bones, &goal, &run.settings, *delta, &mut out).expect("valid input");
            prop_assert!(report.deviation.is_finite());
            prop_assert!(out.iter().all(|p| p.is_finite()), "{out:?}");
            prop_assert!(bones.iter().all(|b| b.angle.is_finite() && b.velocity.is_finite() && b.goal.is_finite()));
            prop_assert_eq!(out[0], joints[0]);
            let mut reference = *direction;
            let mut reference_length = f32::INFINITY;
            for i in 0..n {
                let (goal_length, length) = (joints[i].distance(joints[i + 1]), out[i].distance(out[i + 1]));
                // f32 positions far from the origin are only as exact as their magnitude allows.
                let magnitude = out[i].abs().max_element().max(out[i + 1].abs().max_element());
                let slack = 1e-3 * goal_length.max(1.0) + 1e-6 * magnitude;
                prop_assert!((goal_length - length).abs() <= slack, "bone {i}: {length} vs {goal_length}");
                let segment = out[i + 1] - out[i];
                if goal_length > 1e-3 {
                    if let Some(limit) = per_bone.get(i).copied().flatten() {
                        // Positions far from the origin round the direction: allow a little.
                        let slack = 1e-3 + 1e-6 * magnitude / goal_length.min(reference_length);
                        prop_assert!(limit.contains(signed_angle(reference, segment), slack), "bone {i} outside {limit:?}");
                    }
                    reference = segment;
                    reference_length = goal_length;
                }
            }
        }
    }

    #[test]
    fn a_chain_at_rest_under_zero_gravity_stays_at_rest(
        joints in prop::collection::vec((-500.0f32..500.0, -500.0f32..500.0).prop_map(|(x, y)| Vec2::new(x, y)), 2..10),
        direction in (-PI..PI).prop_map(Vec2::from_angle),
        stiffness in 0.0f32..5000.0,
        damping in 0.0f32..50.0,
        deltas in prop::collection::vec(1.0f32 / 240.0..1.0 / 15.0, 1..30),
    ) {
        let n = joints.len() - 1;
        let settings = SpringSettings { stiffness, damping, ..SpringSettings::default() };
        let goal = SpringGoal { joints: &joints, limits: ChainLimits { root_direction: direction, per_bone: &[] }, scales: &[] };
        let mut frame = SpringFrame::default();
        let mut bones = vec![SpringBone::default(); n];
        let mut out = vec![Vec2::ZERO; n + 1];
        // Rebuilding the joints from f32 angles rounds by about 1e-7 of the chain's length per bone.
        let tolerance = 1e-6 * n as f32 * joints.windows(2).map(|w| w[0].distance(w[1])).sum::<f32>() + 1e-4;
        for delta in deltas {
            step_spring(&mut frame, &mut bones, &goal, &settings, delta, &mut out).expect("valid");
            prop_assert!(bones.iter().all(|b| b.velocity == 0.0));
            for (a, b) in out.iter().zip(&joints) {
                prop_assert!(a.distance(*b) < tolerance, "{a} vs {b}");
            }
        }
    }
}
