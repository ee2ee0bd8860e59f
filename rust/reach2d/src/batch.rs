//! The batch path: many nodes solved in one native pass, the next chains' memory prefetched while one solves.
//!
//! Why: with many characters the per-frame cost is cache misses (every Bone2D is its own ~1.2 KB heap object), and
//! one node at a time they queue up; solved in one loop, the misses of the chains ahead overlap with the work on the
//! current one (`prefetch.rs`), and the engine's per-node `_process` dispatch is paid once (BENCHMARKS.md, issue
//! 22).
//!
//! Two ways in:
//! - **Automatic**: at run time every IK node whose process priority is the default one
//!   ([`RUNTIME_PROCESS_PRIORITY`], set by `frame::ready` when the user left it at 0) joins one queue per thread
//!   (in practice the SceneTree's), kept in tree order. One hidden node, [`Reach2DBatcher`] (an internal child of
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

use std::cell::RefCell;

use godot::classes::node::{InternalMode, ProcessMode};
use godot::classes::notify::CanvasItemNotification;
use godot::classes::{INode, Node};
use godot::obj::{Gd, Inherits, InstanceId, WithBaseField};
use godot::prelude::*;

use crate::editor::in_editor;
use crate::frame::{self, IkNode, RUNTIME_PROCESS_PRIORITY, Tick, UpdateMode};
use crate::prefetch::{BUFFER_LINES, OBJECT_LINES, object_address, prefetch};

/// How many members ahead of the one solving their memory is prefetched. Issue 22's experiment: 1, 2 or 4 ahead
/// barely differ; 2 was best.
const AHEAD: usize = 2;

/// Engine objects remembered per member for prefetching: the node, the root's parent and the first bones.
const MAX_OBJECTS: usize = 20;
/// Rust buffers remembered per member: the node's own struct and its pose buffers.
const MAX_BUFFERS: usize = 6;

/// What one member's last visit touched, to prefetch on the next pass before it is visited again, and its mode as
/// last seen. Addresses are only ever prefetched, never read through, so a stale one (a bone freed since) costs a
/// wasted fetch and nothing else.
#[derive(Clone, Copy)]
pub struct Memo {
    objects: [usize; MAX_OBJECTS],
    object_count: u8,
    buffers: [usize; MAX_BUFFERS],
    buffer_count: u8,
    /// The node's update mode at its last visit: the physics pass visits only physics members.
    mode: UpdateMode,
}

impl Default for Memo {
    fn default() -> Self {
        Self {
            objects: [0; MAX_OBJECTS],
            object_count: 0,
            buffers: [0; MAX_BUFFERS],
            buffer_count: 0,
            mode: UpdateMode::Process,
        }
    }
}

impl Memo {
    fn clear(&mut self) {
        self.object_count = 0;
        self.buffer_count = 0;
    }

    fn push_object(&mut self, address: usize) {
        if usize::from(self.object_count) < MAX_OBJECTS && address != 0 {
            self.objects[usize::from(self.object_count)] = address;
            self.object_count += 1;
        }
    }

    fn push_buffer<T>(&mut self, buffer: &[T]) {
        if usize::from(self.buffer_count) < MAX_BUFFERS && !buffer.is_empty() {
            self.buffers[usize::from(self.buffer_count)] = buffer.as_ptr() as usize;
            self.buffer_count += 1;
        }
    }

    /// Asks the cache for everything remembered.
    fn prefetch(&self) {
        for &address in &self.objects[..usize::from(self.object_count)] {
            prefetch(address, OBJECT_LINES);
        }
        for &address in &self.buffers[..usize::from(self.buffer_count)] {
            prefetch(address, BUFFER_LINES);
        }
    }
}

/// What a pass asks of each member.
#[derive(Clone, Copy, PartialEq)]
pub enum Run {
    /// The member's own process or physics callback (`frame::tick`), advancing time by `delta` seconds.
    Tick(Tick, f64),
    /// `solve()`: now, whatever the mode.
    Solve,
}

