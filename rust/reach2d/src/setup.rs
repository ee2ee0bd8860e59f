//! The setup check every solve starts with, without touching a bone: the target, the pole and the bones, each
//! usable or the [`Problem`] that says why not.

use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::{TipDirection, Vec2};

use crate::io::bones::{self, Bones};
use crate::io::chain::{Shape, slots};
use crate::io::convert::vec2;
use crate::problem::Problem;
use crate::slot::{Slot, live, slot};

/// What a good setup check found, for the solve that follows: the target's global position and the pole's, if set.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub goal: Vec2,
    pub pole: Option<Vec2>,
}

/// Checks the target, then the pole (if any): their global positions, or why one cannot be used.
pub fn target_and_pole(target: &Option<Gd<Node2D>>, pole: &Option<Gd<Node2D>>) -> Result<Setup, Problem> {
    let goal = target_position(target)?;
    let pole = pole_position(pole)?;
    Ok(Setup { goal, pole })
}

/// The target's global position, or why there is none.
pub fn target_position(target: &Option<Gd<Node2D>>) -> Result<Vec2, Problem> {
    let target = match slot(target) {
        Slot::Empty => return Err(Problem::NoTarget),
        Slot::Freed => return Err(Problem::TargetFreed),
        Slot::Live(target) => target,
    };
    if !target.is_inside_tree() {
        return Err(Problem::TargetOutsideTree);
    }
    let position = vec2(target.get_global_position());
    if position.is_finite() { Ok(position) } else { Err(Problem::TargetNotFinite) }
}

/// The pole's global position: `None` when no pole is set, or why the set pole cannot be used (freed, outside the
/// tree, not finite). A broken pole is a problem like a broken target: the node keeps its pose until it is fixed or
/// cleared, rather than silently bending another way.
pub fn pole_position(pole: &Option<Gd<Node2D>>) -> Result<Option<Vec2>, Problem> {
    let pole = match slot(pole) {
        Slot::Empty => return Ok(None),
        Slot::Freed => return Err(Problem::PoleFreed),
        Slot::Live(pole) => pole,
    };
    if !pole.is_inside_tree() {
        return Err(Problem::PoleOutsideTree);
    }
    let position = vec2(pole.get_global_position());
    if position.is_finite() { Ok(Some(position)) } else { Err(Problem::PoleNotFinite) }
}

/// Makes sure `bones` holds the chain `root ..= tip` of this `shape`, still linked the same way, resolving it again
/// (after restoring the authored pose and forgetting the old chain's memory) if not. `Ok(true)` when it was resolved
/// anew (the chain changed: what a node simulates on it starts afresh), `Ok(false)` when it is the one held.
pub fn ensure_chain(
    bones: &mut Bones,
    root: &Option<Gd<Bone2D>>,
    tip: &Option<Gd<Bone2D>>,
    shape: Shape,
) -> Result<bool, Problem> {
    let (root, tip) = slots(root, tip)?;
    if bones.chain.is_current(root, tip) {
        return Ok(false);
    }
    bones::forget(bones);
    bones.chain.resolve(root, tip, shape).map(|()| true)
}

/// [`ensure_chain`] for one `bone` (look-at).
pub fn ensure_bone(bones: &mut Bones, bone: &Option<Gd<Bone2D>>) -> Result<(), Problem> {
    if bone.is_none() {
        return Err(Problem::NoBone);
    }
    ensure_chain(bones, bone, bone, Shape::Chain).map(drop)
}

/// The tip direction `match_target_rotation` asks for (the target's global x axis, as Godot reports it, mirroring
/// included; zero when there is no usable target), or `None` when it is off.
pub fn tip_direction(target: &Option<Gd<Node2D>>, on: bool, weight: f32) -> Option<TipDirection> {
    on.then(|| TipDirection { x_axis: target_x_axis(target), weight })
}

fn target_x_axis(target: &Option<Gd<Node2D>>) -> Vec2 {
    match live(target) {
        Some(target) if target.is_inside_tree() => {
            let x_axis = vec2(target.get_global_transform().a);
            if x_axis.is_finite() { x_axis } else { Vec2::ZERO }
        }
        _ => Vec2::ZERO,
    }
}
