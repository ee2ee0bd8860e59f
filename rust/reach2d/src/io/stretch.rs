//! A bone's local `position` that a node moves: `TwoBoneIk2D`'s stretch (the tip bone) and `PathChain2D`'s follow
//! mode (the root bone). The value the user (or an animation) gave it and the one the node last wrote
//! (`io/written.rs`'s rule tells them apart). Put back by the same rules as the rotations (before saving, when the
//! preview stops), and also when the node stops moving it, is disabled or leaves the tree; a position someone else
//! set since is never put back over.

use godot::classes::Bone2D;
use godot::obj::Gd;
use reach2d_core::Vec2;

use crate::engine::convert::{vec2, vector2};
use crate::io::written::Overwritten;

/// A bone's authored and written local position.
#[derive(Default)]
pub struct BonePosition {
    position: Overwritten<Vec2>,
    /// The write the last [`BonePosition::restore`] took back, for [`BonePosition::reapply`] (editor: after saving).
    taken_back: Option<Vec2>,
}

impl BonePosition {
    /// The bone's authored local position: a position that differs from what the node last wrote is the user's (or
    /// an animation's) and becomes the authored one.
    pub fn authored(&mut self, bone: &Gd<Bone2D>) -> Vec2 {
        self.position.observe(vec2(bone.get_position()))
    }

    /// Writes the bone's local position as its authored one times `factor` (the stretch); a factor of 1 restores
    /// the authored position. Call [`BonePosition::authored`] first.
    pub fn write(&mut self, bone: Option<&mut Gd<Bone2D>>, factor: f32) {
        if factor == 1.0 {
            self.restore(bone);
            return;
        }
        let position = self.position.unwritten() * factor;
        self.place(bone, position);
    }

    /// Writes `position` as the bone's local position (a finite one; the authored one restores it). Call
    /// [`BonePosition::authored`] first.
    pub fn place(&mut self, bone: Option<&mut Gd<Bone2D>>, position: Vec2) {
        if position == self.position.unwritten() {
            self.restore(bone);
            return;
        }
        let Some(bone) = bone else { return };
        if position.is_finite() {
            bone.set_position(vector2(position));
            self.position.wrote(position);
        }
    }

    /// Puts the authored position back if the bone still holds the node's.
    pub fn restore(&mut self, bone: Option<&mut Gd<Bone2D>>) {
        if self.position.written().is_none() {
            return; // nothing moved (the common case, every frame of a disabled node): no engine call
        }
        let Some(bone) = bone.filter(|bone| bone.is_instance_valid()) else { return };
        self.taken_back = self.position.written();
        if let Some(authored) = self.position.release(vec2(bone.get_position())) {
            bone.set_position(vector2(authored));
        } else {
            self.taken_back = None;
        }
    }

    /// Editor: puts back the position the last [`BonePosition::restore`] took away (after saving).
    pub fn reapply(&mut self, bone: Option<&mut Gd<Bone2D>>) {
        if let (Some(written), Some(bone)) = (self.taken_back.take(), bone)
            && bone.is_instance_valid()
        {
            bone.set_position(vector2(written));
            self.position.wrote(written);
        }
    }
}
