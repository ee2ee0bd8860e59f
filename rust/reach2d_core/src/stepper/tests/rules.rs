//! The walk's rules, frame by frame: planted feet never slide, groups take turns, one group in the air but for the
//! catch-up, the lead, hanging and stepping down, re-planting, carrying, each event once.

use glam::Vec2;

use super::fixtures::{Creature, UP, bumpy};
use crate::common::assert_approx_eq;
use crate::stepper::{
    FootPhase, Gait, LEAD_REACH, StepEvent, StepFoot, StepFrame, StepSettings, carry, reground, replant, walk,
};

const DT: f32 = 1.0 / 60.0;

/// Walks `creature` for `frames` at `speed` px/s on the bumpy ground; returns every frame.
fn walk_for(creature: &mut Creature, frames: usize, speed: f32) -> Vec<super::fixtures::Frame> {
    creature.start(bumpy, 1.0);
    (0..frames).map(|_| creature.frame(Vec2::new(speed, 0.0), DT, bumpy, 1.0)).collect()
}

#[test]
fn a_planted_foot_keeps_its_goal_to_the_bit_until_it_lifts() {
    let mut creature = Creature::new(8, StepSettings::default());
    let frames = walk_for(&mut creature, 600, 90.0);
    let mut planted: Vec<Option<Vec2>> = vec![None; 8];
    let mut checked = 0;
    for frame in &frames {
        for event in &frame.events {
            match *event {
                StepEvent::Lifted(i) => planted[i] = None,
                StepEvent::Planted(i, at) => planted[i] = Some(at),
            }
        }
        for (i, at) in planted.iter().enumerate() {
            if let Some(at) = at {
                assert_eq!(frame.goals[i], *at, "foot {i} slid while planted");
                checked += 1;
            }
        }
    }
    assert!(checked > 2000, "only {checked} planted foot-frames");
    let steps = frames.iter().flat_map(|f| &f.events).filter(|e| matches!(e, StepEvent::Lifted(_))).count();
    assert!(steps >= 8 * 10, "the creature walked 900 px in {steps} steps");
}

#[test]
fn groups_take_turns_and_never_share_the_air_at_a_walk() {
    let mut creature = Creature::new(8, StepSettings::default());
    let frames = walk_for(&mut creature, 600, 90.0);
    assert!(frames.iter().all(|f| f.in_air_groups <= 1), "two groups in the air at once");
    assert_eq!(creature.gait.catch_ups(), 0);
    // The lifts alternate between the groups (each lift event's group, counted once per group lift).
    let mut order = Vec::new();
    for frame in &frames {
        for event in &frame.events {
            if let StepEvent::Lifted(i) = *event {
                let group = i % 2;
                if order.last() != Some(&group) {
                    order.push(group);
                }
            }
        }
    }
    assert!(order.len() > 10);
    assert!(order.windows(2).all(|w| w[0] != w[1]));
}

#[test]
fn legs_of_one_group_lift_together() {
    let mut creature = Creature::new(8, StepSettings::default());
    let frames = walk_for(&mut creature, 300, 90.0);
    for frame in frames.iter().filter(|f| !f.events.is_empty()) {
        let lifted: Vec<usize> =
            frame.events.iter().filter_map(|e| if let StepEvent::Lifted(i) = *e { Some(i) } else { None }).collect();
        if !lifted.is_empty() {
            assert_eq!(lifted.len(), 4, "a group of 4 lifts together: {lifted:?}");
            assert!(lifted.iter().all(|i| i % 2 == lifted[0] % 2));
        }
    }
}

#[test]
fn a_foot_left_beyond_max_lag_catches_up_and_no_foot_is_dragged_farther() {
    let settings = StepSettings { step_duration: 0.5, max_lag: 60.0, ..StepSettings::default() };
    let mut creature = Creature::new(4, settings);
    let frames = walk_for(&mut creature, 400, 260.0);
    assert!(creature.gait.catch_ups() > 0, "at 260 px/s with half-second steps the gait cannot keep one group up");
    assert!(frames.iter().any(|f| f.in_air_groups == 2));
    // With the rule held strictly (max_lag 0), the same walk never has two groups up, and feet drag farther.
    let mut strict = Creature::new(4, StepSettings { max_lag: 0.0, ..settings });
    let strict_frames = walk_for(&mut strict, 400, 260.0);
    assert!(strict_frames.iter().all(|f| f.in_air_groups <= 1));
    assert_eq!(strict.gait.catch_ups(), 0);
}

