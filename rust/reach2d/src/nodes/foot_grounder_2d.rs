//! `FootGrounder2D`: puts the feet of one or two `TwoBoneIk2D` legs on the physics world's ground, turns each foot
//! bone to the slope and lowers the hips so the lower foot still reaches.
//!
//! A helper node rather than a property of the leg, because lowering the hips needs every leg's ground at once,
//! before either leg solves. It never writes a user's node: each leg reaches for a goal the grounder hands it on the
//! Rust side (`TwoBoneIk2D::solve_toward`), in place of its target; the hips get a position offset the grounder owns
//! and the foot bones a rotation, both remembered and put back when it is disabled, leaves the tree or runs in the
//! editor (where it writes nothing). The ray queries reuse `SpringChain2D`'s query objects (`spring_collision.rs`).

use godot::classes::notify::CanvasItemNotification;
use godot::classes::physics_server_2d::AreaParameter;
use godot::classes::{Bone2D, INode2D, Node2D, PhysicsServer2D};
use godot::prelude::*;
use reach2d_core::ground::{GroundHit, GroundSettings, hips_drop, reach_drop, rotate, step_offset, step_value};
use reach2d_core::{SpringCollider, Vec2, wrap_angle};

use crate::checked;
use crate::editor::in_editor;
use crate::frame::{self, RUNTIME_PROCESS_PRIORITY, counted};
use crate::io::convert::{affine, vec2, vector2};
use crate::nodes::two_bone_ik_2d::TwoBoneIk2D;
use crate::problem::Problem;
use crate::spring_collision::{Filter, WorldQueries};

const CLASS: &str = "FootGrounder2D";
/// The update modes' names, by value, for error messages.
const MODE_NAMES: [&str; 3] = ["UPDATE_PROCESS", "UPDATE_PHYSICS", "UPDATE_MANUAL"];
/// A read value within this of what the grounder wrote is its own.
const OWN_VALUE: f32 = 1e-5;

