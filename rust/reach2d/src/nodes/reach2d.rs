//! `Reach2D`: functions for scripts that span many nodes. `solve_all` is the batch path by hand (`batch.rs`).

use std::cell::{Cell, RefCell};

use godot::classes::Object;
use godot::obj::InstanceId;
use godot::prelude::*;

use crate::batch::{Member, Memo, Run, run_node, run_pipelined};
use crate::nodes::ccd_chain_2d::CcdChain2D;
use crate::nodes::fabrik_chain_2d::FabrikChain2D;
use crate::nodes::fabrik_rig_2d::FabrikRig2D;
use crate::nodes::look_at_2d::LookAt2D;
use crate::nodes::spring_chain_2d::SpringChain2D;
use crate::nodes::two_bone_ik_2d::TwoBoneIk2D;

/// Functions that work on many Reach2D nodes at once.
///
/// Nodes with the default process priority are already solved together each frame, in tree order, after
/// [AnimationPlayer] and [AnimationTree]; [method solve_all] is the same for nodes you solve by hand.
#[derive(GodotClass)]
#[class(no_init, base = Object)]
pub struct Reach2D {}

#[godot_api]
impl Reach2D {
    /// Solves every node of [param nodes] now, in the array's order: the same as calling [code]solve()[/code] on
    /// each in turn ([FabrikChain2D], [CcdChain2D], [TwoBoneIk2D], [LookAt2D], [FabrikRig2D], [SpringChain2D]: any mode, any
    /// [member FabrikChain2D.enabled]), with the same result, only faster for many nodes: the next nodes' bones
    /// are fetched into the cache while one solves. Keep the array the same from frame to frame (nodes in the same
    /// places): what each place touched last time is what gets fetched. Returns how many nodes wrote their bones.
    /// An element that is not one of these nodes (or was freed) is skipped with one error, printed again only
    /// after a call without one.
    #[func]
    pub fn solve_all(nodes: VarArray) -> i64 {
        SCRATCH.with(|scratch| {
            let Ok(mut scratch) = scratch.try_borrow_mut() else { return 0 };
            let Scratch { members, ids, memos } = &mut *scratch;
            let count = nodes.len();
            if members.len() < count {
                members.resize_with(count, || None);
                ids.resize(count, None);
                memos.resize(count, Memo::default());
            }
            let mut refused = None;
            for (index, element) in nodes.iter_shared().enumerate() {
                // The same node in the same place as last time (ids are never reused): its typed handle is reused,
                // without asking the engine for its class again.
                let object = element.try_to::<Gd<Object>>().ok();
                let id = object.as_ref().map(Gd::instance_id_unchecked);
                if id.is_none() || ids[index] != id {
                    members[index] = object.and_then(AnyNode::from_object);
                    ids[index] = id;
                }
                if members[index].is_none() {
                    refused = refused.or(Some(index));
                }
            }
            // Each node's solve counts its own heap allocations; the conversions and bindings are godot-rust's.
            let written = run_pipelined(&mut members[..count], &mut memos[..count], Run::Solve, |_| true, |_| true);
            report_refused(refused);
            written as i64
        })
    }
}

/// What `solve_all` keeps from call to call, per place in the array: the node there last time (typed), its id,
/// and what it touched. A handle is used only when the element in its place is that same live object.
#[derive(Default)]
struct Scratch {
    members: Vec<Option<AnyNode>>,
    ids: Vec<Option<InstanceId>>,
    memos: Vec<Memo>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
    /// A refused element was reported and no call without one came since.
    static REPORTED: Cell<bool> = const { Cell::new(false) };
}

fn report_refused(refused: Option<usize>) {
    match refused {
        Some(index) if !REPORTED.get() => {
            REPORTED.set(true);
            godot_error!(
                "Reach2D.solve_all(): element {index} is not a FabrikChain2D, CcdChain2D, TwoBoneIk2D, LookAt2D, \
                 FabrikRig2D or SpringChain2D (or was freed); skipped. Reported once until a call without such an element."
            );
        }
        Some(_) => {}
        None => REPORTED.set(false),
    }
}

