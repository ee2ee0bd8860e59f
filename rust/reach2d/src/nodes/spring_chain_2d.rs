//! `SpringChain2D`: secondary motion. A chain of Bone2D nodes follows its animated or IK pose through damped
//! rotational springs (`reach2d_core::spring`), for hair, tails, capes and antennae.

pub mod state;

use glam::Affine2;
use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, Curve, Engine, INode2D, Node2D};
use godot::prelude::*;
use godot::register::info::PropertyInfo;
use reach2d_core::{SpringCollider, SpringSettings};

use crate::engine::convert::vec2;
use crate::io::ancestors;
use crate::io::bones::{self, Start, TipEnd};
use crate::io::chain::Shape;
use crate::nodes::spring_chain_2d::state::Simulation;
use crate::physics::queries::{Filter, WorldQueries};
use crate::problem::Problem;
use crate::runtime::checked;
use crate::runtime::frame::{self, BoneDriver, NodeState, SPRING_PROCESS_PRIORITY, Solved, Tick, UpdateMode};
use crate::runtime::gizmo;
use crate::runtime::node_limits;
use crate::runtime::node_property::NodeSlot;
use crate::runtime::setup::{self, Slots};

/// Turns a chain of [Bone2D] nodes so that it follows its animated (or IK) pose through damped springs: hair, tails,
/// capes and antennae that lag behind the body, swing under gravity and wind, overshoot and settle.
///
/// The chain is [member tip_bone] and its Bone2D ancestors up to [member root_bone]. Every frame the node reads the
/// pose the bones have been given (by an [AnimationPlayer], an [AnimationTree], IK nodes or a script) as the goal,
/// advances the simulation and writes back only each bone's local [member Node2D.rotation]; position, scale and skew
/// are never touched. Each bone is simulated as its angle relative to its parent, pulled toward the goal's by
/// [member stiffness], slowed by [member damping], and pushed by [member gravity] and [member external_force] and by
/// the motion of the body it hangs from. The simulation runs in fixed substeps of at most 1/240 s, so it behaves the
/// same at any frame rate and in process or physics mode.
///
/// Mirroring is exact: a character flipped with [code]scale.x = -1[/code] (on the skeleton or any ancestor) moves its
/// chain as the mirror image of the unmirrored one, and the flip itself carries the chain's swing over mirrored,
/// without a whip. [method reset] snaps the chain onto its current pose; it happens by itself on the first step, when
/// the chain changes and when the chain's root moves farther than [member teleport_distance] in one step. A chain
/// that leaves the tree and comes back ([method Node.reparent], [method Node.remove_child] then
/// [method Node.add_child], a scene switch that keeps the character) keeps its swing unless its root jumped that far.
///
/// The node runs after [AnimationPlayer], [AnimationTree] and the IK nodes in the same frame (process priority 110 at
/// run time), so a tail can hang off an IK-driven body. Per-bone angle limits ([method set_angle_limits]) hold after
/// every step.
///
/// With [member use_colliders] the chain touches the physics world: each bone's end stays [member collision_radius]
/// away from every shape on [member collision_mask] (a floor, a wall, a moving platform), slides along it and never
/// passes through it, however fast it moves and however low the frame rate. Queries run in the node's [World2D].
#[reach2d_macros::shared_docs]
#[derive(GodotClass, reach2d_macros::NodeFields)]
#[class(init, tool, base = Node2D)]
pub struct SpringChain2D {
    /// First bone of the chain: it swings about its origin, which follows the body.
    #[export]
    #[init(val = NodeSlot::named("SpringChain2D", "root_bone"))]
    root_bone: NodeSlot<Bone2D>,
    /// @shared chain.tip_bone
    #[export]
    #[init(val = NodeSlot::named("SpringChain2D", "tip_bone"))]
    tip_bone: NodeSlot<Bone2D>,
    /// @shared spring.enabled
    #[export]
    #[init(val = true)]
    enabled: bool,
    /// @shared spring.weight
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_weight)]
    #[init(val = 1.0)]
    weight: f32,
    /// @shared spring.update_mode
    #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
    update_mode: UpdateMode,
    /// @shared spring.editor_preview
    #[export]
    #[init(val = true)]
    editor_preview: bool,

    /// How strongly each bone is pulled back toward its animated angle, in 1/s² (angular acceleration per radian
    /// away from it). Its square root is the natural frequency in rad/s: 200 swings at about 2.3 Hz. 0 lets the
    /// chain hang and swing freely.
    #[export_group(name = "Spring")]
    #[export(range = (0.0, 2000.0, 0.1, or_greater, suffix = "1/s²"))]
    #[var(set = set_stiffness)]
    #[init(val = 200.0)]
    stiffness: f32,
    /// How quickly a bone's swing relative to its parent dies out, in 1/s. About [code]2 * sqrt(stiffness)[/code]
    /// settles without overshoot; less bounces.
    #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "1/s"))]
    #[var(set = set_damping)]
    #[init(val = 12.0)]
    damping: f32,
    /// Gravity on the chain, in global pixels per second squared (Godot's 2D default is [code](0, 980)[/code]). Zero
    /// by default, so adding the node keeps the animated pose at rest.
    #[export]
    #[var(set = set_gravity)]
    gravity: Vector2,
    /// A constant push added to gravity, in global pixels per second squared: wind. Animate it for gusts.
    #[export]
    #[var(set = set_external_force)]
    external_force: Vector2,
    /// Largest turn of a bone relative to its parent per 1/60 s (a cap on its speed); 0 means no cap. Tames violent
    /// motion such as a sudden spin of the body.
    #[export(range = (0.0, 180.0, 0.1, radians_as_degrees))]
    #[var(set = set_max_angle_step)]
    max_angle_step: f32,
    /// Optional: multiplies [member stiffness] along the chain, sampled at [code]i / (bone count - 1)[/code] for bone
    /// [code]i[/code] (0 at the root, 1 at the tip). Negative values count as 0.
    #[export]
    #[init(val = NodeSlot::named("SpringChain2D", "stiffness_curve"))]
    stiffness_curve: NodeSlot<Curve>,
    /// Optional: multiplies [member damping] along the chain, sampled like [member stiffness_curve].
    #[export]
    #[init(val = NodeSlot::named("SpringChain2D", "damping_curve"))]
    damping_curve: NodeSlot<Curve>,
    /// When the chain's root moves farther than this in one step, in global pixels, the node calls [method reset]
    /// instead of letting the chain swing from the jump (a teleport, a respawn). 0 never resets.
    #[export(range = (0.0, 2000.0, 1.0, or_greater, suffix = "px"))]
    #[var(set = set_teleport_distance)]
    #[init(val = 500.0)]
    teleport_distance: f32,

    /// When on, each bone's end stays outside every physics shape on [member collision_mask], as a circle of
    /// [member collision_radius]: it stops where it first touches (however fast it moves, so it never passes through
    /// a thin wall), slides along the surface and is pushed out of a shape that moves into it. Off by default (no
    /// physics queries).
    #[export_group(name = "Collision")]
    #[export]
    use_colliders: bool,
    /// The physics layers the chain collides with (a 32-bit mask; anything else is an error and is ignored).
    #[export(flags_2d_physics)]
    #[var(set = set_collision_mask)]
    #[init(val = 1)]
    collision_mask: i64,
    /// The radius of each bone's end, in global pixels: the end stays this far from every shape. 0 turns a bone's
    /// collision off.
    #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "px"))]
    #[var(set = set_collision_radius)]
    #[init(val = 4.0)]
    collision_radius: f32,
    /// Optional: multiplies [member collision_radius] along the chain, sampled like [member stiffness_curve].
    /// Negative values count as 0 (no collision for that bone).
    #[export]
    #[init(val = NodeSlot::named("SpringChain2D", "collision_radius_curve"))]
    collision_radius_curve: NodeSlot<Curve>,
    /// Collide with physics bodies (static, animatable, rigid and character bodies).
    #[export]
    #[init(val = true)]
    collide_with_bodies: bool,
    /// Collide with [Area2D]s.
    #[export]
    collide_with_areas: bool,

    /// The largest angle in radians between a bone and its animated pose (relative to its parent) after the last
    /// step; [code]-1.0[/code] before the first step.
    #[var(no_set)]
    #[init(val = -1.0)]
    last_error: f32,
    /// Substeps the last step simulated (each at most 1/240 s).
    #[var(no_set)]
    last_iterations: i32,

    /// The physics queries, made on the first step with colliders on.
    queries: Option<WorldQueries>,
    /// The simulation's state and buffers.
    simulation: Simulation,
    state: NodeState,
    base: Base<Node2D>,
}

