//! `CopyTransform2D`'s engine callbacks: the batch's entry points, its own notifications (what it wrote is put back
//! around an editor save and when it leaves the tree), its gizmo, its configuration warning and the inspector's angle
//! limits.

use godot::classes::INode2D;
use godot::classes::notify::CanvasItemNotification;
use godot::prelude::*;
use godot::register::info::PropertyInfo;

use crate::batch;
use crate::runtime::frame::{self, RUNTIME_PROCESS_PRIORITY, Tick};
use crate::runtime::node_limits;

use super::CopyTransform2D;
use super::gizmo;

#[godot_api]
impl INode2D for CopyTransform2D {
    fn ready(&mut self) {
        batch::ready(self, RUNTIME_PROCESS_PRIORITY);
    }
    fn process(&mut self, delta: f64) {
        frame::tick(self, Tick::Process, delta);
    }
    fn physics_process(&mut self, delta: f64) {
        frame::tick(self, Tick::Physics, delta);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        match what {
            // Saving stores the user's own values; the preview's come back right after.
            CanvasItemNotification::EDITOR_PRE_SAVE => self.copy.take_back(),
            CanvasItemNotification::EDITOR_POST_SAVE => self.copy.reapply(),
            CanvasItemNotification::EXIT_TREE => self.copy.start_over(),
            _ => {}
        }
        batch::notification(self, what);
    }
    fn draw(&mut self) {
        let source = self.source.as_ref();
        gizmo::draw_link(&mut self.to_gd().upcast(), source, self.copy.bone());
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        frame::configuration_warnings(self)
    }
    fn on_get_property_list(&mut self) -> Vec<PropertyInfo> {
        node_limits::property_list(self)
    }
    fn on_get(&self, property: StringName) -> Option<Variant> {
        node_limits::get_property(self, &property)
    }
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        node_limits::set_property(self, &property, &value)
    }
    fn on_property_get_revert(&self, property: StringName) -> Option<Variant> {
        node_limits::property_revert(&property)
    }
}
