//! `LegStepper2D`'s run-time state and the steps of its frame (`nodes/leg_stepper_2d.rs` runs them in order): the
//! legs resolved from the `legs` array ([`StepperState::resolve`]), each leg's home ([`StepperState::place_homes`]),
//! the body's motion since the last frame (a teleport, a turn, its velocity: [`StepperState::motion`]), the walk with
//! the ground it asks for ([`StepperState::walk`], planting through `physics/ground.rs`) and the events it told, the body's raise and
//! tilt ([`StepperState::lean_body`], written through `body_offset.rs`) and the legs' solves. The planning is
//! `reach2d_core::stepper`'s.

use glam::{Affine2, Mat2};
use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::Vec2;
use reach2d_core::stepper::{
    self, BodyLean, Gait, LegReach, MAX_GROUPS, MIN_ROOM, StepEvent, StepFoot, StepFrame, StepSettings,
};

use crate::engine::convert::vec2;
use crate::engine::slot::{Slot, slot};
use crate::nodes::legs::body_offset::{PositionOffset, RotationOffset};
use crate::nodes::legs::{Leg, LegMarks};
use crate::physics::ground::{GroundQueries, GroundRays};
use crate::physics::queries::Filter;
use crate::problem::{Problem, Problems};
use crate::runtime::character_link::CharacterLink;
pub mod body;

/// Everything `LegStepper2D` keeps between frames.
#[derive(Default)]
pub struct StepperState {
    /// Per entry of `legs`, the leg it names (all usable once resolved).
    pub legs: Vec<Leg>,
    /// `legs`, `gait_groups` or `home_points` were resolved into `legs`, `feet` and the homes.
    pub resolved: bool,
    /// One per leg: its phase, goal and group.
    pub feet: Vec<StepFoot>,
    pub gait: Gait,
    /// Each foot's home this frame, global px.
    pub homes: Vec<Vec2>,
    /// Each home in this node's space, once known (from `home_points`, or read from the leg's authored pose).
    local_homes: Vec<Option<Vec2>>,
    /// Each leg's hip and lengths in this node's space, read with its home.
    local_reach: Vec<Option<LegReach>>,
    /// Each leg's reach this frame, global px.
    pub reach: Vec<LegReach>,
    /// A leg whose home leaves no room to step, found when the homes were read (a warning; it still walks).
    pub no_room: Option<Problem>,
    /// What the last frame's walk told, emitted as signals after it.
    pub events: Vec<StepEvent>,
    /// This node's global transform at the last walked frame (`None`: the feet are planted anew).
    last: Option<Affine2>,
    pub marks: LegMarks,
    pub problems: Problems,
    /// The rays' query objects and the world's up (`physics/ground.rs`).
    pub ground: GroundQueries,
    /// The body's raise (`amount`, px along up) and tilt (`amount`, radians).
    pub body_position: PositionOffset,
    pub body_rotation: RotationOffset,
    /// The walk's own raise and tilt of the body (px, radians), as at weight 1: the character's weight scales what
    /// is written, not the plan, so the steps (and the hips they reach from) do not depend on it.
    body_plan: BodyLean,
    /// The character's weight (`CharacterWeight2D`): it scales the body's raise and tilt; the legs apply their own.
    pub character: CharacterLink,
    /// The stepper wrote the body, or drives the legs, since it last let go.
    pub active: bool,
    /// Teleports so far (each re-planted every foot).
    pub teleports: u64,
    /// The signals' names, made once.
    pub signals: SignalNames,
}

/// `foot_lifted` and `foot_planted` as StringNames, made once (not per emission).
pub struct SignalNames {
    pub lifted: StringName,
    pub planted: StringName,
}

impl Default for SignalNames {
    fn default() -> Self {
        Self { lifted: StringName::from("foot_lifted"), planted: StringName::from("foot_planted") }
    }
}

/// What moved since the last frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    /// The body's velocity, px/s (zero on the first frame, a teleport, or a frame of no time).
    pub velocity: Vec2,
    /// Plant every foot anew (the first frame, a teleport).
    pub replant: bool,
    /// A teleport: the planted feet moved (told again, as a turn's are).
    pub teleport: bool,
    /// A turn: the map that reflects the feet with the body (about its last origin).
    pub turn: Option<Affine2>,
}

/// Where the feet plant this frame: the up the rays are cast against, the *Ground* group's reach (global px) and the
/// cosine of the steepest slope stood on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroundSettings {
    pub up: Vec2,
    pub rays: GroundRays,
    pub min_cos: f32,
}

