//! `SpringChain2D`: secondary motion. A chain of Bone2D nodes follows its animated or IK pose through damped
//! rotational springs (`reach2d_core::spring`), for hair, tails, capes and antennae.

use glam::Affine2;
use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, Curve, Engine, INode2D, Node2D};
use godot::prelude::*;
use reach2d_core::write_back::{BonePose, ChainPose};
use reach2d_core::{
    ChainLimits, SpringBone, SpringError, SpringFrame, SpringGoal, SpringScale, SpringSettings, Vec2, carry_spring,
    step_spring,
};

use crate::common::{self, IkState, Solved, Tick, UpdateMode};
use crate::convert::vec2;
use crate::limits::AngleLimits;
use crate::node_class;
use crate::problem::Problem;

/// Run-time process priority when the user left it at 0: after AnimationPlayer/AnimationTree (0) and after the IK
/// nodes ([`common::RUNTIME_PROCESS_PRIORITY`]), so a tail hangs off the body those have posed in the same frame.
pub const SPRING_PROCESS_PRIORITY: i32 = common::RUNTIME_PROCESS_PRIORITY + 10;

/// Turns a chain of [Bone2D] nodes so that it follows its animated (or IK) pose through damped springs: hair,
/// tails, capes and antennae that lag behind the body, swing under gravity and wind, overshoot and settle.
///
/// The chain is [member tip_bone] and its Bone2D ancestors up to [member root_bone]. Every frame the node reads the
/// pose the bones have been given (by an [AnimationPlayer], an [AnimationTree], IK nodes or a script) as the goal,
/// advances the simulation and writes back only each bone's local [member Node2D.rotation]; position, scale and
/// skew are never touched. Each bone is simulated as its angle relative to its parent, pulled toward the goal's
/// by [member stiffness], slowed by [member damping], and pushed by [member gravity] and [member external_force]
/// and by the motion of the body it hangs from. The simulation runs in fixed substeps of at most 1/240 s, so it
/// behaves the same at any frame rate and in process or physics mode.
///
/// Mirroring is exact: a character flipped with [code]scale.x = -1[/code] (on the skeleton or any ancestor) moves its
/// chain as the mirror image of the unmirrored one, and the flip itself carries the chain's swing over mirrored,
/// without a whip. [method reset] snaps the chain onto its current pose; it happens by itself when the node enters
/// the tree and when the chain's root moves farther than [member teleport_distance] in one step.
///
/// The node runs after [AnimationPlayer], [AnimationTree] and the IK nodes in the same frame (process priority
/// 110 at run time), so a tail can hang off an IK-driven body. Per-bone angle limits ([method set_angle_limits])
/// hold after every step.
#[derive(GodotClass)]
#[class(init, tool, base = Node2D)]
pub struct SpringChain2D {
    /// First bone of the chain: it swings about its origin, which follows the body.
    #[export]
    root_bone: Option<Gd<Bone2D>>,
    /// Last bone of the chain: [member root_bone] itself or one of its Bone2D descendants.
    #[export]
    tip_bone: Option<Gd<Bone2D>>,
    /// If [code]false[/code], the node stops simulating by itself and leaves the bones to their pose; [method advance]
    /// still steps. Turning it back on resets the chain onto its current pose.
    #[export]
    #[init(val = true)]
    enabled: bool,
    /// How much of the simulated pose is applied: each bone's written rotation is
    /// [code]lerp_angle(input, simulated, weight)[/code], where input is its rotation before the step. A value
    /// outside [0, 1] (or NaN) is an error and is ignored.
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_weight)]
    #[init(val = 1.0)]
    weight: f32,
    /// When the node steps by itself: every process frame ([constant UPDATE_PROCESS]), every physics frame
    /// ([constant UPDATE_PHYSICS]), or only when [method advance] or [method solve] is called ([constant UPDATE_MANUAL]).
    /// Any other value is an error and is ignored.
    // An i64 with an enum hint, validated in its setter: see `checked.rs`.
    #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
    #[var(set = set_update_mode)]
    update_mode: i64,
    /// Simulate in the editor while you edit. Saving a scene always stores your own bone rotations.
    #[export]
    #[init(val = true)]
    editor_preview: bool,
    /// How strongly each bone is pulled back toward its animated angle, in 1/s² (angular acceleration per radian
    /// away from it). Its square root is the natural frequency in rad/s: 200 swings at about 2.3 Hz. 0 lets the
    /// chain hang and swing freely.
    #[export_group(name = "Spring")]
    #[export(range = (0.0, 2000.0, 0.1, or_greater, suffix = "1/s²"))]
    #[init(val = 200.0)]
    stiffness: f32,
    /// How quickly a bone's swing relative to its parent dies out, in 1/s. About [code]2 * sqrt(stiffness)[/code]
    /// settles without overshoot; less bounces.
    #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "1/s"))]
    #[init(val = 12.0)]
    damping: f32,
    /// Gravity on the chain, in global pixels per second squared (Godot's 2D default is [code](0, 980)[/code]). Zero by
    /// default, so adding the node keeps the animated pose at rest.
    #[export]
    gravity: Vector2,
    /// A constant push added to gravity, in global pixels per second squared: wind. Animate it for gusts.
    #[export]
    external_force: Vector2,
    /// Largest turn of a bone relative to its parent per 1/60 s (a cap on its speed); 0 means no cap. Tames violent
    /// motion such as a sudden spin of the body.
    #[export(range = (0.0, 180.0, 0.1, radians_as_degrees))]
    max_angle_step: f32,
    /// Optional: multiplies [member stiffness] along the chain, sampled at [code]i / (bone count - 1)[/code] for bone
    /// [code]i[/code] (0 at the root, 1 at the tip). Negative values count as 0.
    #[export]
    stiffness_curve: Option<Gd<Curve>>,
    /// Optional: multiplies [member damping] along the chain, sampled like [member stiffness_curve].
    #[export]
    damping_curve: Option<Gd<Curve>>,
    /// When the chain's root moves farther than this in one step, in global pixels, the node calls [method reset]
    /// instead of letting the chain swing from the jump (a teleport, a respawn). 0 never resets.
    #[export(range = (0.0, 2000.0, 1.0, or_greater, suffix = "px"))]
    #[init(val = 500.0)]
    teleport_distance: f32,
    /// The largest angle in radians between a bone and its animated pose (relative to its parent) after the last
    /// step; [code]-1.0[/code] before the first step.
    #[var(no_set)]
    #[init(val = -1.0)]
    last_error: f32,
    /// Substeps the last step simulated (each at most 1/240 s).
    #[var(no_set)]
    last_iterations: i32,

    limits: AngleLimits,
    state: IkState,
    spring: SpringRuntime,
    base: Base<Node2D>,
}

