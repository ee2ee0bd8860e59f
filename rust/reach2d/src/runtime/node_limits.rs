//! A node's angle limits as Godot sees them: the methods every bone-driving node has (`set_angle_limits`,
//! `clear_angle_limits`, `has_angle_limits`) and the inspector's *Angle Limits* properties (`_get_property_list`,
//! `_get`, `_set`, `_property_get_revert`), over the [`AngleLimits`] in the node's [`NodeState`].

use godot::prelude::*;
use godot::register::info::PropertyInfo;

use crate::runtime::frame::{self, NodeFields};
use crate::runtime::limits::AngleLimits;

/// `set_angle_limits` (`Some((min, max))`) and `clear_angle_limits` (`None`) on bone `index` of `node`, checked
/// against the chain's length once it is known; the inspector's list follows.
pub fn set_angle_limits<T: NodeFields>(node: &mut T, index: i64, range: Option<(f32, f32)>) {
    let state = node.state();
    let known = Some(state.bones.chain.len()).filter(|&n| n > 0);
    let changed = match range {
        Some((min, max)) => state.limits.set(index, min, max, known),
        None => state.limits.clear(index, known),
    };
    if changed {
        node.base_mut().notify_property_list_changed();
    }
}

/// `has_angle_limits`: `true` when bone `index` of `node` has an angle limit.
pub fn has_angle_limits<T: NodeFields>(node: &T, index: i64) -> bool {
    node.state_ref().limits.get(index).is_some()
}

/// `_get_property_list`: the inspector's *Angle Limits* entries of `node`, one per bone it drives now.
pub fn property_list<T: NodeFields>(node: &T) -> Vec<PropertyInfo> {
    let state = node.state_ref();
    state.limits.property_list(state.bones.chain.len())
}

/// `_get`: an `angle_limits/...` property of `node`; `None` for any other property.
pub fn get_property<T: NodeFields>(node: &T, property: &StringName) -> Option<Variant> {
    frame::counted(|| node.state_ref().limits.get_property(property))
}

/// `_set`: an `angle_limits/...` property of `node`, checked; `false` for any other property.
pub fn set_property<T: NodeFields>(node: &mut T, property: &StringName, value: &Variant) -> bool {
    frame::counted(|| node.state().limits.set_property(property, value))
}

/// `_property_get_revert`: an `angle_limits/...` property's default; `None` for any other property.
pub fn property_revert(property: &StringName) -> Option<Variant> {
    AngleLimits::property_revert(property)
}
