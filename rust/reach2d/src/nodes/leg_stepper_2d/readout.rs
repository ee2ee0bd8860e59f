//! What a script reads back from `LegStepper2D` (a secondary `#[godot_api]` block of the class): each foot's goal,
//! home and phase, how many feet are stepping, the catch-ups and teleports so far, the body's raise and tilt.

use godot::prelude::*;
use reach2d_core::Vec2;
use reach2d_core::stepper::StepFoot;

use super::LegStepper2D;
use crate::engine::convert::vector2;

#[godot_api(secondary)]
impl LegStepper2D {
    /// The point the leg at [param index] reached for last, global px; [code]Vector2.ZERO[/code] for an index
    /// outside [member legs] (with an error).
    #[func]
    pub fn get_foot_goal(&self, index: i64) -> Vector2 {
        self.foot(index).map_or(Vector2::ZERO, |(foot, _)| vector2(foot.goal()))
    }

    /// The home of the leg at [param index] on the last frame, global px.
    #[func]
    pub fn get_home(&self, index: i64) -> Vector2 {
        self.foot(index).map_or(Vector2::ZERO, |(_, home)| vector2(home))
    }

    /// [code]true[/code] while the foot of the leg at [param index] is planted (its goal does not move).
    #[func]
    pub fn is_foot_planted(&self, index: i64) -> bool {
        self.foot(index).is_some_and(|(foot, _)| foot.planted_at().is_some())
    }

    /// [code]true[/code] while the foot of the leg at [param index] is stepping (lifted, on its arc).
    #[func]
    pub fn is_foot_stepping(&self, index: i64) -> bool {
        self.foot(index).is_some_and(|(foot, _)| foot.is_swinging())
    }

    /// How many feet are stepping now.
    #[func]
    pub fn get_feet_in_air(&self) -> i64 {
        self.state.feet.iter().filter(|f| f.is_swinging()).count() as i64
    }

    /// How many feet lifted by the catch-up rule (left more than [member max_lag] behind while another group was in
    /// the air) since the legs were set.
    #[func]
    pub fn get_catch_up_count(&self) -> i64 {
        self.state.gait.catch_ups() as i64
    }

    /// How many teleports (jumps beyond [member teleport_distance]) re-planted the feet since the node was made.
    #[func]
    pub fn get_teleport_count(&self) -> i64 {
        self.state.teleports as i64
    }

    /// How far the body is raised now, global px along up (negative: lowered).
    #[func]
    pub fn get_body_raise(&self) -> f32 {
        self.state.body_position.amount
    }

    /// How far the body is tilted now, radians in the global frame (clockwise on screen is positive).
    #[func]
    pub fn get_body_tilt(&self) -> f32 {
        self.state.body_rotation.amount
    }
}

impl LegStepper2D {
    /// The foot and home of the leg at `index`, or one error.
    fn foot(&self, index: i64) -> Option<(&StepFoot, Vec2)> {
        let i = usize::try_from(index).ok().filter(|&i| i < self.state.feet.len());
        if i.is_none() {
            godot_error!("LegStepper2D: leg index {index} is outside the {} legs stepped", self.state.feet.len());
        }
        i.map(|i| (&self.state.feet[i], self.state.homes[i]))
    }
}
