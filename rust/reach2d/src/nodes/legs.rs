//! The legs a helper node drives (`FootGrounder2D`, `LegStepper2D`): which classes can be a leg ([`Leg`]), and
//! telling each named leg that it is driven ([`LegMarks`]). What a leg keeps of it is `drive.rs`'s.

pub mod body_offset;

use godot::builtin::Array;
use godot::classes::{Node, Node2D};
use godot::obj::{Gd, InstanceId};
use reach2d_core::Vec2;
use reach2d_core::stepper::LegReach;

use crate::nodes::ccd_chain_2d::CcdChain2D;
use crate::nodes::chain::drive::DrivenLeg;
use crate::nodes::fabrik_chain_2d::FabrikChain2D;
use crate::nodes::two_bone_ik_2d::TwoBoneIk2D;
use crate::problem::Problem;
use crate::runtime::frame::{self, BoneDriver, NodeFields, uncounted};

/// A node that can be a leg: a two-bone limb or a chain of any length.
#[derive(Clone)]
pub enum Leg {
    TwoBone(Gd<TwoBoneIk2D>),
    Fabrik(Gd<FabrikChain2D>),
    Ccd(Gd<CcdChain2D>),
}

impl Leg {
    /// `node` as a leg, or `None` for a node of another class (a class lookup: call it when the legs change, not
    /// per frame).
    pub fn of(node: &Gd<Node2D>) -> Option<Leg> {
        let node = node.clone();
        let node = match node.try_cast::<TwoBoneIk2D>() {
            Ok(leg) => return Some(Leg::TwoBone(leg)),
            Err(node) => node,
        };
        let node = match node.try_cast::<FabrikChain2D>() {
            Ok(leg) => return Some(Leg::Fabrik(leg)),
            Err(node) => node,
        };
        node.try_cast::<CcdChain2D>().ok().map(Leg::Ccd)
    }

    /// The leg's instance id (no engine call).
    pub fn id(&self) -> InstanceId {
        match self {
            Leg::TwoBone(leg) => leg.instance_id_unchecked(),
            Leg::Fabrik(leg) => leg.instance_id_unchecked(),
            Leg::Ccd(leg) => leg.instance_id_unchecked(),
        }
    }

    /// The leg as a Node (call only while it is alive).
    pub fn node(&self) -> Gd<Node> {
        match self {
            Leg::TwoBone(leg) => leg.clone().upcast(),
            Leg::Fabrik(leg) => leg.clone().upcast(),
            Leg::Ccd(leg) => leg.clone().upcast(),
        }
    }

    /// `true` while the leg was not freed (an object-database lookup, no engine call).
    pub fn is_alive(&self) -> bool {
        match self {
            Leg::TwoBone(leg) => leg.is_instance_valid(),
            Leg::Fabrik(leg) => leg.is_instance_valid(),
            Leg::Ccd(leg) => leg.is_instance_valid(),
        }
    }

    /// Tells the leg that the helper `helper` names it (`attached`) and solves it itself (`driven`); `false` when
    /// another helper holds it (`drive.rs`).
    pub fn set_drive(&mut self, helper: InstanceId, attached: bool, driven: bool) -> bool {
        match self {
            Leg::TwoBone(leg) => leg.bind_mut().set_drive(helper, attached, driven),
            Leg::Fabrik(leg) => leg.bind_mut().set_drive(helper, attached, driven),
            Leg::Ccd(leg) => leg.bind_mut().set_drive(helper, attached, driven),
        }
    }

    /// The leg's own setup check (its bones, through `setup::check`; a leg a helper names needs no target), without
    /// touching a bone.
    pub fn check_setup(&mut self) -> Result<(), Problem> {
        match self {
            Leg::TwoBone(leg) => uncounted(|| leg.bind_mut()).check_setup(),
            Leg::Fabrik(leg) => uncounted(|| leg.bind_mut()).check_setup(),
            Leg::Ccd(leg) => uncounted(|| leg.bind_mut()).check_setup(),
        }
    }

    /// The leg's end effector in the pose the IK did not write (the animation's, the scene's), and its reach from
    /// its hip, global px, whether the leg is enabled or not; `Err` when it cannot be read (the leg reports why
    /// itself).
    pub fn unwritten_reach(&mut self) -> Result<(Vec2, LegReach), ()> {
        match self {
            Leg::TwoBone(leg) => uncounted(|| leg.bind_mut()).unwritten_reach(),
            Leg::Fabrik(leg) => uncounted(|| leg.bind_mut()).unwritten_reach(),
            Leg::Ccd(leg) => uncounted(|| leg.bind_mut()).unwritten_reach(),
        }
    }

    /// Editor: puts the leg's authored pose back, as when its own preview stops (a `LegStepper2D`'s preview
    /// stopped).
    pub fn stop_preview(&mut self) {
        match self {
            Leg::TwoBone(leg) => frame::stop_preview(&mut leg.bind_mut().state().bones),
            Leg::Fabrik(leg) => frame::stop_preview(&mut leg.bind_mut().state().bones),
            Leg::Ccd(leg) => frame::stop_preview(&mut leg.bind_mut().state().bones),
        }
    }

    /// Solves the leg now toward `goal` (global px), advancing time by `delta` seconds; `true` when it wrote its
    /// bones (it reports a failure itself).
    pub fn solve_toward(&mut self, goal: Vec2, delta: f64) -> bool {
        match self {
            Leg::TwoBone(leg) => uncounted(|| leg.bind_mut()).solve_toward(goal, delta),
            Leg::Fabrik(leg) => uncounted(|| leg.bind_mut()).solve_toward(goal, delta),
            Leg::Ccd(leg) => uncounted(|| leg.bind_mut()).solve_toward(goal, delta),
        }
    }
}

