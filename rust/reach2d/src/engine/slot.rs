//! The one liveness check of a node property that holds another node (a target, a bone, a leg): nothing, a freed
//! object, or a live handle. An object-database lookup, no engine call. A freed handle is never cloned or called:
//! in release builds (godot-rust's safeguards disengaged) that would be a call through a dangling pointer.

use godot::classes::Node;
use godot::obj::{Gd, GodotClass, Inherits};

/// What a node property holds now.
pub enum Slot<'a, T: GodotClass> {
    /// Nothing is set.
    Empty,
    /// The object it held was freed.
    Freed,
    /// A live object.
    Live(&'a Gd<T>),
}

/// What `value` holds now.
pub fn slot<T: GodotClass>(value: &Option<Gd<T>>) -> Slot<'_, T> {
    match value {
        None => Slot::Empty,
        Some(node) if !node.is_instance_valid() => Slot::Freed,
        Some(node) => Slot::Live(node),
    }
}

/// The live handle in `value`, if any.
pub fn live<T: GodotClass>(value: &Option<Gd<T>>) -> Option<&Gd<T>> {
    match slot(value) {
        Slot::Live(node) => Some(node),
        Slot::Empty | Slot::Freed => None,
    }
}

/// `true` when `node` is alive and inside the scene tree.
pub fn in_tree<T: GodotClass + Inherits<Node>>(node: &Gd<T>) -> bool {
    node.is_instance_valid() && node.upcast_ref::<Node>().is_inside_tree()
}
