//! `LegStepper2D`'s body: the offset it carries, and its raise and tilt on the planted feet within the legs' reach
//! ([`StepperState::lean_body`]), written through `body_offset.rs`.

use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::Vec2;
use reach2d_core::ground::step_value;
use reach2d_core::stepper::{BodyFit, BodyLean, LegReach, fit_body, local_turn, raise_within_reach};

use super::StepperState;
use crate::engine::convert::{affine, vec2};
use crate::engine::slot::{Slot, in_tree, live, slot};
use crate::nodes::legs::body_offset::{PositionOffset, RotationOffset};
use crate::problem::Problem;

impl StepperState {
    /// The global offset `body` carries now (ours while its position is still what we wrote), after checking it
    /// against `stepper` (the body must not carry the stepper). A broken body forgets its offsets.
    pub fn carried_body_offset(&mut self, body: &Option<Gd<Node2D>>, stepper: &Gd<Node2D>) -> Result<Vec2, Problem> {
        match slot(body) {
            Slot::Empty => Ok(Vec2::ZERO),
            Slot::Live(body) if in_tree(body) => {
                if body == stepper || body.is_ancestor_of(stepper) {
                    return Err(Problem::StepperUnderBody);
                }
                self.body_rotation.observe(body);
                Ok(self.body_position.carried(body))
            }
            Slot::Live(_) | Slot::Freed => {
                self.body_position = PositionOffset::default();
                self.body_rotation = RotationOffset::default();
                self.body_plan = BodyLean::default();
                Err(Problem::StepperBodyFreed)
            }
        }
    }

    /// Puts `body`'s own position and rotation back if it still holds ours, and forgets the offsets.
    pub fn release_body(&mut self, body: &Option<Gd<Node2D>>) {
        self.put_body_back(body);
        self.body_position = PositionOffset::default();
        self.body_rotation = RotationOffset::default();
        self.body_plan = BodyLean::default();
    }

    /// Puts `body`'s own position and rotation back if it still holds ours, but keeps the raise and tilt (the stepper
    /// left the tree: if it comes back, a reparent, it goes on from there instead of popping).
    pub fn put_body_back(&mut self, body: &Option<Gd<Node2D>>) {
        if let Some(body) = live(body) {
            let mut body = body.clone();
            self.body_position.restore(&mut body);
            self.body_rotation.restore(&mut body);
        }
    }

    /// Raises and tilts `body` by the planted feet (their mean, or the fitted line), within `limits` and never so
    /// high that a planted foot leaves its leg's reach; with no foot planted it stays as it is. The plan is at
    /// weight 1 and the character's weight scales what is written.
    pub fn lean_body(&mut self, body: &Option<Gd<Node2D>>, up: Vec2, limits: BodyLimits) -> Result<(), Problem> {
        let Some(mut body) = live(body).cloned() else { return Ok(()) };
        let fit = if limits.tilt { BodyFit::Line } else { BodyFit::Mean };
        let pivot = vec2(body.get_global_position());
        let Some(lean) = fit_body(self.planted(), pivot, up, fit) else { return Ok(()) };
        // The hips as they would be unraised: how far each leg lets the body rise or sink.
        let lowered = up * self.body_plan.raise;
        let feet = || {
            self.feet.iter().zip(&self.reach).map(move |(foot, reach)| {
                (foot.goal(), LegReach { hip: reach.hip - lowered, ..*reach }, foot.planted_at().is_some())
            })
        };
        let from = self.body_plan.raise;
        let wanted = raise_within_reach(lean.raise.clamp(-limits.max_offset, limits.max_offset), from, feet(), up);
        let wanted_tilt = lean.tilt.clamp(-limits.max_tilt, limits.max_tilt);
        // The speed limit gives way to the legs' reach: a body held back would pull a foot off its point or fold a
        // leg onto its hip.
        let stepped = step_value(from, wanted, limits.offset_step);
        self.body_plan.raise = raise_within_reach(stepped, from, feet(), up);
        self.body_plan.tilt = step_value(self.body_plan.tilt, wanted_tilt, limits.tilt_step);
        let (raise, tilt) = (self.body_plan.raise * limits.weight, self.body_plan.tilt * limits.weight);
        if !self.body_position.write(&mut body, raise, up * raise) {
            return Err(Problem::StepperBodyCollapsed);
        }
        // The parent's global basis: the body's global basis without its own local one.
        let parent = affine(body.get_global_transform()).matrix2 * affine(body.get_transform()).matrix2.inverse();
        if !self.body_rotation.write(&mut body, tilt, local_turn(parent, tilt)) {
            return Err(Problem::StepperBodyCollapsed);
        }
        Ok(())
    }
}

/// How the body follows the feet: `tilt_body`, the most it is raised (px) and tilted (radians), the most either
/// changes this frame, and the character's weight (0..1), which scales both.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyLimits {
    pub tilt: bool,
    pub weight: f32,
    pub max_offset: f32,
    pub max_tilt: f32,
    pub offset_step: f32,
    pub tilt_step: f32,
}
