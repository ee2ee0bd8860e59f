//! An offset a helper node owns on top of another node's own position or rotation, as the scene or an animation set
//! it: `FootGrounder2D`'s hips, `LegStepper2D`'s body. Written as the unwritten value plus the offset, told apart from
//! someone else's value by `io/written.rs`'s rule, and taken back when the helper lets go.

use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::Vec2;
use reach2d_core::ground::offset_in_parent;

use crate::engine::convert::{affine, vec2, vector2};
use crate::io::written::Overwritten;

/// A global offset of a node's position.
#[derive(Default)]
pub struct PositionOffset {
    /// The node's local position: the animation's (or the scene's) and the helper's last write.
    position: Overwritten<Vec2>,
    /// The smoothed size of the offset the helper keeps (the hips' drop, the body's raise), in its own unit.
    pub amount: f32,
    /// The global offset it was written as, px.
    global: Vec2,
}

impl PositionOffset {
    /// The global offset the node carries now: ours when its position is still what we wrote, else none (someone else
    /// set it: that position becomes the one the offset is added to).
    pub fn carried(&mut self, node: &Gd<Node2D>) -> Vec2 {
        let current = vec2(node.get_position());
        if self.position.holds_own(current) {
            self.global
        } else {
            self.position.observe(current);
            Vec2::ZERO
        }
    }

    /// Writes the node's position as the unwritten one plus `global` (a global offset, px; `amount` in the helper's
    /// unit). `false`, writing nothing, when the node's basis is collapsed (a zero scale) or not finite.
    pub fn write(&mut self, node: &mut Gd<Node2D>, amount: f32, global: Vec2) -> bool {
        let global_basis = affine(node.get_global_transform()).matrix2;
        let local_basis = affine(node.get_transform()).matrix2;
        let Some(in_parent) = offset_in_parent(global_basis, local_basis, global) else { return false };
        let position = self.position.unwritten() + in_parent;
        if !position.is_finite() {
            return false;
        }
        node.set_position(vector2(position));
        self.position.wrote(position);
        self.amount = amount;
        self.global = global;
        true
    }

    /// Puts the unwritten position back if the node still holds ours.
    pub fn restore(&mut self, node: &mut Gd<Node2D>) {
        if let Some(authored) = self.position.release(vec2(node.get_position())) {
            node.set_position(vector2(authored));
        }
    }
}

/// A turn of a node's rotation.
#[derive(Default)]
pub struct RotationOffset {
    /// The node's local rotation: the animation's (or the scene's) and the helper's last write.
    rotation: Overwritten<f32>,
    /// The smoothed global turn the helper keeps, radians.
    pub amount: f32,
}

impl RotationOffset {
    /// Takes the node's rotation now as someone else's unless it is still what we wrote.
    pub fn observe(&mut self, node: &Gd<Node2D>) {
        self.rotation.observe(node.get_rotation());
    }

    /// Writes the node's rotation as the unwritten one plus `local_turn` (radians; `amount` the global turn it
    /// stands for). `false`, writing nothing, for a result that is not finite.
    pub fn write(&mut self, node: &mut Gd<Node2D>, amount: f32, local_turn: f32) -> bool {
        let rotation = self.rotation.unwritten() + local_turn;
        if !rotation.is_finite() {
            return false;
        }
        node.set_rotation(rotation);
        self.rotation.wrote(rotation);
        self.amount = amount;
        true
    }

    /// Puts the unwritten rotation back if the node still holds ours.
    pub fn restore(&mut self, node: &mut Gd<Node2D>) {
        if let Some(authored) = self.rotation.release(node.get_rotation()) {
            node.set_rotation(authored);
        }
    }
}
