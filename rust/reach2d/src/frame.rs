//! What every Reach2D node does at run time and in the editor: update modes, the target, the solve-and-report
//! cycle, editor preview and saving, and configuration warnings. Each node class supplies only its own solve; the
//! class itself is declared by the macros in `node_class.rs`.

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Engine, Node2D};
use godot::obj::WithBaseField;
use godot::prelude::*;
use reach2d_core::{ChainSolver, Vec2};

use crate::chain::{BoneChain, Motion};
use crate::convert::vec2;
use crate::editor::in_editor;
use crate::limits::AngleLimits;
use crate::pose::TipDirection;
use crate::problem::{Problem, ProblemReporter};

/// When a node solves by itself. Stored in the node as a validated `i64` (see `checked.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UpdateMode {
    /// Every process frame (`_process`), after animation.
    #[default]
    Process = 0,
    /// Every physics frame (`_physics_process`), after animation in physics mode.
    Physics = 1,
    /// Only when a script calls `solve()`.
    Manual = 2,
}

impl UpdateMode {
    /// The modes' names, by value, for error messages.
    pub const NAMES: [&'static str; 3] = ["UPDATE_PROCESS", "UPDATE_PHYSICS", "UPDATE_MANUAL"];

    /// The mode with this value, or `None`.
    pub fn from_i64(value: i64) -> Option<Self> {
        match value {
            0 => Some(Self::Process),
            1 => Some(Self::Physics),
            2 => Some(Self::Manual),
            _ => None,
        }
    }
}

/// Which engine callback is running.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    Process,
    Physics,
}

/// Process priority the nodes take at run time when the user left it at 0, so that in the same frame they run
/// after AnimationPlayer and AnimationTree (priority 0) have posed the bones. Not applied in the editor, so
/// scenes are never changed by it.
pub const RUNTIME_PROCESS_PRIORITY: i32 = 100;

/// What a solve produced: the end effector error (px, or radians for look-at) and the iterations used.
#[derive(Clone, Copy, Debug)]
pub struct Solved {
    pub error: f32,
    pub iterations: u32,
}

/// Runtime state every node keeps beside its exported properties.
#[derive(Default)]
pub struct IkState {
    pub chain: BoneChain,
    reporter: ProblemReporter,
    /// The current problem, for configuration warnings.
    problem: Option<Problem>,
    warned: Option<Problem>,
    /// Editor: the chain length the inspector's angle-limit properties were last listed for.
    listed_bones: usize,
}

/// The target's global position, or why there is none.
pub fn target_position(target: Option<&Gd<Node2D>>) -> Result<Vec2, Problem> {
    let target = target.ok_or(Problem::NoTarget)?;
    if !target.is_instance_valid() {
        return Err(Problem::TargetFreed);
    }
    if !target.is_inside_tree() {
        return Err(Problem::TargetOutsideTree);
    }
    let position = vec2(target.get_global_position());
    if position.is_finite() { Ok(position) } else { Err(Problem::TargetNotFinite) }
}

/// What a good setup check found, for the solve that follows: the target's global position and the pole's, if set.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub goal: Vec2,
    pub pole: Option<Vec2>,
}

/// The pole's global position: `None` when no pole is set, or why the set pole cannot be used (freed, outside the
/// tree, not finite). A broken pole is a problem like a broken target: the node keeps its pose until it is fixed or
/// cleared, rather than silently bending another way.
pub fn pole_position(pole: Option<&Gd<Node2D>>) -> Result<Option<Vec2>, Problem> {
    let Some(pole) = pole else { return Ok(None) };
    if !pole.is_instance_valid() {
        return Err(Problem::PoleFreed);
    }
    if !pole.is_inside_tree() {
        return Err(Problem::PoleOutsideTree);
    }
    let position = vec2(pole.get_global_position());
    if position.is_finite() { Ok(Some(position)) } else { Err(Problem::PoleNotFinite) }
}

/// The direction of the target's global x axis (its global rotation, as Godot reports it, mirroring included), for
/// `match_target_rotation`; zero (no direction) when there is no usable target.
pub fn target_x_axis(target: Option<&Gd<Node2D>>) -> Vec2 {
    match target {
        Some(target) if target.is_instance_valid() && target.is_inside_tree() => {
            let x_axis = vec2(target.get_global_transform().a);
            if x_axis.is_finite() { x_axis } else { Vec2::ZERO }
        }
        _ => Vec2::ZERO,
    }
}