/// The simulation's state and buffers, reused every step.
#[derive(Default)]
struct SpringRuntime {
    frame: SpringFrame,
    bones: Vec<SpringBone>,
    scales: Vec<SpringScale>,
    simulated: Vec<Vec2>,
    /// The root bone's parent's global transform at the last step, to tell a flip or a jump.
    last_parent: Option<Affine2>,
    /// The time the next step simulates, seconds.
    delta: f32,
    /// Each bone's goal rotation: what the animation, IK or a script last set. A bone still holding what this node
    /// wrote was not posed again since, so its goal is the remembered one, not the simulated pose.
    goal_rotations: Vec<f32>,
    written: Vec<f32>,
    has_written: bool,
    /// The angle limits as segment limits for the simulation, derived from the rotation limits every step.
    segment_limits: Vec<Option<reach2d_core::AngleLimit>>,
}

#[godot_api]
impl SpringChain2D {
    /// Sets [member weight]: a value outside [0, 1] (or NaN) prints an error and keeps the current one.
    #[func]
    fn set_weight(&mut self, value: f32) {
        if let Some(v) = crate::checked::float_value("SpringChain2D", "weight", f64::from(value), 0.0, 1.0) {
            self.weight = v as f32;
        }
    }

    /// Sets [member update_mode]: anything but [constant UPDATE_PROCESS], [constant UPDATE_PHYSICS] or
    /// [constant UPDATE_MANUAL] prints an error and keeps the current mode.
    #[func]
    fn set_update_mode(&mut self, value: i64) {
        let names = UpdateMode::NAMES;
        if let Some(v) = crate::checked::enum_value("SpringChain2D", "update_mode", value, &names) {
            self.update_mode = v;
        }
    }

