//! `FootGrounder2D`: puts the feet of one or two `TwoBoneIk2D` legs on the physics world's ground, turns each foot
//! bone to the slope and lowers the hips so the lower foot still reaches.
//!
//! A helper node rather than a property of the leg, because lowering the hips needs every leg's ground at once,
//! before either leg solves. It never writes a user's node: each leg reaches for a goal the grounder hands it on the
//! Rust side (`DrivenLeg::solve_toward`), in place of its target; the hips get a position offset the grounder owns
//! and the foot bones a rotation, both remembered and put back when it is disabled, leaves the tree or runs in the
//! editor (where it writes nothing). Its state and the steps of its frame are in `foot_grounder_2d/state.rs`.

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, INode2D, Node2D};
use godot::prelude::*;
use reach2d_core::Vec2;
use reach2d_core::ground::{GroundSettings, hips_drop, max_step, step_value};

use crate::engine::convert::{vec2, vector2};
use crate::engine::editor::in_editor;
use crate::engine::slot::{Slot, in_tree, live, slot};
use crate::nodes::chain::drive::DrivenLeg;
use crate::nodes::foot_grounder_2d::state::{AnimatedLimb, GrounderState, LegReading};
use crate::nodes::two_bone_ik_2d::TwoBoneIk2D;
use crate::physics::queries::Filter;
use crate::problem::Problem;
use crate::runtime::frame::{self, RUNTIME_PROCESS_PRIORITY, Tick, UpdateMode, counted, uncounted};

mod check;
pub mod state;