impl StepperState {
    /// Resolves `nodes` into legs (a class lookup per entry: only when they changed) and makes one foot per leg in
    /// its gait group (`groups[i]`, or `i % 2`). The feet are planted anew on the next frame and the homes read
    /// again. Allocates.
    pub fn resolve(&mut self, nodes: &Array<Gd<Node2D>>, groups: &PackedInt32Array) -> Result<(), Problem> {
        self.legs.clear();
        self.feet.clear();
        self.forget_feet();
        for (i, node) in leg_nodes(nodes).enumerate() {
            let index = index_of(i);
            let leg = resolve_leg(node.as_ref(), index)?;
            if self.legs.iter().any(|other| other.id() == leg.id()) {
                return Err(Problem::StepperLegTwice(index));
            }
            self.legs.push(leg);
            let group = groups.as_slice().get(i).map_or((i % 2) as u32, |&g| g as u32 % MAX_GROUPS);
            self.feet.push(StepFoot::new(group));
        }
        if self.legs.is_empty() {
            return Err(Problem::NoStepperLegs);
        }
        let n = self.legs.len();
        self.homes.resize(n, Vec2::ZERO);
        self.local_homes.clear();
        self.local_homes.resize(n, None);
        self.local_reach.clear();
        self.local_reach.resize(n, None);
        self.reach.resize(n, LegReach { hip: Vec2::ZERO, longest: 0.0, shortest: 0.0 });
        // A frame tells at most a lift and a landing per foot, and after a turn or a teleport a planting per foot.
        self.events.reserve(3 * n);
        self.resolved = true;
        Ok(())
    }

    /// The feet are planted anew on the next frame (enabled again, `reset()`, legs changed).
    pub fn forget_feet(&mut self) {
        self.last = None;
    }

    /// Starts the walk afresh, as a new node's (`reset()`, enabled again): every foot of its group not on the ground
    /// yet and never lifted, the gait's turns and catch-ups from 0 (so the same group lifts first as in a new
    /// scene: the turns decide the group that waited longest), the teleports from 0, no events, the feet planted
    /// anew on the next frame.
    pub fn start_afresh(&mut self) {
        for foot in &mut self.feet {
            *foot = StepFoot::new(foot.group);
        }
        self.gait = Gait::default();
        self.teleports = 0;
        self.events.clear();
        self.forget_feet();
    }

    /// The homes are read again from the legs' authored pose on the next frame (`capture_homes()`).
    pub fn forget_homes(&mut self) {
        self.local_homes.iter_mut().for_each(|home| *home = None);
        self.local_reach.iter_mut().for_each(|reach| *reach = None);
    }

    /// Each home this frame (`self.homes`, global): `home_points[i]` (this node's space) when given, else the leg's
    /// end effector in its authored pose, read once (`every_frame`: always, the editor) without the body's offset
    /// `carried` (global px), kept in this node's space `to_global`. With it, each leg's hip and lengths (read once
    /// too), and from them its reach this frame (`self.reach`: the hip rides on the body, offset and all); a home
    /// that leaves its leg no room to step (`up`) is `self.no_room`.
    pub fn place_homes(
        &mut self,
        to_global: Affine2,
        up: Vec2,
        home_points: &PackedVector2Array,
        carried: Vec2,
        every_frame: bool,
    ) -> Result<(), Problem> {
        let to_local = to_global.inverse();
        // Lengths kept in this node's units: a creature scaled later scales its reach with it.
        let scale = to_global.matrix2.determinant().abs().sqrt();
        let given = home_points.as_slice();
        let mut read_any = false;
        for (i, leg) in self.legs.iter_mut().enumerate() {
            let (local, local_reach) = (&mut self.local_homes[i], &mut self.local_reach[i]);
            let point = given.get(i);
            if local_reach.is_none() || every_frame || (point.is_none() && local.is_none()) {
                if !leg.is_alive() {
                    return Err(Problem::StepperLegMissing(index_of(i)));
                }
                let (end, reach) = leg.unwritten_reach().map_err(|()| Problem::StepperLegNotReady(index_of(i)))?;
                *local_reach = Some(LegReach {
                    hip: to_local.transform_point2(reach.hip - carried),
                    longest: reach.longest / scale,
                    shortest: reach.shortest / scale,
                });
                if point.is_none() {
                    *local = Some(to_local.transform_point2(end - carried));
                }
                read_any = true;
            }
            if let Some(&point) = point {
                *local = Some(vec2(point));
            }
            self.homes[i] = local.map_or(Vec2::ZERO, |p| to_global.transform_point2(p));
            self.reach[i] = local_reach.map_or(self.reach[i], |r| LegReach {
                hip: to_global.transform_point2(r.hip) + up * self.body_plan.raise,
                longest: r.longest * scale,
                shortest: r.shortest * scale,
            });
        }
        if read_any || !given.is_empty() {
            self.no_room = self.homes.iter().zip(&self.reach).enumerate().find_map(|(i, (&home, reach))| {
                let tight = reach.usable() && reach.room(home, up) < MIN_ROOM * reach.longest;
                let percent = (home.distance(reach.hip) / reach.longest * 100.0).round().clamp(0.0, 255.0) as u8;
                tight.then_some(Problem::StepperNoRoom(index_of(i), percent))
            });
        }
        Ok(())
    }

