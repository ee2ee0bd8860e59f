//! One weight for a whole character (`CharacterWeight2D`, issue 31): the weight nodes publish, and each node's link to
//! the one above it.
//!
//! A `CharacterWeight2D` registers its parent and a shared cell holding its weight; every Reach2D node under that
//! parent multiplies its own `weight` by the cell's. A node finds its weight node by walking its ancestors, only
//! when a weight node came or went since it last looked (a version number) or it moved in the tree itself; per
//! frame it reads the cell: no engine call, no allocation.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use godot::classes::Node;
use godot::obj::{Gd, InstanceId};

/// A weight node's parent and its published weight.
struct Holder {
    parent: InstanceId,
    weight_node: InstanceId,
    weight: Rc<Cell<f32>>,
}

thread_local! {
    static HOLDERS: RefCell<Vec<Holder>> = const { RefCell::new(Vec::new()) };
    /// Moves whenever a weight node registers or leaves.
    static VERSION: Cell<u64> = const { Cell::new(1) };
}

/// A weight node entered the tree under `parent`: nodes under it take `weight` from now on.
pub fn register(parent: InstanceId, weight_node: InstanceId, weight: Rc<Cell<f32>>) {
    HOLDERS.with(|holders| holders.borrow_mut().push(Holder { parent, weight_node, weight }));
    VERSION.set(VERSION.get() + 1);
}

/// The weight node left the tree.
pub fn unregister(weight_node: InstanceId) {
    HOLDERS.with(|holders| holders.borrow_mut().retain(|h| h.weight_node != weight_node));
    VERSION.set(VERSION.get() + 1);
}

/// A node's link to the weight of its character: the nearest `CharacterWeight2D` under one of its ancestors.
#[derive(Default)]
pub struct CharacterLink {
    weight: Option<Rc<Cell<f32>>>,
    /// The registry's version when the link was found (0: look again).
    version: u64,
}

impl CharacterLink {
    /// The character's weight (1 without a weight node).
    pub fn weight(&self) -> f32 {
        self.weight.as_ref().map_or(1.0, |w| w.get())
    }

    /// `true` when the link must be looked up again before the next solve ([`CharacterLink::refresh`]).
    pub fn is_stale(&self) -> bool {
        self.version != VERSION.get()
    }

    /// Looks up the weight node for `node`: the nearest ancestor that is a registered weight node's parent.
    pub fn refresh(&mut self, node: &Gd<Node>) {
        self.version = VERSION.get();
        self.weight = None;
        let empty = HOLDERS.with(|holders| holders.borrow().is_empty());
        if empty {
            return;
        }
        let mut current = node.get_parent();
        while let Some(ancestor) = current {
            let id = ancestor.instance_id();
            let found =
                HOLDERS.with(|holders| holders.borrow().iter().find(|h| h.parent == id).map(|h| h.weight.clone()));
            if found.is_some() {
                self.weight = found;
                return;
            }
            current = ancestor.get_parent();
        }
    }

    /// The node moved in the tree: look again before the next solve.
    pub fn forget(&mut self) {
        self.version = 0;
    }
}