/// The tip direction `match_target_rotation` asks for, or `None` when it is off.
pub fn tip_direction(target: Option<&Gd<Node2D>>, on: bool, weight: f32) -> Option<TipDirection> {
    on.then(|| TipDirection { x_axis: target_x_axis(target), weight })
}

/// One solve of an iterative chain node (FABRIK or CCD) toward `goal`: read, pre-bend toward `pole` if any, solve in
/// flat arrays, write rotations. With `tip`, the tip bone's global direction follows the target's rotation.
pub fn solve_chain(
    state: &mut IkState,
    goal: Vec2,
    pole: Option<Vec2>,
    tip: Option<TipDirection>,
    weight: f32,
    limits: &AngleLimits,
    solver: &impl ChainSolver,
) -> Result<Solved, Problem> {
    let (effector, report) = state.chain.solve_iterative(solver, goal, pole, tip, weight, limits.active())?;
    Ok(Solved { error: effector.distance(goal), iterations: report.iterations })
}

/// A Reach2D node: its shared settings and state, and its own solve.
pub trait IkNode: WithBaseField<Base = Node2D> {
    fn state(&mut self) -> &mut IkState;
    fn state_ref(&self) -> &IkState;
    fn enabled(&self) -> bool;
    fn update_mode(&self) -> UpdateMode;
    fn editor_preview(&self) -> bool;
    /// Records the outcome of a good solve in the node's read-only properties.
    fn record(&mut self, solved: Solved);
    /// Checks the setup without touching any bone.
    fn check_setup(&mut self) -> Result<(), Problem>;
    /// Reads, solves and writes. On error no bone may have been written.
    fn solve_once(&mut self) -> Result<Solved, Problem>;
    /// How a solve that advances time by `delta` seconds starts and how far it may move the bones
    /// (`solve_from_rest`, `max_angular_speed`); nodes without these settings keep the default.
    fn motion(&self, delta: f64) -> Motion {
        let _ = delta;
        Motion::default()
    }
    /// `true` when a solve needs the frame's delta (a speed limit is set); [`solve`] asks the engine for it only then.
    fn speed_limited(&self) -> bool {
        false
    }
}

/// The per-solve step of a speed limit: `speed` rad/s over `delta` s, `f32::INFINITY` when `speed` is 0 (no
/// limit). A negative or non-finite `delta` counts as 0.
pub fn max_step(speed: f32, delta: f64) -> f32 {
    if speed > 0.0 {
        let delta = if delta.is_finite() { delta.max(0.0) } else { 0.0 };
        (f64::from(speed) * delta) as f32
    } else {
        f32::INFINITY
    }
}

/// The time a [`solve`] call advances the speed limit by: this physics tick's delta when called during a physics
/// frame, else this process frame's.
fn frame_delta<T: IkNode>(node: &T) -> f64 {
    let base = node.base();
    if Engine::singleton().is_in_physics_frame() {
        base.get_physics_process_delta_time()
    } else {
        base.get_process_delta_time()
    }
}

/// `solve()`: solves now, whatever the mode. Returns `true` when the bones were written.
pub fn solve<T: IkNode>(node: &mut T) -> bool {
    counted(|| {
        // Two engine calls: only when a speed limit needs them (they would cost a two-bone solve about a third).
        let delta = if node.speed_limited() { frame_delta(node) } else { 0.0 };
        solve_counted(node, delta)
    })
}

/// Runs the nodes' own per-frame code; debug builds and release builds with the `bench` feature count its heap
/// allocations (there must be none).
pub fn counted<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(any(debug_assertions, feature = "bench"))]
    return crate::debug_alloc::count_in(f);
    #[cfg(not(any(debug_assertions, feature = "bench")))]
    f()
}

fn solve_counted<T: IkNode>(node: &mut T, delta: f64) -> bool {
    let motion = node.motion(delta);
    node.state().chain.set_motion(motion);
    let outcome = node.solve_once();
    note(node, outcome.as_ref().err().copied());
    match outcome {
        Ok(solved) => {
            node.record(solved);
            if in_editor() {
                node.base_mut().queue_redraw();
            }
            true
        }
        Err(_) => false,
    }
}

