//! The setup check every solve starts with, without touching a bone: the target, the pole and the bones, each
//! usable or the [`Problem`] that says why not.
//!
//! A setup that passed the whole check in a pass the tree watch trusts is *verified* (`io/tree_watch.rs`): until a
//! node it relies on leaves the tree, its structural checks (the target and pole in the tree, the chain's parent
//! links) are skipped. Liveness (the object database) and what changes without a tree change (positions, NaN) are
//! checked every time.

use godot::classes::{Bone2D, Node2D, Skeleton2D};
use godot::prelude::*;
use reach2d_core::{TipDirection, Vec2};

use crate::engine::convert::vec2;
use crate::engine::slot::{Slot, live, slot};
use crate::io::bones::{self, Bones};
use crate::io::chain::{Shape, slots};
use crate::problem::Problem;
use godot::obj::InstanceId;

/// What a good setup check found, for the solve that follows: the target's global position and the pole's, if set.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub goal: Vec2,
    pub pole: Option<Vec2>,
    /// The chain was resolved anew (other bones than last time): what a node simulates on it starts afresh.
    pub chain_changed: bool,
}

/// What a node's setup names: its target (`None` for a node, or a check, without one), its pole (`None`: none) and
/// its chain `root ..= tip` of `shape`.
pub struct Slots<'a> {
    pub target: Option<&'a Option<Gd<Node2D>>>,
    pub pole: Option<&'a Option<Gd<Node2D>>>,
    pub root: &'a Option<Gd<Bone2D>>,
    pub tip: &'a Option<Gd<Bone2D>>,
    pub shape: Shape,
}

impl Slots<'_> {
    /// The instance ids the setup names, to tell a verified setup from a changed one.
    fn names(&self) -> [Option<InstanceId>; 4] {
        let id = |node: Option<&Option<Gd<Node2D>>>| node.and_then(|n| n.as_ref().map(Gd::instance_id_unchecked));
        let bone = |bone: &Option<Gd<Bone2D>>| bone.as_ref().map(Gd::instance_id_unchecked);
        [id(self.target), id(self.pole), bone(self.root), bone(self.tip)]
    }
}

/// The whole setup check: the target (its global position, [`Vec2::ZERO`] without a target slot), then the pole,
/// then the bones (`bones` holds the chain afterwards, resolved again if it changed). The structural checks run only
/// when the setup is not verified for this pass; a setup that passes them becomes verified.
pub fn check(bones: &mut Bones, slots: Slots<'_>) -> Result<Setup, Problem> {
    check_parts(bones, slots, true, |_| Ok(()))
}

/// [`check`] for a node that follows its target's whole transform (`CopyTransform2D`'s source): the target is checked
/// usable (set, alive, in the tree unless verified) but its position is not read (the node reads what it needs), and
/// `structure`, the node's own structural checks, runs with the others: only when the setup is not verified, and
/// before it becomes verified. Returns the live target.
pub fn check_follower(
    bones: &mut Bones,
    slots: Slots<'_>,
    structure: impl FnOnce(&Gd<Node2D>, &Bones) -> Result<(), Problem>,
) -> Result<Gd<Node2D>, Problem> {
    let target = slots.target.ok_or(Problem::NoTarget)?;
    check_parts(bones, slots, false, |bones| structure(live(target).ok_or(Problem::TargetFreed)?, bones))?;
    live(target).cloned().ok_or(Problem::TargetFreed)
}