#[test]
fn the_drift_of_a_planted_foot_stays_within_max_lag_plus_a_frame() {
    let settings = StepSettings { step_duration: 0.5, max_lag: 60.0, ..StepSettings::default() };
    let mut creature = Creature::new(4, settings);
    creature.start(bumpy, 1.0);
    let speed = 260.0;
    let mut worst: f32 = 0.0;
    for _ in 0..400 {
        creature.frame(Vec2::new(speed, 0.0), DT, bumpy, 1.0);
        for (foot, home) in creature.feet.iter().zip(&creature.homes) {
            if let Some(at) = foot.planted_at() {
                worst = worst.max((home.x - at.x).abs());
            }
        }
    }
    assert!(worst <= 60.0 + speed * DT + 1e-3, "a planted foot was {worst} px from its home");
}

#[test]
fn a_foot_lands_its_lead_ahead_of_its_home() {
    let settings = StepSettings { lead: 0.1, ..StepSettings::default() };
    let mut creature = Creature::new(2, settings);
    creature.start(|_| Some(0.0), 1.0);
    let speed = 120.0;
    let mut landed = 0;
    for _ in 0..300 {
        let frame = creature.frame(Vec2::new(speed, 0.0), DT, |_| Some(0.0), 1.0);
        for event in frame.events {
            if let StepEvent::Planted(i, at) = event {
                // The home moved on by the step's frames (whole frames: the landing frame is the first at or past
                // the duration); the foot lands lead * speed ahead of where the home was predicted to be.
                let ahead = at.x - creature.homes[i].x;
                assert!((ahead - speed * 0.1).abs() <= speed * DT + 1e-3, "landed {ahead} px ahead");
                landed += 1;
            }
        }
    }
    assert!(landed > 10);
    // A lead that would put the foot beyond its next step is held within LEAD_REACH steps.
    let far = StepSettings { lead: 10.0, ..settings };
    let aim = crate::stepper::landing_aim(Vec2::ZERO, Vec2::new(speed, 0.0), UP, &far);
    assert_approx_eq!(aim.x, speed * far.step_duration + LEAD_REACH * far.step_distance, 1e-3);
}

#[test]
fn a_foot_without_ground_hangs_at_its_home_and_steps_down_once_there_is_ground() {
    let gap = |x: f32| if (100.0..400.0).contains(&x) { None } else { Some(0.0) };
    let mut creature = Creature::new(2, StepSettings::default());
    creature.start(gap, 1.0);
    let mut hung = 0;
    let mut lifted_while_hanging = false;
    let mut events = Vec::new();
    for _ in 0..400 {
        let hanging: Vec<bool> = creature.feet.iter().map(|f| f.phase() == FootPhase::Hanging).collect();
        let frame = creature.frame(Vec2::new(90.0, 0.0), DT, gap, 1.0);
        for (i, foot) in creature.feet.iter().enumerate() {
            if foot.phase() == FootPhase::Hanging {
                assert_eq!(foot.goal(), creature.homes[i], "a hanging foot is at its home");
                hung += 1;
            }
        }
        for event in &frame.events {
            lifted_while_hanging |= matches!(*event, StepEvent::Lifted(i) if hanging[i]);
        }
        events.extend(frame.events);
    }
    for _ in 0..60 {
        creature.frame(Vec2::ZERO, DT, gap, 1.0);
    }
    assert!(hung > 50, "the feet hung over the gap ({hung} foot-frames)");
    assert!(!lifted_while_hanging, "a hanging foot steps down without lifting");
    assert!(creature.feet.iter().all(|f| f.planted_at().is_some()), "both feet on the ground after the gap");
}

#[test]
fn every_event_is_told_once_and_matches_the_phase_change() {
    let mut creature = Creature::new(6, StepSettings::default());
    creature.start(bumpy, 1.0);
    for frame_index in 0..600 {
        let before: Vec<FootPhase> = creature.feet.iter().map(StepFoot::phase).collect();
        let speed = if frame_index % 200 < 100 { 140.0 } else { -60.0 };
        let frame = creature.frame(Vec2::new(speed, 0.0), DT, bumpy, 1.0);
        for (i, foot) in creature.feet.iter().enumerate() {
            let lifted = frame.events.iter().filter(|e| **e == StepEvent::Lifted(i)).count();
            let planted = frame.events.iter().filter(|e| matches!(e, StepEvent::Planted(j, _) if *j == i)).count();
            let was_planted = matches!(before[i], FootPhase::Planted { .. });
            let now_planted = matches!(foot.phase(), FootPhase::Planted { .. });
            assert_eq!(lifted, usize::from(was_planted && !now_planted), "foot {i}: lifts");
            assert_eq!(planted, usize::from(!was_planted && now_planted), "foot {i}: landings");
        }
    }
}

