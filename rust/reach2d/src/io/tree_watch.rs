//! The scene tree, watched once for every node: a verified setup stays verified until a node it relies on leaves
//! the tree, so its structural checks (the target and the tip in the tree, the chain's parent links) cost once per
//! change, not once per node and frame (issue 29).
//!
//! One connection to the tree's `node_removed` (and `node_added`) serves every node. A node whose setup passes the
//! full check registers the instance ids it relies on (target, pole, every bone, the root's parent) and remembers the
//! epoch it was verified at ([`Verified`]); when one of those nodes leaves the tree (removed, reparented, freed: a
//! node in the tree leaves it before it is freed), the epoch moves and every node checks fully again once. Nodes that
//! come and go elsewhere (bullets, particles) move nothing.
//!
//! A pass ([`begin_pass`], once per batch pass or per solve outside one) trusts the epoch only when the watch heard
//! everything since the last pass: the tree is not blocking its signals, the connection is still there, and the
//! tree's node count moved by exactly what the watch heard (a change made while a script blocked the tree's signals,
//! or cut the connection, shows as a count the watch did not hear). Otherwise every node checks fully in that pass.
//!
//! The one change no count shows: a script that blocks the tree's signals, moves a node (removed and added again: the
//! count is the same) and lets the signals through again before the next pass. Against that each verified setup is
//! checked fully anyway every [`FULL_CHECK_EVERY`] passes (staggered, so the cost spreads): a chain changed that way
//! is found within that many frames. A cut connection is known without asking the tree (`CutAlarm`), and so is a freed
//! tree (freeing it frees our callables): a connected watch asks the tree only its two questions.
//!
//! What stays per node and frame, whatever the epoch: each object's liveness (an object-database lookup, no engine
//! call: a freed bone is never called through a dangling pointer, even when a script defeats this watch, in release
//! builds too) and what changes without a tree change (the target's position, the bones' lengths and angles, NaN).

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use godot::classes::{Engine, Node, SceneTree};
use godot::prelude::*;

thread_local! {
    static WATCH: RefCell<Connection> = RefCell::default();
    /// Moves whenever setups verified before may have broken.
    static EPOCH: Cell<u64> = const { Cell::new(1) };
    /// Nodes added minus nodes removed since the last pass, as heard.
    static HEARD_NET: Cell<i64> = const { Cell::new(0) };
    /// The epoch a pass trusts (0: none, outside a pass or when the watch may have missed something).
    static TRUSTED: Cell<u64> = const { Cell::new(0) };
    /// Passes inside passes (a batch member's solve is not a pass of its own).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// Instance ids some verified setup relies on.
    static WATCHED: RefCell<HashSet<i64>> = RefCell::default();
}

/// The connection to one SceneTree's signals.
#[derive(Default)]
struct Connection {
    tree: Option<Gd<SceneTree>>,
    /// The tree's node count at the last pass.
    last_count: Option<i64>,
}

/// Passes after which a verified setup is checked fully again, whatever the watch heard.
pub const FULL_CHECK_EVERY: u16 = 60;

const NODE_REMOVED: &str = "node_removed";
const NODE_ADDED: &str = "node_added";

/// Starts a pass: connects the watch to the SceneTree (the main loop) if it is not, and decides whether this pass may
/// trust the epoch. Four engine calls on the tree (hot: every pass asks the same object). Passes nest: only the
/// outermost one checks.
pub fn begin_pass() {
    let depth = DEPTH.get();
    DEPTH.set(depth + 1);
    if depth > 0 {
        return;
    }
    let trusted = WATCH.with(|watch| {
        let Ok(mut watch) = watch.try_borrow_mut() else { return false };
        watch.check()
    }) || BROKEN.load(Ordering::Relaxed);
    if !trusted {
        move_epoch();
    }
    TRUSTED.set(if trusted { EPOCH.get() } else { 0 });
}

/// Ends the pass [`begin_pass`] started.
pub fn end_pass() {
    let depth = DEPTH.get().saturating_sub(1);
    DEPTH.set(depth);
    if depth == 0 {
        TRUSTED.set(0);
    }
}