#[reach2d_macros::api(update_constants, angle_limits, setup_warning, bone_count)]
#[godot_api]
impl SpringChain2D {
    /// Advances the simulation by [param delta] seconds (at most 0.25 s are simulated; 0 only writes the current
    /// state) and writes the bones, whatever [member update_mode] and [member enabled] say. Returns
    /// [code]false[/code], leaving every bone untouched, when the setup is invalid (the reason is printed once and
    /// shown as a configuration warning).
    #[func]
    pub fn advance(&mut self, delta: f64) -> bool {
        // The step runs in f32: 1e300 is finite as f64 but not as f32. Reported once until a good step.
        if !(delta as f32).is_finite() {
            return frame::refuse(self, Problem::DeltaNotFinite);
        }
        frame::solve_for(self, delta)
    }

    /// Advances the simulation by one physics tick ([code]1.0 / Engine.physics_ticks_per_second[/code]); see
    /// [method advance].
    #[func]
    pub fn solve(&mut self) -> bool {
        let ticks = Engine::singleton().get_physics_ticks_per_second().max(1);
        self.advance(1.0 / f64::from(ticks))
    }

    /// Snaps the simulation onto the bones' current pose, at rest: the next step starts from there, as a new node's
    /// first (the goal is read afresh too: the pose the bones hold counts as the animation's). Happens by itself
    /// before the first step, when the chain changes and after a jump beyond [member teleport_distance] (those keep
    /// the goal they know); not when the node or its bones leave the tree and come back (the swing goes on where it
    /// was).
    #[func]
    pub fn reset(&mut self) {
        self.simulation.reset();
        frame::reset(self);
    }

