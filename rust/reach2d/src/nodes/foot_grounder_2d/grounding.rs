//! `FootGrounder2D`'s frame in the one frame loop (`runtime/frame.rs`'s [`Frame`]): the legs marked, each foot's
//! ray, the hips lowered, the legs solved toward their ground and the feet turned to the slope. It never runs by
//! itself in the editor (no preview): there only `advance()` grounds.

use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::Vec2;
use reach2d_core::ground::{GroundSettings, hips_drop, max_step, step_value};

use super::FootGrounder2D;
use crate::engine::convert::vec2;
use crate::engine::slot::{Slot, in_tree, live, slot};
use crate::nodes::chain::drive::DrivenLeg;
use crate::nodes::foot_grounder_2d::state::{AnimatedLimb, LegReading};
use crate::nodes::two_bone_ik_2d::TwoBoneIk2D;
use crate::physics::ground::ground_filter;
use crate::problem::{Problem, Problems};
use crate::runtime::frame::{Frame, Ran, Switches, uncounted};

impl Frame for FootGrounder2D {
    fn switches(&self) -> Switches {
        // No preview: in the editor it grounds only when `advance()` is called.
        Switches { enabled: self.enabled, update_mode: self.update_mode, editor_preview: false }
    }

    fn problems(&mut self) -> &mut Problems {
        &mut self.state.problems
    }

    fn run_frame(&mut self, delta: f64, _preview: bool) -> Ran {
        self.ground(delta)
    }

    /// Its legs are marked on every tick, in the editor and while disabled too, so they know who names them.
    fn each_tick(&mut self) {
        self.mark_legs();
    }
}

impl FootGrounder2D {
    /// One frame: the ground line and the hips → each leg's animated foot and its ray → the hips lowered → each leg
    /// solved toward its goal → each foot turned to the slope. Done when every named leg was solved. Nothing
    /// allocates (the loop's allocation counter wraps it all but godot-rust's `bind_mut`s).
    fn ground(&mut self, delta: f64) -> Ran {
        self.mark_legs();
        self.state.active = true;
        let node = self.to_gd().upcast::<Node2D>();
        if self.state.character.is_stale() {
            self.state.character.refresh(&node.clone().upcast());
        }
        // The character's weight (`CharacterWeight2D`) scales the hips' drop and the feet's turn; the legs apply it
        // themselves.
        let weight = self.state.character.weight();
        let Some(settings) = self.ground_settings(&node) else {
            return Ran { problem: Some(Problem::NoWorld), done: false };
        };
        // A leg another helper holds (it named that leg first): this one leaves both legs alone (issue 36).
        if let Err(problem) = self.check_claims() {
            return Ran { problem: Some(problem), done: false };
        }
        let mut problem = (self.first_leg.is_none() && self.second_leg.is_none()).then_some(Problem::NoLegs);
        let hips = self.live_hips(&mut problem);
        let carried = hips.as_ref().map_or(Vec2::ZERO, |hips| self.state.hips.carried(hips));
        let readings = [0, 1].map(|leg| self.read_leg(leg, &node, &settings, carried, &mut problem));
        if let Some(mut hips) = hips {
            self.lower_hips(&mut hips, &readings, settings.up, weight, delta, &mut problem);
        }
        let all_solved = self.solve_legs(&readings, &settings, weight, delta, &mut problem);
        Ran { problem, done: all_solved && problem.is_none() }
    }

    /// The frame's ground settings (the world's up, the ground line through this node), or `None` without a world.
    fn ground_settings(&mut self, node: &Gd<Node2D>) -> Option<GroundSettings> {
        Some(GroundSettings {
            up: self.state.up(node)?,
            ground_line: vec2(node.get_global_position()),
            foot_height: self.foot_height,
            ray_above: self.ray_above,
            ray_below: self.ray_below,
            max_tilt: self.max_tilt,
        })
    }

    /// The hips, when set and in the tree; a broken slot is a problem and forgets the offset.
    fn live_hips(&mut self, problem: &mut Option<Problem>) -> Option<Gd<Node2D>> {
        match slot(&self.hips) {
            Slot::Live(hips) if in_tree(hips) => Some(hips.clone()),
            Slot::Empty => None,
            Slot::Live(_) | Slot::Freed => {
                *problem = Some(Problem::HipsFreed);
                self.state.hips = Default::default();
                None
            }
        }
    }

