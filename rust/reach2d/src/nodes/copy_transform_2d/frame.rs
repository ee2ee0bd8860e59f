//! `CopyTransform2D`'s frame: the setup check, the copy's settings from the properties, and the steps of a copy
//! (check → read the source → read the bone → copy → write; the engine side is `state.rs`).

use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::copy_transform::{Amounts, CopyError, CopySettings, Remap, copy_transform};

use crate::engine::convert::vec2;
use crate::io::chain::Shape;
use crate::nodes::copy_transform_2d::choices::{SourceValue, Space};
use crate::nodes::copy_transform_2d::state::Channels;
use crate::problem::Problem;
use crate::runtime::frame::{BoneDriver, Solved};
use crate::runtime::setup::{self, Slots};

use super::CopyTransform2D;

impl BoneDriver for CopyTransform2D {
    fn check_setup(&mut self) -> Result<(), Problem> {
        self.check().map(drop)
    }

    /// Puts back what it wrote and forgets the source rotation's whole turns: the next copy starts from the bone's
    /// own values and reads the rotation within half a turn of zero, as a new node's does (after a teleport, or to
    /// start a remapped rotation over).
    fn reset_own(&mut self) {
        self.copy.start_over();
    }

    /// Check → read the source → read the bone → copy → write.
    fn solve_frame(&mut self, _delta: f64) -> Result<Solved, Problem> {
        let source = self.check()?;
        let settings = self.settings();
        let channels = self.channels();
        let reading = self.copy.read_source(&source, self.space, channels.rotation)?;
        let bone = self.copy.read_bone(self.state.bones.chain.parent(), self.space, channels)?;
        let copied = copy_transform(&settings, &reading, &bone).map_err(problem)?;
        self.copy.write(&copied, channels);
        Ok(Solved { error: copied.error, iterations: 1 })
    }
}

impl CopyTransform2D {
    /// The source, then the bone, checked without reading a transform: the live source. Whether the source hangs
    /// below the bone is structural (checked with the setup, only when it is not verified) and refused in the global
    /// space only, so it is kept as a fact the space is judged by every frame.
    fn check(&mut self) -> Result<Gd<Node2D>, Problem> {
        let slots =
            Slots { target: Some(&self.source), pole: None, root: &self.bone, tip: &self.bone, shape: Shape::Chain };
        let under_bone = &mut self.copy.source_under_bone;
        let source = setup::check_follower(&mut self.state.bones, slots, |source, bones| {
            let bone = &bones.chain.bones()[0];
            if source.instance_id_unchecked() == bone.instance_id_unchecked() {
                return Err(Problem::SourceIsBone);
            }
            *under_bone = bone.is_ancestor_of(source);
            Ok(())
        })
        .map_err(source_problem)?;
        self.copy.hold(&self.state.bones.chain.bones()[0]);
        match self.space {
            Space::Global if self.copy.source_under_bone => Err(Problem::SourceUnderBone),
            Space::Rest if self.copy.source_bone(&source).is_none() => Err(Problem::SourceHasNoRest),
            _ => Ok(source),
        }
    }

    /// The channels written: those with an amount above 0.
    fn channels(&self) -> Channels {
        Channels {
            rotation: self.rotation_amount > 0.0,
            position: self.position_amount > 0.0,
            scale: self.scale_amount > 0.0,
        }
    }

    /// The copy's settings, from the properties as stored (validated by their setters).
    fn settings(&self) -> CopySettings {
        // A remap of the source's value `from`, held between `min` and `max` when its `clamp` is on.
        let remap = |from: SourceValue, factor: f32, clamp: bool, min: f32, max: f32| Remap {
            from: from.core(),
            factor,
            range: clamp.then_some((min, max)),
        };
        let (pmin, pmax, smin, smax) = (self.position_min, self.position_max, self.scale_min, self.scale_max);
        CopySettings {
            space: self.space.core(),
            rotation: remap(
                self.rotation_from,
                self.rotation_factor,
                self.rotation_clamp,
                self.rotation_min,
                self.rotation_max,
            ),
            position: [
                remap(self.x_from, self.x_factor, self.position_clamp, pmin.x, pmax.x),
                remap(self.y_from, self.y_factor, self.position_clamp, pmin.y, pmax.y),
            ],
            scale: [
                remap(self.scale_x_from, self.scale_x_factor, self.scale_clamp, smin.x, smax.x),
                remap(self.scale_y_from, self.scale_y_factor, self.scale_clamp, smin.y, smax.y),
            ],
            rotation_offset: self.rotation_offset,
            position_offset: vec2(self.position_offset),
            scale_offset: vec2(self.scale_offset),
            amounts: Amounts {
                rotation: self.rotation_amount,
                position: self.position_amount,
                scale: self.scale_amount,
            },
            weight: self.weight * self.state.character.weight(),
            limit: self.state.limits.active().first().copied().flatten(),
        }
    }

    /// A channel's amount changed: one that went to 0 gets its unwritten value back.
    pub(super) fn release_unused(&mut self) {
        let channels = self.channels();
        self.copy.release_unused(channels);
    }
}

/// The setup check's problems in the copy's words: its target is the source, its one bone the bone.
fn source_problem(problem: Problem) -> Problem {
    match problem {
        Problem::NoTarget => Problem::NoSource,
        Problem::TargetFreed => Problem::SourceFreed,
        Problem::TargetOutsideTree => Problem::SourceOutsideTree,
        Problem::NoRootBone | Problem::NoTipBone => Problem::NoBone,
        other => other,
    }
}

/// The problem a refused copy reports.
fn problem(error: CopyError) -> Problem {
    match error {
        CopyError::SourceCollapsed => Problem::SourceZeroScale,
        CopyError::RestCollapsed => Problem::RestZeroScale,
        CopyError::ParentCollapsed | CopyError::BoneCollapsed => Problem::ZeroScale,
        CopyError::ScaleCollapses => Problem::CopyScaleZero,
        CopyError::NotFinite => Problem::PoseNotFinite,
    }
}
