//! What the three chain classes (`FabrikChain2D`, `CcdChain2D`, `TwoBoneIk2D`) share, written once: the setup
//! check of a chain that a leg helper may name, the iterative solve (check → read → solve → write), the reading of
//! the pose it did not write (what the leg helpers read), and its gizmo. Each class writes out its own properties
//! and callbacks and hands its fields over as a [`Chain`]; `drive` is what a leg helper asks of such a chain.

pub mod drive;

use glam::Affine2;
use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::{Aim, ChainSolver, TipDirection, Vec2};

use crate::debug::phases::{self, Phase};
use crate::io::bones::{self, Motion, Start, TipEnd};
use crate::io::chain::Shape;
use crate::problem::Problem;
use crate::runtime::frame::{NodeState, Solved};
use crate::runtime::gizmo;
use crate::runtime::setup::{self, Setup, Slots};
use drive::Drive;

/// A chain class's fields, borrowed for one call: what it names and what it keeps.
pub struct Chain<'a> {
    pub target: &'a Option<Gd<Node2D>>,
    pub pole: &'a Option<Gd<Node2D>>,
    pub root: &'a Option<Gd<Bone2D>>,
    pub tip: &'a Option<Gd<Bone2D>>,
    pub shape: Shape,
    pub drive: &'a Drive,
    pub state: &'a mut NodeState,
}

impl Chain<'_> {
    /// The target (or the goal a leg helper set), the pole and the bones, checked in that order without touching a
    /// bone. `None`: a helper's leg with no goal now (and no target, or driven), which keeps its pose. A chain no
    /// helper names is checked as any node is (`setup::check`).
    pub fn check(&mut self) -> Result<Option<Setup>, Problem> {
        let slots = Slots {
            target: Some(self.target),
            pole: Some(self.pole),
            root: self.root,
            tip: self.tip,
            shape: self.shape,
        };
        if self.drive.attached() {
            self.drive.check(&mut self.state.bones, slots)
        } else {
            setup::check(&mut self.state.bones, slots).map(Some)
        }
    }

    /// Checks the bones only (no target, no pole): what a leg helper needs before it reads them.
    pub fn check_bones(&mut self) -> Result<(), Problem> {
        let slots = Slots { target: None, pole: None, root: self.root, tip: self.tip, shape: self.shape };
        setup::check(&mut self.state.bones, slots).map(drop)
    }

    /// The editor's gizmo: the bones, the target, the pole and the limits.
    pub fn draw(&self, node: &mut Gd<Node2D>) {
        let (target, pole) = (self.target.as_ref(), self.pole.as_ref());
        gizmo::draw(node, &self.state.bones, target, pole, self.state.limits.active());
    }

    /// check → read → solve with `solver` → write, at `weight` (the node's times the character's), moving each
    /// rotation at most as `motion` allows, the tip turned as `tip` asks.
    pub fn solve(
        mut self,
        solver: &impl ChainSolver,
        motion: Motion,
        weight: f32,
        tip: Option<TipDirection>,
    ) -> Result<Solved, Problem> {
        let Some(Setup { goal, pole, .. }) = self.check()? else {
            // A helper's leg with no goal now (and no target, or driven) keeps its pose.
            return Ok(Solved { error: 0.0, iterations: 0 });
        };
        let bones = &mut self.state.bones;
        let limits = bones::chain_limits(bones, self.state.limits.active());
        phases::enter(Phase::Read);
        bones::read(bones, TipEnd::BoneLength, Start::new(motion.from_rest, weight))?;
        phases::enter(Phase::Solve);
        let report = bones.pose.solve(solver, Aim { goal, pole, tip }, limits).map_err(Problem::Solver)?;
        phases::enter(Phase::Rotations);
        let effector = bones::write(bones, weight, limits, motion.max_step)?;
        Ok(Solved { error: effector.distance(goal), iterations: report.iterations as i32 })
    }

    /// What a leg helper reads of an iterative chain: its bones read as a solve at `start` reads them, posed with
    /// each bone's last rotation the node did not write (`drive::unwritten_limb`).
    pub fn read_unwritten(mut self, start: Start) -> Result<(Vec2, Vec2, Affine2), Problem> {
        self.check_bones()?;
        bones::read(&mut self.state.bones, TipEnd::BoneLength, start)?;
        drive::unwritten_limb(&self.state.bones)
    }
}