    /// Leg `leg`'s animated foot (without the hips' offset `carried`) and its ground; `None` for an empty slot, a
    /// disabled leg or a problem (noted in `problem`; the leg reports its own setup).
    fn read_leg(
        &mut self,
        leg: usize,
        node: &Gd<Node2D>,
        settings: &GroundSettings,
        carried: Vec2,
        problem: &mut Option<Problem>,
    ) -> Option<LegReading> {
        let slot_index = leg as u8;
        let mut leg = match slot(self.leg_slot(leg)) {
            Slot::Empty => return None,
            Slot::Freed => {
                *problem = Some(Problem::LegFreed(slot_index));
                return None;
            }
            Slot::Live(leg) => leg.clone(),
        };
        let animated = uncounted(|| leg.bind_mut()).animated_limb();
        let (root, end, mut tip) = match animated {
            Ok(Some(limb)) => limb,
            Ok(None) => return None,
            Err(()) => {
                *problem = Some(Problem::LegNotReady(slot_index));
                return None;
            }
        };
        tip.translation -= carried;
        let limb = AnimatedLimb { root: root - carried, end: end - carried, tip };
        let foot = live([&*self.first_foot, &*self.second_foot][slot_index as usize]).filter(|_| self.toe_ray);
        let bound = uncounted(|| leg.bind());
        let toe =
            foot.and_then(|bone| self.state.feet[slot_index as usize].animated_toe(bone, bound.resolved_tip(), tip));
        drop(bound);
        let filter = ground_filter(self.collision_mask, self.collide_with_bodies, self.collide_with_areas);
        self.state.cast(node, filter, settings, limb, toe)
    }

    /// Lowers the hips as far as the leg that needs it most (at most `max_hips_drop`, moving at most `hips_speed`),
    /// times the character's `weight`.
    fn lower_hips(
        &mut self,
        hips: &mut Gd<Node2D>,
        readings: &[Option<LegReading>; 2],
        up: Vec2,
        weight: f32,
        delta: f64,
        problem: &mut Option<Problem>,
    ) {
        let wanted = hips_drop(readings.iter().flatten().map(|r| r.drop), self.max_hips_drop) * weight;
        let drop = step_value(self.state.hips.amount, wanted, max_step(self.hips_speed, delta));
        if !self.state.hips.write(hips, drop, -up * drop) {
            *problem = Some(Problem::HipsCollapsed);
        }
    }

    /// Solves each read leg toward its planned goal, then turns its foot. Returns `false` when a leg did not solve
    /// (it reports why itself).
    fn solve_legs(
        &mut self,
        readings: &[Option<LegReading>; 2],
        settings: &GroundSettings,
        weight: f32,
        delta: f64,
        problem: &mut Option<Problem>,
    ) -> bool {
        let (offset_step, tilt_step) = (max_step(self.foot_speed, delta), max_step(self.tilt_speed, delta));
        let mut all_solved = true;
        for (leg, reading) in readings.iter().enumerate() {
            let (Some(reading), Some(leg_node)) = (reading, live(self.leg_slot(leg)).cloned()) else { continue };
            let reading = LegReading { tilt: reading.tilt * weight, ..*reading };
            let goal = self.state.feet[leg].plan(&reading, settings, offset_step, tilt_step);
            let mut leg_node = leg_node;
            let mut bound = uncounted(|| leg_node.bind_mut());
            if !bound.solve_toward(goal, delta) {
                all_solved = false;
                continue;
            }
            let foot = [&*self.first_foot, &*self.second_foot][leg];
            let turned = match slot(foot) {
                Slot::Empty => Ok(()),
                Slot::Freed => Err(Problem::FootFreed(leg as u8)),
                Slot::Live(bone) => self.state.feet[leg].turn(bone, bound.resolved_tip(), reading.limb.tip, leg as u8),
            };
            if let Err(p) = turned {
                *problem = Some(p);
            }
        }
        all_solved
    }

    fn leg_slot(&self, leg: usize) -> &Option<Gd<TwoBoneIk2D>> {
        if leg == 0 { &self.first_leg } else { &self.second_leg }
    }
}
