//! Finding and watching a chain of Bone2D nodes: resolved once from `tip_bone` up to `root_bone`, checked cheaply
//! every solve.
//!
//! The chain's structure is not walked again every frame: any change to it (a bone reparented, a node inserted, the
//! root moved elsewhere) takes the tip bone out of the tree and back, and its `tree_entered` signal marks the cached
//! chain stale.

use std::sync::atomic::{AtomicBool, Ordering};

use godot::builtin::{Callable, StringName};
use godot::classes::{Bone2D, CanvasItem, Node};
use godot::obj::{Gd, InstanceId};

use crate::io::stale_flags;
use crate::problem::Problem;
use crate::slot::{Slot, slot};

/// Which bones a node's chain may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `root ..= tip`, any length.
    Chain,
    /// Two bones: the tip is the root's direct child.
    Limb,
}

/// The bones of one node, root first, and the watch that tells when they changed.
#[derive(Default)]
pub struct BoneChain {
    bones: Vec<Gd<Bone2D>>,
    /// The resolved root's and tip's instance ids, kept beside the chain so that the per-solve check touches no
    /// other memory.
    ends: Option<(InstanceId, InstanceId)>,
    /// The root bone's parent when it is a CanvasItem (its global transform places the chain).
    parent: Option<Gd<CanvasItem>>,
    /// The root bone's parent node's id, whatever its class, to check the root's link to it.
    root_parent: Option<InstanceId>,
    /// Set by the tip bone's `tree_entered` signal: the chain may have changed shape.
    stale: Option<&'static AtomicBool>,
    /// The tip bone, the callable connected to its `tree_entered` and that signal's name, to check the connection
    /// and to disconnect when the chain changes.
    watch: Option<(Gd<Bone2D>, Callable, StringName)>,
}

impl BoneChain {
    /// Number of bones in the resolved chain.
    pub fn len(&self) -> usize {
        self.bones.len()
    }

    /// The resolved bones, root first (empty while unresolved).
    pub fn bones(&self) -> &[Gd<Bone2D>] {
        &self.bones
    }

    /// The resolved bones, root first, to write.
    pub fn bones_mut(&mut self) -> &mut [Gd<Bone2D>] {
        &mut self.bones
    }

    /// The root bone's parent, when it is a CanvasItem.
    pub fn parent(&self) -> Option<&Gd<CanvasItem>> {
        self.parent.as_ref()
    }

    /// `true` when the cached chain is still `root ..= tip`, every bone alive and linked the same way (root and tip
    /// alive: see [`slots`]); otherwise it must be resolved again ([`BoneChain::resolve`]).
    ///
    /// The tip's `tree_entered` watch alone cannot be trusted: a script can block the tip's signals or disconnect
    /// the watch, then restructure the chain and free a bone of it, and release builds (safeguards disengaged) would
    /// then call into freed memory. So every bone between root and tip and the root's cached parent are also
    /// checked alive (an object-database lookup each, no engine call) and, whenever the watch may not hear (the tip
    /// blocks its signals, or the watch was disconnected), each link too: the root still the child of its cached
    /// parent, each bone still the child of the one before it.
    ///
    /// A chain that left the tree and came back unchanged (the character reparented, taken out and put back, a
    /// scene switch that keeps it) is still current: its links are checked once and the watch is re-armed, so the
    /// node keeps what it remembers of its bones (its own last write, the unwritten pose a spring follows).
    pub fn is_current(&self, root: &Gd<Bone2D>, tip: &Gd<Bone2D>) -> bool {
        let Some((first, last)) = self.ends else { return false };
        let Some(stale) = self.stale else { return false };
        let same_ends = first == root.instance_id_unchecked() && last == tip.instance_id_unchecked();
        let middle = self.bones.get(1..self.bones.len().saturating_sub(1)).unwrap_or(&[]);
        if !same_ends
            || !middle.iter().all(Gd::is_instance_valid)
            || !self.parent.as_ref().is_none_or(Gd::is_instance_valid)
        {
            return false;
        }
        if stale.load(Ordering::Relaxed) {
            // The tip re-entered the tree: the same chain if every link holds (and the watch can hear again).
            if !self.links_hold() {
                return false;
            }
            stale.store(false, Ordering::Relaxed);
        }
        // A single bone has one link (to its parent): checking it costs less than asking about the watch.
        if self.bones.len() <= 1 {
            return self.links_hold();
        }
        self.watch_heard(tip) || self.links_hold()
    }

    /// `true` when the watch on the tip still hears every change: its signals are not blocked and the watch is
    /// still connected (two engine calls; the signal's name was made once, when the watch was connected).
    fn watch_heard(&self, tip: &Gd<Bone2D>) -> bool {
        !tip.is_blocking_signals()
            && self.watch.as_ref().is_some_and(|(_, callable, signal)| tip.is_connected(signal, callable))
    }