/// Runs `f` as a pass ([`begin_pass`] .. [`end_pass`]).
pub fn in_pass<R>(f: impl FnOnce() -> R) -> R {
    begin_pass();
    let result = f();
    end_pass();
    result
}

/// Stops listening (the library is unloading: the callables' code goes with it).
pub fn disconnect() {
    WATCH.with(|watch| {
        if let Ok(mut watch) = watch.try_borrow_mut() {
            watch.drop_connection();
        }
    });
}

impl Connection {
    /// `true` when the watch heard every change since the last pass; connects to the tree first if needed.
    fn check(&mut self) -> bool {
        // Connected and not cut: the tree still holds our callables, so it is alive (a freed tree frees them, which
        // sets `CUT`) and needs no lookup of its own. Otherwise (not yet connected, cut by a script, or the tree let
        // go of it) connect again; the count starts afresh, so this pass checks fully.
        if self.tree.is_none() || CUT.load(Ordering::Relaxed) {
            let live = self.tree.as_ref().filter(|tree| tree.is_instance_valid()).cloned();
            self.drop_connection();
            let main_loop = || Engine::singleton().get_main_loop().and_then(|l| l.try_cast::<SceneTree>().ok());
            let Some(tree) = live.or_else(main_loop) else { return false };
            self.connect(tree);
        }
        let Some(tree) = self.tree.as_ref() else { return false };
        let heard = HEARD_NET.replace(0);
        let count = i64::from(tree.get_node_count());
        let expected = self.last_count.map(|last| last + heard);
        self.last_count = Some(count);
        expected == Some(count) && !tree.is_blocking_signals()
    }

    fn connect(&mut self, mut tree: Gd<SceneTree>) {
        CUT.store(false, Ordering::Relaxed);
        let alarm = CutAlarm;
        let removed = Callable::from_fn(REMOVED_CALLABLE, move |args: &[&Variant]| {
            let _ = &alarm;
            HEARD_NET.set(HEARD_NET.get() - 1);
            let id = args.first().and_then(|node| node.try_to::<Gd<Node>>().ok()).map(|node| node.instance_id());
            let watched =
                id.is_none_or(|id| WATCHED.with(|w| w.try_borrow().map_or(true, |w| w.contains(&id.to_i64()))));
            if watched {
                move_epoch();
            }
        });
        let alarm = CutAlarm;
        let added = Callable::from_fn(ADDED_CALLABLE, move |_: &[&Variant]| {
            let _ = &alarm;
            HEARD_NET.set(HEARD_NET.get() + 1)
        });
        // The tree holds the only handles to the callables: when it lets go of one, its alarm goes off.
        tree.connect(NODE_REMOVED, &removed);
        tree.connect(NODE_ADDED, &added);
        self.last_count = None;
        self.tree = Some(tree);
    }

    /// Disconnects whatever is left of the watch's connections (found by name in the tree's connection lists: the
    /// watch keeps no handle to them).
    fn drop_connection(&mut self) {
        if let Some(mut tree) = self.tree.take().filter(|tree| tree.is_instance_valid()) {
            for signal in [NODE_REMOVED, NODE_ADDED] {
                for connection in tree.get_signal_connection_list(signal).iter_shared() {
                    let Some(callable) = connection.get("callable").and_then(|c| c.try_to::<Callable>().ok()) else {
                        continue;
                    };
                    let name = callable.to_string();
                    if name.contains(REMOVED_CALLABLE) || name.contains(ADDED_CALLABLE) {
                        tree.disconnect(signal, &callable);
                    }
                }
            }
        }
        self.last_count = None;
    }
}

/// Moved into each of the watch's callables: when the tree lets go of one (a script disconnected it, or the tree
/// went), the callable is freed and this goes off. The watch then connects again before it trusts anything: knowing
/// costs nothing per pass, where asking the tree (`is_connected`, a signal lookup that hashes our callables by
/// calling back into this library) cost a third of a whole `solve()` outside a batch (issue 39).
struct CutAlarm;

impl Drop for CutAlarm {
    fn drop(&mut self) {
        CUT.store(true, Ordering::Relaxed);
    }
}

/// A callable of the watch's connections was freed since it connected (see [`CutAlarm`]).
static CUT: AtomicBool = AtomicBool::new(false);