/// Puts the feet of one or two [TwoBoneIk2D] legs on the ground of the physics world: each foot's ray finds the
/// ground under where the animation put the foot, the leg reaches for that point, the foot bone turns to the
/// slope, and the hips come down so the lower foot still reaches on a slope or a stair.
///
/// [b]How it works.[/b] Every frame (after the animation, like the IK nodes) and for each leg: the foot's
/// [i]animated[/i] position is the end of the leg's [member TwoBoneIk2D.tip_bone] in the pose the IK did not write
/// (the animation's, or the scene's). A ray along gravity (the world's gravity direction, read once) through that
/// foot, from [member ray_above] above this node's ground line to [member ray_below] below it, finds the ground on
/// [member collision_mask]. The leg then reaches for the hit point plus [member foot_height] along the ground's
/// normal, plus the foot's lift: how far the animation raised the ankle above this node's ground line beyond
/// [member foot_height] (0 for a foot on or below it), so a swinging foot keeps its swing. Put this node where the animation's feet stand: its global position marks the ground line, the line
/// through it perpendicular to gravity. A foot whose ray finds nothing follows its animation.
///
/// [b]Heel and toe.[/b] A leg with a foot bone casts a second ray under its toe (the foot bone's end in the animated
/// pose; [member toe_ray]): the foot turns to the slope between the ground under its heel and under its toe, and the
/// whole foot comes up when its toe would otherwise go into the ground (a bump, a step's edge), keeping the height
/// the animation gave the toe above the ground line.
///
/// This node solves its legs itself, at run time: a leg named here does not solve by itself then (its
/// [member TwoBoneIk2D.update_mode] is unused), but keeps everything else ([member TwoBoneIk2D.pole], limits,
/// [member TwoBoneIk2D.weight], speed limit). A leg needs no [member TwoBoneIk2D.target]: the ground goal replaces
/// it, and the user's target is never moved.
///
/// [b]Feet and hips.[/b] [member first_foot] and [member second_foot] (optional: direct Bone2D children of each
/// leg's tip bone) keep their animated angle to the world, turned by the ground's slope up to [member max_tilt]. The
/// hips node (optional: a bone or node above both legs) is moved down along gravity by as much as the leg that
/// needs it most, up to [member max_hips_drop], so every leg reaches its ground as extended as the animation had it,
/// as an offset to its own position: an animation that moves the hips keeps working, and the offset is taken back
/// when this node is disabled or leaves the tree (a grounder that comes back, reparented, goes on where it was). The
/// feet's goals, the feet's turn and the hips move at most [member foot_speed], [member tilt_speed] and
/// [member hips_speed] per second, so a foot whose ray crosses a stair's edge glides up or down instead of popping.
///
/// Nothing runs in the editor by itself ([method advance] grounds when called, as the bake does), and saving takes
/// back what it wrote: the scene always stores your own pose. Everything is plane geometry on global
/// vectors, so a character mirrored with a negative scale on mirrored ground gets the exact mirror image.
#[reach2d_macros::node]
#[derive(GodotClass)]
#[class(init, tool, base = Node2D)]
pub struct FootGrounder2D {
    /// If [code]false[/code], the legs solve by themselves again (toward their targets), the hips and feet get their
    /// own pose back, and nothing is cast.
    #[export]
    #[var(set = set_enabled)]
    #[init(val = true)]
    enabled: bool,
    /// When the node grounds the feet: every process frame ([constant UPDATE_PROCESS]), every physics frame
    /// ([constant UPDATE_PHYSICS]), or only when [method advance] is called ([constant UPDATE_MANUAL]). Any other
    /// value is an error and is ignored.
    #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
    update_mode: UpdateMode,
    /// The first leg: a [TwoBoneIk2D] whose [member TwoBoneIk2D.tip_bone] ends at the ankle.
    #[export_group(name = "Legs")]
    #[export]
    first_leg: Option<Gd<TwoBoneIk2D>>,
    /// Optional: the first leg's foot, a direct Bone2D child of its tip bone (at the ankle), turned to the ground's
    /// slope; its end (its length along its bone angle) is the toe, which casts its own ray ([member toe_ray]).
    #[export]
    first_foot: Option<Gd<Bone2D>>,
    /// Optional: the second leg, like [member first_leg].
    #[export]
    second_leg: Option<Gd<TwoBoneIk2D>>,
    /// Optional: the second leg's foot, like [member first_foot].
    #[export]
    second_foot: Option<Gd<Bone2D>>,
    /// Shared with the other helper nodes (declared in `reach2d_macros/src/shared_properties.rs`): *Ground*:
    /// `collision_mask`, `collide_with_bodies`, `collide_with_areas`.
    #[shared_properties(ground)]
    _ground: (),
    /// How far above the ground line each ray starts, in global pixels: the highest step a foot climbs. A negative
    /// (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 500.0, 0.5, or_greater, suffix = "px"))]
    #[checked(0.0..)]
    #[init(val = 40.0)]
    ray_above: f32,
    /// How far below the ground line each ray ends, in global pixels: the deepest step a foot goes down. A negative
    /// (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 500.0, 0.5, or_greater, suffix = "px"))]
    #[checked(0.0..)]
    #[init(val = 60.0)]
    ray_below: f32,
    /// How far the leg's end (the ankle) stays off the ground, in global pixels, along the ground's normal: the
    /// foot's own height. A negative (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 100.0, 0.5, or_greater, suffix = "px"))]
    #[checked(0.0..)]
    foot_height: f32,
    /// The most a foot bone turns to the ground's slope, in radians, in [0, PI/2]; steeper ground turns it this
    /// far. Anything else (or NaN) is an error and is ignored.
    #[export_group(name = "Feet")]
    #[export(range = (0.0, 90.0, 0.1, radians_as_degrees))]
    #[checked(0.0..=core::f32::consts::FRAC_PI_2)]
    #[init(val = 0.6)]
    max_tilt: f32,
    /// When on, each foot with a foot bone ([member first_foot], [member second_foot]) casts a second ray under its
    /// toe (the foot bone's end in the animated pose): the foot turns to the slope between the ground under its
    /// heel (the ankle's ray) and under its toe, and comes up when its toe would go into the ground (a bump, a
    /// step's edge). Off: one ray under the ankle, the foot turned to the ground's normal there, its toe free to
    /// sink into a bump ahead of it.
    #[export]
    #[init(val = true)]
    toe_ray: bool,
    /// The most a foot's turn to the slope changes per second, radians per second; 0 = no limit. A negative (or not
    /// finite) value is an error and is ignored.
    #[export(range = (0.0, 50.0, 0.1, or_greater, suffix = "rad/s"))]
    #[checked(0.0..)]
    #[init(val = 8.0)]
    tilt_speed: f32,
    /// The most a foot's ground correction (its goal minus its animated position) changes per second, in global
    /// pixels per second; 0 = no limit. A foot whose ray crosses a stair's edge moves up or down at this speed. A
    /// negative (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 5000.0, 1.0, or_greater, suffix = "px/s"))]
    #[checked(0.0..)]
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
    #[checked(0.0..)]
    #[init(val = 30.0)]
    max_hips_drop: f32,
    /// The most the hips' drop changes per second, in global pixels per second; 0 = no limit. Keep it at least
    /// [member foot_speed], or a foot stepping down may briefly be out of reach while the hips follow. A negative
    /// (or not finite) value is an error and is ignored.
    #[export(range = (0.0, 5000.0, 1.0, or_greater, suffix = "px/s"))]
    #[checked(0.0..)]
    #[init(val = 600.0)]
    hips_speed: f32,
    /// The feet, the hips, the ray queries and what the node reported.
    state: GrounderState,
    base: Base<Node2D>,
}

