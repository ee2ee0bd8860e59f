//! `TwoBoneIk2D`'s stretch memory: the tip bone's local `position`, the value the user (or an animation) gave it and
//! the one the last stretched solve wrote. Restored by the same rules as the rotations (before saving, when the
//! preview stops), and also when stretching stops, the node is disabled or it leaves the tree.

use godot::classes::Bone2D;
use godot::obj::Gd;
use reach2d_core::Vec2;

use crate::io::convert::{vec2, vector2};

/// A read position within this (squared) of the one written last is the node's own.
const OWN_POSITION_SQ: f32 = 1e-8;

/// The tip bone's authored and written local position.
#[derive(Default)]
pub struct TipPosition {
    authored: Vec2,
    /// The last stretched position written, and whether it is in the bone now.
    written: Option<Vec2>,
    applied: bool,
}

impl TipPosition {
    /// The tip bone's authored local position: a position that differs from what the last stretch wrote is the
    /// user's (or an animation's) and becomes the authored one.
    pub fn authored(&mut self, tip: &Gd<Bone2D>) -> Vec2 {
        let position = vec2(tip.get_position());
        let own = self.applied && self.written.is_some_and(|w| w.distance_squared(position) <= OWN_POSITION_SQ);
        if !own {
            self.authored = position;
            self.written = None;
            self.applied = false;
        }
        self.authored
    }

    /// Writes the tip bone's local position as its authored one times `factor`; a factor of 1 restores the authored
    /// position. Call [`TipPosition::authored`] first.
    pub fn write(&mut self, tip: Option<&mut Gd<Bone2D>>, factor: f32) {
        if factor == 1.0 {
            self.restore(tip);
            return;
        }
        let Some(tip) = tip else { return };
        let position = self.authored * factor;
        if position.is_finite() {
            tip.set_position(vector2(position));
            self.written = Some(position);
            self.applied = true;
        }
    }

    /// Puts the authored position back if a stretch moved it.
    pub fn restore(&mut self, tip: Option<&mut Gd<Bone2D>>) {
        if !self.applied {
            return;
        }
        self.applied = false;
        if let Some(tip) = tip.filter(|tip| tip.is_instance_valid()) {
            tip.set_position(vector2(self.authored));
        }
    }

    /// Editor: puts the preview's last stretch back (after saving).
    pub fn reapply(&mut self, tip: Option<&mut Gd<Bone2D>>) {
        if let (Some(written), Some(tip)) = (self.written, tip)
            && !self.applied
            && tip.is_instance_valid()
        {
            tip.set_position(vector2(written));
            self.applied = true;
        }
    }
}
