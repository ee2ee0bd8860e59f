//! `LookAt2D`: one bone turned toward a target.

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, INode2D, Node2D};
use godot::prelude::*;
use reach2d_core::{Vec2, signed_angle, solve_look_at};

use crate::frame::{self, IkNode, RUNTIME_PROCESS_PRIORITY, Solved, Tick};
use crate::io::bones::{self, Motion, Start, TipEnd};
use crate::limits::AngleLimits;
use crate::problem::Problem;
use crate::{checked, gizmo, setup};

crate::nodes::declare::node_class! {
    /// Turns one [Bone2D] so that it points at [member target]: a head, an eye, a turret.
    ///
    /// The direction that faces the target is [code]Vector2.from_angle(bone.get_bone_angle() + angle_offset)[/code] in
    /// the bone's own space: with [member angle_offset] 0 the bone itself points at the target; a head bone drawn
    /// pointing up (toward the crown) faces a target to its side with an offset of 90 degrees. Only its local
    /// [member Node2D.rotation] is written, exactly under any mirroring. An angle limit set with
    /// [method set_angle_limits] (index 0) keeps the rotation in range; [member last_error] is then the angle still
    /// left between the bone and the target.
    pub struct LookAt2D {
        target: "The node the bone points at.",
        bones: single {
            /// The bone to turn.
            bone
        }
        settings {
            /// Which direction of the bone faces the target, in radians from the bone's own direction
            /// ([method Bone2D.get_bone_angle]) in its own space, counter-clockwise in the bone's frame (clockwise
            /// on screen, as rotations are). 0 = the bone points at the target; for a head bone that points from
            /// the neck to the crown, +/-90 degrees turns the face (the bone's side) toward the target. Between
            /// -180 and 180 degrees; a value outside (or NaN) is an error and is ignored. Under mirroring it stays
            /// the same direction of the bone, so the mirrored character looks at the mirrored target the same way.
            #[export(range = (-180.0, 180.0, 0.1, radians_as_degrees))]
            #[var(set = set_angle_offset)]
            angle_offset: f32,
        }
        setters {
            /// Sets [member angle_offset]: a value outside [-PI, PI] (or NaN) prints an error and keeps the current
            /// one.
            #[func]
            fn set_angle_offset(&mut self, value: f32) {
                let half_turn = core::f32::consts::PI;
                checked::set_float(&mut self.angle_offset, "LookAt2D", "angle_offset", value, -half_turn, half_turn);
            }
        }
        last_error: "The angle in radians between the bone's direction and the target after the last solve, \
            [member weight] and limits included; [code]-1.0[/code] before the first solve.",
        last_iterations: "Always 1 after a solve.",
    }
}

#[godot_api]
impl INode2D for LookAt2D {
    fn ready(&mut self) {
        crate::batch::ready(self, RUNTIME_PROCESS_PRIORITY);
    }
    fn process(&mut self, delta: f64) {
        frame::tick(self, Tick::Process, delta);
    }
    fn physics_process(&mut self, delta: f64) {
        frame::tick(self, Tick::Physics, delta);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        crate::batch::notification(self, what);
    }
    fn draw(&mut self) {
        let target = self.target.as_ref();
        gizmo::draw(&mut self.to_gd().upcast(), &self.state.bones, target, None, self.limits.active());
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        frame::configuration_warnings(self)
    }
    fn on_get_property_list(&mut self) -> Vec<godot::register::info::PropertyInfo> {
        self.limits.property_list(self.state.bones.chain.len())
    }
    fn on_get(&self, property: StringName) -> Option<Variant> {
        frame::counted(|| self.limits.get_property(&property))
    }
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        frame::counted(|| self.limits.set_property(&property, &value))
    }
    fn on_property_get_revert(&self, property: StringName) -> Option<Variant> {
        AngleLimits::property_revert(&property)
    }
}

impl IkNode for LookAt2D {
    fn check_setup(&mut self) -> Result<(), Problem> {
        self.check().map(drop)
    }

    fn solve_frame(&mut self, delta: f64) -> Result<Solved, Problem> {
        let goal = self.check()?;
        let motion = Motion::new(self.solve_from_rest, self.max_angular_speed, delta);
        let bones = &mut self.state.bones;
        let limits = bones::chain_limits(bones, self.limits.active());
        bones::read(bones, TipEnd::Direction(self.angle_offset), Start::new(motion.from_rest, self.weight))?;
        let origin = bones.pose.place_joints(|_, joints| look_at(joints, goal))?;
        let effector = bones::write(bones, self.weight, limits, motion.max_step)?;
        let to_target = goal - origin;
        let error =
            if to_target.length_squared() > 0.0 { signed_angle(effector - origin, to_target).abs() } else { 0.0 };
        Ok(Solved { error, iterations: 1 })
    }
}

impl LookAt2D {
    /// The target, then the bone, checked without touching it: the target's global position.
    fn check(&mut self) -> Result<Vec2, Problem> {
        let goal = setup::target_position(self.target.as_ref())?;
        setup::ensure_bone(&mut self.state.bones, self.bone.as_ref())?;
        Ok(goal)
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
