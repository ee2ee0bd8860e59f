//! `FootGrounder2D`'s run-time state and the steps of its frame (`nodes/foot_grounder_2d.rs` runs them in order):
//! the world's up and the ray query ([`GrounderState::cast`], through `physics/ground.rs`), each foot's smoothed correction and turn ([`Foot`]),
//! the hips' offset (`body_offset.rs`'s [`PositionOffset`]) and which legs it drives (`legs.rs`'s [`LegMarks`]). The
//! geometry is
//! `reach2d_core::ground`'s; what the grounder wrote is told from what others wrote by `io/written.rs`'s rule.

use glam::{Affine2, Mat2};
use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::Vec2;
use reach2d_core::ground::{GroundSettings, SoleHits, foot_end, foot_rotation, reach_drop, step_offset, step_value};

use crate::engine::convert::affine;
use crate::engine::slot::{Slot, in_tree, live, slot};
use crate::io::written::Overwritten;
use crate::nodes::legs::LegMarks;
use crate::nodes::legs::body_offset::PositionOffset;
use crate::nodes::two_bone_ik_2d::TwoBoneIk2D;
use crate::physics::ground::GroundQueries;
use crate::physics::queries::Filter;
use crate::problem::{Problem, Problems};
use crate::runtime::character_link::CharacterLink;
use crate::runtime::frame::BoneDriver;

/// Everything `FootGrounder2D` keeps between frames.
#[derive(Default)]
pub struct GrounderState {
    pub feet: [Foot; 2],
    pub hips: PositionOffset,
    pub marks: LegMarks,
    pub problems: Problems,
    /// The character's weight (`CharacterWeight2D`).
    pub character: CharacterLink,
    /// The grounder wrote the hips or a foot, or drives the legs, since it last put everything back.
    pub active: bool,
    /// The rays' query objects and the world's up (`physics/ground.rs`).
    ground: GroundQueries,
}

/// One leg's animated limb this frame (`TwoBoneIk2D::animated_limb`), without the hips' offset: the root joint, the
/// end effector and the tip bone's global transform, global px.
#[derive(Clone, Copy)]
pub struct AnimatedLimb {
    pub root: Vec2,
    pub end: Vec2,
    pub tip: Affine2,
}

/// What a leg's rays found this frame, before the hips move.
#[derive(Clone, Copy)]
pub struct LegReading {
    pub limb: AnimatedLimb,
    /// The animated toe (the foot bone's end) when the toe casts its ray, global px.
    pub toe: Option<Vec2>,
    /// The ground under the heel and the toe.
    pub hits: SoleHits,
    /// How far the hips must come down for this leg to reach its ground with its animated extension, px.
    pub drop: f32,
    /// The ground's slope turn for the foot, radians (0 without ground).
    pub tilt: f32,
    pub grounded: bool,
}

impl GrounderState {
    /// The up direction of `node`'s physics space (read once: the space's gravity), or `None` without a world.
    pub fn up(&mut self, node: &Gd<Node2D>) -> Option<Vec2> {
        self.ground.world_up(node)
    }

    /// Casts `limb`'s foot rays in `node`'s world (the query objects are made once): under the ankle, and under
    /// `toe` (the animated foot bone's end) when given; then the foot's goal, its turn to the slope and the hips'
    /// drop it needs (`reach2d_core::ground`'s `place_foot`). `None` without a world.
    pub fn cast(
        &mut self,
        node: &Gd<Node2D>,
        filter: Filter,
        settings: &GroundSettings,
        limb: AnimatedLimb,
        toe: Option<Vec2>,
    ) -> Option<LegReading> {
        let mut world = self.ground.ground_of(node, filter)?;
        let mut ground_under = |point: Vec2| {
            let ray = settings.ray(point);
            world.hit(ray.from, ray.to - ray.from)
        };
        let hits = SoleHits { heel: ground_under(limb.end), toe: toe.and_then(&mut ground_under) };
        let placed = settings.place_foot(limb.end, toe, hits);
        let drop = reach_drop(limb.root, limb.end, placed.goal, settings.up);
        Some(LegReading { limb, toe, hits, drop, tilt: placed.tilt, grounded: placed.grounded })
    }

    /// Takes back everything the grounder wrote (the hips' offset, the feet's turn) and forgets its smoothing.
    pub fn let_go(&mut self, hips: &Option<Gd<Node2D>>, feet: [&Option<Gd<Bone2D>>; 2]) {
        self.put_back(hips, feet);
        self.hips = PositionOffset::default();
        self.feet = Default::default();
    }

