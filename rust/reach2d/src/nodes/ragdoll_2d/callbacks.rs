//! `Ragdoll2D`'s engine callbacks, all in one block: priorities, the physics tick and the process frame, the tree
//! notifications that free the bodies, the editor's drawing, the angle limits as inspector properties, and the
//! configuration warning.

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{INode2D, Node2D};
use godot::prelude::*;
use godot::register::info::PropertyInfo;

use super::Ragdoll2D;
use super::gizmo;
use crate::engine::editor::in_editor;
use crate::runtime::limits::AngleLimits;

/// The process and physics priority a ragdoll takes at run time when left at 0: after animation players and
/// scripts at the default priority, like the IK nodes.
const PRIORITY: i32 = 100;

#[godot_api]
impl INode2D for Ragdoll2D {
    fn ready(&mut self) {
        if !in_editor() {
            let mut base = self.base_mut();
            if base.get_process_priority() == 0 {
                base.set_process_priority(PRIORITY);
            }
            if base.get_physics_process_priority() == 0 {
                base.set_physics_process_priority(PRIORITY);
            }
        }
        let _ = self.check_setup();
    }

    fn physics_process(&mut self, delta: f64) {
        // Counted (debug and bench builds): a frame must not allocate.
        crate::runtime::frame::counted(|| self.physics_tick(delta));
    }

    fn process(&mut self, _delta: f64) {
        if in_editor() {
            self.base_mut().queue_redraw();
        } else {
            crate::runtime::frame::counted(|| self.process_frame());
        }
    }

    fn on_notification(&mut self, what: CanvasItemNotification) {
        match what {
            // Bodies live in the world's space: leaving the tree (freed, reparented, the scene changed) frees them
            // and puts the animated pose back; they are built again at the next tick in the tree.
            CanvasItemNotification::EXIT_TREE | CanvasItemNotification::PREDELETE => self.tear_down(),
            CanvasItemNotification::ENTER_TREE => self.character.forget(),
            _ => {}
        }
    }

    fn draw(&mut self) {
        if in_editor() {
            let mut node = self.to_gd().upcast::<Node2D>();
            gizmo::draw(&mut node, &self.state.rig, self.bone_width, &self.bone_widths, &self.limits);
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        let mut warnings = PackedStringArray::new();
        if let Some(problem) = self.state.problem() {
            warnings.push(problem.message());
        }
        warnings
    }

    fn on_get_property_list(&mut self) -> Vec<PropertyInfo> {
        self.limits.property_list(self.state.rig.bones.len())
    }

    fn on_get(&self, property: StringName) -> Option<Variant> {
        self.limits.get_property(&property)
    }

    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        let taken = self.limits.set_property(&property, &value);
        if taken {
            self.base_mut().queue_redraw();
        }
        taken
    }

    fn on_property_get_revert(&self, property: StringName) -> Option<Variant> {
        AngleLimits::property_revert(&property)
    }
}
