//! `LegStepper2D`'s frame in the one frame loop (`runtime/frame.rs`'s [`Frame`]): the legs marked and resolved, the
//! walk, the body leaned, the legs solved; then the step's signals, outside the allocation count.

use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::ground::max_step;
use reach2d_core::stepper::{StepEvent, StepSettings};

use super::LegStepper2D;
use crate::engine::convert::{affine, vector2};
use crate::nodes::leg_stepper_2d::state::body::BodyLimits;
use crate::nodes::leg_stepper_2d::state::{GroundSettings, Motion, usable};
use crate::physics::ground::{GroundRays, ground_filter};
use crate::problem::{Problem, Problems};
use crate::runtime::frame::{Frame, Ran, Switches, uncounted};

impl Frame for LegStepper2D {
    fn switches(&self) -> Switches {
        Switches { enabled: self.enabled, update_mode: self.update_mode, editor_preview: self.editor_preview }
    }

    fn problems(&mut self) -> &mut Problems {
        &mut self.state.problems
    }

    /// One frame; `preview`: the editor's (the feet under their homes, no steps, the body left alone). Done when
    /// every leg was solved.
    fn run_frame(&mut self, delta: f64, preview: bool) -> Ran {
        let problem = self.walk_frame(delta, preview).err();
        if preview {
            self.base_mut().queue_redraw();
        }
        Ran { problem, done: problem.is_none_or(Problem::is_advisory) }
    }

    /// Signals call scripts back: after the frame, outside the allocation count (godot-rust builds each emission's
    /// argument list on the heap).
    fn after_frame(&mut self) {
        self.emit_events();
    }
}

impl LegStepper2D {
    /// The legs marked and resolved → this node's transform and up → the homes → the motion since the last frame →
    /// the walk (rays through `leg_stepper_2d/state.rs`) → the body leaned → each leg solved toward its foot's goal.
    fn walk_frame(&mut self, delta: f64, preview: bool) -> Result<(), Problem> {
        self.state.active = true;
        self.mark_legs();
        if !self.state.resolved {
            uncounted(|| self.state.resolve(&self.legs, &self.gait_groups))?;
            self.mark_legs();
            self.find_misplaced();
        }
        self.check_claims()?;
        let node = self.to_gd().upcast::<Node2D>();
        if self.state.character.is_stale() {
            self.state.character.refresh(&node.clone().upcast());
        }
        let to_global = affine(node.get_global_transform());
        if !usable(to_global) {
            return Err(Problem::StepperNotFinite);
        }
        let up = self.state.up(&node, to_global, self.stick_to_walls)?;
        let carried = self.state.carried_body_offset(&self.body, &node)?;
        // The preview follows the rig as it is edited: the homes read every frame, the feet standing under them.
        self.state.place_homes(to_global, up, &self.home_points, carried, preview)?;
        let motion = self.state.motion(to_global, delta, self.teleport_distance);
        let motion = if preview { Motion { replant: true, teleport: false, ..motion } } else { motion };
        let rays = GroundRays { above: self.ray_above, below: self.ray_below, foot_height: self.foot_height };
        let ground = GroundSettings { up, rays, min_cos: self.max_slope.cos() };
        let settings = StepSettings {
            step_distance: self.step_distance,
            step_height: self.step_height,
            step_duration: self.step_duration,
            lead: self.lead,
            max_lag: self.max_lag,
        };
        let filter = ground_filter(self.collision_mask, self.collide_with_bodies, self.collide_with_areas);
        self.state.walk(&node, filter, ground, &settings, motion, delta)?;
        if !preview {
            let limits = BodyLimits {
                tilt: self.tilt_body,
                weight: self.state.character.weight(),
                max_offset: self.max_body_offset,
                max_tilt: self.max_body_tilt,
                offset_step: max_step(self.body_speed, delta),
                tilt_step: max_step(self.body_tilt_speed, delta),
            };
            self.state.lean_body(&self.body, up, limits)?;
        }
        self.state.solve_legs(delta)?;
        // A home with no room to step: a warning, once; the legs walked all the same.
        self.state.no_room.map_or(Ok(()), Err)
    }

    /// Emits the last frame's events as signals, each once (through the names made once: one allocation per
    /// event, godot-rust's argument list for the call). Not avoidable through godot-rust 0.5: `emit_signal` is a
    /// varcall, which collects the argument pointers into a `Vec` (`out_class_varcall` in godot-core's
    /// `meta/signature.rs`), and `Signal::emit` calls `emit_signal`; so the emission stays outside the count.
    fn emit_events(&mut self) {
        for k in 0..self.state.events.len() {
            let signals = &self.state.signals;
            let (name, leg, at) = match self.state.events[k] {
                StepEvent::Lifted(i) => (signals.lifted.clone(), (i as i64).to_variant(), None),
                StepEvent::Planted(i, at) => (signals.planted.clone(), (i as i64).to_variant(), Some(vector2(at))),
            };
            match at {
                Some(at) => self.base_mut().emit_signal(&name, &[leg, at.to_variant()]),
                None => self.base_mut().emit_signal(&name, &[leg]),
            };
        }
        self.state.events.clear();
    }
}