    // The checked setters: a bad value prints one error naming the valid range and keeps the last good one.
    #[func]
    fn set_weight(&mut self, value: f32) {
        checked::set_float(&mut self.weight, "SpringChain2D", "weight", value, 0.0, 1.0);
    }
    #[func]
    fn set_stiffness(&mut self, value: f32) {
        checked::set_float(&mut self.stiffness, "SpringChain2D", "stiffness", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_damping(&mut self, value: f32) {
        checked::set_float(&mut self.damping, "SpringChain2D", "damping", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_gravity(&mut self, value: Vector2) {
        checked::set_vector(&mut self.gravity, "SpringChain2D", "gravity", value);
    }
    #[func]
    fn set_external_force(&mut self, value: Vector2) {
        checked::set_vector(&mut self.external_force, "SpringChain2D", "external_force", value);
    }
    #[func]
    fn set_max_angle_step(&mut self, value: f32) {
        checked::set_float(&mut self.max_angle_step, "SpringChain2D", "max_angle_step", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_teleport_distance(&mut self, value: f32) {
        checked::set_float(&mut self.teleport_distance, "SpringChain2D", "teleport_distance", value, 0.0, f32::MAX);
    }
    #[func]
    fn set_collision_mask(&mut self, value: i64) {
        checked::set_int(&mut self.collision_mask, "SpringChain2D", "collision_mask", value, 0, i64::from(u32::MAX));
    }
    #[func]
    fn set_collision_radius(&mut self, value: f32) {
        checked::set_float(&mut self.collision_radius, "SpringChain2D", "collision_radius", value, 0.0, f32::MAX);
    }
}

#[godot_api]
impl INode2D for SpringChain2D {
    fn ready(&mut self) {
        frame::ready(self, SPRING_PROCESS_PRIORITY);
    }
    fn process(&mut self, delta: f64) {
        frame::tick(self, Tick::Process, delta.min(physics_catch_up()));
    }
    fn physics_process(&mut self, delta: f64) {
        frame::tick(self, Tick::Physics, delta);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        // No reset on entering the tree: a node that comes back (a reparent) keeps its swing, and a new one starts
        // at rest anyway (the simulation is unprimed until its first step).
        frame::notification(self, what);
    }
    fn draw(&mut self) {
        gizmo::draw(&mut self.to_gd().upcast(), &self.state.bones, None, None, self.state.limits.active());
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        frame::configuration_warnings(self)
    }
    fn on_get_property_list(&mut self) -> Vec<PropertyInfo> {
        node_limits::property_list(self)
    }
    fn on_get(&self, property: StringName) -> Option<Variant> {
        node_limits::get_property(self, &property)
    }
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        node_limits::set_property(self, &property, &value)
    }
    fn on_property_get_revert(&self, property: StringName) -> Option<Variant> {
        node_limits::property_revert(&property)
    }
}

impl BoneDriver for SpringChain2D {
    fn check_setup(&mut self) -> Result<(), Problem> {
        self.check().map(drop)
    }

    fn solve_frame(&mut self, delta: f64) -> Result<Solved, Problem> {
        let outcome = self.step(delta as f32);
        // Whatever happened in between, the next good step starts from the pose it finds; but bones that are only
        // out of the tree for now come back where they were, swinging (a jump still resets).
        if outcome.as_ref().is_err_and(|problem| *problem != Problem::BoneOutsideTree) {
            self.simulation.reset();
        }
        outcome
    }
}

impl SpringChain2D {
    /// One step: check setup → read the goal pose → simulate → write.
    fn step(&mut self, delta: f32) -> Result<Solved, Problem> {
        let settings = self.check()?;
        let character_weight = self.state.character.weight();
        let n = self.state.bones.chain.len();
        let node = self.use_colliders.then(|| self.to_gd().upcast::<Node2D>());
        let simulation = &mut self.simulation;
        simulation.fit(n);
        simulation.sample_scales(n, self.stiffness_curve.as_ref(), self.damping_curve.as_ref());
        let filter = Filter {
            mask: u32::try_from(self.collision_mask).unwrap_or(u32::MAX),
            bodies: self.collide_with_bodies,
            areas: self.collide_with_areas,
        };
        let mut space = node.as_ref().and_then(|node| {
            simulation.sample_radii(n, self.collision_radius, self.collision_radius_curve.as_ref());
            self.queries.get_or_insert_with(WorldQueries::new).in_space_of(node, filter)
        });
        let bones = &mut self.state.bones;
        let limits = bones::chain_limits(bones, self.state.limits.active());
        // The goal: each bone's last rotation the spring did not write (the animation's, the IK's, a script's).
        bones::read(bones, TipEnd::BoneLength, Start::UNWRITTEN)?;
        let teleport_distance = self.teleport_distance;
        let parent = bones.chain.parent();
        let flipped = |visit: &mut dyn FnMut(Affine2)| ancestors::visit_global_transforms(parent, visit);
        let report = bones.pose.place_joints(|pose, joints| {
            let report = simulation.step(pose, joints, limits, &settings, delta, teleport_distance, flipped)?;
            simulation.collide(joints, &settings, space.as_mut().map(|s| s as &mut dyn SpringCollider));
            Ok::<_, Problem>(report)
        })?;
        bones::write(bones, self.weight * character_weight, limits, f32::INFINITY)?;
        Ok(Solved { error: report.deviation, iterations: report.substeps as i32 })
    }

    /// The spring's settings, then the bones, checked without touching a bone.
    fn check(&mut self) -> Result<SpringSettings, Problem> {
        let settings = self.settings();
        let slots = Slots { target: None, pole: None, root: &self.root_bone, tip: &self.tip_bone, shape: Shape::Chain };
        if setup::check(&mut self.state.bones, slots)?.chain_changed {
            self.simulation.reset(); // Other bones: nothing of the old swing applies.
        }
        Ok(settings)
    }

    /// The spring's settings as the properties hold them (validated when set); `max_angle_step` 0 is "no cap".
    fn settings(&self) -> SpringSettings {
        SpringSettings {
            stiffness: self.stiffness,
            damping: self.damping,
            gravity: vec2(self.gravity),
            external_force: vec2(self.external_force),
            max_angle_step: if self.max_angle_step > 0.0 { self.max_angle_step } else { f32::INFINITY },
        }
    }
}

/// The most time Godot's physics advances in one frame, seconds: `max_physics_steps_per_frame` ticks. A process
/// frame longer than that (a hitch, the first frame of a run, which holds the loading time) steps the spring by this
/// much only, so that in process mode the spring advances by the same time as the physics world and as it would in
/// physics mode.
fn physics_catch_up() -> f64 {
    let engine = Engine::singleton();
    let ticks = engine.get_physics_ticks_per_second().max(1);
    f64::from(engine.get_max_physics_steps_per_frame().max(1)) / f64::from(ticks)
}
