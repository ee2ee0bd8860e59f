//! `CharacterWeight2D`: one weight for every Reach2D node of a character.

use std::cell::Cell;
use std::rc::Rc;

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{INode2D, Node2D};
use godot::prelude::*;

use crate::runtime::{character_link, checked};

/// One weight for every Reach2D node of a character, like Unity's IK Manager 2D weight or the built-in modification
/// stack's [member SkeletonModificationStack2D.strength]: every Reach2D node under this node's parent
/// ([FabrikChain2D], [CcdChain2D], [TwoBoneIk2D], [LookAt2D], [FabrikRig2D], [PathChain2D], [SpringChain2D], the legs,
/// hips and feet of a [FootGrounder2D], the legs and the body's raise and tilt of a [LegStepper2D]) multiplies its own
/// [code]weight[/code] by this one. Put it on the character's root (as a
/// child of the node that holds the skeleton and the IK nodes) and animate [member weight] to blend the whole
/// character between its animation and its IK at once: for a cutscene, a ragdoll transition, a character picked up.
///
/// The nearest one above a node wins. A node moved from under it takes its own weight again. Nothing is written
/// when the weight is 0 and the animation holds still (each bone keeps the rotation it has).
#[derive(GodotClass)]
#[class(init, tool, base = Node2D)]
pub struct CharacterWeight2D {
    /// How much of every Reach2D node's result under this node's parent is applied, on top of each node's own
    /// [code]weight[/code]: 0 = none (the animated pose), 1 = each node's own weight. A value outside [0, 1] (or NaN)
    /// is an error and is ignored.
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_weight)]
    #[init(val = 1.0)]
    weight: f32,
    /// The weight as the nodes under the parent read it.
    #[init(val = Rc::new(Cell::new(1.0)))]
    shared: Rc<Cell<f32>>,
    base: Base<Node2D>,
}

#[godot_api]
impl CharacterWeight2D {
    // The checked setter: a bad value prints one error naming the valid range and keeps the last good one; a good
    // one reaches the nodes under the parent at once.
    #[func]
    fn set_weight(&mut self, value: f32) {
        checked::set_float(&mut self.weight, "CharacterWeight2D", "weight", value, 0.0, 1.0);
        self.publish();
    }
}

#[godot_api]
impl INode2D for CharacterWeight2D {
    fn on_notification(&mut self, what: CanvasItemNotification) {
        match what {
            CanvasItemNotification::ENTER_TREE => {
                let Some(parent) = self.base().get_parent() else { return };
                let id = self.base().instance_id();
                character_link::register(parent.instance_id(), id, self.shared.clone());
            }
            CanvasItemNotification::EXIT_TREE => character_link::unregister(self.base().instance_id()),
            _ => {}
        }
    }
}

impl CharacterWeight2D {
    /// Gives the nodes under the parent the new weight.
    fn publish(&mut self) {
        self.shared.set(self.weight);
    }
}
