//! What the spring's tests share: chains posed from relative angles, their goals, a simulation with its buffers,
//! the mirror and a root's path.

use glam::Vec2;

use crate::angle::ChainLimits;
use crate::spring::{SpringBone, SpringFrame, SpringGoal, SpringReport, SpringSettings, step_spring};

pub(super) const DOWN: Vec2 = Vec2::new(0.0, 980.0);

/// A chain along `angles` (relative), root at `root`, measured from +X.
pub(super) fn pose(root: Vec2, lengths: &[f32], angles: &[f32], out: &mut Vec<Vec2>) {
    out.clear();
    out.push(root);
    let mut angle = 0.0;
    for (l, a) in lengths.iter().zip(angles) {
        angle += a;
        let last = *out.last().unwrap();
        out.push(last + Vec2::from_angle(angle) * *l);
    }
}

pub(super) fn goal(joints: &[Vec2]) -> SpringGoal<'_> {
    SpringGoal { joints, limits: ChainLimits::NONE, scales: &[] }
}

/// Global direction of each segment.
pub(super) fn directions(joints: &[Vec2]) -> Vec<Vec2> {
    joints.windows(2).map(|w| (w[1] - w[0]).normalize()).collect()
}

pub(super) struct Sim {
    pub(super) frame: SpringFrame,
    pub(super) bones: Vec<SpringBone>,
    pub(super) out: Vec<Vec2>,
}

impl Sim {
    pub(super) fn new(n: usize) -> Self {
        Self { frame: SpringFrame::default(), bones: vec![SpringBone::default(); n], out: vec![Vec2::ZERO; n + 1] }
    }
    pub(super) fn step(&mut self, goal: &SpringGoal, settings: &SpringSettings, delta: f32) -> SpringReport {
        step_spring(&mut self.frame, &mut self.bones, goal, settings, delta, &mut self.out).expect("valid")
    }
}

/// Reflection across the vertical line x = 0.
pub(super) fn mirror(v: Vec2) -> Vec2 {
    Vec2::new(-v.x, v.y)
}

pub(super) fn root_path(t: f32) -> Vec2 {
    Vec2::new(120.0 * (2.1 * t).sin(), 40.0 * (3.3 * t).cos()) + Vec2::new(300.0, 0.0)
}