/// Puts the feet of one or two [TwoBoneIk2D] legs on the ground of the physics world: each foot's ray finds the
/// ground under where the animation put the foot, the leg reaches for that point, the foot bone turns to the
/// slope, and the hips come down so the lower foot still reaches on a slope or a stair.
///
/// [b]How it works.[/b] Every frame (after the animation, like the IK nodes) and for each leg: the foot's
/// [i]animated[/i] position is the end of the leg's [member TwoBoneIk2D.tip_bone] in the pose the IK did not write
/// (the animation's, or the scene's). A ray along gravity (the world's gravity direction, read once) through that
/// foot, from [member ray_above] above this node's ground line to [member ray_below] below it, finds the ground on
/// [member collision_mask]. The leg then reaches for the hit point plus [member foot_height] along the ground's
/// normal, plus the height the animation lifted the foot above this node's ground line (a swinging foot keeps its
/// swing). Put this node where the animation's feet stand: its global position marks the ground line, the line
/// through it perpendicular to gravity. A foot whose ray finds nothing follows its animation.
///
/// This node solves its legs itself, at run time: a leg named here does not solve by itself then (its
/// [member TwoBoneIk2D.update_mode] is unused), but keeps everything else ([member TwoBoneIk2D.pole], limits,
/// [member TwoBoneIk2D.weight], speed limit). A leg needs no [member TwoBoneIk2D.target]: the ground goal replaces
/// it, and the user's target is never moved.
///
/// [b]Feet and hips.[/b] [member first_foot] and [member second_foot] (optional: direct Bone2D children of each
/// leg's tip bone) keep their animated angle to the world, turned by the ground's slope up to [member max_tilt]. The
/// hips node (optional: a bone or node above both legs) is moved down along gravity by as much as the leg that
/// needs it most, up to [member max_hips_drop], so every leg reaches its ground as extended as the animation had it, as an offset to its own position: an animation that moves
/// the hips keeps working, and the offset is taken back when this node is disabled or leaves the tree. The feet's
/// goals, the feet's turn and the hips move at most [member foot_speed], [member tilt_speed] and
/// [member hips_speed] per second, so a foot whose ray crosses a stair's edge glides up or down instead of popping.
///
/// Nothing runs in the editor: the scene always stores your own pose. Everything is plane geometry on global
/// vectors, so a character mirrored with a negative scale on mirrored ground gets the exact mirror image.
#[derive(GodotClass)]
#[class(init, tool, base = Node2D)]
pub struct FootGrounder2D {
    /// If [code]false[/code], the legs solve by themselves again (toward their targets), the hips and feet get
    /// their own pose back, and nothing is cast.
    #[export]
    #[var(set = set_enabled)]
    #[init(val = true)]
    enabled: bool,
    /// When the node grounds the feet: every process frame ([constant UPDATE_PROCESS]), every physics frame
    /// ([constant UPDATE_PHYSICS]), or only when [method advance] is called ([constant UPDATE_MANUAL]). Any other
    /// value is an error and is ignored.
    #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
    #[var(set = set_update_mode)]
    update_mode: i64,
    /// The first leg: a [TwoBoneIk2D] whose [member TwoBoneIk2D.tip_bone] ends at the ankle.
    #[export_group(name = "Legs")]
    #[export]
    first_leg: Option<Gd<TwoBoneIk2D>>,
    /// Optional: the first leg's foot, a direct Bone2D child of its tip bone, turned to the ground's slope.
    #[export]
    first_foot: Option<Gd<Bone2D>>,
    /// Optional: the second leg, like [member first_leg].
    #[export]
    second_leg: Option<Gd<TwoBoneIk2D>>,
    /// Optional: the second leg's foot, like [member first_foot].
    #[export]
    second_foot: Option<Gd<Bone2D>>,
    /// The physics layers the feet stand on (a 32-bit mask; anything else is an error and is ignored).
    #[export_group(name = "Ground")]
    #[export(flags_2d_physics)]
    #[var(set = set_collision_mask)]
    #[init(val = 1)]
    collision_mask: i64,
    /// Stand on physics bodies (static, kinematic, rigid, character).
    #[export]
    #[init(val = true)]
    collide_with_bodies: bool,
    /// Stand on [Area2D]s.
    #[export]
    collide_with_areas: bool,
    /// How far above the ground line each ray starts, in global pixels: the highest step a foot climbs. A negative
    /// (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 500.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_ray_above)]
    #[init(val = 40.0)]
    ray_above: f32,
    /// How far below the ground line each ray ends, in global pixels: the deepest step a foot goes down. A negative
    /// (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 500.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_ray_below)]
    #[init(val = 60.0)]
    ray_below: f32,
    /// How far the leg's end (the ankle) stays off the ground, in global pixels, along the ground's normal: the
    /// foot's own height. A negative (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 100.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_foot_height)]
    foot_height: f32,
    /// The most a foot bone turns to the ground's slope, in radians, in [0, PI/2]; steeper ground turns it this
    /// far. Anything else (or NaN) is an error and is ignored.
    #[export_group(name = "Feet")]
    #[export(range = (0.0, 90.0, 0.1, radians_as_degrees))]
    #[var(set = set_max_tilt)]
    #[init(val = 0.6)]
    max_tilt: f32,
    /// The most a foot's turn to the slope changes per second, radians per second; 0 = no limit. A negative (or not
    /// finite) value is an error and is ignored.
    #[export(range = (0.0, 50.0, 0.1, or_greater, suffix = "rad/s"))]
    #[var(set = set_tilt_speed)]
    #[init(val = 8.0)]
    tilt_speed: f32,
    /// The most a foot's ground correction (its goal minus its animated position) changes per second, in global
    /// pixels per second; 0 = no limit. A foot whose ray crosses a stair's edge moves up or down at this speed. A
    /// negative (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 5000.0, 1.0, or_greater, suffix = "px/s"))]
    #[var(set = set_foot_speed)]
    #[init(val = 600.0)]
    foot_speed: f32,
    /// Optional: the node or bone moved down so the lower foot still reaches (the hips or pelvis bone, above both
    /// legs' root bones). Its [member Node2D.position] gets an offset along gravity that this node owns and takes
    /// back when disabled or leaving the tree; a position someone else sets (an animation) becomes the one the offset
    /// is added to.
    #[export_group(name = "Hips")]
    #[export]
    hips: Option<Gd<Node2D>>,
    /// The most the hips come down, in global pixels; 0 = never. A negative (or not finite) value is an error and is
    /// ignored.
    #[export(range = (0.0, 200.0, 0.5, or_greater, suffix = "px"))]
    #[var(set = set_max_hips_drop)]
    #[init(val = 30.0)]
    max_hips_drop: f32,
    /// The most the hips' drop changes per second, in global pixels per second; 0 = no limit. Keep it at least
    /// [member foot_speed], or a foot stepping down may briefly be out of reach while the hips follow. A negative
    /// (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 5000.0, 1.0, or_greater, suffix = "px/s"))]
    #[var(set = set_hips_speed)]
    #[init(val = 600.0)]
    hips_speed: f32,
    feet: [Foot; 2],
    hips_offset: HipsOffset,
    queries: Option<WorldQueries>,
    /// Unit vector against gravity, read from the world once.
    up: Option<Vec2>,
    /// The legs this node marked as grounded (to unmark them when a slot changes).
    marked: [Option<Gd<TwoBoneIk2D>>; 2],
    /// Whether the marked legs were last told they are driven.
    marked_driven: bool,
    /// The grounder wrote the hips or a foot, or drives the legs, since it last put everything back.
    active: bool,
    problem: Option<GroundProblem>,
    reported: Option<GroundProblem>,
    base: Base<Node2D>,
}

