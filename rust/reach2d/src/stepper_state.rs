//! `LegStepper2D`'s run-time state and the steps of its frame (`nodes/leg_stepper_2d.rs` runs them in order): the
//! legs resolved from the `legs` array ([`StepperState::resolve`]), each leg's home ([`StepperState::place_homes`]),
//! the body's motion since the last frame (a teleport, a turn, its velocity: [`StepperState::motion`]), the walk with
//! the ground it asks for ([`StepperState::walk`], [`GroundProbe`]) and the events it told, the body's raise and
//! tilt ([`StepperState::lean_body`], written through `body_offset.rs`) and the legs' solves. The planning is
//! `reach2d_core::stepper`'s.

use glam::{Affine2, Mat2};
use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::ground::step_value;
use reach2d_core::stepper::{
    self, BodyFit, Gait, MAX_GROUPS, StepEvent, StepFoot, StepFrame, StepSettings, fit_body, local_turn,
};
use reach2d_core::{SpringCollider, Vec2};

use crate::body_offset::{PositionOffset, RotationOffset};
use crate::character_weight::CharacterLink;
use crate::io::convert::{affine, vec2};
use crate::legs::{Leg, LegMarks};
use crate::problem::{Problem, Problems};
use crate::slot::{Slot, in_tree, live, slot};
use crate::world_queries::{Filter, Space, WorldQueries, world_up};

/// How far (px) a foot lands short of a wall its landing was behind, beyond its `foot_height`.
const WALL_MARGIN: f32 = 2.0;

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
    /// What the last frame's walk told, emitted as signals after it.
    pub events: Vec<StepEvent>,
    /// This node's global transform at the last walked frame (`None`: the feet are planted anew).
    last: Option<Affine2>,
    pub marks: LegMarks,
    pub problems: Problems,
    queries: Option<WorldQueries>,
    /// Unit vector against the world's gravity, read once.
    pub gravity_up: Option<Vec2>,
    /// The body's raise (`amount`, px along up) and tilt (`amount`, radians).
    pub body_position: PositionOffset,
    pub body_rotation: RotationOffset,
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
    /// A turn: the map that reflects the feet with the body (about its last origin).
    pub turn: Option<Affine2>,
}