/// A node the batch path can run: implemented for every IK node class's `Gd`.
pub trait Member {
    /// The node, for tree order.
    fn node(&self) -> Option<Gd<Node>>;
    /// `true` when the engine would process the node now (pause, `process_mode`).
    fn can_process(&self) -> bool;
    /// `true` while the node is alive (an object-database lookup, no engine call).
    fn is_alive(&self) -> bool;
    /// Runs the node as `run` says and remembers in `memo` what it touched. Returns `true` when it wrote its bones.
    fn run(&mut self, run: Run, memo: &mut Memo) -> bool;
}

impl<T> Member for Gd<T>
where
    T: IkNode + Inherits<Node>,
{
    fn node(&self) -> Option<Gd<Node>> {
        Some(self.clone().upcast())
    }

    fn is_alive(&self) -> bool {
        self.is_instance_valid()
    }

    fn can_process(&self) -> bool {
        self.upcast_ref::<Node>().can_process()
    }

    fn run(&mut self, run: Run, memo: &mut Memo) -> bool {
        run_node(self, memo, |node| match run {
            Run::Tick(tick, delta) => {
                frame::tick(node, tick, delta);
                false
            }
            Run::Solve => frame::solve(node),
        })
    }
}

/// Runs `f` on the bound node and remembers in `memo` what it touched: its engine object, the root's parent, its
/// bones, its own struct and its pose buffers. Returns what `f` returns.
pub fn run_node<T>(gd: &mut Gd<T>, memo: &mut Memo, f: impl FnOnce(&mut T) -> bool) -> bool
where
    T: IkNode + Inherits<Node>,
{
    let node_address = object_address(gd);
    let mut node = gd.bind_mut();
    let result = f(&mut node);
    memo.clear();
    memo.mode = node.update_mode();
    memo.push_object(node_address);
    let bones = &node.state_ref().bones;
    memo.push_object(bones.chain.parent().map_or(0, object_address));
    for bone in bones.chain.bones() {
        memo.push_object(object_address(bone));
    }
    memo.push_buffer(core::slice::from_ref(&*node));
    memo.push_buffer(bones.chain.bones());
    memo.push_buffer(bones.pose.pose().bones);
    memo.push_buffer(bones.pose.joints());
    memo.push_buffer(bones.pose.rotations());
    memo.push_buffer(bones.memory.unwritten());
    result
}

impl Member for Box<dyn Member> {
    fn node(&self) -> Option<Gd<Node>> {
        (**self).node()
    }
    fn is_alive(&self) -> bool {
        (**self).is_alive()
    }
    fn can_process(&self) -> bool {
        (**self).can_process()
    }
    fn run(&mut self, run: Run, memo: &mut Memo) -> bool {
        (**self).run(run, memo)
    }
}

/// Runs `run` on every member whose memo `visits` and that is `ready`, in order, prefetching what the member
/// [`AHEAD`] of it touched last time (only when its memo `visits`: a pass that skips most members fetches nothing
/// for them); `memos[i]` belongs to `members[i]`. Returns how many wrote their bones.
pub fn run_pipelined<M: Member>(
    members: &mut [M],
    memos: &mut [Memo],
    run: Run,
    visits: impl Fn(&Memo) -> bool,
    ready: impl Fn(&M) -> bool,
) -> usize {
    let count = members.len().min(memos.len());
    for memo in memos.iter().take(AHEAD.min(count)).filter(|memo| visits(memo)) {
        memo.prefetch();
    }
    let mut written = 0;
    for i in 0..count {
        if let Some(ahead) = memos.get(i + AHEAD).filter(|memo| i + AHEAD < count && visits(memo)) {
            ahead.prefetch();
        }
        let member = &mut members[i];
        if !visits(&memos[i]) || !member.is_alive() || !ready(member) {
            continue;
        }
        written += usize::from(member.run(run, &mut memos[i]));
    }
    written
}