/// One foot's memory between frames.
#[derive(Default)]
struct Foot {
    /// The smoothed correction: the leg's goal minus the animated end effector, global px (`None`: not yet).
    offset: Option<Vec2>,
    /// The smoothed turn to the slope, radians.
    tilt: f32,
    /// The goal the leg got last, global px.
    goal: Vec2,
    /// The last ray hit the ground.
    grounded: bool,
    /// The foot bone's rotation this node wrote last, and its last rotation this node did not write.
    written: Option<f32>,
    unwritten: f32,
}

/// The hips' offset this node owns.
#[derive(Default)]
struct HipsOffset {
    /// The hips' local position without the offset (the scene's or the animation's).
    authored: Vector2,
    /// The local position written last (`None`: nothing written).
    written: Option<Vector2>,
    /// The smoothed drop, global px, and the global offset it was written as.
    drop: f32,
    global: Vec2,
}

/// Why the grounder could not ground a leg: reported once, shown as a configuration warning.
#[derive(Clone, Copy, Debug, PartialEq)]
enum GroundProblem {
    NoLegs,
    LegFreed(usize),
    /// The leg's own setup or pose is broken (its bones), as the leg would say.
    Leg(usize, Problem),
    FootFreed(usize),
    FootNotChildOfTip(usize),
    HipsFreed,
    HipsCollapsed,
    NoWorld,
    DeltaNotFinite,
}

impl GroundProblem {
    fn message(self) -> String {
        let leg = |i: usize| if i == 0 { "first_leg" } else { "second_leg" };
        let foot = |i: usize| if i == 0 { "first_foot" } else { "second_foot" };
        match self {
            Self::NoLegs => "No legs: set `first_leg` (and `second_leg`) to TwoBoneIk2D legs.".into(),
            Self::LegFreed(i) => format!("`{}` was freed: set it to a TwoBoneIk2D that exists, or clear it.", leg(i)),
            Self::Leg(i, problem) => format!("`{}`: {}", leg(i), problem.message("TwoBoneIk2D")),
            Self::FootFreed(i) => {
                format!("`{}` was freed or is outside the tree: set it to a Bone2D that exists, or clear it.", foot(i))
            }
            Self::FootNotChildOfTip(i) => {
                format!("`{}` must be a direct Bone2D child of `{}`'s tip bone.", foot(i), leg(i))
            }
            Self::HipsFreed => {
                "`hips` was freed or is outside the tree: set it to a Node2D that exists, or clear it.".into()
            }
            Self::HipsCollapsed => "`hips` has a zero scale or a NaN transform: the hips keep their position.".into(),
            Self::NoWorld => "The node has no physics world (World2D) to cast its rays in.".into(),
            Self::DeltaNotFinite => "`advance(delta)`: delta is NaN or infinite: give a finite time in seconds.".into(),
        }
    }
}

/// What a frame starts from: the ground settings, the hips (if set and alive), the global offset they carry now,
/// and a problem found so far.
type FrameStart = (GroundSettings, Option<Gd<Node2D>>, Vec2, Option<GroundProblem>);