/// The legs a helper names, told that it drives them (their own ticks then rest) while it drives them. A leg
/// another helper holds already is not marked: [`LegMarks::contested`] says which, and the helper refuses to run.
#[derive(Default)]
pub struct LegMarks {
    marked: Vec<Option<Leg>>,
    /// Whether the marked legs were last told they are driven.
    driven: bool,
    /// The helper that marks (its instance id), from the first update.
    helper: Option<InstanceId>,
    /// The first slot whose leg another helper holds, at the last update.
    contested: Option<usize>,
}

impl LegMarks {
    /// The helper `helper` marks the legs in `slots` (driven or only attached), unmarking a leg that left its slot.
    /// Cheap: a comparison of instance ids per leg, and a call only on a change (or, for a leg another helper
    /// holds, each update until it is free); allocates only when the number of slots changes.
    pub fn update(&mut self, helper: InstanceId, slots: impl ExactSizeIterator<Item = Option<Leg>>, driven: bool) {
        self.helper = Some(helper);
        self.contested = None;
        let count = slots.len();
        if self.marked.len() > count {
            for mut old in self.marked.drain(count..).flatten().filter(Leg::is_alive) {
                old.set_drive(helper, false, false);
            }
        }
        self.marked.resize(count, None);
        for (index, (marked, slot)) in self.marked.iter_mut().zip(slots).enumerate() {
            let same = match (&*marked, &slot) {
                (Some(a), Some(b)) => a.id() == b.id(),
                (None, None) => true,
                _ => false,
            };
            if !same && let Some(mut old) = marked.take().filter(Leg::is_alive) {
                old.set_drive(helper, false, false);
            }
            if let Some(mut leg) = slot {
                if (!same || self.driven != driven) && !leg.set_drive(helper, true, driven) {
                    self.contested = self.contested.or(Some(index));
                    continue;
                }
                *marked = Some(leg);
            }
        }
        self.driven = driven;
    }

    /// The first slot whose leg another helper holds (it names that leg too), at the last update.
    pub fn contested(&self) -> Option<usize> {
        self.contested
    }

    /// Tells the marked legs whether they are driven, when that changed; the same legs stay marked (a helper whose
    /// setup is refused keeps the legs it names quiet). Cheap: no allocation, a call per leg only on a change.
    pub fn drive(&mut self, driven: bool) {
        if self.driven != driven {
            self.tell_all(true, driven);
            self.driven = driven;
        }
    }

    /// The legs solve by themselves again (the helper is disabled); they stay attached.
    pub fn stop_driving(&mut self) {
        self.tell_all(true, false);
        self.driven = false;
    }

    /// Unmarks every leg (the helper left the tree).
    pub fn release(&mut self) {
        self.tell_all(false, false);
        self.marked.clear();
    }

    fn tell_all(&mut self, attached: bool, driven: bool) {
        let Some(helper) = self.helper else { return };
        for leg in self.marked.iter_mut().flatten().filter(|leg| leg.is_alive()) {
            leg.set_drive(helper, attached, driven);
        }
    }
}

/// Each entry of `nodes` that is a live leg not named by an earlier entry, else `None`: the legs a helper names
/// while its setup is refused (another entry is wrong), marked so that each keeps its pose without a word instead
/// of reporting that it has no target (issue 36). Class lookups and an allocation: when the legs change, not per
/// frame.
pub fn named_legs(nodes: &Array<Gd<Node2D>>) -> Vec<Option<Leg>> {
    let entries = nodes.clone().upcast_any_array();
    let mut legs: Vec<Option<Leg>> = Vec::with_capacity(entries.len());
    for i in 0..entries.len() {
        // Read as a Variant: a typed array's own conversion stops at a freed object.
        let node = entries.at(i).try_to::<Gd<Node2D>>().ok().filter(|node| node.is_instance_valid());
        let leg = node.and_then(|node| Leg::of(&node));
        let named_before = leg.as_ref().is_some_and(|leg| legs.iter().flatten().any(|other| other.id() == leg.id()));
        legs.push(if named_before { None } else { leg });
    }
    legs
}

/// The creature a helper works on: its nearest ancestor above every leg it names, found the first time it is
/// checked with legs (again after [`Creature::forget`], when the legs change). A helper moved out from under it (a
/// reparent) no longer moves with its legs: [`Creature::left`] says so, and the helper leaves them alone (issue 36).
/// A holder node inside the creature is fine.
#[derive(Default)]
pub struct Creature {
    node: Option<Gd<Node>>,
    left: bool,
}

impl Creature {
    /// The legs changed: the creature is found again at the next check.
    pub fn forget(&mut self) {
        self.node = None;
        self.left = false;
    }

    /// The helper was moved out from under its creature (at the last check).
    pub fn left(&self) -> bool {
        self.left
    }

    /// Finds the creature of `helper` and `legs` if not known yet, else whether `helper` is still under it.
    /// Ancestor walks: when the legs change or the helper enters the tree, not per frame.
    pub fn check(&mut self, helper: &Gd<Node>, legs: &[Gd<Node>]) {
        if let Some(creature) = self.node.as_ref().filter(|c| c.is_instance_valid()) {
            self.left = !creature.is_ancestor_of(helper);
            return;
        }
        self.left = false;
        if legs.is_empty() {
            return;
        }
        let mut above = helper.get_parent();
        while let Some(node) = above {
            if legs.iter().all(|leg| node.is_ancestor_of(leg)) {
                self.node = Some(node);
                return;
            }
            above = node.get_parent();
        }
    }
}