#[reach2d_macros::api(update_constants)]
#[godot_api]
impl FootGrounder2D {
    /// Grounds the feet now, advancing the speed limits by [param delta] seconds, whatever [member update_mode]
    /// says (not while disabled; in the editor only when called, as the bake does: what it wrote there is taken back
    /// before the scene is saved). Returns [code]true[/code] when every named leg was solved.
    #[func]
    pub fn advance(&mut self, delta: f64) -> bool {
        if !delta.is_finite() || delta < 0.0 {
            self.note(Some(Problem::DeltaNotFinite));
            return false;
        }
        self.ground(delta)
    }

    /// Starts afresh, as a node just added: the hips and the feet get their own position and rotation back and the
    /// smoothing (the hips' drop, each foot's correction and tilt) starts from 0 on the next frame. The bake calls it
    /// before it runs the grounder, so bakes repeat whatever ran before them.
    #[func]
    pub fn reset(&mut self) {
        self.state.let_go(&self.hips, [&self.first_foot, &self.second_foot]);
        self.state.character.forget();
    }

    /// Why the node cannot ground the feet, in the words of its configuration warning; empty when the setup is
    /// valid. Checked when called, also before the first frame (manual mode): legs set, alive and with their bones
    /// set, each foot a direct child of its leg's tip bone, the hips alive; or what the last frame found (a leg that
    /// could not be read, no physics world, collapsed hips).
    #[func]
    pub fn get_setup_warning(&mut self) -> GString {
        self.mark_legs(); // A leg it names needs no target of its own.
        // A good setup clears what an earlier check saw (legs set after the node entered the tree), not what only a
        // frame can find (no world, collapsed hips, a bad delta).
        let frame_found = |p: &Problem| p.found_by_solving() || matches!(p, Problem::NoWorld | Problem::HipsCollapsed);
        let problem = match self.check_setup().and(self.check_claims()) {
            Err(problem) => Some(problem),
            Ok(()) => self.state.problems.current().filter(frame_found),
        };
        self.show(problem);
        problem.map_or_else(GString::new, |p| GString::from(&p.message("FootGrounder2D")))
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

    /// The turn to the slope the foot at [param index] was given on the last frame, radians (clockwise on screen is
    /// positive, as for [member Node2D.rotation]).
    #[func]
    pub fn get_foot_tilt(&self, index: i64) -> f32 {
        self.foot(index).map_or(0.0, |f| f.tilt)
    }

    /// How far the hips are lowered now, global px along gravity (0 without [member hips]).
    #[func]
    pub fn get_hips_drop(&self) -> f32 {
        self.state.hips.amount
    }

    /// Sets [member enabled]; disabling puts the hips and feet back and lets the legs solve by themselves.
    #[func]
    fn set_enabled(&mut self, value: bool) {
        self.enabled = value;
        if !value {
            self.let_go();
        }
    }
}

#[godot_api]
impl INode2D for FootGrounder2D {
    fn ready(&mut self) {
        frame::take_runtime_priority(&mut self.base_mut(), RUNTIME_PROCESS_PRIORITY);
        self.mark_legs();
        let problem = self.check_setup().err();
        self.show(problem);
    }
    fn process(&mut self, delta: f64) {
        self.tick(Tick::Process, delta);
    }
    fn physics_process(&mut self, delta: f64) {
        self.tick(Tick::Physics, delta);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        match what {
            // Back in the tree: its legs are its own again before anything processes them this frame.
            CanvasItemNotification::ENTER_TREE => {
                self.state.character.forget();
                self.mark_legs();
            }
            // Whatever it wrote goes back and the legs solve by themselves while it is away; its smoothing stays, so
            // a grounder that comes back (a reparent) goes on where it was instead of popping the hips and feet.
            CanvasItemNotification::EXIT_TREE => {
                self.state.put_back(&self.hips, [&self.first_foot, &self.second_foot]);
                self.state.marks.release();
            }
            // Saving stores the user's own pose: an editor bake's `advance` may have written the hips and feet.
            CanvasItemNotification::EDITOR_PRE_SAVE => self.let_go(),
            _ => {}
        }
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.state.problems.warnings("FootGrounder2D")
    }
}

impl FootGrounder2D {
    /// `_process` / `_physics_process`: grounds the feet when enabled and in this tick's mode (never in the editor).
    fn tick(&mut self, tick: Tick, delta: f64) {
        self.mark_legs();
        let wanted = match self.update_mode {
            UpdateMode::Process => tick == Tick::Process,
            UpdateMode::Physics => tick == Tick::Physics,
            UpdateMode::Manual => false,
        };
        if !in_editor() && self.enabled && wanted {
            self.ground(delta);
        }
    }