/// One leg's reading this frame, before the hips move.
struct LegNow {
    leg: Gd<TwoBoneIk2D>,
    /// The animated end effector and tip bone transform, without the hips' offset.
    end: Vec2,
    tip: glam::Affine2,
    offset: Vec2,
    /// How far the hips must come down for this leg to reach its ground with its animated extension, px.
    drop: f32,
    tilt: f32,
    grounded: bool,
}

#[godot_api]
impl INode2D for FootGrounder2D {
    fn ready(&mut self) {
        frame::take_runtime_priority(&mut self.base_mut(), RUNTIME_PROCESS_PRIORITY);
        self.mark_legs();
        self.base_mut().update_configuration_warnings();
    }
    fn process(&mut self, delta: f64) {
        self.tick(0, delta);
    }
    fn physics_process(&mut self, delta: f64) {
        self.tick(1, delta);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        if what == CanvasItemNotification::EXIT_TREE {
            self.let_go();
            self.unmark_legs();
        }
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        let mut warnings = PackedStringArray::new();
        let problem = if self.first_leg.is_none() && self.second_leg.is_none() {
            Some(GroundProblem::NoLegs)
        } else {
            self.problem
        };
        if let Some(problem) = problem {
            warnings.push(&problem.message());
        }
        warnings
    }
}

#[godot_api]
impl FootGrounder2D {
    /// [member update_mode]: ground the feet every process frame (the default).
    #[constant]
    pub const UPDATE_PROCESS: i32 = 0;
    /// [member update_mode]: ground the feet every physics frame.
    #[constant]
    pub const UPDATE_PHYSICS: i32 = 1;
    /// [member update_mode]: ground the feet only when [method advance] is called.
    #[constant]
    pub const UPDATE_MANUAL: i32 = 2;

    /// Grounds the feet now, advancing the speed limits by [param delta] seconds, whatever [member update_mode]
    /// says (not in the editor, and not while disabled). Returns [code]true[/code] when every named leg was solved.
    #[func]
    pub fn advance(&mut self, delta: f64) -> bool {
        if !delta.is_finite() || delta < 0.0 {
            counted(|| self.note(Some(GroundProblem::DeltaNotFinite)));
            return false;
        }
        self.ground(delta)
    }

    /// The goal the leg at [param index] (0: [member first_leg], 1: [member second_leg]) reached for last, global
    /// px; [code]Vector2.ZERO[/code] for another index (with an error).
    #[func]
    pub fn get_foot_goal(&self, index: i64) -> Vector2 {
        self.foot(index).map_or(Vector2::ZERO, |f| vector2(f.goal))
    }

    /// [code]true[/code] when the ray of the leg at [param index] found ground on the last frame.
    #[func]
    pub fn is_foot_grounded(&self, index: i64) -> bool {
        self.foot(index).is_some_and(|f| f.grounded)
    }

    /// The turn to the slope the foot at [param index] was given on the last frame, radians (clockwise on screen
    /// is positive, as for [member Node2D.rotation]).
    #[func]
    pub fn get_foot_tilt(&self, index: i64) -> f32 {
        self.foot(index).map_or(0.0, |f| f.tilt)
    }

    /// How far the hips are lowered now, global px along gravity (0 without [member hips]).
    #[func]
    pub fn get_hips_drop(&self) -> f32 {
        self.hips_offset.drop
    }

    /// Sets [member enabled]; disabling puts the hips and feet back and lets the legs solve by themselves.
    #[func]
    fn set_enabled(&mut self, value: bool) {
        self.enabled = value;
        if !value {
            self.let_go();
        }
    }

    /// Sets [member update_mode]: anything but [constant UPDATE_PROCESS], [constant UPDATE_PHYSICS] or
    /// [constant UPDATE_MANUAL] prints an error and keeps the current mode.
    #[func]
    fn set_update_mode(&mut self, value: i64) {
        checked::set_enum(&mut self.update_mode, CLASS, "update_mode", value, &MODE_NAMES);
    }

    /// Sets [member collision_mask]: a value outside the 32 layers' bits prints an error and keeps the current one.
    #[func]
    fn set_collision_mask(&mut self, value: i64) {
        checked::set_int(&mut self.collision_mask, CLASS, "collision_mask", value, 0, i64::from(u32::MAX));
    }

    /// Sets [member ray_above]: a negative (or not finite) value prints an error and keeps the current one.
    #[func]
    fn set_ray_above(&mut self, value: f32) {
        checked::set_float(&mut self.ray_above, CLASS, "ray_above", value, 0.0, f32::MAX);
    }

