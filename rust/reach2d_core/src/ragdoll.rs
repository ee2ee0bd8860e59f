//! A 2D ragdoll's geometry (`Ragdoll2D`, issue 40), engine-free: where each bone's body goes (a capsule along the
//! bone, [`place_capsule`]), how fast the animated pose moves from one frame to the next ([`BodyMotion`]), how a
//! child's body sits so its bone's rotation limit is symmetric about the bodies meeting ([`joint_frame`]), the
//! velocity that keeps a joint in its limit ([`limit_velocity`], [`past_limit`]), the active ragdoll's pull toward
//! the animated pose ([`drive_velocity`]), and the bodies' pose turned back into bone rotations ([`bone_rotation`],
//! [`blend_pose`]).
//!
//! Bodies carry no scale: a body is a rigid placement (an origin at the bone's origin and an angle along the bone on
//! screen), so a mirrored character's bodies are the mirror image of the unmirrored one's, and the reflection comes
//! back in only through the bones' matrices on the way back ([`bone_rotation`]) and through the parent's handedness
//! for the joint limits ([`joint_frame`]).

mod capsule;
mod drive;
mod motion;
mod pose;

pub use capsule::{Capsule, capsule_inertia, mass_of, place_capsule};
pub use drive::{DRIVE_RATE, DRIVE_TIME, JointFrame, drive_velocity, joint_frame, limit_velocity, past_limit};
pub use motion::{BodyMotion, BodyPlacement, point_velocity};
pub use pose::{blend_pose, bone_rotation};
