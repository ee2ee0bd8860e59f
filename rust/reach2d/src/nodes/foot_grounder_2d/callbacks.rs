//! `FootGrounder2D`'s engine callbacks (its `INode2D` block): the run-time process priority, the ticks (through the
//! one frame loop, `runtime/frame.rs`), entering and leaving the tree, saving and the warnings.

use godot::classes::INode2D;
use godot::classes::notify::CanvasItemNotification;
use godot::prelude::*;

use super::FootGrounder2D;
use crate::runtime::frame::{self, RUNTIME_PROCESS_PRIORITY, Tick};

#[godot_api]
impl INode2D for FootGrounder2D {
    fn ready(&mut self) {
        frame::take_runtime_priority(&mut self.base_mut(), RUNTIME_PROCESS_PRIORITY);
        self.mark_legs();
        let problem = self.check_setup().err();
        frame::show(self, problem);
    }
    fn process(&mut self, delta: f64) {
        frame::tick(self, Tick::Process, delta);
    }
    fn physics_process(&mut self, delta: f64) {
        frame::tick(self, Tick::Physics, delta);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        match what {
            // Back in the tree: its legs are its own again before anything processes them this frame.
            CanvasItemNotification::ENTER_TREE => {
                self.state.character.forget();
                self.mark_legs();
            }
            // Whatever it wrote goes back and the legs solve by themselves while it is away; its smoothing stays, so
            // a grounder that comes back (a reparent) goes on where it was instead of popping the hips and feet.
            CanvasItemNotification::EXIT_TREE => {
                self.state.put_back(&self.hips, [&*self.first_foot, &*self.second_foot]);
                self.state.marks.release();
            }
            // Saving stores the user's own pose: an editor bake's `advance` may have written the hips and feet.
            CanvasItemNotification::EDITOR_PRE_SAVE => self.let_go(),
            _ => {}
        }
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.state.problems.warnings("FootGrounder2D")
    }
}
