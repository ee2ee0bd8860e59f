//! The canvas items above a chain, for the rare moment a character flips: which of them flipped tells the exact
//! reflection (see `spring_chain_2d/state.rs`). Only walked on a frame where the root's parent changed handedness.

use glam::Affine2;
use godot::classes::CanvasItem;
use godot::obj::Gd;

use crate::engine::convert::affine;

/// Calls `visit` with the global transform of `parent` and of each CanvasItem above it, nearest first, up to the
/// first ancestor that is not a CanvasItem. No allocation.
pub fn visit_global_transforms(parent: Option<&Gd<CanvasItem>>, mut visit: impl FnMut(Affine2)) {
    let mut current = parent.filter(|p| p.is_instance_valid()).cloned();
    while let Some(item) = current {
        visit(affine(item.get_global_transform()));
        current = item.get_parent().and_then(|p| p.try_cast::<CanvasItem>().ok());
    }
}
