//! `LookAt2D`: one bone turned toward a target.

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, INode2D, Node2D};
use godot::prelude::*;
use godot::register::info::PropertyInfo;
use reach2d_core::{Vec2, signed_angle, solve_look_at};

use crate::batch;
use crate::io::bones::{self, Motion, Start, TipEnd};
use crate::io::chain::Shape;
use crate::problem::Problem;
use crate::runtime::checked;
use crate::runtime::frame::{self, BoneDriver, NodeState, RUNTIME_PROCESS_PRIORITY, Solved, Tick, UpdateMode};
use crate::runtime::gizmo;
use crate::runtime::node_limits;
use crate::runtime::node_property::NodeSlot;
use crate::runtime::setup::{self, Slots};

/// Turns one [Bone2D] so that it points at [member target]: a head, an eye, a turret.
///
/// The direction that faces the target is [code]Vector2.from_angle(bone.get_bone_angle() + angle_offset)[/code] in
/// the bone's own space: with [member angle_offset] 0 the bone itself points at the target; a head bone drawn
/// pointing up (toward the crown) faces a target to its side with an offset of 90 degrees. Only its local
/// [member Node2D.rotation] is written, exactly under any mirroring. An angle limit set with
/// [method set_angle_limits] (index 0) keeps the rotation in range; [member last_error] is then the angle still
/// left between the bone and the target.
#[reach2d_macros::shared_docs]
#[derive(GodotClass, reach2d_macros::NodeFields)]
#[class(init, tool, base = Node2D)]
pub struct LookAt2D {
    /// The node the bone points at.
    #[export]
    #[init(val = NodeSlot::named("LookAt2D", "target"))]
    target: NodeSlot<Node2D>,
    /// The bone to turn.
    #[export]
    #[init(val = NodeSlot::named("LookAt2D", "bone"))]
    bone: NodeSlot<Bone2D>,
    /// Which direction of the bone faces the target, in radians from the bone's own direction
    /// ([method Bone2D.get_bone_angle]) in its own space, counter-clockwise in the bone's frame (clockwise on screen,
    /// as rotations are). 0 = the bone points at the target; for a head bone that points from the neck to the crown,
    /// +/-90 degrees turns the face (the bone's side) toward the target. Between -180 and 180 degrees; a value
    /// outside (or NaN) is an error and is ignored. Under mirroring it stays the same direction of the bone, so the
    /// mirrored character looks at the mirrored target the same way.
    #[export(range = (-180.0, 180.0, 0.1, radians_as_degrees))]
    #[var(set = set_angle_offset)]
    angle_offset: f32,
    /// @shared enabled
    #[export]
    #[init(val = true)]
    enabled: bool,
    /// @shared weight
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_weight)]
    #[init(val = 1.0)]
    weight: f32,
    /// @shared update_mode
    #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
    update_mode: UpdateMode,
    /// @shared editor_preview
    #[export]
    #[init(val = true)]
    editor_preview: bool,
    /// @shared solve_from_rest
    #[export_group(name = "Motion")]
    #[export]
    solve_from_rest: bool,
    /// @shared max_angular_speed
    #[export(range = (0.0, 1440.0, 1.0, or_greater, radians_as_degrees, suffix = "°/s"))]
    #[var(set = set_max_angular_speed)]
    max_angular_speed: f32,

    /// The angle in radians between the bone's direction and the target after the last solve, [member weight] and
    /// limits included; [code]-1.0[/code] before the first solve.
    #[var(no_set)]
    #[init(val = -1.0)]
    last_error: f32,
    /// Always 1 after a solve.
    #[var(no_set)]
    last_iterations: i32,

    state: NodeState,
    base: Base<Node2D>,
}

#[reach2d_macros::api(update_constants, solve, reset, angle_limits, setup_warning, bone_count)]
#[godot_api]
impl LookAt2D {
    // The checked setters: a bad value prints one error naming the valid range and keeps the last good one.
    #[func]
    fn set_angle_offset(&mut self, value: f32) {
        let (min, max) = (-core::f32::consts::PI, core::f32::consts::PI);
        checked::set_float(&mut self.angle_offset, "LookAt2D", "angle_offset", value, min, max);
    }
    #[func]
    fn set_weight(&mut self, value: f32) {
        checked::set_float(&mut self.weight, "LookAt2D", "weight", value, 0.0, 1.0);
    }
    #[func]
    fn set_max_angular_speed(&mut self, value: f32) {
        checked::set_float(&mut self.max_angular_speed, "LookAt2D", "max_angular_speed", value, 0.0, f32::MAX);
    }
}

#[godot_api]
impl INode2D for LookAt2D {
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
        batch::notification(self, what);
    }
    fn draw(&mut self) {
        let target = self.target.as_ref();
        gizmo::draw(&mut self.to_gd().upcast(), &self.state.bones, target, None, self.state.limits.active());
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

impl BoneDriver for LookAt2D {
    fn check_setup(&mut self) -> Result<(), Problem> {
        self.check().map(drop)
    }

    fn needs_delta(&self) -> bool {
        self.max_angular_speed > 0.0
    }

    fn solve_frame(&mut self, delta: f64) -> Result<Solved, Problem> {
        let goal = self.check()?;
        let motion = Motion::new(self.solve_from_rest, self.max_angular_speed, delta);
        let weight = self.weight * self.state.character.weight();
        let bones = &mut self.state.bones;
        let limits = bones::chain_limits(bones, self.state.limits.active());
        bones::read(bones, TipEnd::Direction(self.angle_offset), Start::new(motion.from_rest, weight))?;
        let origin = bones.pose.place_joints(|_, joints| look_at(joints, goal))?;
        let effector = bones::write(bones, weight, limits, motion.max_step)?;
        let to_target = goal - origin;
        let error =
            if to_target.length_squared() > 0.0 { signed_angle(effector - origin, to_target).abs() } else { 0.0 };
        Ok(Solved { error, iterations: 1 })
    }
}

impl LookAt2D {
    /// The target, then the bone, checked without touching it: the target's global position.
    fn check(&mut self) -> Result<Vec2, Problem> {
        let slots =
            Slots { target: Some(&*self.target), pole: None, root: &self.bone, tip: &self.bone, shape: Shape::Chain };
        // The one `bone` is the chain's root and tip: unset, it is the look-at's own problem.
        let checked = setup::check(&mut self.state.bones, slots);
        Ok(checked.map_err(|p| if p == Problem::NoRootBone { Problem::NoBone } else { p })?.goal)
    }
}

/// How far along the solved direction (px) the facing joint is placed for the write-back.
const LOOK_DISTANCE: f32 = 1024.0;

/// Turns the bone (`joints`: its origin and the end of its facing direction) toward `goal`; returns its origin.
fn look_at(joints: &mut [Vec2], goal: Vec2) -> Result<Vec2, Problem> {
    let origin = joints[0];
    let current = joints[1] - origin;
    let solution = solve_look_at(origin, current, goal, 0.0, None).map_err(Problem::Solver)?;
    // Far along the direction, not one pixel: the write-back reads the direction back from global points, where a
    // unit step rounds to 1e-4 rad at a few hundred pixels from the origin (a mirrored character's rounds otherwise).
    joints[1] = origin + solution.direction * LOOK_DISTANCE;
    Ok(origin)
}