    /// [member update_mode]: step every process frame (the default).
    #[constant]
    pub const UPDATE_PROCESS: i32 = 0;
    /// [member update_mode]: step every physics frame.
    #[constant]
    pub const UPDATE_PHYSICS: i32 = 1;
    /// [member update_mode]: step only when [method advance] or [method solve] is called.
    #[constant]
    pub const UPDATE_MANUAL: i32 = 2;

    /// Advances the simulation by [param delta] seconds (at most 0.25 s are simulated; 0 only writes the current
    /// state) and writes the bones, whatever [member update_mode] and [member enabled] say. Returns
    /// [code]false[/code], leaving every bone untouched, when the setup is invalid (the reason is printed once and
    /// shown as a configuration warning).
    #[func]
    pub fn advance(&mut self, delta: f64) -> bool {
        if !delta.is_finite() {
            godot_error!("SpringChain2D.advance(): delta is {delta}; give a finite time in seconds.");
            return false;
        }
        self.spring.delta = delta as f32;
        common::solve(self)
    }

    /// Advances the simulation by one physics tick ([code]1.0 / Engine.physics_ticks_per_second[/code]); see
    /// [method advance].
    #[func]
    pub fn solve(&mut self) -> bool {
        let ticks = Engine::singleton().get_physics_ticks_per_second().max(1);
        self.advance(1.0 / f64::from(ticks))
    }

    /// Snaps the simulation onto the bones' current pose, at rest: the next step starts from there. Called by
    /// itself when the node enters the tree, when the chain changes and after a jump beyond
    /// [member teleport_distance].
    #[func]
    pub fn reset(&mut self) {
        self.spring.frame.unprime();
        self.spring.last_parent = None;
    }

    fn settings(&self) -> Result<SpringSettings, Problem> {
        let (gravity, external_force) = (vec2(self.gravity), vec2(self.external_force));
        if !gravity.is_finite() || !external_force.is_finite() {
            return Err(Problem::SpringForceNotFinite);
        }
        // Inspector ranges keep these sane; a script's negative or NaN value counts as 0 (no cap for the step).
        let non_negative = |v: f32| if v.is_finite() && v > 0.0 { v } else { 0.0 };
        Ok(SpringSettings {
            stiffness: non_negative(self.stiffness),
            damping: non_negative(self.damping),
            gravity,
            external_force,
            max_angle_step: if self.max_angle_step > 0.0 { self.max_angle_step } else { f32::INFINITY },
        })
    }

    /// Samples the curves into per-bone scales; leaves them empty (all 1) without curves.
    fn sample_scales(&mut self, bones: usize) {
        let scales = &mut self.spring.scales;
        scales.clear();
        if self.stiffness_curve.is_none() && self.damping_curve.is_none() {
            return;
        }
        let sample = |curve: &Option<Gd<Curve>>, x: f32| {
            curve.as_ref().filter(|c| c.is_instance_valid()).map_or(1.0, |c| {
                let v = c.sample_baked(x);
                if v.is_finite() { v.max(0.0) } else { 1.0 }
            })
        };
        for i in 0..bones {
            let x = if bones > 1 { i as f32 / (bones - 1) as f32 } else { 0.0 };
            scales.push(SpringScale {
                stiffness: sample(&self.stiffness_curve, x),
                damping: sample(&self.damping_curve, x),
            });
        }
    }

    fn check_setup_impl(&mut self) -> Result<(), Problem> {
        self.settings()?;
        self.state.chain.ensure(self.root_bone.as_ref(), self.tip_bone.as_ref(), false)
    }

    fn solve_impl(&mut self) -> Result<Solved, Problem> {
        let outcome = self.step();
        if outcome.is_err() {
            // Whatever happened in between, the next good step starts from the pose it finds.
            self.reset();
        }
        outcome
    }

