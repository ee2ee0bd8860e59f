//! The automatic queue: every bone-driving node at the default run-time priority, in tree order, run by the one
//! `Reach2DBatcher` (`nodes/reach2d_batcher.rs`) of its thread (in practice the SceneTree's).

use std::cell::RefCell;

use godot::classes::node::InternalMode;
use godot::classes::{ClassDb, Node, Node2D};
use godot::obj::{Gd, Inherits};
use godot::prelude::*;

use crate::batch::members::{Members, Run, member};
use crate::batch::memo::Memo;
use crate::engine::editor::in_editor;
use crate::io::tree_watch;
use crate::runtime::frame::{self, BoneDriver, RUNTIME_PROCESS_PRIORITY, Tick, UpdateMode};

/// The automatic queue: its members, and the batcher that runs them.
#[derive(Default)]
struct Queue {
    members: Members,
    /// `false` after a node joined or left: sorted into tree order before the next pass.
    sorted: bool,
    /// The batcher made for this queue (added to the tree deferred).
    batcher: Option<Gd<Node>>,
    /// The batcher is in the tree and runs the queue; the members' own callbacks are off.
    live: bool,
}

thread_local! {
    static QUEUE: RefCell<Queue> = RefCell::default();
}

/// Joins the queue when at run time with the default priorities for process and physics; off its own callbacks
/// when the batcher runs. Allocates (joining is not per frame).
pub fn join<T>(node: &mut T)
where
    T: BoneDriver + Inherits<Node>,
{
    if in_editor() {
        return;
    }
    {
        let base = node.base();
        if !base.is_inside_tree()
            || base.get_process_priority() != RUNTIME_PROCESS_PRIORITY
            || base.get_physics_process_priority() != RUNTIME_PROCESS_PRIORITY
        {
            return;
        }
    }
    let id = node.to_gd().instance_id();
    // The physics pass visits members by their last seen mode: start from the node's own.
    let memo = Memo::new(node.update_mode());
    let tree_root = node.base().get_tree_or_null().and_then(|tree| tree.get_root());
    // A pass is running (a node entered the tree from inside it): this node processes itself.
    let live = QUEUE.with(|queue| {
        let Ok(mut queue) = queue.try_borrow_mut() else { return false };
        if queue.members.position(id).is_some() {
            return queue.live;
        }
        queue.members.push(member(node), id, memo);
        queue.sorted = false;
        if queue.batcher.as_ref().is_none_or(|b| !b.is_instance_valid())
            && let Some(batcher) = make_batcher()
        {
            if let Some(mut root) = tree_root {
                // Deferred: the root is busy while a scene enters it.
                let internal = InternalMode::BACK.ord().to_variant();
                root.call_deferred("add_child", &[batcher.to_variant(), false.to_variant(), internal]);
            }
            queue.batcher = Some(batcher);
            queue.live = false;
        }
        queue.live
    });
    if live {
        set_own_callbacks(&mut node.base_mut(), false);
    }
}

/// Leaves the queue (the node left the tree) and gets its own callbacks back.
pub fn leave<T>(node: &mut T)
where
    T: BoneDriver + Inherits<Node>,
{
    let id = node.to_gd().instance_id();
    let left = QUEUE.with(|queue| {
        let Ok(mut queue) = queue.try_borrow_mut() else { return false };
        let Some(index) = queue.members.position(id) else { return false };
        queue.members.swap_remove(index);
        queue.sorted = false;
        true
    });
    if left {
        set_own_callbacks(&mut node.base_mut(), true);
    }
}

/// A new `Reach2DBatcher`, made by its class name: the class lives in `nodes/` (`nodes/reach2d_batcher.rs`), which
/// calls this module, not the other way round.
fn make_batcher() -> Option<Gd<Node>> {
    ClassDb::singleton().instantiate(BATCHER_CLASS).try_to::<Gd<Node>>().ok()
}

/// The batcher's class name.
const BATCHER_CLASS: &str = "Reach2DBatcher";

fn set_own_callbacks(node: &mut Node2D, on: bool) {
    node.set_process(on);
    node.set_physics_process(on);
}

/// The batcher entered the tree (`live`: it runs the queue; the members' own callbacks go off) or left it (they go
/// back on, and the queue forgets it).
pub fn set_live(live: bool) {
    QUEUE.with(|queue| {
        let Ok(mut queue) = queue.try_borrow_mut() else { return };
        queue.live = live;
        if !live {
            queue.batcher = None;
        }
        for mut node in queue.members.live_nodes() {
            node.set_process(!live);
            node.set_physics_process(!live);
        }
    });
}

/// One pass of the automatic queue for `tick`, advancing time by `delta` seconds.
pub fn run(tick: Tick, delta: f64) {
    QUEUE.with(|queue| {
        // Re-entered (cannot happen from the nodes' own code): the outer pass runs the queue.
        let Ok(mut queue) = queue.try_borrow_mut() else { return };
        if !queue.live {
            return;
        }
        if !queue.sorted {
            queue.members.sort_in_tree_order();
            queue.sorted = true;
        }
        // The process pass visits every member (it refreshes each one's mode); the physics pass only those last
        // seen in physics mode, unless a mode changed since (then every member once).
        let visit_all = frame::take_mode_change() || tick == Tick::Process;
        let count = queue.members.len();
        // The nodes' own code counts its heap allocations (`frame::tick`); the binding around it is godot-rust's.
        // One pass: the tree watch decides once whether verified setups may skip their structural checks.
        tree_watch::in_pass(|| {
            queue.members.run_pipelined(
                count,
                Run::Tick(tick, delta),
                |memo| visit_all || memo.mode == UpdateMode::Physics,
                |member| member.can_process(),
            )
        });
    });
}
