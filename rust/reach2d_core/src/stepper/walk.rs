//! One frame of walking ([`walk`]), and what happens to every foot at once: a teleport re-plants them
//! ([`replant`]), a turn reflects them ([`carry`]) and puts them back on the ground ([`reground`]).

use glam::Vec2;

use super::arc::{landing_aim, swing_point};
use super::foot::{FootPhase, StepFoot, drift};
use super::gait::{Gait, MAX_GROUPS, STEP_TOGETHER, group_bit, groups_in_air, next_group};
use super::reach::LegReach;
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
/// drifted more than a step (or whose legs would soon stretch past their reach) lift, and every foot's goal is set
/// ([`StepFoot::goal`]).
///
/// The rules, in order:
/// 1. A swinging foot advances by `delta / step_duration`; at 1 it is planted on its landing point (a
///    [`StepEvent::Planted`]), or, when its ray found no ground, it hangs at its home. A hanging foot asks for ground
///    under its aim every frame and steps down (without a `Lifted`: it was in the air) when there is some.
/// 2. A planted foot *needs a step* when its home drifted more than `step_distance` from it, or when, with the hip
///    moved on by the body's velocity over a step's duration, its leg would no longer reach it
///    ([`LegReach::stands`], with `frame.reach`). When no group is in the air, the group with a foot that needs a step
///    that lifted longest ago lifts: each of its planted feet more than [`STEP_TOGETHER`] × `step_distance` from home,
///    or that needs a step (a [`StepEvent::Lifted`] each). While one group is in the air, only its own feet that need
///    a step may join it, and no other group lifts...
/// 3. ...unless one of its feet has been left more than `max_lag` behind (`max_lag > 0`), or its leg would not reach
///    it on the next frame: that foot lifts alone at once (the catch-up, counted in [`Gait::catch_ups`]). So no
///    planted foot is dragged more than `max_lag` (plus one frame's motion) however fast the body goes, nor past its
///    leg's reach: beyond the speed the gait can follow, steps overlap instead, up to every foot in the air. With
///    `max_lag` 0 the drift rule always holds and the feet drag instead (their reach still lifts them).
/// 4. From a standstill (every foot planted within a quarter step of home since the last group lift) the first group
///    lifts at `step_distance / groups`, and the reach looks `groups` steps ahead, so the groups do not reach their
///    step together. Once the body has stood still (below 1 px/s across `up`) for 0.2 s, a foot more than a quarter
///    step from home needs a step, once (it then stands as near home as its leg reaches).
///
/// A foot that lands stays down for the rest of its frame (a footstep is never a landing and a lift at once).
///
/// A lifting foot aims at [`landing_aim`] and asks `ground(home, aim)` where it plants: `Some(point)` or `None` (no
/// ground: it swings along under its home and hangs there); with a reach, a landing its leg would not reach from
/// where the hip will be is moved there ([`LegReach::landing_within`]) and the ground asked again. A swing's arc
/// that would fold its leg onto the hip is lowered or moved out ([`LegReach::below_fold`]). Feet beyond
/// `frame.homes` are left alone. No allocation, no panic; a non-finite input gives no NaN goal of its own (a NaN home
/// gives NaN only to its foot).
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
    let reach = &frame.reach[..frame.reach.len().min(n)];
    for foot in feet.iter_mut() {
        foot.landed = false;
    }
    advance_swings(feet, homes, reach, frame, settings, &mut ground, &mut events);
    let up = frame.up;
    let velocity = finite_or_zero(frame.velocity);
    let step = non_negative(settings.step_distance);
    let duration = non_negative(settings.step_duration);
    let delta = non_negative(frame.delta);
    let pace = Pace::of(gait, feet, velocity - up * velocity.dot(up), delta, step, duration);
    // The drift of a foot that may lift now: planted, and not on the frame it landed.
    let drift_of = |feet: &[StepFoot], i: usize| {
        feet[i].planted_at().filter(|_| !feet[i].landed).map(|at| drift(at, homes[i], up))
    };
    // A foot that may lift and will not stand `ahead` seconds from now (its leg would stretch past its reach).
    let strained = |feet: &[StepFoot], i: usize, ahead: f32| {
        let at = feet[i].planted_at().filter(|_| !feet[i].landed);
        at.zip(reach.get(i)).is_some_and(|(at, reach)| !reach.stands(at, velocity * ahead))
    };
    let still_since = gait.still_since;
    let settled_home = |feet: &[StepFoot], i: usize| pace.stopped && feet[i].lifted > still_since;
    let needs = |feet: &[StepFoot], i: usize, beyond: f32| {
        let drifted = drift_of(feet, i).is_some_and(|d| d > beyond) && !settled_home(feet, i);
        drifted || strained(feet, i, pace.look_ahead)
    };
    let mut in_air = groups_in_air(feet);
    let mut lift_now = |foot: &mut StepFoot, i: usize| {
        lift(foot, i, homes[i], reach.get(i), frame, settings, &mut ground, &mut events);
    };
    if in_air == 0 {
        if let Some(group) = next_group(feet, |i| needs(feet, i, pace.threshold)) {
            let turn = gait.next_turn();
            gait.settled = false;
            for i in 0..n {
                if feet[i].group % MAX_GROUPS != group {
                    continue;
                }
                let lifts = needs(feet, i, STEP_TOGETHER * step);
                feet[i].turn = turn;
                if lifts {
                    lift_now(&mut feet[i], i);
                }
            }
            in_air = 1 << group;
        }
    } else {
        for i in 0..n {
            // Only the one group in the air (a hanging foot stepping down may have put a second one there).
            if in_air == group_bit(&feet[i]) && needs(feet, i, pace.threshold) {
                lift_now(&mut feet[i], i);
            }
        }
    }
    // The catch-ups: a foot left more than `max_lag` behind while a foot is in the air (of any group: two groups
    // can be in the air, and then neither joins by rule 2), or one whose leg would stretch past its reach by the
    // next frame, lifts at once.
    let max_lag = non_negative(settings.max_lag);
    for i in 0..n {
        let lagging = in_air != 0 && max_lag > 0.0 && drift_of(feet, i).is_some_and(|d| d > max_lag);
        if lagging || strained(feet, i, delta) {
            feet[i].turn = gait.next_turn();
            gait.catch_ups += 1;
            lift_now(&mut feet[i], i);
        }
    }
    gait.settle(feet, |i| feet[i].planted_at().is_some_and(|at| drift(at, homes[i], up) <= STEP_TOGETHER * step));
    set_goals(feet, homes, reach, up, settings.step_height);
}

