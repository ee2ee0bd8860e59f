//! A mirrored creature on mirrored ground walks as the mirror image: to the bit across x = 0, and within rounding
//! across any other line along up. Decisions (which group lifts, when) are the same.

use glam::Vec2;

use super::fixtures::{Creature, bumpy};
use crate::stepper::{BodyFit, StepEvent, StepSettings, fit_body};

const DT: f32 = 1.0 / 60.0;

fn mirror_event(event: StepEvent) -> StepEvent {
    match event {
        StepEvent::Planted(i, at) => StepEvent::Planted(i, at * Vec2::new(-1.0, 1.0)),
        lifted => lifted,
    }
}

/// A walk that speeds up, stops, turns back and crosses the bump, the step and the slope.
fn velocity(frame: usize) -> Vec2 {
    let t = frame as f32 * DT;
    Vec2::new(150.0 * (t * 0.6).sin() + 60.0, 10.0 * (t * 3.0).cos())
}

#[test]
fn a_mirrored_walk_is_the_mirror_image_to_the_bit() {
    for n in [2, 6, 8] {
        let settings = StepSettings { max_lag: 50.0, ..StepSettings::default() };
        let mut creature = Creature::new(n, settings);
        let mut mirrored = Creature::new(n, settings);
        creature.start(bumpy, 1.0);
        mirrored.start(bumpy, -1.0);
        let mut steps = 0;
        for frame in 0..900 {
            let v = velocity(frame);
            let a = creature.frame(v, DT, bumpy, 1.0);
            let b = mirrored.frame(v * Vec2::new(-1.0, 1.0), DT, bumpy, -1.0);
            for (p, q) in a.goals.iter().zip(&b.goals) {
                assert_eq!(*q, *p * Vec2::new(-1.0, 1.0), "{n} feet, frame {frame}");
            }
            let mirrored_events: Vec<StepEvent> = a.events.iter().copied().map(mirror_event).collect();
            assert_eq!(b.events, mirrored_events, "{n} feet, frame {frame}");
            steps += a.events.len();
            let planted = |c: &Creature| {
                c.feet.iter().zip(&c.homes).filter_map(|(f, h)| f.planted_at().map(|a| (a, *h))).collect::<Vec<_>>()
            };
            let (pa, pb) = (planted(&creature), planted(&mirrored));
            let lean = fit_body(pa.iter().copied(), creature.body, super::fixtures::UP, BodyFit::Line);
            let back = fit_body(pb.iter().copied(), mirrored.body, super::fixtures::UP, BodyFit::Line);
            assert_eq!(lean.map(|l| (l.raise, -l.tilt)), back.map(|l| (l.raise, l.tilt)));
        }
        assert!(steps > 50, "{n} feet took {steps} steps");
        assert!(creature.body.x > 1000.0, "the walk crossed the ground's features: {}", creature.body);
    }
}

#[test]
fn a_walk_mirrored_across_another_line_is_the_mirror_image_within_rounding() {
    // Across x = 437.5: every x becomes 875 - x, which rounds differently from x, so within 1e-3 px.
    let axis = 437.5f32;
    let reflect = |p: Vec2| Vec2::new(2.0 * axis - p.x, p.y);
    let mut creature = Creature::new(6, StepSettings::default());
    let mut mirrored = Creature::new(6, StepSettings::default());
    mirrored.body = Vec2::new(2.0 * axis, 0.0);
    creature.start(bumpy, 1.0);
    let ground_mirrored = |x: f32| bumpy(2.0 * axis - x);
    mirrored.start(|x| ground_mirrored(-x), -1.0);
    let mut worst: f32 = 0.0;
    for frame in 0..900 {
        let v = velocity(frame);
        let a = creature.frame(v, DT, bumpy, 1.0);
        let b = mirrored.frame(v * Vec2::new(-1.0, 1.0), DT, |x| ground_mirrored(-x), -1.0);
        for (p, q) in a.goals.iter().zip(&b.goals) {
            worst = worst.max(q.distance(reflect(*p)));
        }
    }
    assert!(worst < 1e-3, "worst {worst} px");
}
