//! What every node does around its frame, at run time and in the editor. The loop itself, one for every node
//! (whether this tick runs a frame: update modes, `enabled`, the editor preview; reporting the outcome once), is
//! `frame/run.rs`'s, on the [`Frame`] trait; the update modes are `frame/mode.rs`'s. This file is the bone-driving
//! nodes' side ([`BoneDriver`]: their state, their frame in the loop, `solve()`, `reset()`, editor saving, run-time
//! process priority, configuration warnings). The solve itself (check setup → read → solve → write) is each node's
//! own, in its file under `nodes/`; at run time the batcher (`batch/`) calls [`tick`] for it.

mod mode;
mod run;

pub use mode::{Tick, UpdateMode, take_mode_change};
pub use run::{Frame, Ran, Switches, advance, counted, helper_warning, note, show, tick, uncounted};

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Engine, Node, Node2D};
use godot::obj::WithBaseField;
use godot::prelude::*;

use crate::debug::phases::{self, Phase};
use crate::engine::editor::in_editor;
use crate::io::bones::{self, Bones};
use crate::io::tree_watch;
use crate::problem::{Problem, Problems};
use crate::runtime::character_link::CharacterLink;
use crate::runtime::limits::AngleLimits;

/// Process priority the IK nodes take at run time when the user left it at 0, so that in the same frame they run
/// after AnimationPlayer and AnimationTree (priority 0) have posed the bones. Not applied in the editor, so
/// scenes are never changed by it.
pub const RUNTIME_PROCESS_PRIORITY: i32 = 100;

/// `SpringChain2D`'s run-time process priority when the user left it at 0: after AnimationPlayer/AnimationTree (0)
/// and after the IK nodes ([`RUNTIME_PROCESS_PRIORITY`]), so a tail hangs off the body those have posed in the same
/// frame.
pub const SPRING_PROCESS_PRIORITY: i32 = RUNTIME_PROCESS_PRIORITY + 10;

/// What a solve produced: the end effector error (px, or radians for look-at) and the iterations used.
#[derive(Clone, Copy, Debug)]
pub struct Solved {
    pub error: f32,
    pub iterations: i32,
}

/// Run-time state every node keeps beside its exported properties: its bones and what it reported.
#[derive(Default)]
pub struct NodeState {
    pub bones: Bones,
    pub problems: Problems,
    /// The character's weight (`CharacterWeight2D`), multiplied into the node's own.
    pub character: CharacterLink,
    /// The per-bone angle limits (`set_angle_limits`, the inspector's *Angle Limits*).
    pub limits: AngleLimits,
    /// Editor: the chain length the inspector's angle-limit properties were last listed for.
    listed_bones: usize,
}

/// The fields every bone-driving node class has, read by name: `#[derive(reach2d_macros::NodeFields)]` writes this for
/// each class from its struct.
pub trait NodeFields: WithBaseField<Base = Node2D> {
    fn state(&mut self) -> &mut NodeState;
    fn state_ref(&self) -> &NodeState;
    fn enabled(&self) -> bool;
    fn update_mode(&self) -> UpdateMode;
    fn editor_preview(&self) -> bool;
    /// Records the outcome of a good solve in `last_error` and `last_iterations`.
    fn record(&mut self, solved: Solved);
}

/// A node that drives bones every frame: its own setup check and solve (or step), written in its file. The frame
/// around it (this module) is the same for all.
pub trait BoneDriver: NodeFields {
    /// Checks the setup without touching any bone.
    fn check_setup(&mut self) -> Result<(), Problem>;
    /// Checks the setup, reads, solves and writes, advancing time by `delta` seconds. On error no bone may have
    /// been written.
    fn solve_frame(&mut self, delta: f64) -> Result<Solved, Problem>;
    /// `true` when a solve needs the frame's delta (a speed limit is set): [`solve`] asks the engine for it only
    /// then.
    fn needs_delta(&self) -> bool {
        false
    }
    /// `true` while another node solves this one (a `FootGrounder2D`'s or a `LegStepper2D`'s leg, `drive.rs`): its
    /// own ticks, from its callbacks or the batch, then do nothing.
    fn driven_elsewhere(&self) -> bool {
        false
    }
    /// What `reset()` forgets beyond the bones' memory ([`reset`]): the class's own state (a limb's bend side, a
    /// copy's writes).
    fn reset_own(&mut self) {}
}