    /// Sets [member ray_below]: a negative (or not finite) value prints an error and keeps the current one.
    #[func]
    fn set_ray_below(&mut self, value: f32) {
        checked::set_float(&mut self.ray_below, CLASS, "ray_below", value, 0.0, f32::MAX);
    }

    /// Sets [member foot_height]: a negative (or not finite) value prints an error and keeps the current one.
    #[func]
    fn set_foot_height(&mut self, value: f32) {
        checked::set_float(&mut self.foot_height, CLASS, "foot_height", value, 0.0, f32::MAX);
    }

    /// Sets [member max_tilt]: a value outside [0, PI/2] (or NaN) prints an error and keeps the current one.
    #[func]
    fn set_max_tilt(&mut self, value: f32) {
        checked::set_float(&mut self.max_tilt, CLASS, "max_tilt", value, 0.0, core::f32::consts::FRAC_PI_2);
    }

    /// Sets [member tilt_speed]: a negative (or not finite) value prints an error and keeps the current one.
    #[func]
    fn set_tilt_speed(&mut self, value: f32) {
        checked::set_float(&mut self.tilt_speed, CLASS, "tilt_speed", value, 0.0, f32::MAX);
    }

    /// Sets [member foot_speed]: a negative (or not finite) value prints an error and keeps the current one.
    #[func]
    fn set_foot_speed(&mut self, value: f32) {
        checked::set_float(&mut self.foot_speed, CLASS, "foot_speed", value, 0.0, f32::MAX);
    }

    /// Sets [member max_hips_drop]: a negative (or not finite) value prints an error and keeps the current one.
    #[func]
    fn set_max_hips_drop(&mut self, value: f32) {
        checked::set_float(&mut self.max_hips_drop, CLASS, "max_hips_drop", value, 0.0, f32::MAX);
    }

    /// Sets [member hips_speed]: a negative (or not finite) value prints an error and keeps the current one.
    #[func]
    fn set_hips_speed(&mut self, value: f32) {
        checked::set_float(&mut self.hips_speed, CLASS, "hips_speed", value, 0.0, f32::MAX);
    }
}

/// `speed` per second over `delta` seconds: the most a value may move in one frame (0: no limit).
fn max_step(speed: f32, delta: f64) -> f32 {
    if speed > 0.0 { (f64::from(speed) * delta.max(0.0)) as f32 } else { f32::INFINITY }
}

/// What a node slot holds: nothing, a freed object (never cloned: that panics), or a live handle.
enum Slot<T: GodotClass> {
    Empty,
    Freed,
    Live(Gd<T>),
}

fn slot<T: GodotClass>(value: &Option<Gd<T>>) -> Slot<T> {
    match value {
        None => Slot::Empty,
        Some(node) if !node.is_instance_valid() => Slot::Freed,
        Some(node) => Slot::Live(node.clone()),
    }
}

/// The live handle in `value`, if any.
fn live<T: GodotClass>(value: &Option<Gd<T>>) -> Option<Gd<T>> {
    value.as_ref().filter(|node| node.is_instance_valid()).cloned()
}

fn is_alive<T: GodotClass + Inherits<Node>>(node: &Gd<T>) -> bool {
    node.is_instance_valid() && node.clone().upcast::<Node>().is_inside_tree()
}

impl FootGrounder2D {
    fn foot(&self, index: i64) -> Option<&Foot> {
        let foot = usize::try_from(index).ok().and_then(|i| self.feet.get(i));
        if foot.is_none() {
            godot_error!("{CLASS}: leg index {index} is not 0 or 1");
        }
        foot
    }

    /// `_process` (`mode` 0) or `_physics_process` (1).
    fn tick(&mut self, mode: i64, delta: f64) {
        self.mark_legs();
        if in_editor() || !self.enabled || self.update_mode != mode {
            return;
        }
        self.ground(delta);
    }

