//! The nodes a batch runs, in one structure for the automatic queue and for `Reach2D.solve_all`: each member's
//! handle, instance id and [`Memo`], side by side, and the pipelined loop over them.

use godot::classes::Node;
use godot::obj::{Gd, Inherits, InstanceId};

use crate::batch::memo::Memo;
use crate::debug::phases::{self, Phase};
use crate::engine::prefetch::object_address;
use crate::io::bones::{self, Touched};
use crate::runtime::frame::{self, BoneDriver, Tick};

/// How many members ahead of the one solving their memory is prefetched. Issue 22's experiment: 1, 2 or 4 ahead
/// barely differ; 2 was best.
const AHEAD: usize = 2;

/// What a pass asks of each member.
#[derive(Clone, Copy, PartialEq)]
pub enum Run {
    /// The member's own process or physics callback (`frame::tick`), advancing time by `delta` seconds.
    Tick(Tick, f64),
    /// `solve()`: now, whatever the mode.
    Solve,
}

/// A node the batch can run: implemented for every bone-driving node class's `Gd`.
pub trait Member {
    /// The node, for tree order.
    fn node(&self) -> Gd<Node>;
    /// `true` when the engine would process the node now (pause, `process_mode`).
    fn can_process(&self) -> bool;
    /// `true` while the node is alive (an object-database lookup, no engine call).
    fn is_alive(&self) -> bool;
    /// Runs the node as `run` says and remembers in `memo` what it touched. Returns `true` when it wrote its bones.
    fn run(&mut self, run: Run, memo: &mut Memo) -> bool;
}

impl<T> Member for Gd<T>
where
    T: BoneDriver + Inherits<Node>,
{
    fn node(&self) -> Gd<Node> {
        self.clone().upcast()
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
            Run::Solve => frame::solve_in_batch(node),
        })
    }
}

/// Runs `f` on the bound node and remembers in `memo` what it touched: its engine object, the root's parent, its
/// bones, its own struct and its pose buffers. Returns what `f` returns.
pub fn run_node<T>(gd: &mut Gd<T>, memo: &mut Memo, f: impl FnOnce(&mut T) -> bool) -> bool
where
    T: BoneDriver + Inherits<Node>,
{
    let node_address = object_address(gd);
    let mut node = gd.bind_mut();
    let result = f(&mut node);
    memo.clear();
    memo.mode = node.update_mode();
    memo.push_object(node_address);
    memo.push_buffer(&*node as *const T as usize);
    bones::touched(&node.state_ref().bones, |touched| match touched {
        Touched::Object(address) => memo.push_object(address),
        Touched::Buffer(address) => memo.push_buffer(address),
    });
    result
}

/// The members of a batch, their ids and memos at the same index. A place may be empty (`solve_all`: an element that
/// is not a Reach2D node). Grows when members are added, never per pass.
#[derive(Default)]
pub struct Members {
    members: Vec<Option<Box<dyn Member>>>,
    ids: Vec<Option<InstanceId>>,
    memos: Vec<Memo>,
}

impl Members {
    /// How many places there are.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// The place of the member with `id`, if it is here.
    pub fn position(&self, id: InstanceId) -> Option<usize> {
        self.ids.iter().position(|&i| i == Some(id))
    }

    /// Adds `member` (with `id` and a fresh `memo`) at the end.
    pub fn push(&mut self, member: Box<dyn Member>, id: InstanceId, memo: Memo) {
        self.members.push(Some(member));
        self.ids.push(Some(id));
        self.memos.push(memo);
    }

    /// Removes the member at `index`; the last one takes its place.
    pub fn swap_remove(&mut self, index: usize) {
        self.members.swap_remove(index);
        self.ids.swap_remove(index);
        self.memos.swap_remove(index);
    }

    /// Makes place `index` hold `make()` for `id`, unless it already holds the member with that id (its handle and
    /// memo are then kept: a stable array costs no class lookup). Grows to `index + 1` places.
    pub fn keep_or_replace(
        &mut self,
        index: usize,
        id: Option<InstanceId>,
        make: impl FnOnce() -> Option<Box<dyn Member>>,
    ) -> bool {
        if self.members.len() <= index {
            self.members.resize_with(index + 1, || None);
            self.ids.resize(index + 1, None);
            self.memos.resize(index + 1, Memo::default());
        }
        if id.is_none() || self.ids[index] != id {
            self.members[index] = make();
            self.ids[index] = id;
            self.memos[index] = Memo::default();
        }
        self.members[index].is_some()
    }

    /// Every live member's node, for switching their own callbacks on or off.
    pub fn live_nodes(&self) -> impl Iterator<Item = Gd<Node>> + '_ {
        self.members.iter().flatten().filter(|m| m.is_alive()).map(|m| m.node())
    }

    /// Sorts the places into tree order (each node before the nodes after it in the tree, as the engine's own
    /// process order has them), in place: an insertion sort, close to one comparison per member since members join
    /// in tree order.
    pub fn sort_in_tree_order(&mut self) {
        for i in 1..self.members.len() {
            let mut j = i;
            while j > 0 && is_after(self.members[j - 1].as_deref(), self.members[j].as_deref()) {
                self.members.swap(j - 1, j);
                self.ids.swap(j - 1, j);
                self.memos.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// Runs `run` on the first `count` places' members whose memo `visits` and that are `ready`, in order,
    /// prefetching what the member [`AHEAD`] of each touched last time (only when its memo `visits`: a pass that
    /// skips most members fetches nothing for them). Returns how many wrote their bones.
    pub fn run_pipelined(
        &mut self,
        count: usize,
        run: Run,
        visits: impl Fn(&Memo) -> bool,
        ready: impl Fn(&dyn Member) -> bool,
    ) -> usize {
        let outer = phases::enter(Phase::Batch);
        let count = count.min(self.members.len());
        let memos = &mut self.memos[..count];
        for memo in memos.iter().take(AHEAD.min(count)).filter(|memo| visits(memo)) {
            memo.prefetch();
        }
        let mut written = 0;
        for i in 0..count {
            if let Some(ahead) = memos.get(i + AHEAD).filter(|memo| visits(memo)) {
                ahead.prefetch();
            }
            let Some(member) = self.members[i].as_deref_mut() else { continue };
            if !visits(&memos[i]) || !member.is_alive() || !ready(member) {
                continue;
            }
            written += usize::from(member.run(run, &mut memos[i]));
        }
        phases::enter(outer);
        written
    }
}

/// `true` when `a`'s node comes after `b`'s in the tree (empty places stay where they are).
fn is_after(a: Option<&dyn Member>, b: Option<&dyn Member>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) if a.is_alive() && b.is_alive() => a.node().is_greater_than(&b.node()),
        _ => false,
    }
}

/// Members are made from nodes of any bone-driving class.
pub fn member<T>(node: &T) -> Box<dyn Member>
where
    T: BoneDriver + Inherits<Node>,
{
    Box::new(node.to_gd())
}