/// How eagerly feet lift this frame.
struct Pace {
    /// The body has stood still long enough: the feet step home.
    stopped: bool,
    /// The drift (px) beyond which a planted foot needs a step.
    threshold: f32,
    /// How far ahead (seconds) a foot must still stand, or it needs a step now.
    look_ahead: f32,
}

impl Pace {
    /// Walking: a step's drift, and standing until a swing that starts now has ended. Standing still for a while:
    /// a quarter step (the feet step home). From a standstill (every foot planted near home since): the groups
    /// lift in turn, the first at `1 / groups` of a step, so they do not all reach the step at once.
    fn of(gait: &mut Gait, feet: &[StepFoot], across: Vec2, delta: f32, step: f32, duration: f32) -> Self {
        let still = if across.length() <= STILL_SPEED { gait.still + delta } else { 0.0 };
        if still >= STILL_TIME && gait.still < STILL_TIME {
            gait.still_since = gait.turn;
        }
        gait.still = still;
        if still >= STILL_TIME {
            return Self { stopped: true, threshold: STEP_TOGETHER * step, look_ahead: duration };
        }
        let groups = feet.iter().fold(0u64, |bits, f| bits | group_bit(f)).count_ones().max(1) as f32;
        if gait.settled {
            Self { stopped: false, threshold: step / groups, look_ahead: duration * groups }
        } else {
            Self { stopped: false, threshold: step, look_ahead: duration }
        }
    }
}