    /// Marks the named legs as grounded by this node (driven at run time while enabled), unmarking a leg that left
    /// its slot. Cheap: a comparison of instance ids per leg, and a call only on a change.
    fn mark_legs(&mut self) {
        let driven = !in_editor() && self.enabled;
        let slots = [live(&self.first_leg), live(&self.second_leg)];
        for (marked, slot) in self.marked.iter_mut().zip(slots) {
            let same = match (&*marked, &slot) {
                (Some(a), Some(b)) => a.instance_id_unchecked() == b.instance_id_unchecked(),
                (None, None) => true,
                _ => false,
            };
            if !same && let Some(mut old) = marked.take().filter(|leg| leg.is_instance_valid()) {
                old.bind_mut().set_grounding(false, false);
            }
            if let Some(mut leg) = slot {
                if !same || self.marked_driven != driven {
                    leg.bind_mut().set_grounding(true, driven);
                }
                *marked = Some(leg);
            }
        }
        self.marked_driven = driven;
    }

    fn unmark_legs(&mut self) {
        for marked in &mut self.marked {
            if let Some(mut leg) = marked.take().filter(|leg| leg.is_instance_valid()) {
                leg.bind_mut().set_grounding(false, false);
            }
        }
    }

    /// Remembers the current problem and prints a new one once.
    fn note(&mut self, problem: Option<GroundProblem>) {
        if problem.is_some() && problem != self.reported {
            let base = self.base();
            let path = if base.is_inside_tree() { base.get_path().to_string() } else { base.get_name().to_string() };
            if let Some(problem) = problem {
                godot_error!("{CLASS} ({path}): {}", problem.message());
            }
        }
        if problem.is_some() {
            self.reported = problem;
        }
        if self.problem != problem {
            self.problem = problem;
            self.base_mut().update_configuration_warnings();
        }
    }

    /// One frame: read each leg's animated foot, cast, lower the hips, solve the legs, turn the feet. Returns
    /// `true` when every named leg was solved.
    ///
    /// The allocation counter (`counted`) wraps everything but the two `bind_mut` calls per leg: in debug builds
    /// godot-rust's borrow tracker records each bind (with a backtrace under `RUST_BACKTRACE`), which is the call
    /// layer's cost, not ours (release builds disengage it); the leg counts its own part of each call.
    fn ground(&mut self, delta: f64) -> bool {
        if in_editor() || !self.enabled {
            return false;
        }
        self.mark_legs();
        self.active = true;
        let node = self.to_gd().upcast::<Node2D>();
        let Some((settings, hips, carried, mut problem)) = counted(|| self.begin(&node)) else {
            counted(|| self.note(Some(GroundProblem::NoWorld)));
            return false;
        };
        let filter = self.filter();

        // Each leg's animated foot, without the hips' offset, and its ground.
        let slots = [slot(&self.first_leg), slot(&self.second_leg)];
        if slots.iter().all(|s| matches!(s, Slot::Empty)) {
            problem = Some(GroundProblem::NoLegs);
        }
        let mut now: [Option<LegNow>; 2] = [None, None];
        for (i, slot) in slots.into_iter().enumerate() {
            let mut leg = match slot {
                Slot::Empty => continue,
                Slot::Freed => {
                    problem = Some(GroundProblem::LegFreed(i));
                    continue;
                }
                Slot::Live(leg) => leg,
            };
            let animated = leg.bind_mut().animated_limb();
            let queries = &mut self.queries;
            now[i] = counted(|| {
                let (root, end, mut tip) = match animated {
                    Ok(Some(animated)) => animated,
                    Ok(None) => return None,
                    Err(p) => {
                        problem = Some(GroundProblem::Leg(i, p));
                        return None;
                    }
                };
                let (root, end) = (root - carried, end - carried);
                tip.translation -= carried;
                let ray = settings.ray(end);
                let mut space = queries.get_or_insert_with(WorldQueries::new).in_space_of(&node, filter)?;
                let hit = space.sweep(ray.from, ray.to - ray.from, 0.0).and_then(|(point, normal)| {
                    let normal = normal.try_normalize()?;
                    Some(GroundHit { point, normal })
                });
                let offset = hit.map_or(Vec2::ZERO, |hit| settings.planted(end, hit) - end);
                let tilt = hit.map_or(0.0, |hit| settings.tilt(hit));
                let drop = reach_drop(root, end, end + offset, settings.up);
                Some(LegNow { leg, end, tip, offset, drop, tilt, grounded: hit.is_some() })
            });
        }

        // The hips: as low as the lowest foot needs, at most max_hips_drop, moving at most hips_speed.
        if let Some(mut hips) = hips {
            counted(|| {
                let wanted = hips_drop(now.iter().flatten().map(|n| n.drop), self.max_hips_drop);
                let drop = step_value(self.hips_offset.drop, wanted, max_step(self.hips_speed, delta));
                if let Err(p) = self.hips_offset.write(&mut hips, drop, -settings.up * drop) {
                    problem = Some(p);
                }
            });
        }

        // The legs, then the feet.
        let (foot_step, tilt_step) = (max_step(self.foot_speed, delta), max_step(self.tilt_speed, delta));
        let foot_bones = [slot(&self.first_foot), slot(&self.second_foot)];
        let mut all_solved = problem.is_none();
        for (i, leg_now) in now.into_iter().enumerate() {
            let Some(LegNow { mut leg, end, tip, offset, tilt, grounded, .. }) = leg_now else { continue };
            let foot = &mut self.feet[i];
            let goal = counted(|| {
                let offset = foot.offset.map_or(offset, |last| step_offset(last, offset, foot_step));
                foot.offset = Some(offset);
                foot.goal = end + offset;
                foot.grounded = grounded;
                foot.tilt = step_value(foot.tilt, tilt, tilt_step);
                foot.goal
            });
            let (solved, tip_bone) = {
                let mut leg = leg.bind_mut();
                let solved = leg.solve_toward(goal, delta);
                (solved, leg.resolved_tip().filter(|t| t.is_instance_valid()).cloned())
            };
            if !solved {
                all_solved = false;
                continue;
            }
            let turned = counted(|| match &foot_bones[i] {
                Slot::Empty => Ok(()),
                Slot::Freed => Err(GroundProblem::FootFreed(i)),
                Slot::Live(bone) => foot.turn(bone, tip_bone, tip, i),
            });
            if let Err(p) = turned {
                problem = Some(p);
            }
        }
        counted(|| self.note(problem));
        all_solved && problem.is_none()
    }