#[test]
fn replant_sets_every_foot_down_under_its_home_without_a_step() {
    let mut feet = vec![StepFoot::new(0), StepFoot::new(1), StepFoot::new(0)];
    let homes = [Vec2::new(0.0, -5.0), Vec2::new(50.0, -5.0), Vec2::new(150.0, -5.0)];
    replant(&mut feet, &homes, |_, aim| (aim.x < 100.0).then_some(Vec2::new(aim.x, 3.0)));
    assert_eq!(feet[0].phase(), FootPhase::Planted { at: Vec2::new(0.0, 3.0) });
    assert_eq!(feet[1].goal(), Vec2::new(50.0, 3.0));
    assert_eq!(feet[2].phase(), FootPhase::Hanging);
    assert_eq!(feet[2].goal(), homes[2]);
}

#[test]
fn carry_reflects_every_point_and_keeps_the_phase_and_reground_sets_planted_feet_back_down() {
    let mut creature = Creature::new(4, StepSettings::default());
    walk_for(&mut creature, 37, 90.0);
    let before = creature.feet.clone();
    let mirror = |p: Vec2| Vec2::new(2.0 * 100.0 - p.x, p.y);
    carry(&mut creature.feet, mirror);
    for (a, b) in before.iter().zip(&creature.feet) {
        assert_eq!(b.goal(), mirror(a.goal()));
        match (a.phase(), b.phase()) {
            (FootPhase::Planted { at }, FootPhase::Planted { at: carried }) => assert_eq!(carried, mirror(at)),
            (
                FootPhase::Swinging { from, to, progress, .. },
                FootPhase::Swinging { from: f, to: t, progress: p, .. },
            ) => {
                assert_eq!((f, t, p), (mirror(from), mirror(to), progress));
            }
            (a, b) => assert_eq!(a, b),
        }
    }
    reground(&mut creature.feet, |at, _| Some(Vec2::new(at.x, 7.0)));
    assert!(creature.feet.iter().filter_map(StepFoot::planted_at).all(|at| at.y == 7.0));
}

#[test]
fn a_step_of_no_duration_lands_on_the_next_frame() {
    let settings = StepSettings { step_duration: 0.0, ..StepSettings::default() };
    let mut creature = Creature::new(2, settings);
    creature.start(|_| Some(0.0), 1.0);
    let mut lifted_at = None;
    for frame_index in 0..200 {
        let frame = creature.frame(Vec2::new(90.0, 0.0), DT, |_| Some(0.0), 1.0);
        for event in frame.events {
            match event {
                StepEvent::Lifted(_) => lifted_at = Some(frame_index),
                StepEvent::Planted(..) => assert_eq!(lifted_at.map(|f| f + 1), Some(frame_index)),
            }
        }
    }
    assert!(lifted_at.is_some());
}

#[test]
fn degenerate_input_gives_no_nan_and_no_panic() {
    for settings in [
        StepSettings { step_distance: 0.0, step_height: 0.0, step_duration: 0.0, lead: 0.0, max_lag: 0.0 },
        StepSettings {
            step_distance: f32::NAN,
            step_height: f32::INFINITY,
            step_duration: -1.0,
            lead: f32::NAN,
            max_lag: f32::NAN,
        },
        StepSettings { step_distance: 1e30, step_height: 1e30, step_duration: 1e30, lead: 1e30, max_lag: 1e30 },
    ] {
        let mut feet = vec![StepFoot::new(0), StepFoot::new(1), StepFoot::new(7)];
        let mut gait = Gait::default();
        let homes = [Vec2::ZERO, Vec2::ZERO, Vec2::new(5.0, 0.0)];
        replant(&mut feet, &homes, |_, aim| Some(aim));
        for velocity in [Vec2::NAN, Vec2::new(f32::INFINITY, 0.0), Vec2::new(1e30, 1e30), Vec2::ZERO] {
            for delta in [f32::NAN, -1.0, 0.0, 1e30, DT] {
                let frame = StepFrame { homes: &homes, up: UP, velocity, delta, reach: &[] };
                walk(&mut gait, &mut feet, &frame, &settings, |_, aim| Some(aim), |_| {});
                assert!(feet.iter().all(|f| f.goal().is_finite()), "{settings:?} {velocity} {delta}");
            }
        }
    }
}