    /// Takes back what the grounder wrote (the hips' offset, the feet's turn) but keeps its smoothing (the hips'
    /// drop, each foot's correction and turn): the grounder left the tree, and if it comes back (a reparent, a
    /// scene switch that keeps the character) its next frame goes on from there instead of popping.
    pub fn put_back(&mut self, hips: &Option<Gd<Node2D>>, feet: [&Option<Gd<Bone2D>>; 2]) {
        if let Some(hips) = live(hips) {
            self.hips.restore(&mut hips.clone());
        }
        for (foot, bone) in self.feet.iter_mut().zip(feet) {
            if let Some(bone) = live(bone) {
                foot.restore(&mut bone.clone());
            }
        }
    }
}

/// `FootGrounder2D`'s setup as it stands, without touching a bone: `legs` set, alive and able to solve (their
/// bones), each of `feet` alive and a direct child of its leg's tip bone, `hips` alive. Not per frame: on entering
/// the tree and when asked (`get_setup_warning`), so a node in manual mode that never ran says what is wrong too.
pub fn check_setup(
    legs: [&Option<Gd<TwoBoneIk2D>>; 2],
    feet: [&Option<Gd<Bone2D>>; 2],
    hips: &Option<Gd<Node2D>>,
) -> Result<(), Problem> {
    if legs.iter().all(|leg| leg.is_none()) {
        return Err(Problem::NoLegs);
    }
    for (leg, (leg_slot, foot)) in legs.into_iter().zip(feet).enumerate() {
        let index = leg as u8;
        let mut leg_node = match slot(leg_slot) {
            Slot::Empty => continue,
            Slot::Freed => return Err(Problem::LegFreed(index)),
            Slot::Live(leg_node) => leg_node.clone(),
        };
        let mut bound = leg_node.bind_mut();
        bound.check_setup().map_err(|_| Problem::LegNotReady(index))?;
        match slot(foot) {
            Slot::Empty => {}
            Slot::Freed => return Err(Problem::FootFreed(index)),
            Slot::Live(bone) => {
                let tip = bound.resolved_tip().map(|tip| tip.instance_id());
                if bone.get_parent().map(|parent| parent.instance_id()) != tip {
                    return Err(Problem::FootNotChildOfTip(index));
                }
            }
        }
    }
    if matches!(slot(hips), Slot::Freed) {
        return Err(Problem::HipsFreed);
    }
    Ok(())
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
    /// This frame's goal for the leg from `reading`, each of the tilt and the correction moving at most
    /// `tilt_step` radians and `offset_step` px from the last frame's; the correction is the one for the tilt the
    /// foot gets this frame, so a toe is kept out of the ground for the turn it really has.
    pub fn plan(&mut self, reading: &LegReading, settings: &GroundSettings, offset_step: f32, tilt_step: f32) -> Vec2 {
        self.tilt = step_value(self.tilt, reading.tilt, tilt_step);
        let end = reading.limb.end;
        let wanted = settings.foot_goal(end, reading.toe, reading.hits, self.tilt) - end;
        let offset = self.offset.map_or(wanted, |last| step_offset(last, wanted, offset_step));
        self.offset = Some(offset);
        self.goal = end + offset;
        self.grounded = reading.grounded;
        self.goal
    }

    /// The foot bone's end (its toe) in the animated pose, global px, for the toe's ray: `bone` must be in the tree
    /// and a direct child of the leg's tip bone `tip_bone` (else `None`: one ray, and [`Foot::turn`] reports it).
    /// `animated_tip` is the tip bone's global transform in the animated pose.
    pub fn animated_toe(
        &mut self,
        bone: &Gd<Bone2D>,
        tip_bone: Option<&Gd<Bone2D>>,
        animated_tip: Affine2,
    ) -> Option<Vec2> {
        let tip_bone = tip_bone.filter(|tip| tip.is_instance_valid())?;
        if !in_tree(bone) || bone.get_parent().is_none_or(|p| p.instance_id() != tip_bone.instance_id()) {
            return None;
        }
        let current = bone.get_rotation();
        let animated = self.rotation.observe(current);
        let local = affine(bone.get_transform());
        let basis = Mat2::from_angle(-current) * local.matrix2;
        let end = Vec2::from_angle(bone.get_bone_angle()) * bone.get_length();
        let toe = foot_end(animated_tip, local.translation, animated, basis, end);
        toe.is_finite().then_some(toe)
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