/// `reset()`: the node takes back what it wrote and forgets what it kept from its last solves, so its next solve is
/// a new node's first: each bone still holding its result gets the rotation it covers back (the animation's, the
/// scene's), a stretched tip or moved root its own position, the warm start, the speed limit's last step and the
/// blend's turns are forgotten and the character's weight is looked up again; then its class's own state
/// ([`BoneDriver::reset_own`]).
pub fn reset<T: BoneDriver>(node: &mut T) {
    let state = node.state();
    bones::restore_positions(&mut state.bones);
    let Bones { chain, memory, .. } = &mut state.bones;
    memory.take_back(chain.bones_mut());
    state.bones.pose.forget_steps();
    state.character.forget();
    node.reset_own();
}

/// `solve()`: solves now, whatever the mode, advancing time by this physics tick's delta when called during a
/// physics frame, else this process frame's. Returns `true` when the bones were written.
///
/// A node solved by itself first asks for all its bones' memory at once, so their cache misses overlap (issue 39:
/// a tenth of its time); in a batch the member's memo has asked already ([`solve_in_batch`]).
pub fn solve<T: BoneDriver>(node: &mut T) -> bool {
    let outer = phases::enter(Phase::Frame);
    // A limb's two bones gain less than the hints cost (measured, issue 39).
    if node.state_ref().bones.chain.len() > 2 {
        bones::prefetch(&node.state_ref().bones);
    }
    let written = solve_in_batch(node);
    phases::enter(outer);
    written
}

/// [`solve`] without the prefetch: a batch member's, whose memory the batch asked for two members ahead.
pub fn solve_in_batch<T: BoneDriver>(node: &mut T) -> bool {
    let outer = phases::enter(Phase::Frame);
    let written = counted(|| {
        // Two engine calls: only when a speed limit needs them (they would cost a two-bone solve about a third).
        let delta = if node.needs_delta() { frame_delta(node) } else { 0.0 };
        run::run(node, delta, false)
    });
    phases::enter(outer);
    written
}

/// Solves now, whatever the mode, advancing time by `delta` seconds (`SpringChain2D.advance`).
pub fn solve_for<T: BoneDriver>(node: &mut T, delta: f64) -> bool {
    counted(|| run::run(node, delta, false))
}

fn frame_delta<T: BoneDriver>(node: &T) -> f64 {
    let base = node.base();
    if Engine::singleton().is_in_physics_frame() {
        base.get_physics_process_delta_time()
    } else {
        base.get_process_delta_time()
    }
}

/// Refuses a solve for `problem` found before solving (a bad argument): reported once, like a setup problem, until a
/// good solve. Returns `false`, for the caller to return.
pub fn refuse<T: BoneDriver>(node: &mut T, problem: Problem) -> bool {
    counted(|| note(node, Some(problem)));
    false
}

// A bone-driving node in the one loop: its frame is its solve, its rest puts back what a disabled node must not
// leave behind.
impl<T: BoneDriver> Frame for T {
    fn switches(&self) -> Switches {
        Switches { enabled: self.enabled(), update_mode: self.update_mode(), editor_preview: self.editor_preview() }
    }

    fn problems(&mut self) -> &mut Problems {
        &mut self.state().problems
    }

    fn run_frame(&mut self, delta: f64, _preview: bool) -> Ran {
        if self.state_ref().character.is_stale() {
            let this = self.base().clone().upcast::<Node>();
            self.state().character.refresh(&this);
        }
        // A batch's members solve in the batch's pass; a node by itself in a pass of its own (`io/tree_watch.rs`).
        // The bench's phase timer charges a solve to its setup check until the node marks its read (`debug/phases.rs`).
        let solved = tree_watch::in_pass(|| {
            let outer = phases::enter(Phase::Check);
            let solved = self.solve_frame(delta);
            phases::enter(outer);
            solved
        });
        match solved {
            Ok(solved) => {
                self.record(solved);
                if in_editor() {
                    self.base_mut().queue_redraw();
                }
                Ran { problem: None, done: true }
            }
            Err(problem) => Ran { problem: Some(problem), done: false },
        }
    }