/// Remembers the current problem, reports a new one once, and refreshes the editor's warnings when it changes.
fn note<T: IkNode>(node: &mut T, problem: Option<Problem>) {
    match problem {
        Some(problem) if !node.state_ref().reporter.is_reported(problem) => {
            let this = node.base().clone();
            node.state().reporter.report(&this, problem);
        }
        Some(_) => {}
        None => node.state().reporter.clear(),
    }
    let state = node.state();
    state.problem = problem;
    if state.warned != problem {
        state.warned = problem;
        node.base_mut().update_configuration_warnings();
    }
}

/// `_process` / `_physics_process`: solves when the node is enabled and in this tick's mode; in the editor,
/// every process frame while the preview is on.
pub fn tick<T: IkNode>(node: &mut T, tick: Tick) {
    tick_timed(node, tick, 0.0);
}

/// [`tick`] for a node with a speed limit: `delta` is the tick's time in seconds.
pub fn tick_timed<T: IkNode>(node: &mut T, tick: Tick, delta: f64) {
    counted(|| tick_counted(node, tick, delta));
}

fn tick_counted<T: IkNode>(node: &mut T, tick: Tick, delta: f64) {
    if in_editor() {
        if tick != Tick::Process {
            return;
        }
        if node.enabled() && node.editor_preview() {
            solve_counted(node, delta);
        } else {
            node.state().chain.restore_authored();
            node.state().chain.forget_preview();
            let problem = node.check_setup().err();
            note(node, problem);
        }
        // The inspector lists one angle-limit entry per bone: refresh it when the chain's length changes.
        let bones = node.state_ref().chain.len();
        if node.state_ref().listed_bones != bones {
            node.state().listed_bones = bones;
            node.base_mut().notify_property_list_changed();
        }
        return;
    }
    let wanted = match node.update_mode() {
        UpdateMode::Process => tick == Tick::Process,
        UpdateMode::Physics => tick == Tick::Physics,
        UpdateMode::Manual => false,
    };
    if node.enabled() && wanted {
        solve_counted(node, delta);
    } else if !node.enabled() {
        // A disabled node leaves no stretched limb behind (a no-op when nothing is stretched), and its speed limit
        // starts again from the pose it finds when it is enabled again.
        node.state().chain.restore_tip_position();
        node.state().chain.forget_steps();
    }
}

/// Handles the notifications every node shares: run after animation, and never save a solved pose.
pub fn notification<T: IkNode>(node: &mut T, what: CanvasItemNotification) {
    match what {
        CanvasItemNotification::READY => {
            if !in_editor() {
                let mut base = node.base_mut();
                if base.get_process_priority() == 0 {
                    base.set_process_priority(RUNTIME_PROCESS_PRIORITY);
                }
                if base.get_physics_process_priority() == 0 {
                    base.set_physics_process_priority(RUNTIME_PROCESS_PRIORITY);
                }
            }
            check_now(node);
        }
        // Saving stores the user's own rotations; the preview's pose comes back right after.
        CanvasItemNotification::EDITOR_PRE_SAVE => node.state().chain.restore_authored(),
        CanvasItemNotification::EDITOR_POST_SAVE => node.state().chain.reapply_written(),
        CanvasItemNotification::EXIT_TREE if in_editor() => {
            node.state().chain.restore_authored();
            node.state().chain.forget_preview();
        }
        // At run time a node that leaves keeps its last pose, but not a stretched limb.
        CanvasItemNotification::EXIT_TREE => node.state().chain.restore_tip_position(),
        _ => {}
    }
}

/// Checks the setup now, without touching a bone or printing, and updates the warnings: a node says what is wrong
/// as soon as it enters the tree or is asked, not only after a solve attempt.
pub fn check_now<T: IkNode>(node: &mut T) {
    let problem = match counted(|| node.check_setup()) {
        Err(problem) => Some(problem),
        // A good setup does not clear what only a solve can see (a collapsed or non-finite pose, a refused chain).
        Ok(()) => node.state_ref().problem.filter(|p| p.found_by_solving()),
    };
    let state = node.state();
    state.problem = problem;
    if state.warned != problem {
        state.warned = problem;
        node.base_mut().update_configuration_warnings();
    }
}

/// Configuration warnings for the scene tree dock.
pub fn configuration_warnings<T: IkNode>(node: &T) -> PackedStringArray {
    let mut warnings = PackedStringArray::new();
    if let Some(problem) = node.state_ref().problem {
        warnings.push(&problem.message());
    }
    warnings
}
