//! The one frame loop every node runs on, the bone-driving nodes (`frame.rs`'s `BoneDriver`) and the two leg helpers
//! (`LegStepper2D`, `FootGrounder2D`, which drive other nodes' bones) alike: whether this tick runs a frame (the
//! update mode, `enabled`, the editor preview), reporting its outcome once, and what comes after it (signals,
//! outside the allocation count). What a frame does is each node's own ([`Frame::run_frame`]).

use godot::builtin::GString;
use godot::classes::Node2D;
use godot::obj::WithBaseField;

use crate::debug::phases::{self, Phase};
use crate::engine::editor::in_editor;
use crate::problem::{Problem, Problems};
use crate::runtime::frame::mode::{Tick, UpdateMode};

/// The switches the loop reads: the `enabled`, `update_mode` and `editor_preview` properties.
#[derive(Clone, Copy)]
pub struct Switches {
    pub enabled: bool,
    pub update_mode: UpdateMode,
    /// `false` for a node that never runs by itself in the editor (`FootGrounder2D`).
    pub editor_preview: bool,
}

/// What one frame did: the problem to report (once), and whether it did all its work (what `solve()` and
/// `advance()` return).
pub struct Ran {
    pub problem: Option<Problem>,
    pub done: bool,
}

/// A node the frame loop runs. Its frame is its own; the hooks around it default to nothing.
pub trait Frame: WithBaseField<Base = Node2D> {
    fn switches(&self) -> Switches;
    /// What the node reported (printed once, shown as its configuration warning).
    fn problems(&mut self) -> &mut Problems;
    /// One frame, advancing time by `delta` seconds; `preview`: the editor's preview.
    fn run_frame(&mut self, delta: f64, preview: bool) -> Ran;
    /// After a frame was reported, outside the allocation count: signals (they call scripts back).
    fn after_frame(&mut self) {}
    /// First thing on every tick, in the editor too (a helper keeps its legs marked).
    fn each_tick(&mut self) {}
    /// `true` while another node runs this one (a helper's leg): its own ticks at run time then do nothing.
    fn run_elsewhere(&self) -> bool {
        false
    }
    /// At run time, a tick while disabled.
    fn rest(&mut self) {}
    /// In the editor, a process tick while disabled or not previewing.
    fn rest_in_editor(&mut self) {}
    /// In the editor, after every process tick.
    fn after_editor_tick(&mut self) {}
}

/// `_process` / `_physics_process`: runs a frame when the node is enabled and in this tick's mode, advancing time
/// by `delta` seconds; in the editor, every process frame while the preview is on.
pub fn tick<T: Frame>(node: &mut T, tick: Tick, delta: f64) {
    let outer = phases::enter(Phase::Frame);
    counted(|| {
        node.each_tick();
        let switches = node.switches();
        if in_editor() {
            if tick == Tick::Process {
                if switches.enabled && switches.editor_preview {
                    run(node, delta, true);
                } else {
                    node.rest_in_editor();
                }
                node.after_editor_tick();
            }
            return;
        }
        if node.run_elsewhere() {
            return;
        }
        if switches.enabled && switches.update_mode.runs_on(tick) {
            run(node, delta, false);
        } else if !switches.enabled {
            node.rest();
        }
    });
    phases::enter(outer);
}

/// `advance(delta)` of a helper: runs a frame now, whatever the mode (not while disabled), advancing time by
/// `delta` seconds. A negative or non-finite `delta` is reported once and runs nothing.
pub fn advance<T: Frame>(node: &mut T, delta: f64) -> bool {
    if !delta.is_finite() || delta < 0.0 {
        note(node, Some(Problem::DeltaNotFinite));
        return false;
    }
    if !node.switches().enabled {
        return false;
    }
    counted(|| run(node, delta, false))
}

/// One frame, its outcome reported, then what comes after it. Returns [`Ran::done`].
pub fn run<T: Frame>(node: &mut T, delta: f64, preview: bool) -> bool {
    let ran = node.run_frame(delta, preview);
    note(node, ran.problem);
    uncounted(|| node.after_frame());
    ran.done
}

/// Remembers the current problem, reports a new one once, and refreshes the editor's warnings when it changes.
pub fn note<T: Frame>(node: &mut T, problem: Option<Problem>) {
    let noted = node.problems().note(problem);
    if !noted.is_nothing() {
        noted.apply(&mut node.base_mut());
    }
}

/// Shows `problem` as the node's configuration warning (not printed: a setup check, not a frame).
pub fn show<T: Frame>(node: &mut T, problem: Option<Problem>) {
    let noted = node.problems().show(problem);
    noted.apply(&mut node.base_mut());
}

/// Runs the nodes' own per-frame code; debug builds and release builds with the `bench` feature count its heap
/// allocations (there must be none).
pub fn counted<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(any(debug_assertions, feature = "bench"))]
    return crate::debug::alloc::count_in(f);
    #[cfg(not(any(debug_assertions, feature = "bench")))]
    f()
}

/// Runs `f` (godot-rust's call layer inside [`counted`] code: a `bind_mut`) without counting its allocations.
pub fn uncounted<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(any(debug_assertions, feature = "bench"))]
    return crate::debug::alloc::uncount(f);
    #[cfg(not(any(debug_assertions, feature = "bench")))]
    f()
}

/// `get_setup_warning()` of a helper: the problem of its setup `checked` now, or, with a good setup, the one it
/// reported that only a frame finds (`frame_found`: a good setup clears what an earlier check saw, legs set after it
/// entered the tree); shown as its configuration warning and returned in its words (empty: none).
pub fn helper_warning<T: Frame>(
    node: &mut T,
    checked: Result<(), Problem>,
    frame_found: impl Fn(&Problem) -> bool,
) -> GString {
    let problem = match checked {
        Err(problem) => Some(problem),
        Ok(()) => node.problems().current().filter(|p| frame_found(p)),
    };
    show(node, problem);
    problem.map_or_else(GString::new, |p| GString::from(&p.message(&T::class_id().to_string())))
}
