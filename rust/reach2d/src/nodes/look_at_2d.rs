//! `LookAt2D`: one bone turned toward a target.

use godot::classes::{Bone2D, INode2D, Node2D};
use godot::prelude::*;
use reach2d_core::{Vec2, signed_angle, solve_look_at};

use crate::io::bones::{self, Motion, Start, TipEnd};
use crate::io::chain::Shape;
use crate::problem::Problem;
use crate::runtime::frame::{BoneDriver, NodeState, Solved};
use crate::runtime::gizmo;
use crate::runtime::setup::{self, Slots};

/// Turns one [Bone2D] so that it points at [member target]: a head, an eye, a turret.
///
/// The direction that faces the target is [code]Vector2.from_angle(bone.get_bone_angle() + angle_offset)[/code] in
/// the bone's own space: with [member angle_offset] 0 the bone itself points at the target; a head bone drawn
/// pointing up (toward the crown) faces a target to its side with an offset of 90 degrees. Only its local
/// [member Node2D.rotation] is written, exactly under any mirroring. An angle limit set with
/// [method set_angle_limits] (index 0) keeps the rotation in range; [member last_error] is then the angle still
/// left between the bone and the target.
#[reach2d_macros::node(frame)]
#[derive(GodotClass)]
#[class(init, tool, base = Node2D)]
pub struct LookAt2D {
    /// The node the bone points at.
    #[export]
    target: Option<Gd<Node2D>>,
    /// The bone to turn.
    #[export]
    bone: Option<Gd<Bone2D>>,
    /// Which direction of the bone faces the target, in radians from the bone's own direction
    /// ([method Bone2D.get_bone_angle]) in its own space, counter-clockwise in the bone's frame (clockwise on screen,
    /// as rotations are). 0 = the bone points at the target; for a head bone that points from the neck to the crown,
    /// +/-90 degrees turns the face (the bone's side) toward the target. Between -180 and 180 degrees; a value
    /// outside (or NaN) is an error and is ignored. Under mirroring it stays the same direction of the bone, so the
    /// mirrored character looks at the mirrored target the same way.
    #[export(range = (-180.0, 180.0, 0.1, radians_as_degrees))]
    #[checked(-core::f32::consts::PI..=core::f32::consts::PI)]
    angle_offset: f32,
    /// Shared with the other nodes (declared in `reach2d_macros/src/shared_properties.rs`): `enabled`, `weight`,
    /// `update_mode`, `editor_preview`; *Motion*: `solve_from_rest`, `max_angular_speed`.
    #[shared_properties(frame, motion)]
    _shared: (),

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
impl LookAt2D {}

#[reach2d_macros::callbacks]
#[godot_api]
impl INode2D for LookAt2D {
    fn draw(&mut self) {
        let target = self.target.as_ref();
        gizmo::draw(&mut self.to_gd().upcast(), &self.state.bones, target, None, self.state.limits.active());
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
            Slots { target: Some(&self.target), pole: None, root: &self.bone, tip: &self.bone, shape: Shape::Chain };
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
