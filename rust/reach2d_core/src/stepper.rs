//! Legs that walk by themselves: the step planner behind `LegStepper2D`. Each foot stays planted until its home
//! (where it rests under the moving body) has drifted more than a step away, then lifts along an arc to a point
//! ahead on the ground; the feet are in gait groups that step together, and the groups take turns so the body is
//! never left unsupported.
//!
//! # The parts
//!
//! - [`StepSettings`] and [`StepFrame`] (`settings.rs`): how a creature steps, and one frame's input (the homes,
//!   the world's up, the body's velocity, the frame's time).
//! - [`swing_point`] and [`landing_aim`] (`arc.rs`): the arc a swinging foot follows, and where a foot lifting
//!   now aims to land (its home moved on by the body's velocity, plus the lead).
//! - [`StepFoot`] and [`FootPhase`] (`foot.rs`): one foot's phase (planted, swinging, hanging) and goal;
//!   [`drift`], how far a home is from its planted foot across `up`.
//! - [`Gait`] (`gait.rs`): which group lifts next, and the catch-up rule.
//! - [`LegReach`] (`reach.rs`): how far each leg reaches from its hip: a planted foot lifts before its leg would
//!   stretch past its reach, a foot lands where its leg reaches it, and a home with no room to step is found.
//! - [`walk`], [`replant`], [`carry`], [`reground`] (`walk.rs`): one frame of walking; a teleport's re-planting; a
//!   turn's reflection of every foot.
//! - [`fit_body`] and [`local_turn`] (`body.rs`): how high and how tilted the body rides on the planted feet.
//!
//! # Ground and events
//!
//! The planner knows no physics: the caller answers `ground(home, aim)` with the point a foot whose home is `home`
//! plants at when it aims at `aim` (the caller's ray along `-up`, its wall check and its foot height), or `None`
//! where there is no ground. A foot lifting, and a foot landing, are told once each through `events`.
//!
//! # Exact under mirroring
//!
//! Every rule is plane geometry on global vectors: dot products, lengths, linear blends, and comparisons of
//! lengths. Reflecting every input (homes, `up`, velocity, and the ground the caller answers with) reflects every
//! goal and decision, so a mirrored creature on mirrored ground walks as the mirror image. A reflection across a
//! line through the origin along `up` (x → -x) is exact to the bit (negation rounds the same); the tests check it.

mod arc;
mod body;
mod foot;
mod gait;
mod reach;
mod settings;
#[cfg(test)]
mod tests;
mod walk;

pub use arc::{LEAD_REACH, landing_aim, swing_point};
pub use body::{BodyFit, BodyLean, fit_body, local_turn, raise_within_reach};
pub use foot::{FootPhase, StepFoot, drift};
pub use gait::{Gait, MAX_GROUPS, STEP_TOGETHER};
pub use reach::{FOLD_REACH, LAND_REACH, LIFT_REACH, LegReach, MIN_ROOM};
pub use settings::{StepFrame, StepSettings};
pub use walk::{StepEvent, carry, reground, replant, walk};
