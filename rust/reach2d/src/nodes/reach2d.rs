//! `Reach2D`: functions for scripts that span many nodes. `solve_all` is the batch path by hand (`batch/`).

use std::cell::{Cell, RefCell};

use godot::classes::{Node, Object};
use godot::prelude::*;

use crate::batch::{Member, Members, Memo, Run, run_node};
use crate::debug::phases::{self, Phase};
use crate::io::tree_watch;
use crate::nodes::ccd_chain_2d::CcdChain2D;
use crate::nodes::copy_transform_2d::CopyTransform2D;
use crate::nodes::fabrik_chain_2d::FabrikChain2D;
use crate::nodes::fabrik_rig_2d::FabrikRig2D;
use crate::nodes::look_at_2d::LookAt2D;
use crate::nodes::path_chain_2d::PathChain2D;
use crate::nodes::spring_chain_2d::SpringChain2D;
use crate::nodes::two_bone_ik_2d::TwoBoneIk2D;
use crate::runtime::frame::BoneDriver;

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
    /// each in turn ([FabrikChain2D], [CcdChain2D], [TwoBoneIk2D], [LookAt2D], [FabrikRig2D], [PathChain2D],
    /// [SpringChain2D], [CopyTransform2D]: any mode, any
    /// [member FabrikChain2D.enabled]), with the same result, only faster for many nodes: the next nodes' bones
    /// are fetched into the cache while one solves. Keep the array the same from frame to frame (nodes in the same
    /// places): what each place touched last time is what gets fetched. Returns how many nodes wrote their bones.
    /// An element that is not one of these nodes (or was freed) is skipped with one error, printed again only
    /// after a call without one.
    #[func]
    pub fn solve_all(nodes: VarArray) -> i64 {
        let outer = phases::enter(Phase::Batch);
        let written = PLACES.with(|places| {
            let Ok(mut places) = places.try_borrow_mut() else { return 0 };
            let mut refused = None;
            for (index, element) in nodes.iter_shared().enumerate() {
                // The same node in the same place as last time (ids are never reused): its typed handle is reused,
                // without asking the engine for its class again.
                let object = element.try_to::<Gd<Object>>().ok();
                let id = object.as_ref().map(Gd::instance_id_unchecked);
                if !places.keep_or_replace(index, id, || object.and_then(member_of)) {
                    refused = refused.or(Some(index));
                }
            }
            // Each node's solve counts its own heap allocations; the conversions and bindings are godot-rust's.
            let written = tree_watch::in_pass(|| places.run_pipelined(nodes.len(), Run::Solve, |_| true, |_| true));
            report_refused(refused);
            written as i64
        });
        phases::enter(outer);
        written
    }
}

thread_local! {
    /// What `solve_all` keeps from call to call, per place in the array: the node there last time (typed), its id
    /// and what it touched.
    static PLACES: RefCell<Members> = RefCell::default();
    /// A refused element was reported and no call without one came since.
    static REPORTED: Cell<bool> = const { Cell::new(false) };
}

fn report_refused(refused: Option<usize>) {
    match refused {
        Some(index) if !REPORTED.get() => {
            REPORTED.set(true);
            godot_error!(
                "Reach2D.solve_all(): element {index} is not a FabrikChain2D, CcdChain2D, TwoBoneIk2D, LookAt2D, \
                 FabrikRig2D, PathChain2D, SpringChain2D or CopyTransform2D (or was freed); skipped. Reported once \
                 until a call without such an element."
            );
        }
        Some(_) => {}
        None => REPORTED.set(false),
    }
}

/// The batch member for `object` when it is one of the node classes `solve_all` takes, else `None`.
fn member_of(object: Gd<Object>) -> Option<Box<dyn Member>> {
    fn node<T: BoneDriver + Inherits<Node> + Inherits<Object>>(
        object: Gd<Object>,
    ) -> Result<Box<dyn Member>, Gd<Object>> {
        object.try_cast::<T>().map(|node| Box::new(node) as Box<dyn Member>)
    }
    node::<FabrikChain2D>(object)
        .or_else(node::<CcdChain2D>)
        .or_else(node::<TwoBoneIk2D>)
        .or_else(node::<LookAt2D>)
        .or_else(node::<FabrikRig2D>)
        .or_else(node::<PathChain2D>)
        .or_else(node::<CopyTransform2D>)
        .or_else(|object| object.try_cast::<SpringChain2D>().map(|node| Box::new(SpringSolve(node)) as Box<dyn Member>))
        .ok()
}

/// A spring in `solve_all`: its own `solve()` steps one physics tick (the generic one would step by nothing).
struct SpringSolve(Gd<SpringChain2D>);

impl Member for SpringSolve {
    fn node(&self) -> Gd<Node> {
        self.0.node()
    }
    fn can_process(&self) -> bool {
        self.0.can_process()
    }
    fn is_alive(&self) -> bool {
        self.0.is_alive()
    }
    fn run(&mut self, run: Run, memo: &mut Memo) -> bool {
        match run {
            Run::Solve => run_node(&mut self.0, memo, SpringChain2D::solve),
            run => self.0.run(run, memo),
        }
    }
}