/// Any Reach2D node, typed.
enum AnyNode {
    Fabrik(Gd<FabrikChain2D>),
    Ccd(Gd<CcdChain2D>),
    TwoBone(Gd<TwoBoneIk2D>),
    LookAt(Gd<LookAt2D>),
    Rig(Gd<FabrikRig2D>),
    Spring(Gd<SpringChain2D>),
}

impl AnyNode {
    /// The node `object` is, or `None` for another class.
    fn from_object(object: Gd<Object>) -> Option<Self> {
        let object = match object.try_cast::<FabrikChain2D>() {
            Ok(node) => return Some(Self::Fabrik(node)),
            Err(object) => object,
        };
        let object = match object.try_cast::<CcdChain2D>() {
            Ok(node) => return Some(Self::Ccd(node)),
            Err(object) => object,
        };
        let object = match object.try_cast::<TwoBoneIk2D>() {
            Ok(node) => return Some(Self::TwoBone(node)),
            Err(object) => object,
        };
        let object = match object.try_cast::<LookAt2D>() {
            Ok(node) => return Some(Self::LookAt(node)),
            Err(object) => object,
        };
        let object = match object.try_cast::<FabrikRig2D>() {
            Ok(node) => return Some(Self::Rig(node)),
            Err(object) => object,
        };
        object.try_cast::<SpringChain2D>().ok().map(Self::Spring)
    }
}

impl Member for AnyNode {
    fn node(&self) -> Option<Gd<godot::classes::Node>> {
        match self {
            Self::Fabrik(node) => node.node(),
            Self::Ccd(node) => node.node(),
            Self::TwoBone(node) => node.node(),
            Self::LookAt(node) => node.node(),
            Self::Rig(node) => node.node(),
            Self::Spring(node) => node.node(),
        }
    }

    fn is_alive(&self) -> bool {
        match self {
            Self::Fabrik(node) => node.is_alive(),
            Self::Ccd(node) => node.is_alive(),
            Self::TwoBone(node) => node.is_alive(),
            Self::LookAt(node) => node.is_alive(),
            Self::Rig(node) => node.is_alive(),
            Self::Spring(node) => node.is_alive(),
        }
    }

    fn can_process(&self) -> bool {
        match self {
            Self::Fabrik(node) => node.can_process(),
            Self::Ccd(node) => node.can_process(),
            Self::TwoBone(node) => node.can_process(),
            Self::LookAt(node) => node.can_process(),
            Self::Rig(node) => node.can_process(),
            Self::Spring(node) => node.can_process(),
        }
    }

    fn run(&mut self, run: Run, memo: &mut Memo) -> bool {
        match self {
            Self::Fabrik(node) => node.run(run, memo),
            Self::Ccd(node) => node.run(run, memo),
            Self::TwoBone(node) => node.run(run, memo),
            Self::LookAt(node) => node.run(run, memo),
            Self::Rig(node) => node.run(run, memo),
            // The spring's own `solve()` steps one physics tick (the generic one would step by nothing).
            Self::Spring(node) if run == Run::Solve => run_node(node, memo, SpringChain2D::solve),
            Self::Spring(node) => node.run(run, memo),
        }
    }
}

impl Member for Option<AnyNode> {
    fn node(&self) -> Option<Gd<godot::classes::Node>> {
        self.as_ref().and_then(AnyNode::node)
    }

    fn is_alive(&self) -> bool {
        self.as_ref().is_some_and(AnyNode::is_alive)
    }

    fn can_process(&self) -> bool {
        self.as_ref().is_some_and(AnyNode::can_process)
    }

    fn run(&mut self, run: Run, memo: &mut Memo) -> bool {
        self.as_mut().is_some_and(|node| node.run(run, memo))
    }
}