    /// `true` when the root is still the child of its cached parent and each cached bone the child of the one before
    /// it (all alive: see [`is_current`]).
    fn links_hold(&self) -> bool {
        let Some(root) = self.bones.first() else { return false };
        root.get_parent().map(|parent| parent.instance_id_unchecked()) == self.root_parent
            && self.bones.windows(2).all(|pair| {
                pair[1]
                    .get_parent()
                    .is_some_and(|parent| parent.instance_id_unchecked() == pair[0].instance_id_unchecked())
            })
    }

    /// Forgets the resolved chain and resolves `root ..= tip` anew (both alive: see [`slots`]);
    /// empty on error. Allocates only when the chain is longer than before.
    pub fn resolve(&mut self, root: &Gd<Bone2D>, tip: &Gd<Bone2D>, shape: Shape) -> Result<(), Problem> {
        self.forget();
        let resolved = self.walk_up(root, tip, shape);
        if resolved.is_err() {
            self.bones.clear();
            self.ends = None;
        }
        resolved
    }

    /// Holds `bones` (root first, parents before children) as a rig's bone list (`FabrikRig2D`: the union of its
    /// effectors' chains, each resolved and watched on its own), with the root's parent. Not watched itself:
    /// [`BoneChain::is_current`] is `false` for it.
    pub fn hold(&mut self, bones: impl IntoIterator<Item = Gd<Bone2D>>, parent: Option<Gd<CanvasItem>>) {
        self.forget();
        self.bones.extend(bones);
        self.parent = parent;
    }

    /// Forgets the resolved chain and stops watching it.
    pub fn forget(&mut self) {
        self.bones.clear();
        self.ends = None;
        self.parent = None;
        self.root_parent = None;
        self.unwatch();
    }

    fn walk_up(&mut self, root: &Gd<Bone2D>, tip: &Gd<Bone2D>, shape: Shape) -> Result<(), Problem> {
        let root_id = root.instance_id();
        let mut bone = tip.clone();
        while bone.instance_id() != root_id {
            self.bones.push(bone.clone());
            let parent = bone.get_parent().ok_or(Problem::TipNotUnderRoot)?;
            bone = match parent.try_cast::<Bone2D>() {
                Ok(parent) => parent,
                // A non-bone in between, or the root is not above the tip at all.
                Err(other) => {
                    return Err(if is_ancestor(root_id, other) {
                        Problem::NodeBetweenIsNotBone2D
                    } else {
                        Problem::TipNotUnderRoot
                    });
                }
            };
        }
        self.bones.push(bone);
        self.bones.reverse();
        self.ends = Some((root_id, tip.instance_id()));
        if shape == Shape::Limb && self.bones.len() != 2 {
            return Err(Problem::TipNotChildOfRoot);
        }
        let root_parent = self.bones[0].get_parent();
        self.root_parent = root_parent.as_ref().map(Gd::instance_id);
        self.parent = root_parent.and_then(|p| p.try_cast::<CanvasItem>().ok());
        self.watch(tip);
        Ok(())
    }

    /// Watches the tip bone: it leaves and re-enters the tree whenever the chain above it changes.
    fn watch(&mut self, tip: &Gd<Bone2D>) {
        self.unwatch();
        let stale = stale_flags::take();
        let callable = Callable::from_fn("reach2d_chain_changed", move |_| stale.store(true, Ordering::Relaxed));
        let signal = StringName::from("tree_entered");
        let mut tip = tip.clone();
        tip.connect(&signal, &callable);
        self.stale = Some(stale);
        self.watch = Some((tip, callable, signal));
    }

    fn unwatch(&mut self) {
        if let Some(stale) = self.stale.take() {
            stale_flags::release(stale);
        }
        if let Some((mut tip, callable, signal)) = self.watch.take()
            && tip.is_instance_valid()
            && tip.is_connected(&signal, &callable)
        {
            tip.disconnect(&signal, &callable);
        }
    }
}

impl Drop for BoneChain {
    fn drop(&mut self) {
        self.unwatch();
    }
}

/// A node's bone slots `root` and `tip`, or why they cannot make a chain (unset or freed).
pub fn slots<'a>(
    root: &'a Option<Gd<Bone2D>>,
    tip: &'a Option<Gd<Bone2D>>,
) -> Result<(&'a Gd<Bone2D>, &'a Gd<Bone2D>), Problem> {
    match (slot(root), slot(tip)) {
        (Slot::Empty, _) => Err(Problem::NoRootBone),
        (_, Slot::Empty) => Err(Problem::NoTipBone),
        (Slot::Live(root), Slot::Live(tip)) => Ok((root, tip)),
        _ => Err(Problem::BoneFreed),
    }
}

/// `true` when the node `ancestor` is `node` or above it.
fn is_ancestor(ancestor: InstanceId, node: Gd<Node>) -> bool {
    let mut current = Some(node);
    while let Some(n) = current {
        if n.instance_id() == ancestor {
            return true;
        }
        current = n.get_parent();
    }
    false
}
