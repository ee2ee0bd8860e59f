//! A spring chain stepped and collided each frame, remembering what it wrote (as the node does).

use glam::Vec2;

use super::worlds::Boxes;
use crate::angle::ChainLimits;
use crate::spring::{SpringBone, SpringFrame, SpringGoal, SpringSettings, step_spring};
use crate::spring_contact::*;

pub(super) struct Sim {
    pub(super) frame: SpringFrame,
    pub(super) bones: Vec<SpringBone>,
    pub(super) out: Vec<Vec2>,
    pub(super) previous: Vec<Vec2>,
    pub(super) primed: bool,
}

impl Sim {
    pub(super) fn new(n: usize) -> Self {
        let joints = vec![Vec2::ZERO; n + 1];
        Self {
            frame: SpringFrame::default(),
            bones: vec![SpringBone::default(); n],
            out: joints.clone(),
            previous: joints,
            primed: false,
        }
    }
    pub(super) fn step(
        &mut self,
        joints: &[Vec2],
        settings: &SpringSettings,
        delta: f32,
        radius: f32,
        world: &mut Boxes,
    ) -> u32 {
        let goal = SpringGoal { joints, limits: ChainLimits::NONE, scales: &[] };
        step_spring(&mut self.frame, &mut self.bones, &goal, settings, delta, &mut self.out).expect("valid");
        let radii = vec![radius; self.bones.len()];
        let previous = self.primed.then_some(&self.previous[..]);
        let contacts = collide_spring(
            &self.frame,
            &mut self.bones,
            &goal,
            settings,
            SpringEnds { radii: &radii, previous },
            &mut self.out,
            world,
        );
        self.previous.copy_from_slice(&self.out);
        self.primed = true;
        contacts
    }
}

/// A chain from `root` along the absolute `angle`, straight.
pub(super) fn straight(root: Vec2, lengths: &[f32], angle: f32) -> Vec<Vec2> {
    let mut out = vec![root];
    for l in lengths {
        out.push(*out.last().unwrap() + Vec2::from_angle(angle) * *l);
    }
    out
}