    /// What moved since the last frame, this node now at `now`, `delta` seconds later: a jump beyond
    /// `teleport_distance` (0: never) or the first frame re-plants, a sign change of the basis's determinant is a
    /// turn. Remembers `now`.
    pub fn motion(&mut self, now: Affine2, delta: f64, teleport_distance: f32) -> Motion {
        let last = self.last.replace(now);
        let Some(last) = last else {
            return Motion { velocity: Vec2::ZERO, replant: true, teleport: false, turn: None };
        };
        let moved = now.translation - last.translation;
        if teleport_distance > 0.0 && moved.length() > teleport_distance {
            self.teleports += 1;
            return Motion { velocity: Vec2::ZERO, replant: true, teleport: true, turn: None };
        }
        let velocity = if delta > 0.0 && delta.is_finite() { moved / delta as f32 } else { Vec2::ZERO };
        let velocity = if velocity.is_finite() { velocity } else { Vec2::ZERO };
        let turned = now.matrix2.determinant() * last.matrix2.determinant() < 0.0;
        // The reflection from the last frame's body to this one's, about the last origin: a planted foot stays where
        // the body left it, mirrored.
        let turn = turned.then(|| {
            let reflect: Mat2 = now.matrix2 * last.matrix2.inverse();
            Affine2::from_mat2_translation(reflect, last.translation - reflect * last.translation)
        });
        Motion { velocity, replant: false, teleport: false, turn }
    }

    /// One frame of walking in `node`'s world (through `filter`, with `ground`): re-planting or carrying the feet
    /// as `motion` says, then `reach2d_core::stepper::walk`. The events go into `self.events`. `Err(NoWorld)`
    /// without a world.
    pub fn walk(
        &mut self,
        node: &Gd<Node2D>,
        filter: Filter,
        ground: GroundSettings,
        settings: &StepSettings,
        motion: Motion,
        delta: f64,
    ) -> Result<(), Problem> {
        let mut world = self.ground.ground_of(node, filter).ok_or(Problem::NoWorld)?;
        let GroundSettings { up, rays, min_cos } = ground;
        let mut plant = |home: Vec2, aim: Vec2| world.plant(home, aim, up, rays, min_cos);
        self.events.clear();
        if motion.replant {
            stepper::replant(&mut self.feet, &self.homes, &mut plant);
            if motion.teleport {
                tell_planted(&self.feet, &mut self.events);
            }
            return Ok(());
        }
        if let Some(turn) = motion.turn {
            stepper::carry(&mut self.feet, |p| turn.transform_point2(p));
            stepper::reground(&mut self.feet, |at, _| plant(at, at));
            // The body's tilt turns with it: a reflection negates a turn (its raise, along up, stays).
            self.body_rotation.amount = -self.body_rotation.amount;
            self.body_plan.tilt = -self.body_plan.tilt;
            tell_planted(&self.feet, &mut self.events);
        }
        let frame = StepFrame {
            homes: &self.homes,
            up: ground.up,
            velocity: motion.velocity,
            delta: delta as f32,
            reach: &self.reach,
        };
        let events = &mut self.events;
        stepper::walk(&mut self.gait, &mut self.feet, &frame, settings, &mut plant, |e| events.push(e));
        Ok(())
    }

    /// The up the rays are cast against: the world's (against gravity, read once) or, with `own`, the node's own
    /// (against its global y axis, `to_global`'s).
    pub fn up(&mut self, node: &Gd<Node2D>, to_global: Affine2, own: bool) -> Result<Vec2, Problem> {
        if own {
            return (-to_global.matrix2.y_axis).try_normalize().ok_or(Problem::StepperNotFinite);
        }
        self.ground.world_up(node).ok_or(Problem::NoWorld)
    }

