//! The legs' reach: a planted foot lifts before its leg would stretch past it, a landing is where the leg reaches,
//! a home with no room is found, the body's raise stays within reach; and the gait's own timing: groups lift in
//! turn from a standstill, and feet step home once the body stops.

use glam::Vec2;

use super::fixtures::{Creature, UP};
use crate::stepper::{
    FOLD_REACH, LAND_REACH, LIFT_REACH, LegReach, MIN_ROOM, StepEvent, StepFrame, StepSettings, raise_within_reach,
    walk,
};

const DT: f32 = 1.0 / 60.0;

fn flat(_: f32) -> Option<f32> {
    Some(0.0)
}

/// A leg whose hip is `drop` px above the ground line, over its home, reaching `longest` px.
fn leg(hip: Vec2, longest: f32) -> LegReach {
    LegReach { hip, longest, shortest: 0.0 }
}

#[test]
fn a_landing_is_moved_where_the_leg_reaches_it_and_mirrors() {
    let reach = LegReach { hip: Vec2::new(0.0, -50.0), longest: 60.0, shortest: 10.0 };
    let forward = Vec2::X;
    // Far ahead on the ground (y 0): pulled back to LAND_REACH of the reach, on the same side, at the same height.
    let far = reach.landing_within(Vec2::new(80.0, 0.0), reach.hip, UP, forward);
    assert!((far.distance(reach.hip) - LAND_REACH * 60.0).abs() < 1e-3, "{far}");
    assert!(far.x > 0.0 && far.y == 0.0);
    let mirrored = reach.landing_within(Vec2::new(-80.0, 0.0), reach.hip, UP, forward);
    assert_eq!(mirrored, Vec2::new(-far.x, far.y), "the mirror image, to the bit");
    // Within reach: unchanged.
    let near = Vec2::new(10.0, 0.0);
    assert_eq!(reach.landing_within(near, reach.hip, UP, forward), near);
    // Too near the hip (a ledge just under it): pushed out to the folded limit.
    let ledge = reach.landing_within(Vec2::new(2.0, -45.0), reach.hip, UP, forward);
    assert!((ledge.distance(reach.hip) - reach.standing_range().0).abs() < 1e-3, "{ledge}");
    // A ledge far below: straight under the hip is the nearest it gets.
    let deep = reach.landing_within(Vec2::new(30.0, 40.0), reach.hip, UP, forward);
    assert_eq!(deep, Vec2::new(0.0, 40.0));
}

#[test]
fn a_home_near_full_reach_has_no_room() {
    let reach = leg(Vec2::new(0.0, -50.0), 60.0);
    // Straight under the hip at 70% and 97% of the reach: room to step; at 99.5%: none.
    assert!(reach.room(Vec2::new(0.0, -50.0 + 42.0), UP) > 0.3 * 60.0);
    assert!(reach.room(Vec2::new(0.0, -50.0 + 58.2), UP) > MIN_ROOM * 60.0);
    assert!(reach.room(Vec2::new(0.0, -50.0 + 59.7), UP) < MIN_ROOM * 60.0);
    // Out to the side at 97%: near the band's edge, but the band is wide: room to step back under the hip.
    let side = Vec2::new(0.97 * 60.0 * 0.8, -50.0 + 0.97 * 60.0 * 0.6);
    assert!(reach.room(side, UP) > 0.5 * 60.0, "{}", reach.room(side, UP));
    // Beyond the reach to the side: none.
    let beyond = Vec2::new(60.0 * 0.8, -50.0 + 60.0 * 0.6);
    assert!(reach.room(beyond, UP) < 0.0, "{}", reach.room(beyond, UP));
}

/// Walks `n` feet 30 px apart whose hips ride `drop` px above the ground over their homes, each leg reaching
/// `drop / rest` (its foot rests at `rest` of its reach), at `speed` px/s with `settings`, `with_reach` or not.
/// Returns the largest distance of a planted foot from its hip as a fraction of its reach, and the events.
fn walk_near_reach(rest: f32, speed: f32, with_reach: bool, frames: usize) -> (f32, Vec<Vec<StepEvent>>) {
    let drop = 40.0;
    let longest = drop / rest;
    let mut creature = Creature::new(6, StepSettings::default());
    creature.start(flat, 1.0);
    let mut worst = 0.0f32;
    let mut events = Vec::new();
    for _ in 0..frames {
        creature.body += Vec2::new(speed, 0.0) * DT;
        for (home, offset) in creature.homes.iter_mut().zip(&creature.offsets) {
            *home = creature.body + *offset;
        }
        let reach: Vec<LegReach> = creature.homes.iter().map(|h| leg(*h + UP * drop, longest)).collect();
        let frame = StepFrame {
            homes: &creature.homes,
            up: UP,
            velocity: Vec2::new(speed, 0.0),
            delta: DT,
            reach: if with_reach { &reach } else { &[] },
        };
        let mut told = Vec::new();
        walk(
            &mut creature.gait,
            &mut creature.feet,
            &frame,
            &creature.settings,
            |_, a| Some(Vec2::new(a.x, 0.0)),
            |e| told.push(e),
        );
        for (foot, reach) in creature.feet.iter().zip(&reach) {
            if let Some(at) = foot.planted_at() {
                worst = worst.max(at.distance(reach.hip) / longest);
            }
        }
        events.push(told);
    }
    (worst, events)
}

