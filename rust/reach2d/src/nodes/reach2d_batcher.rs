//! `Reach2DBatcher`: the hidden node that runs the automatic batch (`batch/`) once per process and physics frame.

use godot::classes::node::ProcessMode;
use godot::classes::notify::NodeNotification;
use godot::classes::{INode, Node};
use godot::prelude::*;

use crate::batch;
use crate::runtime::frame::{RUNTIME_PROCESS_PRIORITY, Tick};

/// The hidden node that runs the automatic batch: an internal child of the tree's root at the IK nodes' run-time
/// priority, processing always (each member still obeys pause and its own `process_mode`). Made and added by the
/// first node that joins the batch.
#[derive(GodotClass)]
#[class(base = Node, internal)]
pub struct Reach2DBatcher {
    base: Base<Node>,
}

#[godot_api]
impl INode for Reach2DBatcher {
    fn init(base: Base<Node>) -> Self {
        Self { base }
    }

    fn ready(&mut self) {
        let mut base = self.base_mut();
        base.set_name("Reach2DBatcher");
        base.set_process_priority(RUNTIME_PROCESS_PRIORITY);
        base.set_physics_process_priority(RUNTIME_PROCESS_PRIORITY);
        base.set_process_mode(ProcessMode::ALWAYS);
        drop(base);
        batch::set_live(true);
    }

    fn process(&mut self, delta: f64) {
        batch::run(Tick::Process, delta);
    }

    fn physics_process(&mut self, delta: f64) {
        batch::run(Tick::Physics, delta);
    }

    fn on_notification(&mut self, what: NodeNotification) {
        if what == NodeNotification::EXIT_TREE {
            batch::set_live(false);
        }
    }
}