    fn step(&mut self) -> Result<Solved, Problem> {
        let settings = self.settings()?;
        self.state.chain.ensure(self.root_bone.as_ref(), self.tip_bone.as_ref(), false)?;
        let n = self.state.chain.len();
        self.sample_scales(n);
        let spring = &mut self.spring;
        if spring.bones.len() != n {
            spring.bones.resize(n, SpringBone::default());
            spring.simulated.resize(n + 1, Vec2::ZERO);
            spring.goal_rotations.resize(n, 0.0);
            spring.written.resize(n, 0.0);
            spring.segment_limits.resize(n, None);
            spring.has_written = false;
            spring.frame.unprime();
        }
        let all_limits = self.limits.active();
        let rotation_limits = &all_limits[..all_limits.len().min(n)];
        let teleport_distance = self.teleport_distance;
        let SpringRuntime {
            frame,
            bones,
            scales,
            simulated,
            last_parent,
            delta,
            goal_rotations,
            written,
            has_written,
            segment_limits,
        } = spring;
        // The goal: a bone still holding what this node wrote was not posed again since, so its goal is the
        // remembered one; any other rotation is the new goal (animation, IK, a script, the editor).
        let remember = |poses: &mut [BonePose]| {
            for (i, pose) in poses.iter_mut().enumerate() {
                if *has_written && pose.rotation.to_bits() == written[i].to_bits() {
                    pose.rotation = goal_rotations[i];
                } else {
                    goal_rotations[i] = pose.rotation;
                }
            }
        };
        let simulate = |pose: ChainPose<'_>, joints: &mut [Vec2]| {
            // The root frame (the root's parent's x axis) and the limits as segment limits for this pose.
            let root_direction = pose.segment_limits(joints, rotation_limits, segment_limits);
            let per_bone = if rotation_limits.iter().all(Option::is_none) { &[][..] } else { &segment_limits[..] };
            if let Some(last) = last_parent.filter(|_| frame.is_primed()) {
                // A flip (a scale sign change above the chain) carries the swing over, mirrored, instead of
                // whipping; `new * old⁻¹` also holds this frame's own motion, which the next step coasts through.
                let (old, new) = (last.matrix2.determinant(), pose.parent.matrix2.determinant());
                if old != 0.0 && new != 0.0 && old.signum() != new.signum() {
                    carry_spring(frame, bones, pose.parent * last.inverse());
                }
                // A NaN jump (a degenerate pose) resets too.
                let jump = frame.position().distance(joints[0]);
                if teleport_distance > 0.0 && (jump.is_nan() || jump > teleport_distance) {
                    frame.unprime();
                }
            }
            *last_parent = Some(pose.parent);
            let goal = SpringGoal { joints, limits: ChainLimits { root_direction, per_bone }, scales };
            let report =
                step_spring(frame, bones, &goal, &settings, *delta, simulated).map_err(|error| match error {
                    SpringError::Chain(error) => Problem::Solver(error),
                    _ => Problem::SpringForceNotFinite,
                })?;
            joints.copy_from_slice(simulated);
            Ok(report)
        };
        let (_, report, rotations) =
            self.state.chain.solve_following(self.weight, rotation_limits, remember, simulate)?;
        written.copy_from_slice(rotations);
        *has_written = true;
        Ok(Solved { error: report.deviation, iterations: report.substeps })
    }
}

// The angle-limit methods, get_setup_warning(), get_bone_count() and the IkNode plumbing every node shares.
node_class::ik_node_api!(SpringChain2D);

#[godot_api]
impl INode2D for SpringChain2D {
    fn process(&mut self, delta: f64) {
        self.spring.delta = delta as f32;
        common::tick(self, Tick::Process);
    }
    fn physics_process(&mut self, delta: f64) {
        self.spring.delta = delta as f32;
        common::tick(self, Tick::Physics);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        match what {
            CanvasItemNotification::ENTER_TREE => self.reset(),
            CanvasItemNotification::READY if !crate::editor::in_editor() => {
                let mut base = self.base_mut();
                if base.get_process_priority() == 0 {
                    base.set_process_priority(SPRING_PROCESS_PRIORITY);
                }
                if base.get_physics_process_priority() == 0 {
                    base.set_physics_process_priority(SPRING_PROCESS_PRIORITY);
                }
            }
            _ => {}
        }
        common::notification(self, what);
    }
    fn draw(&mut self) {
        let mut this = self.to_gd().upcast::<Node2D>();
        crate::gizmo::draw(&mut this, &self.state.chain, None, None, self.limits.active());
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        common::configuration_warnings(self)
    }
    fn on_get_property_list(&mut self) -> Vec<godot::register::info::PropertyInfo> {
        self.limits.property_list(self.state.chain.len())
    }
    fn on_get(&self, property: StringName) -> Option<Variant> {
        common::counted(|| self.limits.get_property(&property))
    }
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        common::counted(|| self.limits.set_property(&property, &value))
    }
    fn on_property_get_revert(&self, property: StringName) -> Option<Variant> {
        AngleLimits::property_revert(&property)
    }
}