/// The body counts as standing still below this speed across `up`, px/s...
const STILL_SPEED: f32 = 1.0;
/// ...for this long, seconds: then feet more than a quarter step from home step home.
const STILL_TIME: f32 = 0.2;

fn finite_or_zero(v: Vec2) -> Vec2 {
    if v.is_finite() { v } else { Vec2::ZERO }
}

/// Rule 1: swings advance and land, hanging feet look for ground.
fn advance_swings<G: FnMut(Vec2, Vec2) -> Option<Vec2>, E: FnMut(StepEvent)>(
    feet: &mut [StepFoot],
    homes: &[Vec2],
    reach: &[LegReach],
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
                if let Some(to) = landing(home, reach.get(i), frame, settings, ground) {
                    foot.phase = FootPhase::Swinging { from: foot.goal, to, progress: 0.0, lands: true };
                }
            }
            FootPhase::Planted { .. } => {}
        }
    }
}

/// Lifts foot `i` (home `home`) toward its landing aim, or toward its home when there is no ground there.
#[allow(clippy::too_many_arguments)]
fn lift<G: FnMut(Vec2, Vec2) -> Option<Vec2>, E: FnMut(StepEvent)>(
    foot: &mut StepFoot,
    i: usize,
    home: Vec2,
    reach: Option<&LegReach>,
    frame: &StepFrame,
    settings: &StepSettings,
    ground: &mut G,
    events: &mut E,
) {
    let (to, lands) = match landing(home, reach, frame, settings, ground) {
        Some(point) => (point, true),
        None => (home, false),
    };
    foot.phase = FootPhase::Swinging { from: foot.goal, to, progress: 0.0, lands };
    foot.lifted = foot.turn;
    events(StepEvent::Lifted(i));
}

/// Where a foot whose home is `home` lands when it lifts now: the ground at its [`landing_aim`], moved (and the
/// ground asked again, at most twice) to where its leg reaches it from where the hip will be when it lands
/// ([`LegReach::landing_within`]). `None` without ground.
fn landing<G: FnMut(Vec2, Vec2) -> Option<Vec2>>(
    home: Vec2,
    reach: Option<&LegReach>,
    frame: &StepFrame,
    settings: &StepSettings,
    ground: &mut G,
) -> Option<Vec2> {
    let aim = landing_aim(home, frame.velocity, frame.up, settings);
    let mut point = ground(home, aim)?;
    let Some(reach) = reach.filter(|r| r.usable()) else { return Some(point) };
    let velocity = finite_or_zero(frame.velocity);
    let hip = reach.hip + velocity * non_negative(settings.step_duration);
    let across = velocity - frame.up * velocity.dot(frame.up);
    let forward = across.try_normalize().unwrap_or(frame.up.perp());
    for _ in 0..2 {
        let within = reach.landing_within(point, hip, frame.up, forward);
        if within == point {
            break;
        }
        match ground(home, within) {
            Some(again) => point = again,
            None => break,
        }
    }
    Some(point)
}

/// Each foot's goal from its phase.
/// Each foot's goal from its phase; a swing's arc is kept from folding its leg onto the hip (lowered there).
fn set_goals(feet: &mut [StepFoot], homes: &[Vec2], reach: &[LegReach], up: Vec2, height: f32) {
    for (i, (foot, &home)) in feet.iter_mut().zip(homes).enumerate() {
        foot.goal = match foot.phase {
            FootPhase::Planted { at } => at,
            FootPhase::Swinging { from, to, progress, .. } => {
                let point = swing_point(from, to, up, height, progress);
                // At most the arc's own lift comes off: the path under it clears the step's edge.
                let lift = (point - swing_point(from, to, up, 0.0, progress)).dot(up);
                reach.get(i).map_or(point, |reach| reach.below_fold(point, up, lift))
            }
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
