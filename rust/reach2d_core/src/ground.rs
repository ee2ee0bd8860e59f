//! Feet on uneven ground: where a foot that an animation placed on a flat ground line goes when the real ground
//! differs, how far it turns to the ground's slope, and how much the hips drop so the lower foot still reaches.
//!
//! All of it is plane geometry on global vectors (`up`, the ground's normal, offsets), with no handedness anywhere:
//! a reflected input gives exactly the reflected output. The caller casts the ray ([`FootRay`]) in its world. Where
//! the result goes back into the scene (the hips' offset in their parent's space, [`offset_in_parent`]; the foot
//! bone's local rotation, [`foot_rotation`]) it goes through the nodes' matrices, so a mirrored character needs no
//! sign rule there either. [`max_step`] and [`up_from_gravity`] turn the engine's numbers (a speed and a frame's
//! time, the world's gravity) into what the rest takes. A foot with a toe casts a second ray under it: `sole.rs`
//! ([`GroundSettings::place_foot`]) turns it to the slope between its two contacts and keeps it above both.

mod sole;
mod stance;

#[cfg(test)]
mod fixtures;

pub use sole::{FootPlacement, SoleHits, foot_end};
pub use stance::{
    FootRay, GroundHit, GroundSettings, foot_rotation, hips_drop, max_step, offset_in_parent, reach_drop, rotate,
    step_offset, step_value, up_from_gravity,
};
