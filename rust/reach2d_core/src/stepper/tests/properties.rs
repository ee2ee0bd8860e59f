//! Property tests over random walks (proptest): any number of feet in any groups, any settings (zeros included), any
//! finite velocity and frame time, ground with gaps: every goal finite, a planted foot's goal unchanged until it
//! lifts, each event once and matching the phase change, and with `max_lag` 0 never two groups in the air that
//! lifted (a hanging foot that steps down lifts nothing: it was in the air).

use glam::Vec2;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

use super::fixtures::UP;
use crate::stepper::{FootPhase, Gait, StepEvent, StepFoot, StepFrame, StepSettings, replant, walk};

fn settings() -> impl Strategy<Value = StepSettings> {
    (
        0.0f32..120.0,
        0.0f32..60.0,
        prop_oneof![Just(0.0f32), 0.01f32..1.0],
        0.0f32..0.5,
        prop_oneof![Just(0.0f32), 0.0f32..200.0],
    )
        .prop_map(|(step_distance, step_height, step_duration, lead, max_lag)| StepSettings {
            step_distance,
            step_height,
            step_duration,
            lead,
            max_lag,
        })
}

#[derive(Debug, Clone)]
struct Run {
    groups: Vec<u32>,
    settings: StepSettings,
    /// Per frame: the body's velocity (px/s) and the frame's time (s).
    frames: Vec<(Vec2, f32)>,
    /// The ground's height per 50 px cell (None: a gap).
    ground: Vec<Option<f32>>,
}

fn run() -> impl Strategy<Value = Run> {
    (
        prop::collection::vec(0u32..4, 1..=10),
        settings(),
        prop::collection::vec(((-600.0f32..600.0, -200.0f32..200.0), 0.0f32..0.1), 1..240),
        prop::collection::vec(prop_oneof![1 => Just(None), 6 => (-40.0f32..40.0).prop_map(Some)], 64),
    )
        .prop_map(|(groups, settings, frames, ground)| Run {
            groups,
            settings,
            frames: frames.into_iter().map(|((x, y), dt)| (Vec2::new(x, y), dt)).collect(),
            ground,
        })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::SourceParallel("proptest-regressions"))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_walks_keep_the_rules(run in run()) {
        let n = run.groups.len();
        let mut feet: Vec<StepFoot> = run.groups.iter().map(|&g| StepFoot::new(g)).collect();
        let mut gait = Gait::default();
        let offsets: Vec<Vec2> = (0..n).map(|i| Vec2::new(i as f32 * 25.0 - 100.0, 0.0)).collect();
        let cell = |x: f32| run.ground[((x / 50.0).floor() as i64).rem_euclid(64) as usize];
        let plant = |_: Vec2, aim: Vec2| cell(aim.x).map(|y| Vec2::new(aim.x, y));
        let mut body = Vec2::ZERO;
        let mut homes: Vec<Vec2> = offsets.clone();
        replant(&mut feet, &homes, plant);
        // Per foot: its swing began with a lift (not a hanging foot stepping down).
        let mut from_lift = vec![false; n];
        for &(velocity, delta) in &run.frames {
            body += velocity * delta;
            for (home, offset) in homes.iter_mut().zip(&offsets) {
                *home = body + *offset;
            }
            let before: Vec<StepFoot> = feet.clone();
            let mut events = Vec::new();
            let frame = StepFrame { homes: &homes, up: UP, velocity, delta, reach: &[] };
            walk(&mut gait, &mut feet, &frame, &run.settings, plant, |e| events.push(e));
            let mut in_air = 0u64;
            for (i, foot) in feet.iter().enumerate() {
                prop_assert!(foot.goal().is_finite());
                let lifted = events.iter().filter(|e| **e == StepEvent::Lifted(i)).count();
                let landed = events.iter().filter(|e| matches!(e, StepEvent::Planted(j, _) if *j == i)).count();
                prop_assert!(lifted + landed <= 1, "foot {i}: {events:?}");
                match (before[i].phase(), foot.phase()) {
                    (FootPhase::Planted { at }, FootPhase::Planted { at: now }) => {
                        prop_assert_eq!(at, now);
                        prop_assert_eq!(foot.goal(), at);
                        prop_assert_eq!(lifted, 0);
                    }
                    (FootPhase::Planted { .. }, _) => prop_assert_eq!(lifted, 1),
                    (_, FootPhase::Planted { at }) => prop_assert_eq!(events.iter().find(|e| matches!(e, StepEvent::Planted(j, _) if *j == i)), Some(&StepEvent::Planted(i, at))),
                    _ => prop_assert_eq!(lifted + landed, 0),
                }
                from_lift[i] = foot.is_swinging() && (from_lift[i] || lifted == 1);
                if from_lift[i] {
                    in_air |= 1 << foot.group;
                }
            }
            if run.settings.max_lag == 0.0 {
                prop_assert!(in_air.count_ones() <= 1, "two groups lifted at once with max_lag 0");
            }
        }
    }
}
