//! One frame of walking ([`walk`]), and what happens to every foot at once: a teleport re-plants them
//! ([`replant`]), a turn reflects them ([`carry`]) and puts them back on the ground ([`reground`]).

use glam::Vec2;

use super::arc::{landing_aim, swing_point};
use super::foot::{FootPhase, StepFoot, drift};
use super::gait::{Gait, MAX_GROUPS, STEP_TOGETHER, group_bit, groups_in_air, next_group};
use super::settings::{StepFrame, StepSettings, non_negative};

/// What happened to a foot this frame, told once per event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StepEvent {
    /// Foot `.0` lifted off the ground.
    Lifted(usize),
    /// Foot `.0` landed at `.1` (global px) and is planted there.
    Planted(usize, Vec2),
}

/// One frame of walking: swings advance and land, hanging feet step down where ground appeared, feet whose homes
/// drifted more than a step lift, and every foot's goal is set ([`StepFoot::goal`]).
///
/// The rules, in order:
/// 1. A swinging foot advances by `delta / step_duration`; at 1 it is planted on its landing point (a
///    [`StepEvent::Planted`]), or, when its ray found no ground, it hangs at its home. A hanging foot asks for ground
///    under its aim every frame and steps down (without a `Lifted`: it was in the air) when there is some.
/// 2. When no group is in the air, the group with a planted foot more than `step_distance` from its home that lifted
///    longest ago lifts: each of its planted feet more than [`STEP_TOGETHER`] × `step_distance` from home (a
///    [`StepEvent::Lifted`] each). While one group is in the air, only its own feet may join it (beyond
///    `step_distance`), and no other group lifts...
/// 3. ...unless one of its feet has been left more than `max_lag` behind (`max_lag > 0`): that foot lifts alone at
///    once (the catch-up, counted in [`Gait::catch_ups`]). So no planted foot is dragged more than `max_lag` (plus
///    one frame's motion) however fast the body goes: beyond the speed the gait can follow, steps overlap instead,
///    up to every foot in the air. With `max_lag` 0 the rule always holds and the feet drag instead.
///
/// A foot that lands stays down for the rest of its frame (a footstep is never a landing and a lift at once).
///
/// A lifting foot aims at [`landing_aim`] and asks `ground(home, aim)` where it plants: `Some(point)` or `None` (no
/// ground: it swings along under its home and hangs there). Feet beyond `frame.homes` are left alone. No
/// allocation, no panic; a non-finite input gives no NaN goal of its own (a NaN home gives NaN only to its foot).
pub fn walk<G, E>(
    gait: &mut Gait,
    feet: &mut [StepFoot],
    frame: &StepFrame,
    settings: &StepSettings,
    mut ground: G,
    mut events: E,
) where
    G: FnMut(Vec2, Vec2) -> Option<Vec2>,
    E: FnMut(StepEvent),
{
    let n = feet.len().min(frame.homes.len());
    let (feet, homes) = (&mut feet[..n], &frame.homes[..n]);
    for foot in feet.iter_mut() {
        foot.landed = false;
    }
    advance_swings(feet, homes, frame, settings, &mut ground, &mut events);
    let up = frame.up;
    // The drift of a foot that may lift now: planted, and not on the frame it landed.
    let drift_of = |feet: &[StepFoot], i: usize| {
        feet[i].planted_at().filter(|_| !feet[i].landed).map(|at| drift(at, homes[i], up))
    };
    let step = non_negative(settings.step_distance);
    let mut in_air = groups_in_air(feet);
    let mut lift_now =
        |foot: &mut StepFoot, i: usize| lift(foot, i, homes[i], frame, settings, &mut ground, &mut events);
    if in_air == 0 {
        if let Some(group) = next_group(feet, |i| drift_of(feet, i), step) {
            let turn = gait.next_turn();
            for i in 0..n {
                if feet[i].group % MAX_GROUPS != group {
                    continue;
                }
                feet[i].turn = turn;
                if drift_of(feet, i).is_some_and(|d| d > STEP_TOGETHER * step) {
                    lift_now(&mut feet[i], i);
                }
            }
            in_air = 1 << group;
        }
    } else {
        for i in 0..n {
            // Only the one group in the air (a hanging foot stepping down may have put a second one there).
            if in_air == group_bit(&feet[i]) && drift_of(feet, i).is_some_and(|d| d > step) {
                lift_now(&mut feet[i], i);
            }
        }
    }
    let max_lag = non_negative(settings.max_lag);
    if in_air != 0 && max_lag > 0.0 {
        for i in 0..n {
            if in_air & group_bit(&feet[i]) == 0 && drift_of(feet, i).is_some_and(|d| d > max_lag) {
                feet[i].turn = gait.next_turn();
                gait.catch_ups += 1;
                lift_now(&mut feet[i], i);
            }
        }
    }
    set_goals(feet, homes, up, settings.step_height);
}