    /// The planted feet and their homes, global px.
    pub fn planted(&self) -> impl Iterator<Item = (Vec2, Vec2)> + Clone + '_ {
        self.feet.iter().zip(&self.homes).filter_map(|(foot, home)| foot.planted_at().map(|at| (at, *home)))
    }

    /// Each resolved leg's own setup (`Leg::check_setup`, its bones): the first that is broken, as the stepper names
    /// it. Not per frame: when the legs are set and when asked.
    pub fn check_legs(&mut self) -> Result<(), Problem> {
        for (i, leg) in self.legs.iter_mut().enumerate() {
            if !leg.is_alive() {
                return Err(Problem::StepperLegMissing(index_of(i)));
            }
            leg.check_setup().map_err(|_| Problem::StepperLegNotReady(index_of(i)))?;
        }
        Ok(())
    }

    /// Solves each leg toward its foot's goal; a leg that fails reports itself, and the frame says which.
    pub fn solve_legs(&mut self, delta: f64) -> Result<(), Problem> {
        let mut failed = None;
        for (i, (leg, foot)) in self.legs.iter_mut().zip(&self.feet).enumerate() {
            if !leg.is_alive() {
                failed = failed.or(Some(Problem::StepperLegMissing(index_of(i))));
            } else if !leg.solve_toward(foot.goal(), delta) {
                failed = failed.or(Some(Problem::StepperLegNotReady(index_of(i))));
            }
        }
        failed.map_or(Ok(()), Err)
    }
}

/// The stepper's setup as it stands, without touching a bone: legs named, alive and of a leg class (class lookups:
/// not per frame), the body alive and not carrying the stepper.
pub fn check_setup(legs: &Array<Gd<Node2D>>, body: &Option<Gd<Node2D>>, stepper: &Gd<Node2D>) -> Result<(), Problem> {
    if legs.is_empty() {
        return Err(Problem::NoStepperLegs);
    }
    for (i, node) in leg_nodes(legs).enumerate() {
        let Some(node) = node else { return Err(Problem::StepperLegMissing(index_of(i))) };
        if Leg::of(&node).is_none() {
            return Err(Problem::StepperLegNotLeg(index_of(i)));
        }
    }
    match slot(body) {
        Slot::Freed => Err(Problem::StepperBodyFreed),
        Slot::Live(body) if body == stepper || body.is_ancestor_of(stepper) => Err(Problem::StepperUnderBody),
        _ => Ok(()),
    }
}

/// `legs[index]` as a leg: a live TwoBoneIk2D, FabrikChain2D or CcdChain2D in the tree.
fn resolve_leg(node: Option<&Gd<Node2D>>, index: u16) -> Result<Leg, Problem> {
    let node = node.filter(|node| node.is_inside_tree()).ok_or(Problem::StepperLegMissing(index))?;
    Leg::of(node).ok_or(Problem::StepperLegNotLeg(index))
}

/// Each entry of `legs`: the node, or `None` for an empty or freed entry (read as a Variant: a typed array's own
/// conversion stops at a freed object).
fn leg_nodes(legs: &Array<Gd<Node2D>>) -> impl Iterator<Item = Option<Gd<Node2D>>> {
    let entries = legs.clone().upcast_any_array();
    (0..entries.len()).map(move |i| entries.at(i).try_to::<Gd<Node2D>>().ok().filter(|n| n.is_instance_valid()))
}

/// `true` for a transform the stepper can place homes with: finite, and not collapsed (Godot keeps a zero scale as
/// 1e-5: a basis this flat on either axis, relative to the other, counts as zero).
pub fn usable(to_global: Affine2) -> bool {
    let m = to_global.matrix2;
    let longest = m.x_axis.length().max(m.y_axis.length());
    to_global.is_finite() && longest > 1.5e-5 && m.determinant().abs() > 1.5e-5 * longest * longest
}

/// A `Planted` event for every planted foot (no `Lifted`): a turn or a teleport moved them, and a script that keeps
/// footprints from the signals learns where they are now.
fn tell_planted(feet: &[StepFoot], events: &mut Vec<StepEvent>) {
    let planted = feet.iter().enumerate().filter_map(|(i, foot)| foot.planted_at().map(|at| (i, at)));
    events.extend(planted.map(|(i, at)| StepEvent::Planted(i, at)));
}

/// A leg's index as a problem names it.
pub fn index_of(i: usize) -> u16 {
    u16::try_from(i).unwrap_or(u16::MAX)
}