/// The automatic queue: the members, their memos (same index) and ids, and the batcher that runs them.
#[derive(Default)]
struct Queue {
    members: Vec<Box<dyn Member>>,
    memos: Vec<Memo>,
    ids: Vec<InstanceId>,
    /// `false` after a node joined or left: sorted into tree order before the next pass.
    sorted: bool,
    batcher: Option<Gd<Reach2DBatcher>>,
    /// The batcher is in the tree and runs the queue; the members' own callbacks are off.
    live: bool,
}

thread_local! {
    static QUEUE: RefCell<Queue> = RefCell::default();
}

/// `_ready` of an IK node: `frame::ready`, then at run time, with the default priority, joins the batch.
pub fn ready<T>(node: &mut T, priority: i32)
where
    T: IkNode + Inherits<Node>,
{
    frame::ready(node, priority);
    if priority == RUNTIME_PROCESS_PRIORITY {
        join(node);
    }
}

/// The notifications of an IK node: `frame::notification`, and joining (entering the tree again) or leaving the
/// batch.
pub fn notification<T>(node: &mut T, what: CanvasItemNotification)
where
    T: IkNode + Inherits<Node>,
{
    frame::notification(node, what);
    match what {
        // The first entry comes before `_ready` (which then joins); a later one (the node moved or re-added) joins
        // here, if the priority is still the default.
        CanvasItemNotification::ENTER_TREE => join(node),
        CanvasItemNotification::EXIT_TREE => leave(node),
        _ => {}
    }
}

/// Joins the queue when at run time with the default priorities for process and physics; off its own callbacks
/// when the batcher runs. Allocates (joining is not per frame).
fn join<T>(node: &mut T)
where
    T: IkNode + Inherits<Node>,
{
    if in_editor() {
        return;
    }
    let this = node.to_gd();
    {
        let base = node.base();
        if !base.is_inside_tree()
            || base.get_process_priority() != RUNTIME_PROCESS_PRIORITY
            || base.get_physics_process_priority() != RUNTIME_PROCESS_PRIORITY
        {
            return;
        }
    }
    let id = this.instance_id();
    // The physics pass visits members by their last seen mode: start from the node's own.
    let memo = Memo { mode: node.update_mode(), ..Memo::default() };
    // A pass is running (a node entered the tree from inside it): this node processes itself.
    let live = QUEUE.with(|queue| {
        let Ok(mut queue) = queue.try_borrow_mut() else { return false };
        if queue.ids.contains(&id) {
            return queue.live;
        }
        queue.members.push(Box::new(this.clone()));
        queue.memos.push(memo);
        queue.ids.push(id);
        queue.sorted = false;
        if queue.batcher.as_ref().is_none_or(|b| !b.is_instance_valid()) {
            queue.batcher = Some(add_batcher(&this.clone().upcast()));
            queue.live = false;
        }
        queue.live
    });
    if live {
        let mut base = node.base_mut();
        base.set_process(false);
        base.set_physics_process(false);
    }
}

/// Leaves the queue (the node left the tree) and gets its own callbacks back.
fn leave<T>(node: &mut T)
where
    T: IkNode + Inherits<Node>,
{
    let id = node.to_gd().instance_id();
    let left = QUEUE.with(|queue| {
        let Ok(mut queue) = queue.try_borrow_mut() else { return false };
        let Some(index) = queue.ids.iter().position(|&i| i == id) else { return false };
        queue.members.swap_remove(index);
        queue.memos.swap_remove(index);
        queue.ids.swap_remove(index);
        queue.sorted = false;
        true
    });
    if left {
        let mut base = node.base_mut();
        base.set_process(true);
        base.set_physics_process(true);
    }
}

/// Makes the batcher and adds it to the root of `node`'s tree, deferred (the root is busy while a scene enters it).
fn add_batcher(node: &Gd<Node>) -> Gd<Reach2DBatcher> {
    let batcher = Reach2DBatcher::new_alloc();
    if let Some(mut root) = node.get_tree_or_null().and_then(|tree| tree.get_root()) {
        let internal = InternalMode::BACK.ord().to_variant();
        root.call_deferred("add_child", &[batcher.to_variant(), false.to_variant(), internal]);
    }
    batcher
}

