//! `LegStepper2D`'s engine callbacks (its `INode2D` block): the run-time process priority, the ticks (through the one
//! frame loop, `runtime/frame.rs`), entering and leaving the tree, saving, the gizmo and the warnings.

use godot::classes::INode2D;
use godot::classes::notify::CanvasItemNotification;
use godot::prelude::*;
use reach2d_core::Vec2;

use super::LegStepper2D;
use crate::engine::editor::in_editor;
use crate::runtime::frame::{self, RUNTIME_PROCESS_PRIORITY, Tick};
use crate::runtime::gizmo::{self, StepGizmo};

#[godot_api]
impl INode2D for LegStepper2D {
    fn ready(&mut self) {
        frame::take_runtime_priority(&mut self.base_mut(), RUNTIME_PROCESS_PRIORITY);
        self.resolve_legs();
    }
    fn process(&mut self, delta: f64) {
        frame::tick(self, Tick::Process, delta);
    }
    fn physics_process(&mut self, delta: f64) {
        frame::tick(self, Tick::Physics, delta);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        match what {
            // Back in the tree: its legs are driven again before anything processes them this frame.
            CanvasItemNotification::ENTER_TREE => {
                self.state.character.forget();
                self.mark_named_legs();
                self.find_misplaced();
            }
            // At run time the body gets its own pose back and the legs solve by themselves while it is away; the feet
            // and the body's raise and tilt stay, so a stepper that comes back (a reparent) walks on where it was.
            CanvasItemNotification::EXIT_TREE => {
                if in_editor() {
                    self.let_go();
                } else {
                    self.state.put_body_back(&self.body);
                }
                self.state.marks.release();
            }
            // A scene saved after advance() ran in the editor (a bake) stores the body's own pose; the legs put their
            // own authored pose back themselves.
            CanvasItemNotification::EDITOR_PRE_SAVE => self.state.release_body(&self.body),
            _ => {}
        }
    }
    fn draw(&mut self) {
        let up = self.state.ground.known_up().unwrap_or(Vec2::NEG_Y);
        let (homes, feet) = (&self.state.homes, &self.state.feet);
        let gizmo = StepGizmo { homes, feet, up, step_distance: self.step_distance, step_height: self.step_height };
        gizmo::draw_steps(&mut self.to_gd().upcast(), &gizmo);
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.state.problems.warnings("LegStepper2D")
    }
}
