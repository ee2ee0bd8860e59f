//! What every node does around its own solve, at run time and in the editor: whether this tick solves (update
//! modes, `enabled`, the editor preview), reporting the outcome once, editor saving, run-time process priority and
//! configuration warnings. The solve itself (check setup → read → solve → write) is each node's own, in its file
//! under `nodes/`.

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Engine, Node2D};
use godot::obj::WithBaseField;
use godot::prelude::*;

use crate::editor::in_editor;
use crate::io::bones::{self, Bones};
use crate::limits::AngleLimits;
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

/// Process priority the IK nodes take at run time when the user left it at 0, so that in the same frame they run
/// after AnimationPlayer and AnimationTree (priority 0) have posed the bones. Not applied in the editor, so
/// scenes are never changed by it.
pub const RUNTIME_PROCESS_PRIORITY: i32 = 100;

/// What a solve produced: the end effector error (px, or radians for look-at) and the iterations used.
#[derive(Clone, Copy, Debug)]
pub struct Solved {
    pub error: f32,
    pub iterations: u32,
}

/// Run-time state every node keeps beside its exported properties: its bones and what it reported.
#[derive(Default)]
pub struct NodeState {
    pub bones: Bones,
    reporter: ProblemReporter,
    /// The current problem, for configuration warnings.
    problem: Option<Problem>,
    warned: Option<Problem>,
    /// Editor: the chain length the inspector's angle-limit properties were last listed for.
    listed_bones: usize,
}

/// The shared properties a node declares (`nodes/declare_class.rs` writes this for each class).
pub trait Shared: WithBaseField<Base = Node2D> {
    fn state(&mut self) -> &mut NodeState;
    fn state_ref(&self) -> &NodeState;
    fn limits(&mut self) -> &mut AngleLimits;
    fn enabled(&self) -> bool;
    fn update_mode(&self) -> UpdateMode;
    fn editor_preview(&self) -> bool;
    /// Records the outcome of a good solve in the node's read-only properties.
    fn record(&mut self, solved: Solved);
    /// `true` when a solve needs the frame's delta (a speed limit is set); [`solve`] asks the engine for it only
    /// then.
    fn speed_limited(&self) -> bool;
}

/// A node's own setup check and solve, written in its file.
pub trait IkNode: Shared {
    /// Checks the setup without touching any bone.
    fn check_setup(&mut self) -> Result<(), Problem>;
    /// Checks the setup, reads, solves and writes, advancing time by `delta` seconds. On error no bone may have
    /// been written.
    fn solve_frame(&mut self, delta: f64) -> Result<Solved, Problem>;
    /// `true` while another node solves this one at run time (a `FootGrounder2D`'s leg): its own ticks, from its
    /// callbacks or the batch, then do nothing.
    fn driven_elsewhere(&self) -> bool {
        false
    }
}

/// Runs the nodes' own per-frame code; debug builds and release builds with the `bench` feature count its heap
/// allocations (there must be none).
pub fn counted<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(any(debug_assertions, feature = "bench"))]
    return crate::debug_alloc::count_in(f);
    #[cfg(not(any(debug_assertions, feature = "bench")))]
    f()
}

/// `solve()`: solves now, whatever the mode, advancing time by this physics tick's delta when called during a
/// physics frame, else this process frame's. Returns `true` when the bones were written.
pub fn solve<T: IkNode>(node: &mut T) -> bool {
    counted(|| {
        // Two engine calls: only when a speed limit needs them (they would cost a two-bone solve about a third).
        let delta = if node.speed_limited() { frame_delta(node) } else { 0.0 };
        solve_and_report(node, delta)
    })
}

/// Solves now, whatever the mode, advancing time by `delta` seconds (`SpringChain2D.advance`).
pub fn solve_for<T: IkNode>(node: &mut T, delta: f64) -> bool {
    counted(|| solve_and_report(node, delta))
}

fn frame_delta<T: IkNode>(node: &T) -> f64 {
    let base = node.base();
    if Engine::singleton().is_in_physics_frame() {
        base.get_physics_process_delta_time()
    } else {
        base.get_process_delta_time()
    }
}

/// Refuses a solve for `problem` found before solving (a bad argument): reported once, like a setup problem, until a
/// good solve. Returns `false`, for the caller to return.
pub fn refuse<T: IkNode>(node: &mut T, problem: Problem) -> bool {
    counted(|| note(node, Some(problem)));
    false
}

