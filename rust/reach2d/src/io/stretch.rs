//! `TwoBoneIk2D`'s stretch memory: the tip bone's local `position`, the value the user (or an animation) gave it and
//! the one the last stretched solve wrote (`io/written.rs`'s rule tells them apart). Put back by the same rules as the
//! rotations (before saving, when the preview stops), and also when stretching stops, the node is disabled or it
//! leaves the tree; a position someone else set since is never put back over.

use godot::classes::Bone2D;
use godot::obj::Gd;
use reach2d_core::Vec2;

use crate::io::convert::{vec2, vector2};
use crate::io::written::Overwritten;

/// The tip bone's authored and written local position.
#[derive(Default)]
pub struct TipPosition {
    position: Overwritten<Vec2>,
    /// The write the last [`TipPosition::restore`] took back, for [`TipPosition::reapply`] (editor: after saving).
    taken_back: Option<Vec2>,
}

impl TipPosition {
    /// The tip bone's authored local position: a position that differs from what the last stretch wrote is the
    /// user's (or an animation's) and becomes the authored one.
    pub fn authored(&mut self, tip: &Gd<Bone2D>) -> Vec2 {
        self.position.observe(vec2(tip.get_position()))
    }

    /// Writes the tip bone's local position as its authored one times `factor`; a factor of 1 restores the authored
    /// position. Call [`TipPosition::authored`] first.
    pub fn write(&mut self, tip: Option<&mut Gd<Bone2D>>, factor: f32) {
        if factor == 1.0 {
            self.restore(tip);
            return;
        }
        let Some(tip) = tip else { return };
        let position = self.position.unwritten() * factor;
        if position.is_finite() {
            tip.set_position(vector2(position));
            self.position.wrote(position);
        }
    }

    /// Puts the authored position back if the bone still holds the stretch's.
    pub fn restore(&mut self, tip: Option<&mut Gd<Bone2D>>) {
        if self.position.written().is_none() {
            return; // nothing stretched (the common case, every frame of a disabled node): no engine call
        }
        let Some(tip) = tip.filter(|tip| tip.is_instance_valid()) else { return };
        self.taken_back = self.position.written();
        if let Some(authored) = self.position.release(vec2(tip.get_position())) {
            tip.set_position(vector2(authored));
        } else {
            self.taken_back = None;
        }
    }

    /// Editor: puts back the stretch the last [`TipPosition::restore`] took away (after saving).
    pub fn reapply(&mut self, tip: Option<&mut Gd<Bone2D>>) {
        if let (Some(written), Some(tip)) = (self.taken_back.take(), tip)
            && tip.is_instance_valid()
        {
            tip.set_position(vector2(written));
            self.position.wrote(written);
        }
    }
}