/// Turns the members' own callbacks off (`live`: the batcher runs them) or back on.
fn set_live(live: bool) {
    QUEUE.with(|queue| {
        let Ok(mut queue) = queue.try_borrow_mut() else { return };
        queue.live = live;
        for member in &queue.members {
            if let Some(mut node) = member.node().filter(|_| member.is_alive()) {
                node.set_process(!live);
                node.set_physics_process(!live);
            }
        }
    });
}

/// One pass of the automatic queue for `tick`.
fn run_queue(tick: Tick, delta: f64) {
    QUEUE.with(|queue| {
        // Re-entered (cannot happen from the nodes' own code): the outer pass runs the queue.
        let Ok(mut queue) = queue.try_borrow_mut() else { return };
        if !queue.live {
            return;
        }
        let Queue { members, memos, ids, sorted, .. } = &mut *queue;
        if !*sorted {
            sort_in_tree_order(members, memos, ids);
            *sorted = true;
        }
        let physics = tick == Tick::Physics;
        // The process pass visits every member (it refreshes each one's mode); the physics pass only those last
        // seen in physics mode.
        // The nodes' own code counts its heap allocations (`frame::tick`); the binding around it is godot-rust's.
        run_pipelined(
            members,
            memos,
            Run::Tick(tick, delta),
            |memo| !physics || memo.mode == UpdateMode::Physics,
            |member| member.can_process(),
        );
    });
}

/// Sorts the queue into tree order (each node before the nodes after it in the tree, as the engine's own process
/// order has them), in place (no allocation).
fn sort_in_tree_order(members: &mut [Box<dyn Member>], memos: &mut [Memo], ids: &mut [InstanceId]) {
    // Insertion sort on the three parallel slices: the queue is usually nearly sorted (nodes join in tree order),
    // so this is close to one comparison per member.
    for i in 1..members.len() {
        let mut j = i;
        while j > 0 && is_after(&*members[j - 1], &*members[j]) {
            members.swap(j - 1, j);
            memos.swap(j - 1, j);
            ids.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// `true` when `a`'s node comes after `b`'s in the tree.
fn is_after(a: &dyn Member, b: &dyn Member) -> bool {
    match (a.node(), b.node()) {
        (Some(a), Some(b)) => a.is_greater_than(&b),
        _ => false,
    }
}

/// The hidden node that runs the automatic batch: an internal child of the tree's root at the IK nodes' run-time
/// priority, processing always (each member still obeys pause and its own `process_mode`).
#[derive(GodotClass)]
#[class(base = Node, internal)]
pub struct Reach2DBatcher {
    base: Base<Node>,
}

#[godot_api]
impl INode for Reach2DBatcher {
    fn init(base: Base<Node>) -> Self {
        Self { base }
    }

    fn ready(&mut self) {
        let mut base = self.base_mut();
        base.set_name("Reach2DBatcher");
        base.set_process_priority(RUNTIME_PROCESS_PRIORITY);
        base.set_physics_process_priority(RUNTIME_PROCESS_PRIORITY);
        base.set_process_mode(ProcessMode::ALWAYS);
        drop(base);
        set_live(true);
    }

    fn process(&mut self, delta: f64) {
        run_queue(Tick::Process, delta);
    }

    fn physics_process(&mut self, delta: f64) {
        run_queue(Tick::Physics, delta);
    }

    fn on_notification(&mut self, what: godot::classes::notify::NodeNotification) {
        if what == godot::classes::notify::NodeNotification::EXIT_TREE {
            set_live(false);
            QUEUE.with(|queue| {
                if let Ok(mut queue) = queue.try_borrow_mut() {
                    queue.batcher = None;
                }
            });
        }
    }
}