    /// One frame: the ground line and the hips → each leg's animated foot and its ray → the hips lowered → each leg
    /// solved toward its goal → each foot turned to the slope → the outcome reported. Returns `true` when every named
    /// leg was solved. Nothing allocates (the allocation counter wraps it all but godot-rust's `bind_mut`s).
    fn ground(&mut self, delta: f64) -> bool {
        // In the editor only `advance` gets here (`tick` never grounds there).
        if !self.enabled {
            return false;
        }
        counted(|| {
            self.mark_legs();
            self.state.active = true;
            let node = self.to_gd().upcast::<Node2D>();
            if self.state.character.is_stale() {
                self.state.character.refresh(&node.clone().upcast());
            }
            // The character's weight (`CharacterWeight2D`) scales the hips' drop and the feet's turn; the legs
            // apply it themselves.
            let weight = self.state.character.weight();
            let Some(settings) = self.ground_settings(&node) else {
                self.note(Some(Problem::NoWorld));
                return false;
            };
            // A leg another helper holds (it named that leg first): this one leaves both legs alone (issue 36).
            if let Err(problem) = self.check_claims() {
                self.note(Some(problem));
                return false;
            }
            let mut problem = (self.first_leg.is_none() && self.second_leg.is_none()).then_some(Problem::NoLegs);
            let hips = self.live_hips(&mut problem);
            let carried = hips.as_ref().map_or(Vec2::ZERO, |hips| self.state.hips.carried(hips));
            let readings = [0, 1].map(|leg| self.read_leg(leg, &node, &settings, carried, &mut problem));
            if let Some(mut hips) = hips {
                self.lower_hips(&mut hips, &readings, settings.up, weight, delta, &mut problem);
            }
            let all_solved = self.solve_legs(&readings, &settings, weight, delta, &mut problem);
            self.note(problem);
            all_solved && problem.is_none()
        })
    }

    /// The frame's ground settings (the world's up, the ground line through this node), or `None` without a world.
    fn ground_settings(&mut self, node: &Gd<Node2D>) -> Option<GroundSettings> {
        Some(GroundSettings {
            up: self.state.up(node)?,
            ground_line: vec2(node.get_global_position()),
            foot_height: self.foot_height,
            ray_above: self.ray_above,
            ray_below: self.ray_below,
            max_tilt: self.max_tilt,
        })
    }

    /// The hips, when set and in the tree; a broken slot is a problem and forgets the offset.
    fn live_hips(&mut self, problem: &mut Option<Problem>) -> Option<Gd<Node2D>> {
        match slot(&self.hips) {
            Slot::Live(hips) if in_tree(hips) => Some(hips.clone()),
            Slot::Empty => None,
            Slot::Live(_) | Slot::Freed => {
                *problem = Some(Problem::HipsFreed);
                self.state.hips = Default::default();
                None
            }
        }
    }