/// What the ground probe needs besides the world: global px and the cosine of the steepest slope stood on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroundSettings {
    pub up: Vec2,
    pub ray_above: f32,
    pub ray_below: f32,
    pub foot_height: f32,
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
        self.events.reserve(2 * n);
        self.resolved = true;
        Ok(())
    }

    /// The feet are planted anew on the next frame (enabled again, `reset()`, legs changed).
    pub fn forget_feet(&mut self) {
        self.last = None;
    }

    /// The homes are read again from the legs' authored pose on the next frame (`capture_homes()`).
    pub fn forget_homes(&mut self) {
        self.local_homes.iter_mut().for_each(|home| *home = None);
    }

    /// Each home this frame (`self.homes`, global): `home_points[i]` (this node's space) when given, else the leg's
    /// end effector in its authored pose, read once (`every_frame`: always, the editor) without the body's offset
    /// `carried` (global px), kept in this node's space `to_global`.
    pub fn place_homes(
        &mut self,
        to_global: Affine2,
        home_points: &PackedVector2Array,
        carried: Vec2,
        every_frame: bool,
    ) -> Result<(), Problem> {
        let to_local = to_global.inverse();
        let given = home_points.as_slice();
        for (i, ((leg, local), home)) in
            self.legs.iter_mut().zip(&mut self.local_homes).zip(&mut self.homes).enumerate()
        {
            if let Some(&point) = given.get(i) {
                *local = Some(vec2(point));
            } else if local.is_none() || every_frame {
                if !leg.is_alive() {
                    return Err(Problem::StepperLegMissing(index_of(i)));
                }
                let end = leg.unwritten_end().map_err(|()| Problem::StepperLegNotReady(index_of(i)))?;
                *local = Some(to_local.transform_point2(end - carried));
            }
            *home = local.map_or(Vec2::ZERO, |p| to_global.transform_point2(p));
        }
        Ok(())
    }

    /// What moved since the last frame, this node now at `now`, `delta` seconds later: a jump beyond
    /// `teleport_distance` (0: never) or the first frame re-plants, a sign change of the basis's determinant is a
    /// turn. Remembers `now`.
    pub fn motion(&mut self, now: Affine2, delta: f64, teleport_distance: f32) -> Motion {
        let last = self.last.replace(now);
        let Some(last) = last else { return Motion { velocity: Vec2::ZERO, replant: true, turn: None } };
        let moved = now.translation - last.translation;
        if teleport_distance > 0.0 && moved.length() > teleport_distance {
            self.teleports += 1;
            return Motion { velocity: Vec2::ZERO, replant: true, turn: None };
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
        Motion { velocity, replant: false, turn }
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
        let queries = self.queries.get_or_insert_with(WorldQueries::new);
        let space = queries.in_space_of(node, filter).ok_or(Problem::NoWorld)?;
        let mut probe = GroundProbe { space, ground };
        self.events.clear();
        if motion.replant {
            stepper::replant(&mut self.feet, &self.homes, |home, aim| probe.plant(home, aim));
            return Ok(());
        }
        if let Some(turn) = motion.turn {
            stepper::carry(&mut self.feet, |p| turn.transform_point2(p));
            stepper::reground(&mut self.feet, |at, _| probe.plant(at, at));
            // The body's tilt turns with it: a reflection negates a turn (its raise, along up, stays).
            self.body_rotation.amount = -self.body_rotation.amount;
        }
        let frame = StepFrame { homes: &self.homes, up: ground.up, velocity: motion.velocity, delta: delta as f32 };
        let events = &mut self.events;
        stepper::walk(&mut self.gait, &mut self.feet, &frame, settings, |h, a| probe.plant(h, a), |e| events.push(e));
        Ok(())
    }

    /// The up the rays are cast against: the world's (against gravity, read once) or, with `own`, the node's own
    /// (against its global y axis, `to_global`'s).
    pub fn up(&mut self, node: &Gd<Node2D>, to_global: Affine2, own: bool) -> Result<Vec2, Problem> {
        if own {
            return (-to_global.matrix2.y_axis).try_normalize().ok_or(Problem::StepperNotFinite);
        }
        world_up(node, &mut self.gravity_up).ok_or(Problem::NoWorld)
    }

    /// The planted feet and their homes, global px.
    pub fn planted(&self) -> impl Iterator<Item = (Vec2, Vec2)> + Clone + '_ {
        self.feet.iter().zip(&self.homes).filter_map(|(foot, home)| foot.planted_at().map(|at| (at, *home)))
    }

    /// The global offset `body` carries now (ours while its position is still what we wrote), after checking it
    /// against `stepper` (the body must not carry the stepper). A broken body forgets its offsets.
    pub fn carried_body_offset(&mut self, body: &Option<Gd<Node2D>>, stepper: &Gd<Node2D>) -> Result<Vec2, Problem> {
        match slot(body) {
            Slot::Empty => Ok(Vec2::ZERO),
            Slot::Live(body) if in_tree(body) => {
                if body == stepper || body.is_ancestor_of(stepper) {
                    return Err(Problem::StepperUnderBody);
                }
                self.body_rotation.observe(body);
                Ok(self.body_position.carried(body))
            }
            Slot::Live(_) | Slot::Freed => {
                self.body_position = PositionOffset::default();
                self.body_rotation = RotationOffset::default();
                Err(Problem::StepperBodyFreed)
            }
        }
    }

    /// Puts `body`'s own position and rotation back if it still holds ours, and forgets the offsets.
    pub fn release_body(&mut self, body: &Option<Gd<Node2D>>) {
        self.put_body_back(body);
        self.body_position = PositionOffset::default();
        self.body_rotation = RotationOffset::default();
    }

    /// Puts `body`'s own position and rotation back if it still holds ours, but keeps the raise and tilt (the stepper
    /// left the tree: if it comes back, a reparent, it goes on from there instead of popping).
    pub fn put_body_back(&mut self, body: &Option<Gd<Node2D>>) {
        if let Some(body) = live(body) {
            let mut body = body.clone();
            self.body_position.restore(&mut body);
            self.body_rotation.restore(&mut body);
        }
    }

    /// Raises and tilts `body` by the planted feet (their mean, or the fitted line), within `limits`; with no foot
    /// planted it stays as it is.
    pub fn lean_body(&mut self, body: &Option<Gd<Node2D>>, up: Vec2, limits: BodyLimits) -> Result<(), Problem> {
        let Some(mut body) = live(body).cloned() else { return Ok(()) };
        let fit = if limits.tilt { BodyFit::Line } else { BodyFit::Mean };
        let pivot = vec2(body.get_global_position());
        let Some(lean) = fit_body(self.planted(), pivot, up, fit) else { return Ok(()) };
        let wanted_raise = lean.raise.clamp(-limits.max_offset, limits.max_offset) * limits.weight;
        let wanted_tilt = lean.tilt.clamp(-limits.max_tilt, limits.max_tilt) * limits.weight;
        let raise = step_value(self.body_position.amount, wanted_raise, limits.offset_step);
        let tilt = step_value(self.body_rotation.amount, wanted_tilt, limits.tilt_step);
        if !self.body_position.write(&mut body, raise, up * raise) {
            return Err(Problem::StepperBodyCollapsed);
        }
        // The parent's global basis: the body's global basis without its own local one.
        let parent = affine(body.get_global_transform()).matrix2 * affine(body.get_transform()).matrix2.inverse();
        if !self.body_rotation.write(&mut body, tilt, local_turn(parent, tilt)) {
            return Err(Problem::StepperBodyCollapsed);
        }
        Ok(())
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

/// How the body follows the feet: `tilt_body`, the most it is raised (px) and tilted (radians), the most either
/// changes this frame, and the character's weight (0..1), which scales both.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyLimits {
    pub tilt: bool,
    pub weight: f32,
    pub max_offset: f32,
    pub max_tilt: f32,
    pub offset_step: f32,
    pub tilt_step: f32,
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

/// A leg's index as a problem names it.
pub fn index_of(i: usize) -> u16 {
    u16::try_from(i).unwrap_or(u16::MAX)
}

/// The ground the planner asks for, in one physics space: the point a foot plants at.
pub struct GroundProbe<'a> {
    space: Space<'a>,
    ground: GroundSettings,
}

impl GroundProbe<'_> {
    /// Where a foot whose home is `home` plants when it aims at `aim`: a ray along `-up` from `ray_above` over the
    /// aim to `ray_below` under it, on a surface no steeper than the slope limit, `foot_height` off it along its
    /// normal. A wall between the home and the aim, at the rays' start height, pulls the aim back in front of it
    /// (a foot never steps into a wall). `None` without such ground.
    pub fn plant(&mut self, home: Vec2, aim: Vec2) -> Option<Vec2> {
        let GroundSettings { up, ray_above, ray_below, foot_height, min_cos } = self.ground;
        let lift = up * ray_above;
        let mut aim = aim;
        if let Some((wall, _)) = self.space.sweep(home + lift, aim - home, 0.0) {
            let back = (aim - home).normalize_or_zero() * (foot_height + WALL_MARGIN);
            aim = wall - lift - back;
        }
        let (point, normal) = self.space.sweep(aim + lift, -up * (ray_above + ray_below), 0.0)?;
        let normal = normal.try_normalize()?;
        let planted = point + normal * foot_height;
        (normal.dot(up) >= min_cos && planted.is_finite()).then_some(planted)
    }
}