const REMOVED_CALLABLE: &str = "reach2d_node_removed";
const ADDED_CALLABLE: &str = "reach2d_node_added";

/// Every setup verified so far must be checked fully again.
fn move_epoch() {
    if BROKEN.load(Ordering::Relaxed) {
        return;
    }
    EPOCH.set(EPOCH.get() + 1);
    // What the old epoch's setups relied on: they register again when they verify.
    WATCHED.with(|watched| {
        if let Ok(mut watched) = watched.try_borrow_mut() {
            watched.clear();
        }
    });
}

/// The epoch a node verified its setup at, and what the setup named then.
#[derive(Default)]
pub struct Verified {
    epoch: u64,
    names: [Option<InstanceId>; 4],
    /// Passes the verification may still be used in before the next full check.
    age: u16,
    /// The last full check was the periodic one (the verification had run out, nothing else changed).
    periodic: bool,
}

impl Verified {
    /// `true` when this pass trusts the epoch the setup was verified at, the setup still names the same nodes and the
    /// last full check is less than [`FULL_CHECK_EVERY`] passes old: its structural checks may be skipped.
    pub fn holds(&mut self, names: [Option<InstanceId>; 4]) -> bool {
        let current = self.epoch != 0 && self.epoch == TRUSTED.get() && self.names == names;
        let holds = current && self.age > 0;
        self.periodic = current && !holds;
        if holds && !BROKEN.load(Ordering::Relaxed) {
            self.age -= 1;
        }
        count(if holds { &FAST_CHECKS } else { &FULL_CHECKS });
        holds
    }

    /// `true` when the last [`Verified::holds`]'s conditions still hold (the same pass, nothing moved since).
    pub fn current(&self) -> bool {
        self.epoch != 0 && self.epoch == TRUSTED.get()
    }

    /// Records a setup that passed the full check in this pass: what it names, and the nodes it relies on
    /// (`relies_on`), which the watch then listens for. Nothing is recorded outside a trusted pass.
    pub fn record(&mut self, names: [Option<InstanceId>; 4], relies_on: impl IntoIterator<Item = InstanceId>) {
        let epoch = TRUSTED.get();
        self.epoch = epoch;
        self.names = names;
        // The first time staggered by the tip's id, so that the periodic full checks of many nodes verified together
        // fall on different frames; after a periodic check, a whole period again.
        let stagger = names[3].map_or(0, |id| (id.to_i64() as u64 % u64::from(FULL_CHECK_EVERY)) as u16);
        self.age = if self.periodic { FULL_CHECK_EVERY } else { FULL_CHECK_EVERY - stagger };
        if epoch == 0 {
            return;
        }
        WATCHED.with(|watched| {
            if let Ok(mut watched) = watched.try_borrow_mut() {
                // Only ids not there yet: `extend` (and even `insert` of a present key) reserves room first, which
                // reallocates a full table at a periodic check though nothing is new.
                for id in relies_on.into_iter().map(InstanceId::to_i64) {
                    if !watched.contains(&id) {
                        watched.insert(id);
                    }
                }
            }
        });
    }
}

/// How many setup checks were full and how many skipped their structural part, since the library was loaded (debug
/// and bench builds report them through `Reach2DDebug`).
static FULL_CHECKS: AtomicU64 = AtomicU64::new(0);
static FAST_CHECKS: AtomicU64 = AtomicU64::new(0);

fn count(counter: &AtomicU64) {
    crate::debug::bump(counter, 1);
}

/// `[full checks, checks that skipped the structural part]` so far.
#[cfg_attr(not(any(debug_assertions, feature = "bench")), allow(dead_code))]
pub fn check_counts() -> [u64; 2] {
    [FULL_CHECKS.load(Ordering::Relaxed), FAST_CHECKS.load(Ordering::Relaxed)]
}

/// Testing switch (debug and bench builds, through `Reach2DDebug`): `true` breaks the watch on purpose (every pass
/// trusted, the epoch never moves, no periodic full check), so the tests can show what a broken watch would miss.
static BROKEN: AtomicBool = AtomicBool::new(false);

#[cfg_attr(not(any(debug_assertions, feature = "bench")), allow(dead_code))]
pub fn break_on_purpose(on: bool) {
    BROKEN.store(on, Ordering::Relaxed);
}