    /// Leg `leg`'s animated foot (without the hips' offset `carried`) and its ground; `None` for an empty slot, a
    /// disabled leg or a problem (noted in `problem`; the leg reports its own setup).
    fn read_leg(
        &mut self,
        leg: usize,
        node: &Gd<Node2D>,
        settings: &GroundSettings,
        carried: Vec2,
        problem: &mut Option<Problem>,
    ) -> Option<LegReading> {
        let slot_index = leg as u8;
        let mut leg = match slot(self.leg_slot(leg)) {
            Slot::Empty => return None,
            Slot::Freed => {
                *problem = Some(Problem::LegFreed(slot_index));
                return None;
            }
            Slot::Live(leg) => leg.clone(),
        };
        let animated = uncounted(|| leg.bind_mut()).animated_limb();
        let (root, end, mut tip) = match animated {
            Ok(Some(limb)) => limb,
            Ok(None) => return None,
            Err(()) => {
                *problem = Some(Problem::LegNotReady(slot_index));
                return None;
            }
        };
        tip.translation -= carried;
        let limb = AnimatedLimb { root: root - carried, end: end - carried, tip };
        let foot = live([&self.first_foot, &self.second_foot][slot_index as usize]).filter(|_| self.toe_ray);
        let bound = uncounted(|| leg.bind());
        let toe =
            foot.and_then(|bone| self.state.feet[slot_index as usize].animated_toe(bone, bound.resolved_tip(), tip));
        drop(bound);
        self.state.cast(node, self.filter(), settings, limb, toe)
    }

    /// Lowers the hips as far as the leg that needs it most (at most `max_hips_drop`, moving at most `hips_speed`),
    /// times the character's `weight`.
    fn lower_hips(
        &mut self,
        hips: &mut Gd<Node2D>,
        readings: &[Option<LegReading>; 2],
        up: Vec2,
        weight: f32,
        delta: f64,
        problem: &mut Option<Problem>,
    ) {
        let wanted = hips_drop(readings.iter().flatten().map(|r| r.drop), self.max_hips_drop) * weight;
        let drop = step_value(self.state.hips.amount, wanted, max_step(self.hips_speed, delta));
        if !self.state.hips.write(hips, drop, -up * drop) {
            *problem = Some(Problem::HipsCollapsed);
        }
    }

    /// Solves each read leg toward its planned goal, then turns its foot. Returns `false` when a leg did not solve
    /// (it reports why itself).
    fn solve_legs(
        &mut self,
        readings: &[Option<LegReading>; 2],
        settings: &GroundSettings,
        weight: f32,
        delta: f64,
        problem: &mut Option<Problem>,
    ) -> bool {
        let (offset_step, tilt_step) = (max_step(self.foot_speed, delta), max_step(self.tilt_speed, delta));
        let mut all_solved = true;
        for (leg, reading) in readings.iter().enumerate() {
            let (Some(reading), Some(leg_node)) = (reading, live(self.leg_slot(leg)).cloned()) else { continue };
            let reading = LegReading { tilt: reading.tilt * weight, ..*reading };
            let goal = self.state.feet[leg].plan(&reading, settings, offset_step, tilt_step);
            let mut leg_node = leg_node;
            let mut bound = uncounted(|| leg_node.bind_mut());
            if !bound.solve_toward(goal, delta) {
                all_solved = false;
                continue;
            }
            let foot = [&self.first_foot, &self.second_foot][leg];
            let turned = match slot(foot) {
                Slot::Empty => Ok(()),
                Slot::Freed => Err(Problem::FootFreed(leg as u8)),
                Slot::Live(bone) => self.state.feet[leg].turn(bone, bound.resolved_tip(), reading.limb.tip, leg as u8),
            };
            if let Err(p) = turned {
                *problem = Some(p);
            }
        }
        all_solved
    }

    fn leg_slot(&self, leg: usize) -> &Option<Gd<TwoBoneIk2D>> {
        if leg == 0 { &self.first_leg } else { &self.second_leg }
    }

    fn foot(&self, index: i64) -> Option<&crate::nodes::foot_grounder_2d::state::Foot> {
        let foot = usize::try_from(index).ok().and_then(|i| self.state.feet.get(i));
        if foot.is_none() {
            godot_error!("FootGrounder2D: leg index {index} is not 0 or 1");
        }
        foot
    }

    fn filter(&self) -> Filter {
        Filter {
            mask: u32::try_from(self.collision_mask).unwrap_or(u32::MAX),
            bodies: self.collide_with_bodies,
            areas: self.collide_with_areas,
        }
    }
}
