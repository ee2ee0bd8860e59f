//! `FootGrounder2D`'s run-time state and the steps of its frame (`nodes/foot_grounder_2d.rs` runs them in order):
//! the world's up and the ray query ([`GrounderState::cast`]), each foot's smoothed correction and turn ([`Foot`]),
//! the hips' offset (`body_offset.rs`'s [`PositionOffset`]) and which legs it drives (`legs.rs`'s [`LegMarks`]). The geometry is
//! `reach2d_core::ground`'s; what the grounder wrote is told from what others wrote by `io/written.rs`'s rule.

use glam::{Affine2, Mat2};
use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::ground::{GroundHit, GroundSettings, foot_rotation, reach_drop, step_offset, step_value};
use reach2d_core::{SpringCollider, Vec2};

use crate::body_offset::PositionOffset;
use crate::io::convert::affine;
use crate::io::written::Overwritten;
use crate::legs::LegMarks;
use crate::problem::{Problem, Problems};
use crate::slot::{in_tree, live};
use crate::world_queries::{Filter, WorldQueries, world_up};

/// Everything `FootGrounder2D` keeps between frames.
#[derive(Default)]
pub struct GrounderState {
    pub feet: [Foot; 2],
    pub hips: PositionOffset,
    pub marks: LegMarks,
    pub problems: Problems,
    /// The grounder wrote the hips or a foot, or drives the legs, since it last put everything back.
    pub active: bool,
    queries: Option<WorldQueries>,
    /// Unit vector against gravity, read from the world once.
    up: Option<Vec2>,
}

/// One leg's animated limb this frame (`TwoBoneIk2D::animated_limb`), without the hips' offset: the root joint, the
/// end effector and the tip bone's global transform, global px.
#[derive(Clone, Copy)]
pub struct AnimatedLimb {
    pub root: Vec2,
    pub end: Vec2,
    pub tip: Affine2,
}

/// What a leg's ray found this frame, before the hips move.
#[derive(Clone, Copy)]
pub struct LegReading {
    pub limb: AnimatedLimb,
    /// The goal minus the animated end effector, global px (zero without ground).
    pub offset: Vec2,
    /// How far the hips must come down for this leg to reach its ground with its animated extension, px.
    pub drop: f32,
    /// The ground's slope turn for the foot, radians (0 without ground).
    pub tilt: f32,
    pub grounded: bool,
}

impl GrounderState {
    /// The up direction of `node`'s physics space (read once: the space's gravity), or `None` without a world.
    pub fn up(&mut self, node: &Gd<Node2D>) -> Option<Vec2> {
        world_up(node, &mut self.up)
    }

    /// Casts `limb`'s foot ray in `node`'s world (the query objects are made once): the ground's goal, the slope and
    /// the hips' drop it needs. `None` without a world.
    pub fn cast(
        &mut self,
        node: &Gd<Node2D>,
        filter: Filter,
        settings: &GroundSettings,
        limb: AnimatedLimb,
    ) -> Option<LegReading> {
        let ray = settings.ray(limb.end);
        let mut space = self.queries.get_or_insert_with(WorldQueries::new).in_space_of(node, filter)?;
        let hit = space
            .sweep(ray.from, ray.to - ray.from, 0.0)
            .and_then(|(point, normal)| Some(GroundHit { point, normal: normal.try_normalize()? }));
        let offset = hit.map_or(Vec2::ZERO, |hit| settings.planted(limb.end, hit) - limb.end);
        let tilt = hit.map_or(0.0, |hit| settings.tilt(hit));
        let drop = reach_drop(limb.root, limb.end, limb.end + offset, settings.up);
        Some(LegReading { limb, offset, drop, tilt, grounded: hit.is_some() })
    }

    /// Takes back everything the grounder wrote (the hips' offset, the feet's turn) and forgets its smoothing.
    pub fn let_go(&mut self, hips: &Option<Gd<Node2D>>, feet: [&Option<Gd<Bone2D>>; 2]) {
        if let Some(hips) = live(hips) {
            self.hips.restore(&mut hips.clone());
        }
        self.hips = PositionOffset::default();
        for (foot, bone) in self.feet.iter_mut().zip(feet) {
            if let Some(bone) = live(bone) {
                foot.restore(&mut bone.clone());
            }
            *foot = Foot::default();
        }
    }
}

/// One foot's memory between frames.
#[derive(Default)]
pub struct Foot {
    /// The smoothed correction: the leg's goal minus the animated end effector, global px (`None`: not yet).
    offset: Option<Vec2>,
    /// The smoothed turn to the slope, radians.
    pub tilt: f32,
    /// The goal the leg got last, global px.
    pub goal: Vec2,
    /// The last ray hit the ground.
    pub grounded: bool,
    /// The foot bone's rotation: the animation's and the grounder's last write.
    rotation: Overwritten<f32>,
}

impl Foot {
    /// This frame's goal for the leg from `reading`, each of the correction and the tilt moving at most
    /// `offset_step` px and `tilt_step` radians from the last frame's.
    pub fn plan(&mut self, reading: &LegReading, offset_step: f32, tilt_step: f32) -> Vec2 {
        let offset = self.offset.map_or(reading.offset, |last| step_offset(last, reading.offset, offset_step));
        self.offset = Some(offset);
        self.goal = reading.limb.end + offset;
        self.grounded = reading.grounded;
        self.tilt = step_value(self.tilt, reading.tilt, tilt_step);
        self.goal
    }

    /// Turns the foot bone (a direct child of the leg's tip bone `tip_bone`) to keep its animated angle to the world,
    /// turned by the smoothed tilt. `animated_tip` is the tip bone's global transform in the animated pose.
    pub fn turn(
        &mut self,
        bone: &Gd<Bone2D>,
        tip_bone: Option<&Gd<Bone2D>>,
        animated_tip: Affine2,
        slot: u8,
    ) -> Result<(), Problem> {
        if !in_tree(bone) {
            return Err(Problem::FootFreed(slot));
        }
        let tip_bone = tip_bone.filter(|tip| tip.is_instance_valid()).ok_or(Problem::FootNotChildOfTip(slot))?;
        if bone.get_parent().is_none_or(|p| p.instance_id() != tip_bone.instance_id()) {
            return Err(Problem::FootNotChildOfTip(slot));
        }
        let current = bone.get_rotation();
        let animated = self.rotation.observe(current);
        // The bone's local basis without its rotation (scale and skew): local = rotate(rotation) * basis.
        let basis = Mat2::from_angle(-current) * affine(bone.get_transform()).matrix2;
        let tip_now = affine(tip_bone.get_global_transform()).matrix2;
        // A collapsed tip (the leg reported it): the foot keeps its rotation.
        if let Some(rotation) = foot_rotation(animated_tip, animated, basis, self.tilt, tip_now) {
            bone.clone().set_rotation(rotation);
            self.rotation.wrote(rotation);
        }
        Ok(())
    }

    /// Puts the foot's animated rotation back if the bone still holds the grounder's.
    fn restore(&mut self, bone: &mut Gd<Bone2D>) {
        if let Some(animated) = self.rotation.release(bone.get_rotation()) {
            bone.set_rotation(animated);
        }
    }
}