    fn filter(&self) -> Filter {
        Filter {
            mask: u32::try_from(self.collision_mask).unwrap_or(u32::MAX),
            bodies: self.collide_with_bodies,
            areas: self.collide_with_areas,
        }
    }

    /// The frame's ground settings, the hips (if set and alive) with the offset they carry now (ours, or none when
    /// someone else set their position), and a problem found so far; `None` without a physics world.
    fn begin(&mut self, node: &Gd<Node2D>) -> Option<FrameStart> {
        node.get_world_2d()?;
        let up = *self.up.get_or_insert_with(|| world_up(node));
        let settings = GroundSettings {
            up,
            ground_line: vec2(node.get_global_position()),
            foot_height: self.foot_height,
            ray_above: self.ray_above,
            ray_below: self.ray_below,
            max_tilt: self.max_tilt,
        };
        let mut problem = None;
        let hips = match slot(&self.hips) {
            Slot::Live(hips) if is_alive(&hips) => Some(hips),
            Slot::Live(_) | Slot::Freed => {
                problem = Some(GroundProblem::HipsFreed);
                self.hips_offset = HipsOffset::default();
                None
            }
            Slot::Empty => None,
        };
        let carried = hips.as_ref().map_or(Vec2::ZERO, |hips| self.hips_offset.carried(hips));
        Some((settings, hips, carried, problem))
    }

    /// Takes back everything this node wrote: the hips' offset and the feet's turn; the legs solve by themselves.
    fn let_go(&mut self) {
        if let Some(mut hips) = live(&self.hips) {
            self.hips_offset.restore(&mut hips);
        }
        self.hips_offset = HipsOffset::default();
        let bones = [live(&self.first_foot), live(&self.second_foot)];
        for (foot, bone) in self.feet.iter_mut().zip(bones) {
            if let Some(mut bone) = bone
                && foot.written.is_some_and(|w| (bone.get_rotation() - w).abs() <= OWN_VALUE)
            {
                bone.set_rotation(foot.unwritten);
            }
            *foot = Foot::default();
        }
        if self.active {
            self.active = false;
            for leg in self.marked.iter_mut().flatten().filter(|l| l.is_instance_valid()) {
                leg.bind_mut().set_grounding(true, false);
            }
            self.marked_driven = false;
        }
    }
}

