//! What every Reach2D node shares: update modes, the target, the solve-and-report cycle, editor preview and
//! saving, and configuration warnings. Each node class supplies only its own solve.

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, Node2D};
use godot::obj::WithBaseField;
use godot::prelude::*;
use reach2d_core::{ChainSolver, Vec2};

use crate::chain::{BoneChain, TipEnd};
use crate::convert::vec2;
use crate::editor::in_editor;
use crate::limits::AngleLimits;
use crate::problem::{ProblemReporter, Problem};

/// When a node solves by itself.
#[derive(GodotConvert, Var, Export, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[godot(via = i64)]
pub enum UpdateMode {
    /// Every process frame (`_process`), after animation.
    #[default]
    Process = 0,
    /// Every physics frame (`_physics_process`), after animation in physics mode.
    Physics = 1,
    /// Only when a script calls `solve()`.
    Manual = 2,
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

/// The setup check of the chain nodes: a target, and bones from `root` down to `tip` (`direct_child`: the tip is
/// the root's child).
pub fn check_chain(
    state: &mut IkState,
    target: Option<&Gd<Node2D>>,
    root: Option<&Gd<Bone2D>>,
    tip: Option<&Gd<Bone2D>>,
    direct_child: bool,
) -> Result<(), Problem> {
    target_position(target)?;
    state.chain.ensure(root, tip, direct_child)
}

/// One solve of an iterative chain node (FABRIK or CCD): read, solve in flat arrays, write rotations.
pub fn solve_chain(
    state: &mut IkState,
    target: Option<&Gd<Node2D>>,
    (root, tip): (Option<&Gd<Bone2D>>, Option<&Gd<Bone2D>>),
    weight: f32,
    limits: &AngleLimits,
    solver: &impl ChainSolver,
) -> Result<Solved, Problem> {
    let goal = target_position(target)?;
    let chain = &mut state.chain;
    chain.ensure(root, tip, false)?;
    chain.read(TipEnd::BoneLength)?;
    let (effector, report) = chain.solve_and_write(solver, goal, weight, limits.active())?;
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
}

/// `solve()`: solves now, whatever the mode. Returns `true` when the bones were written.
pub fn solve<T: IkNode>(node: &mut T) -> bool {
    counted(|| solve_counted(node))
}

/// Runs the nodes' own per-frame code; debug builds count its heap allocations for the tests (there must be none).
pub fn counted<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(debug_assertions)]
    return crate::debug_alloc::count_in(f);
    #[cfg(not(debug_assertions))]
    f()
}

fn solve_counted<T: IkNode>(node: &mut T) -> bool {
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
    counted(|| tick_counted(node, tick));
}

