//! The batch path: many nodes solved in one native pass, the next chains' memory prefetched while one solves.
//!
//! Why: with many characters the per-frame cost is cache misses (every Bone2D is its own ~1.2 KB heap object), and
//! one node at a time they queue up; solved in one loop, the misses of the chains ahead overlap with the work on the
//! current one (`engine/prefetch.rs`), and the engine's per-node `_process` dispatch is paid once (BENCHMARKS.md, issue
//! 22).
//!
//! Two ways in:
//! - **Automatic**: at run time every IK node whose process priority is the default one
//!   ([`RUNTIME_PROCESS_PRIORITY`], set by `frame::ready` when the user left it at 0) joins one queue per thread
//!   (in practice the SceneTree's), kept in tree order. One hidden node, `Reach2DBatcher` (`nodes/reach2d_batcher.rs`; an internal child of
//!   the tree's root, the last node of that priority in tree order, so after every AnimationPlayer/AnimationTree and
//!   script of lower priority), solves the whole queue in its `_process` and `_physics_process`, each member exactly
//!   as its own callback would (`frame::tick`: mode, `enabled`, weight, limits, poles, controls), in tree order, so a
//!   `LookAt2D` below a chain still sees the chain's result. The members' own callbacks are switched off while the
//!   batcher is in the tree; until it is (it is added deferred) and after it leaves, the nodes process themselves.
//!   Each member still obeys pause and `process_mode` (`can_process`). A node with a process priority of its own
//!   is not batched and runs where its priority says.
//! - **By hand**: `Reach2D.solve_all(nodes)` (`nodes/reach2d.rs`) runs each node's `solve()` in the array's order
//!   through the same pipeline.
//!
//! Nothing here allocates per frame: the queue and the address memos grow when nodes join, never per pass.
//!
//! The rooms: `members.rs` (the one structure both ways use, and the pipelined loop), `memo.rs` (what a member's
//! last visit touched, to prefetch), `queue.rs` (the automatic queue). This file is the nodes' way in: their `_ready`
//! and notifications call [`ready`] and [`notification`].

mod members;
mod memo;
mod queue;

pub use members::{Member, Members, Run, run_node};
pub use memo::Memo;
pub use queue::{run, set_live};

use godot::classes::Node;
use godot::classes::notify::CanvasItemNotification;
use godot::obj::Inherits;

use crate::runtime::frame::{self, BoneDriver, RUNTIME_PROCESS_PRIORITY};

/// `_ready` of a batched node: `frame::ready`, then at run time, with the default priority, joins the batch.
pub fn ready<T>(node: &mut T, priority: i32)
where
    T: BoneDriver + Inherits<Node>,
{
    frame::ready(node, priority);
    if priority == RUNTIME_PROCESS_PRIORITY {
        queue::join(node);
    }
}

/// The notifications of a batched node: `frame::notification`, and joining (entering the tree again) or leaving the
/// batch.
pub fn notification<T>(node: &mut T, what: CanvasItemNotification)
where
    T: BoneDriver + Inherits<Node>,
{
    frame::notification(node, what);
    match what {
        // The first entry comes before `_ready` (which then joins); a later one (the node moved or re-added) joins
        // here, if the priority is still the default.
        CanvasItemNotification::ENTER_TREE => queue::join(node),
        CanvasItemNotification::EXIT_TREE => queue::leave(node),
        _ => {}
    }
}