impl Foot {
    /// Turns the foot bone (a direct child of the leg's tip bone) to keep its animated angle to the world, turned by
    /// the smoothed tilt. `animated_tip` is the tip bone's global transform in the animated pose.
    fn turn(
        &mut self,
        bone: &Gd<Bone2D>,
        tip_bone: Option<Gd<Bone2D>>,
        animated_tip: glam::Affine2,
        index: usize,
    ) -> Result<(), GroundProblem> {
        if !is_alive(bone) {
            return Err(GroundProblem::FootFreed(index));
        }
        let Some(tip_bone) = tip_bone else {
            return Err(GroundProblem::FootNotChildOfTip(index));
        };
        let parent_is_tip = bone.get_parent().is_some_and(|p| p.instance_id() == tip_bone.instance_id());
        if !parent_is_tip {
            return Err(GroundProblem::FootNotChildOfTip(index));
        }
        let mut bone = bone.clone();
        let current = bone.get_rotation();
        if !self.written.is_some_and(|w| (current - w).abs() <= OWN_VALUE) {
            self.unwritten = current;
        }
        let animated = self.unwritten;
        let local = affine(bone.get_transform());
        // The bone's local basis without its rotation (scale and skew): local = rotate(rotation) * basis.
        let along = glam::Mat2::from_angle(-current) * local.matrix2 * Vec2::X;
        let animated_axis = animated_tip.matrix2 * (glam::Mat2::from_angle(animated) * along);
        let wanted_axis = rotate(animated_axis, self.tilt);
        let tip_now = affine(tip_bone.get_global_transform()).matrix2;
        if tip_now.determinant().abs() <= f32::EPSILON * tip_now.x_axis.length_squared().max(1e-30) {
            return Ok(()); // a collapsed tip: the leg reported it; the foot keeps its rotation
        }
        let in_tip = tip_now.inverse() * wanted_axis;
        let rotation = in_tip.to_angle() - along.to_angle();
        let rotation = animated + wrap_angle(rotation - animated);
        if rotation.is_finite() {
            bone.set_rotation(rotation);
            self.written = Some(rotation);
        }
        Ok(())
    }
}

impl HipsOffset {
    /// The global offset the hips carry now: ours when their position is still what we wrote, else none (someone
    /// else set it: that position becomes the authored one).
    fn carried(&mut self, hips: &Gd<Node2D>) -> Vec2 {
        let current = hips.get_position();
        match self.written {
            Some(written) if (current - written).length() <= OWN_VALUE => self.global,
            _ => {
                self.authored = current;
                self.written = None;
                Vec2::ZERO
            }
        }
    }

    /// Writes the hips' position as the authored one plus `global` (a global offset, `drop` px along gravity).
    fn write(&mut self, hips: &mut Gd<Node2D>, drop: f32, global: Vec2) -> Result<(), GroundProblem> {
        let global_basis = affine(hips.get_global_transform()).matrix2;
        let local_basis = affine(hips.get_transform()).matrix2;
        let det = global_basis.determinant();
        if !(det.is_finite() && det.abs() > 1e-10) {
            return Err(GroundProblem::HipsCollapsed);
        }
        // The parent's basis is global * local⁻¹, so a global offset is local * global⁻¹ * offset in the parent.
        let in_parent = local_basis * (global_basis.inverse() * global);
        let position = self.authored + vector2(in_parent);
        if !position.is_finite() {
            return Err(GroundProblem::HipsCollapsed);
        }
        hips.set_position(position);
        self.written = Some(hips.get_position());
        self.drop = drop;
        self.global = global;
        Ok(())
    }

    /// Puts the authored position back if the hips still hold ours.
    fn restore(&mut self, hips: &mut Gd<Node2D>) {
        if let Some(written) = self.written.take()
            && (hips.get_position() - written).length() <= OWN_VALUE
        {
            hips.set_position(self.authored);
        }
    }
}

/// The unit vector against the gravity of `node`'s physics space ((0, -1) when it has none or it is zero).
fn world_up(node: &Gd<Node2D>) -> Vec2 {
    let fallback = Vec2::new(0.0, -1.0);
    let Some(world) = node.get_world_2d() else { return fallback };
    let gravity = PhysicsServer2D::singleton().area_get_param(world.get_space(), AreaParameter::GRAVITY_VECTOR);
    gravity.try_to::<Vector2>().ok().map(vec2).and_then(|g| (-g).try_normalize()).unwrap_or(fallback)
}