fn solve_and_report<T: IkNode>(node: &mut T, delta: f64) -> bool {
    let outcome = node.solve_frame(delta);
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
fn note<T: Shared>(node: &mut T, problem: Option<Problem>) {
    match problem {
        Some(problem) if !node.state_ref().reporter.is_reported(problem) => {
            let this = node.base().clone();
            node.state().reporter.report(&this, problem);
        }
        Some(_) => node.state().reporter.still_there(),
        None => node.state().reporter.clear(),
    }
    show_problem(node, problem);
}

fn show_problem<T: Shared>(node: &mut T, problem: Option<Problem>) {
    let state = node.state();
    state.problem = problem;
    if state.warned != problem {
        state.warned = problem;
        node.base_mut().update_configuration_warnings();
    }
}

/// `_process` / `_physics_process`: solves when the node is enabled and in this tick's mode, advancing time by
/// `delta` seconds; in the editor, every process frame while the preview is on.
pub fn tick<T: IkNode>(node: &mut T, tick: Tick, delta: f64) {
    counted(|| {
        if in_editor() {
            if tick == Tick::Process {
                editor_tick(node, delta);
            }
            return;
        }
        if node.driven_elsewhere() {
            return;
        }
        let wanted = match node.update_mode() {
            UpdateMode::Process => tick == Tick::Process,
            UpdateMode::Physics => tick == Tick::Physics,
            UpdateMode::Manual => false,
        };
        if node.enabled() && wanted {
            solve_and_report(node, delta);
        } else if !node.enabled() {
            // A disabled node leaves no stretched limb behind (a no-op when nothing is stretched), and its speed
            // limit starts again from the pose it finds when it is enabled again.
            let bones = &mut node.state().bones;
            bones::restore_tip_position(bones);
            bones.pose.forget_steps();
        }
    });
}

fn editor_tick<T: IkNode>(node: &mut T, delta: f64) {
    if node.enabled() && node.editor_preview() {
        solve_and_report(node, delta);
    } else {
        stop_preview(&mut node.state().bones);
        let problem = node.check_setup().err();
        note(node, problem);
    }
    // The inspector lists one angle-limit entry per bone: refresh it when the chain's length changes.
    let count = node.state_ref().bones.chain.len();
    if node.state_ref().listed_bones != count {
        node.state().listed_bones = count;
        node.base_mut().notify_property_list_changed();
    }
}

fn stop_preview(bones: &mut Bones) {
    bones::restore_authored(bones);
    bones.memory.forget_preview();
}

/// `_ready`: at run time, takes `priority` as process priority when the user left it at 0 (so the node runs after
/// what poses its bones), then says what is wrong with the setup, if anything.
pub fn ready<T: IkNode>(node: &mut T, priority: i32) {
    take_runtime_priority(&mut node.base_mut(), priority);
    check_now(node);
}

/// At run time, gives `node` `priority` as its process and physics priority where the user left them at 0, so
/// it runs after what poses the bones (animation, scripts at the default priority). In the editor, nothing.
pub fn take_runtime_priority(node: &mut Node2D, priority: i32) {
    if in_editor() {
        return;
    }
    if node.get_process_priority() == 0 {
        node.set_process_priority(priority);
    }
    if node.get_physics_process_priority() == 0 {
        node.set_physics_process_priority(priority);
    }
}

/// The notifications every node handles alike: never save a solved pose, and leave no preview or stretch behind.
pub fn notification<T: Shared>(node: &mut T, what: CanvasItemNotification) {
    let bones = &mut node.state().bones;
    match what {
        // Saving stores the user's own rotations; the preview's pose comes back right after.
        CanvasItemNotification::EDITOR_PRE_SAVE => bones::restore_authored(bones),
        CanvasItemNotification::EDITOR_POST_SAVE => bones::reapply_written(bones),
        CanvasItemNotification::EXIT_TREE if in_editor() => stop_preview(bones),
        // At run time a node that leaves keeps its last pose, but not a stretched limb.
        CanvasItemNotification::EXIT_TREE => bones::restore_tip_position(bones),
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
    show_problem(node, problem);
}

/// Configuration warnings for the scene tree dock.
pub fn configuration_warnings<T: Shared>(node: &T) -> PackedStringArray {
    let mut warnings = PackedStringArray::new();
    if let Some(problem) = node.state_ref().problem {
        warnings.push(&problem.message(&T::class_id().to_string()));
    }
    warnings
}

/// `set_angle_limits` (`Some((min, max))`) and `clear_angle_limits` (`None`) on bone `index`, checked against the
/// chain's length once it is known; the inspector's list follows.
pub fn set_angle_limits<T: Shared>(node: &mut T, index: i64, range: Option<(f32, f32)>) {
    let count = node.state_ref().bones.chain.len();
    let known = Some(count).filter(|&n| n > 0);
    let changed = match range {
        Some((min, max)) => node.limits().set(index, min, max, known),
        None => node.limits().clear(index, known),
    };
    if changed {
        node.base_mut().notify_property_list_changed();
    }
}