fn check_parts(
    bones: &mut Bones,
    slots: Slots<'_>,
    read_goal: bool,
    structure: impl FnOnce(&Bones) -> Result<(), Problem>,
) -> Result<Setup, Problem> {
    let names = slots.names();
    let verified = bones.verified.holds(names);
    let goal = match slots.target {
        Some(target) => {
            live_target(target, verified).and_then(|target| if read_goal { goal_of(target) } else { Ok(Vec2::ZERO) })?
        }
        None => Vec2::ZERO,
    };
    let pole = slots.pole.map_or(Ok(None), |pole| pole_position(pole, verified))?;
    let chain_changed = ensure_chain(bones, slots.root, slots.tip, slots.shape, verified)?;
    if !verified {
        // The tip in the tree (and with it the whole chain above it): what the read checks on an unverified setup.
        if bones.chain.bones().last().is_some_and(|tip| !tip.is_inside_tree()) {
            return Err(Problem::BoneOutsideTree);
        }
        if bones.chain.bones().first().is_some_and(|root| !under_skeleton(root)) {
            return Err(Problem::NotInSkeleton);
        }
        structure(bones)?;
        let live_id = |node: Option<&Option<Gd<Node2D>>>| live(node?).map(Gd::instance_id_unchecked);
        let nodes = [live_id(slots.target), live_id(slots.pole)].into_iter().flatten();
        let Bones { chain, verified, .. } = bones;
        verified.record(names, nodes.chain(chain.relies_on()));
    }
    Ok(Setup { goal, pole, chain_changed })
}

/// `true` when the first ancestor of `root` that is not a Bone2D is a Skeleton2D (issue 36: bones outside any
/// skeleton were solved silently). Class lookups up the chain's ancestors: only on an unverified setup.
fn under_skeleton(root: &Gd<Bone2D>) -> bool {
    let mut above = root.get_parent();
    while let Some(node) = above {
        match node.try_cast::<Bone2D>() {
            Ok(bone) => above = bone.get_parent(),
            Err(node) => return node.try_cast::<Skeleton2D>().is_ok(),
        }
    }
    false
}

/// The target when it is set, alive and (checked unless `verified`) in the tree.
fn live_target(target: &Option<Gd<Node2D>>, verified: bool) -> Result<&Gd<Node2D>, Problem> {
    let target = match slot(target) {
        Slot::Empty => return Err(Problem::NoTarget),
        Slot::Freed => return Err(Problem::TargetFreed),
        Slot::Live(target) => target,
    };
    if !verified && !target.is_inside_tree() {
        return Err(Problem::TargetOutsideTree);
    }
    Ok(target)
}

fn goal_of(target: &Gd<Node2D>) -> Result<Vec2, Problem> {
    let position = vec2(target.get_global_position());
    if position.is_finite() { Ok(position) } else { Err(Problem::TargetNotFinite) }
}

/// The pole's global position: `None` when no pole is set, or why the set pole cannot be used (freed, outside the
/// tree, not finite). A broken pole is a problem like a broken target: the node keeps its pose until it is fixed or
/// cleared, rather than silently bending another way.
pub fn pole_position(pole: &Option<Gd<Node2D>>, verified: bool) -> Result<Option<Vec2>, Problem> {
    let pole = match slot(pole) {
        Slot::Empty => return Ok(None),
        Slot::Freed => return Err(Problem::PoleFreed),
        Slot::Live(pole) => pole,
    };
    if !verified && !pole.is_inside_tree() {
        return Err(Problem::PoleOutsideTree);
    }
    let position = vec2(pole.get_global_position());
    if position.is_finite() { Ok(Some(position)) } else { Err(Problem::PoleNotFinite) }
}

/// Makes sure `bones` holds the chain `root ..= tip` of this `shape`, still linked the same way (the links are
/// checked unless `verified`), resolving it again (after restoring the authored pose and forgetting the old chain's
/// memory) if not. `Ok(true)` when it was resolved anew (the chain changed: what a node simulates on it starts
/// afresh), `Ok(false)` when it is the one held.
fn ensure_chain(
    bones: &mut Bones,
    root: &Option<Gd<Bone2D>>,
    tip: &Option<Gd<Bone2D>>,
    shape: Shape,
    verified: bool,
) -> Result<bool, Problem> {
    let (root, tip) = slots(root, tip)?;
    if bones.chain.is_current(root, tip, verified) {
        return Ok(false);
    }
    bones::forget(bones);
    bones.chain.resolve(root, tip, shape).map(|()| true)
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