    fn run_elsewhere(&self) -> bool {
        self.driven_elsewhere()
    }

    fn rest(&mut self) {
        // A disabled node leaves no stretched limb or moved root behind (a no-op when nothing was moved), and its
        // speed limit starts again from the pose it finds when it is enabled again.
        let bones = &mut self.state().bones;
        bones::restore_positions(bones);
        bones.pose.forget_steps();
    }

    fn rest_in_editor(&mut self) {
        stop_preview(&mut self.state().bones);
        let problem = self.check_setup().err();
        note(self, problem);
    }

    fn after_editor_tick(&mut self) {
        refresh_limit_list(self);
    }
}

/// Editor: puts the authored pose back and forgets the preview (the preview stopped; a `LegStepper2D` stopped
/// previewing its legs).
pub fn stop_preview(bones: &mut Bones) {
    bones::restore_authored(bones);
    bones.memory.forget_preview();
}

/// `_ready`: at run time, takes `priority` as process priority when the user left it at 0 (so the node runs after
/// what poses its bones), then says what is wrong with the setup, if anything.
pub fn ready<T: BoneDriver>(node: &mut T, priority: i32) {
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
pub fn notification<T: NodeFields>(node: &mut T, what: CanvasItemNotification) {
    if what == CanvasItemNotification::ENTER_TREE {
        // Moved in the tree: the character's weight node is looked up again.
        node.state().character.forget();
    }
    let bones = &mut node.state().bones;
    match what {
        // Saving stores the user's own rotations; the preview's pose comes back right after.
        CanvasItemNotification::EDITOR_PRE_SAVE => bones::restore_authored(bones),
        CanvasItemNotification::EDITOR_POST_SAVE => bones::reapply_written(bones),
        CanvasItemNotification::EXIT_TREE if in_editor() => stop_preview(bones),
        // At run time a node that leaves keeps its last pose, but not a stretched limb or a moved root.
        CanvasItemNotification::EXIT_TREE => bones::restore_positions(bones),
        _ => {}
    }
}

/// Checks the setup now, without touching a bone or printing, and updates the warnings: a node says what is wrong
/// as soon as it enters the tree or is asked, not only after a solve attempt.
pub fn check_now<T: BoneDriver>(node: &mut T) {
    let problem = match counted(|| node.check_setup()) {
        Err(problem) => Some(problem),
        // A good setup does not clear what only a solve can see (a collapsed or non-finite pose, a refused chain).
        Ok(()) => node.state_ref().problems.current().filter(|p| p.found_by_solving()),
    };
    show(node, problem);
}

/// Configuration warnings for the scene tree dock.
pub fn configuration_warnings<T: NodeFields>(node: &T) -> PackedStringArray {
    node.state_ref().problems.warnings(&T::class_id().to_string())
}

/// `get_setup_warning()`: why the node cannot solve now, checked now (a node that never solved, in manual mode, says
/// what is wrong too), in the words of its configuration warning; empty when the setup is valid.
pub fn setup_warning<T: BoneDriver>(node: &mut T) -> GString {
    check_now(node);
    let class = T::class_id().to_string();
    node.state_ref().problems.current().map_or_else(GString::new, |problem| GString::from(&problem.message(&class)))
}

/// `get_bone_count()`: the bones the node drives, 0 while its setup is invalid.
pub fn bone_count<T: NodeFields>(node: &T) -> i64 {
    node.state_ref().bones.chain.len() as i64
}

/// Editor: the inspector lists one angle-limit entry per bone; refreshes it when the chain's length changed.
fn refresh_limit_list<T: NodeFields>(node: &mut T) {
    let count = node.state_ref().bones.chain.len();
    if node.state_ref().listed_bones != count {
        node.state().listed_bones = count;
        node.base_mut().notify_property_list_changed();
    }
}