#[test]
fn a_planted_foot_lifts_before_its_leg_stretches_past_its_reach() {
    for rest in [0.9, 0.95, 0.97] {
        for speed in [30.0, 90.0, 150.0] {
            let (worst, events) = walk_near_reach(rest, speed, true, 240);
            assert!(worst <= LIFT_REACH + 1e-4, "rest {rest}, {speed} px/s: a planted foot at {worst} of its reach");
            let lifts = events.iter().flatten().filter(|e| matches!(e, StepEvent::Lifted(_))).count();
            assert!(lifts >= 12, "rest {rest}, {speed} px/s: it walked ({lifts} lifts)");
        }
        // Without the legs' reach, the default step drags the same feet past it (what the rule prevents).
        let (worst, _) = walk_near_reach(rest, 90.0, false, 240);
        assert!(worst > 1.0, "rest {rest}: without the reach a planted foot got to {worst} of it");
    }
}

#[test]
fn from_a_standstill_the_groups_lift_in_turn() {
    // At 200 px/s from rest, with the default step (40 px in 0.2 s), the first two group lifts are apart in time.
    let mut creature = Creature::new(6, StepSettings::default());
    creature.start(flat, 1.0);
    let mut first_lift = [None::<usize>; 2];
    let mut most_groups = 0;
    for k in 0..60 {
        let frame = creature.frame(Vec2::new(200.0, 0.0), DT, flat, 1.0);
        for event in &frame.events {
            if let StepEvent::Lifted(i) = *event {
                first_lift[i % 2].get_or_insert(k);
            }
        }
        most_groups = most_groups.max(frame.in_air_groups);
    }
    let (a, b) = (first_lift[0].expect("group 0 stepped"), first_lift[1].expect("group 1 stepped"));
    assert!(b > a + 6, "group 1 lifted {} frames after group 0", b as i64 - a as i64);
    assert_eq!(creature.gait.catch_ups(), 0, "no foot had to catch up");
    assert_eq!(most_groups, 1, "one group in the air at a time");
}

#[test]
fn once_the_body_stops_the_feet_step_home_a_group_at_a_time() {
    let settings = StepSettings::default();
    let mut creature = Creature::new(6, settings);
    creature.start(flat, 1.0);
    for _ in 0..137 {
        creature.frame(Vec2::new(90.0, 0.0), DT, flat, 1.0);
    }
    let away = |c: &Creature| c.feet.iter().zip(&c.homes).map(|(f, h)| (f.goal().x - h.x).abs()).fold(0.0, f32::max);
    assert!(away(&creature) > 0.25 * settings.step_distance, "the walk left a foot away ({})", away(&creature));
    let mut most_groups = 0;
    for _ in 0..120 {
        most_groups = most_groups.max(creature.frame(Vec2::ZERO, DT, flat, 1.0).in_air_groups);
    }
    assert!(away(&creature) <= 0.25 * settings.step_distance, "2 s later a foot is {} px from home", away(&creature));
    assert!(creature.feet.iter().all(|f| f.planted_at().is_some()));
    assert_eq!(most_groups, 1, "a group at a time");
}

#[test]
fn the_raise_stays_within_the_planted_legs_reach() {
    // Two planted feet: one 50 px under its hip (reach 60), one 20 px under its hip (reach 60, folded limit 10 + a
    // sliver): the body may rise until the first is at HELD reach, and sink until the second folds.
    let hips = [Vec2::new(0.0, -50.0), Vec2::new(30.0, -20.0)];
    let feet = [(Vec2::new(0.0, 0.0), true), (Vec2::new(30.0, 0.0), true)];
    let legs = |hips: [Vec2; 2]| {
        feet.iter()
            .zip(hips)
            .map(|(&(at, planted), hip)| (at, LegReach { hip, longest: 60.0, shortest: 10.0 }, planted))
    };
    let up_most = raise_within_reach(100.0, 0.0, legs(hips), UP);
    assert!((up_most - (0.985 * 60.0 - 50.0)).abs() < 1e-3, "{up_most}");
    let near = 10.0 + FOLD_REACH * 50.0;
    let down_most = raise_within_reach(-100.0, 0.0, legs(hips), UP);
    assert!((down_most - (near - 20.0)).abs() < 1e-3, "{down_most}");
    // Within both: unchanged; mirrored feet and hips: the same raise.
    assert_eq!(raise_within_reach(1.5, 0.0, legs(hips), UP), 1.5);
    let mirrored = [Vec2::new(0.0, -50.0), Vec2::new(-30.0, -20.0)];
    let feet_m = [(Vec2::new(0.0, 0.0), true), (Vec2::new(-30.0, 0.0), true)];
    let legs_m =
        feet_m.iter().zip(mirrored).map(|(&(at, p), hip)| (at, LegReach { hip, longest: 60.0, shortest: 10.0 }, p));
    assert_eq!(raise_within_reach(100.0, 0.0, legs_m, UP), up_most);
}