/// Rule 1: swings advance and land, hanging feet look for ground.
fn advance_swings<G: FnMut(Vec2, Vec2) -> Option<Vec2>, E: FnMut(StepEvent)>(
    feet: &mut [StepFoot],
    homes: &[Vec2],
    frame: &StepFrame,
    settings: &StepSettings,
    ground: &mut G,
    events: &mut E,
) {
    let duration = non_negative(settings.step_duration);
    // A step of 0 s lands on the frame after it lifts; the lift's own frame shows the foot where it was.
    let advance = if duration > 0.0 { non_negative(frame.delta) / duration } else { 1.0 };
    for (i, (foot, &home)) in feet.iter_mut().zip(homes).enumerate() {
        match foot.phase {
            FootPhase::Swinging { from, to, progress, lands } => {
                let progress = progress + advance;
                let to = if lands { to } else { home };
                foot.phase = match (progress >= 1.0 || progress.is_nan(), lands) {
                    (false, _) => FootPhase::Swinging { from, to, progress, lands },
                    (true, true) => {
                        foot.landed = true;
                        events(StepEvent::Planted(i, to));
                        FootPhase::Planted { at: to }
                    }
                    (true, false) => FootPhase::Hanging,
                };
            }
            FootPhase::Hanging => {
                let aim = landing_aim(home, frame.velocity, frame.up, settings);
                if let Some(to) = ground(home, aim) {
                    foot.phase = FootPhase::Swinging { from: foot.goal, to, progress: 0.0, lands: true };
                }
            }
            FootPhase::Planted { .. } => {}
        }
    }
}

/// Lifts foot `i` (home `home`) toward its landing aim, or toward its home when there is no ground there.
fn lift<G: FnMut(Vec2, Vec2) -> Option<Vec2>, E: FnMut(StepEvent)>(
    foot: &mut StepFoot,
    i: usize,
    home: Vec2,
    frame: &StepFrame,
    settings: &StepSettings,
    ground: &mut G,
    events: &mut E,
) {
    let aim = landing_aim(home, frame.velocity, frame.up, settings);
    let (to, lands) = match ground(home, aim) {
        Some(point) => (point, true),
        None => (home, false),
    };
    foot.phase = FootPhase::Swinging { from: foot.goal, to, progress: 0.0, lands };
    events(StepEvent::Lifted(i));
}

/// Each foot's goal from its phase.
fn set_goals(feet: &mut [StepFoot], homes: &[Vec2], up: Vec2, height: f32) {
    for (foot, &home) in feet.iter_mut().zip(homes) {
        foot.goal = match foot.phase {
            FootPhase::Planted { at } => at,
            FootPhase::Swinging { from, to, progress, .. } => swing_point(from, to, up, height, progress),
            FootPhase::Hanging => home,
        };
    }
}

/// Plants every foot on the ground under its home at once (`ground(home, home)`), or hangs it at its home: the first
/// frame, a teleport. No step and no event; the gait keeps its turns.
pub fn replant<G: FnMut(Vec2, Vec2) -> Option<Vec2>>(feet: &mut [StepFoot], homes: &[Vec2], mut ground: G) {
    for (foot, &home) in feet.iter_mut().zip(homes) {
        foot.set_down(ground(home, home), home);
    }
}

/// Moves every point every foot holds by `map`: a turn (`scale.x = -1`) reflects the planted feet, the swings and
/// the goals with the body, so the legs keep their pose mirrored and the gait its phase.
pub fn carry(feet: &mut [StepFoot], map: impl Fn(Vec2) -> Vec2) {
    for foot in feet {
        foot.carry(&map);
    }
}

/// Puts each planted foot back on the ground under it (`ground(at, at)`; where that finds none it stays): after a
/// [`carry`], a reflected foot on uneven ground neither floats nor sinks.
pub fn reground<G: FnMut(Vec2, Vec2) -> Option<Vec2>>(feet: &mut [StepFoot], mut ground: G) {
    for foot in feet {
        if let Some(at) = foot.planted_at() {
            foot.set_down(Some(ground(at, at).unwrap_or(at)), at);
        }
    }
}
