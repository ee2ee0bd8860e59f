//! Finding a chain of Bone2D nodes: resolved once from `tip_bone` up to `root_bone`, checked cheaply every solve.
//!
//! The chain's structure is not walked again every frame: any change to it (a bone reparented, a node inserted, the
//! root moved elsewhere) takes a bone of it out of the tree, which the tree watch hears (`io/tree_watch.rs`); only
//! then are the parent links checked again.

use godot::classes::{Bone2D, CanvasItem, Node};
use godot::obj::{Gd, InstanceId};

use crate::engine::slot::{Slot, slot};
use crate::problem::Problem;

/// Which bones a node's chain may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `root ..= tip`, any length.
    Chain,
    /// Two bones: the tip is the root's direct child.
    Limb,
}

/// The bones of one node, root first.
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
    /// Every bone between root and tip and the root's cached parent are checked alive every time (an object-database
    /// lookup each, no engine call): in release builds (safeguards disengaged) a freed bone would otherwise be called
    /// through a dangling pointer, whatever a script did to the tree's signals. The parent links (an engine call per
    /// bone) are checked only when `structure_verified` is `false`, i.e. when the tree watch (`io/tree_watch.rs`)
    /// heard a node this chain relies on leave the tree, or could not hear at all.
    pub fn is_current(&self, root: &Gd<Bone2D>, tip: &Gd<Bone2D>, structure_verified: bool) -> bool {
        let Some((first, last)) = self.ends else { return false };
        let same = first == root.instance_id_unchecked() && last == tip.instance_id_unchecked();
        let middle = self.bones.get(1..self.bones.len().saturating_sub(1)).unwrap_or(&[]);
        if !same || !middle.iter().all(Gd::is_instance_valid) || !self.parent.as_ref().is_none_or(Gd::is_instance_valid)
        {
            return false;
        }
        structure_verified || self.links_hold()
    }

    /// The instance ids of the nodes the chain relies on: every bone and the root's parent.
    pub fn relies_on(&self) -> impl Iterator<Item = InstanceId> + '_ {
        self.bones.iter().map(Gd::instance_id_unchecked).chain(self.root_parent)
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
    /// effectors' chains, each resolved on its own), with the root's parent. [`BoneChain::is_current`] is `false` for
    /// it.
    pub fn hold(&mut self, bones: impl IntoIterator<Item = Gd<Bone2D>>, parent: Option<Gd<CanvasItem>>) {
        self.forget();
        self.bones.extend(bones);
        self.parent = parent;
    }

    /// Forgets the resolved chain.
    pub fn forget(&mut self) {
        self.bones.clear();
        self.ends = None;
        self.parent = None;
        self.root_parent = None;
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
        Ok(())
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