fn tick_counted<T: IkNode>(node: &mut T, tick: Tick) {
    if in_editor() {
        if tick != Tick::Process {
            return;
        }
        if node.enabled() && node.editor_preview() {
            solve_counted(node);
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
        solve_counted(node);
    }
}

/// Handles the notifications every node shares: run after animation, and never save a solved pose.
pub fn notification<T: IkNode>(node: &mut T, what: CanvasItemNotification) {
    match what {
        CanvasItemNotification::READY if !in_editor() => {
            let mut base = node.base_mut();
            if base.get_process_priority() == 0 {
                base.set_process_priority(RUNTIME_PROCESS_PRIORITY);
            }
            if base.get_physics_process_priority() == 0 {
                base.set_physics_process_priority(RUNTIME_PROCESS_PRIORITY);
            }
        }
        // Saving stores the user's own rotations; the preview's pose comes back right after.
        CanvasItemNotification::EDITOR_PRE_SAVE => node.state().chain.restore_authored(),
        CanvasItemNotification::EDITOR_POST_SAVE => node.state().chain.reapply_written(),
        CanvasItemNotification::EXIT_TREE if in_editor() => {
            node.state().chain.restore_authored();
            node.state().chain.forget_preview();
        }
        _ => {}
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

/// Declares a node class with the properties every node shares, around its own: `bones { .. }` come right after
/// `target` in the inspector, `solver { .. }` after the shared settings; `target`, `last_error` and
/// `last_iterations` take the class's own help text. Then implements the shared API ([`ik_node_class`]).
macro_rules! ik_node {
    (
        $(#[doc = $doc:literal])*
        pub struct $class:ident {
            target: $target_doc:literal,
            bones { $($bones:tt)* }
            solver { $($solver:tt)* }
            last_error: $last_error_doc:literal,
            last_iterations: $last_iterations_doc:literal,
        }
    ) => {
        // Doc comments pass as literals: a `meta` fragment would be opaque to the derive that collects the help.
        $(#[doc = $doc])*
        #[derive(GodotClass)]
        #[class(init, tool, base = Node2D)]
        pub struct $class {
            #[doc = $target_doc]
            #[export]
            target: Option<Gd<Node2D>>,
            $($bones)*
            /// If [code]false[/code], the node stops solving by itself; [method solve] still solves.
            #[export]
            #[init(val = true)]
            enabled: bool,
            /// How much of the solved pose is applied: each bone's written rotation is
            /// [code]lerp_angle(input, solved, weight)[/code], where input is its rotation before the solve.
            #[export(range = (0.0, 1.0, 0.01))]
            #[init(val = 1.0)]
            weight: f32,
            /// When the node solves by itself: every process frame ([constant UPDATE_PROCESS]), every physics
            /// frame ([constant UPDATE_PHYSICS]), or only when [method solve] is called ([constant UPDATE_MANUAL]).
            #[export]
            update_mode: $crate::common::UpdateMode,
            /// Show the solve in the editor while you edit. Saving a scene always stores your own bone rotations.
            #[export]
            #[init(val = true)]
            editor_preview: bool,
            $($solver)*
            #[doc = $last_error_doc]
            #[var(no_set)]
            #[init(val = -1.0)]
            last_error: f32,
            #[doc = $last_iterations_doc]
            #[var(no_set)]
            last_iterations: i32,

            limits: $crate::limits::AngleLimits,
            state: $crate::common::IkState,
            base: Base<Node2D>,
        }

        #[godot_api]
        impl $class {}

        $crate::common::ik_node_class!($class);
    };
}
pub(crate) use ik_node;

/// Implements what every node class shares, given the fields `target`, `enabled`, `update_mode`,
/// `editor_preview`, `last_error`, `last_iterations`, `limits` and `state`, and the inherent methods
/// `check_setup_impl` and `solve_impl`: the update-mode constants, `solve()`, the angle-limit methods, the
/// [`IkNode`] plumbing and the `_process`/`_notification`/`_draw`/inspector callbacks.
macro_rules! ik_node_class {
    ($class:ident) => {
        #[godot_api(secondary)]
        impl $class {
            /// [member update_mode]: solve every process frame (the default).
            #[constant]
            pub const UPDATE_PROCESS: i32 = 0;
            /// [member update_mode]: solve every physics frame.
            #[constant]
            pub const UPDATE_PHYSICS: i32 = 1;
            /// [member update_mode]: solve only when [method solve] is called.
            #[constant]
            pub const UPDATE_MANUAL: i32 = 2;

            /// Solves now, whatever [member update_mode] and [member enabled] say. Returns [code]false[/code], leaving
            /// every bone untouched, when the setup is invalid (the reason is printed once and shown as a
            /// configuration warning).
            #[func]
            pub fn solve(&mut self) -> bool {
                $crate::common::solve(self)
            }

            /// Limits bone [param bone_index]'s local [member Node2D.rotation] (wrapped to (-PI, PI]) to
            /// [[param min_angle], [param max_angle]], in radians; index 0 is the first bone. The limit holds after
            /// every solve, [member weight] included. A bad index or [param min_angle] > [param max_angle] is an
            /// error and is ignored. Also editable in the inspector's [i]Angle Limits[/i] group.
            #[func]
            pub fn set_angle_limits(&mut self, bone_index: i64, min_angle: f32, max_angle: f32) {
                let bones = self.known_bone_count();
                if self.limits.set(bone_index, min_angle, max_angle, bones) {
                    self.base_mut().notify_property_list_changed();
                }
            }

            /// Removes bone [param bone_index]'s angle limit.
            #[func]
            pub fn clear_angle_limits(&mut self, bone_index: i64) {
                let bones = self.known_bone_count();
                if self.limits.clear(bone_index, bones) {
                    self.base_mut().notify_property_list_changed();
                }
            }

            /// [code]true[/code] when bone [param bone_index] has an angle limit.
            #[func]
            pub fn has_angle_limits(&self, bone_index: i64) -> bool {
                self.limits.get(bone_index).is_some()
            }

            /// Why the node could not solve at its last attempt, in the words of its configuration warning; empty
            /// when the setup was valid.
            #[func]
            pub fn get_setup_warning(&self) -> GString {
                $crate::common::configuration_warnings(self).get(0).unwrap_or_default()
            }

            /// The number of bones the node drives, or 0 while its setup is invalid.
            #[func]
            pub fn get_bone_count(&self) -> i64 {
                self.state.chain.len() as i64
            }

            fn known_bone_count(&self) -> Option<usize> {
                Some(self.state.chain.len()).filter(|&n| n > 0)
            }
        }

        impl $crate::common::IkNode for $class {
            fn state(&mut self) -> &mut $crate::common::IkState {
                &mut self.state
            }
            fn state_ref(&self) -> &$crate::common::IkState {
                &self.state
            }
            fn enabled(&self) -> bool {
                self.enabled
            }
            fn update_mode(&self) -> $crate::common::UpdateMode {
                self.update_mode
            }
            fn editor_preview(&self) -> bool {
                self.editor_preview
            }
            fn record(&mut self, solved: $crate::common::Solved) {
                self.last_error = solved.error;
                self.last_iterations = solved.iterations as i32;
            }
            fn check_setup(&mut self) -> Result<(), $crate::problem::Problem> {
                self.check_setup_impl()
            }
            fn solve_once(&mut self) -> Result<$crate::common::Solved, $crate::problem::Problem> {
                self.solve_impl()
            }
        }

        #[godot_api]
        impl godot::classes::INode2D for $class {
            fn process(&mut self, _delta: f64) {
                $crate::common::tick(self, $crate::common::Tick::Process);
            }
            fn physics_process(&mut self, _delta: f64) {
                $crate::common::tick(self, $crate::common::Tick::Physics);
            }
            fn on_notification(&mut self, what: godot::classes::notify::CanvasItemNotification) {
                $crate::common::notification(self, what);
            }
            fn draw(&mut self) {
                let mut this = self.to_gd().upcast::<godot::classes::Node2D>();
                $crate::gizmo::draw(&mut this, &self.state.chain, self.target.as_ref(), self.limits.active());
            }
            fn get_configuration_warnings(&self) -> PackedStringArray {
                $crate::common::configuration_warnings(self)
            }
            fn on_get_property_list(&mut self) -> Vec<godot::register::info::PropertyInfo> {
                self.limits.property_list(self.state.chain.len())
            }
            fn on_get(&self, property: StringName) -> Option<Variant> {
                $crate::common::counted(|| self.limits.get_property(&property))
            }
            fn on_set(&mut self, property: StringName, value: Variant) -> bool {
                $crate::common::counted(|| self.limits.set_property(&property, &value))
            }
            fn on_property_get_revert(&self, property: StringName) -> Option<Variant> {
                $crate::limits::AngleLimits::property_revert(&property)
            }
        }
    };
}
pub(crate) use ik_node_class;
