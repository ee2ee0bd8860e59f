//! Secondary motion: a chain whose bones follow a goal pose (the animated or IK pose) through damped rotational
//! springs, for hair, tails, capes and antennae that lag, overshoot and settle.
//!
//! # Model
//!
//! Each bone is a point mass at the end of a rigid segment, pinned at its origin, simulated as its angle
//! **relative to its parent segment** (the root bone: relative to the root frame's direction, the x axis of the
//! root bone's parent). Per bone, with `x` the deviation of that relative angle from the goal pose's and `ω` its
//! relative angular velocity (radians, rad/s):
//!
//! ```text
//! dω/dt = −k·x − c·ω + (u × (g + f − a_pivot)) / L − α_parent
//! ```
//!
//! `k` is the stiffness (1/s²), `c` the damping (1/s), `u` the bone's unit direction, `L` its length, `g` and `f`
//! gravity and the external force (px/s²). `a_pivot` (the acceleration of the bone's origin) and `α_parent` (the
//! angular acceleration of its parent segment) are those of the **goal** pose, the animated or IK-driven body:
//! a body that moves or turns leaves each bone behind, which is the lag, and a bone hanging under gravity
//! settles where `k·x = (u × g) / L`. Driving each bone by the goal's motion rather than by its simulated
//! parent's keeps every bone a damped oscillator of its own: without input `Σ ½ω² + ½k·x²` never grows (a
//! cascade driven by simulated parents, which do not feel their children, pumps energy toward the tip and
//! whips a short tip around). The chain still bends as one, because each angle is relative to the simulated
//! parent.
//!
//! The goal's motion between two steps is taken as linear (each pivot's position, each parent's direction), so
//! its change of velocity acts as an impulse at the start of a step. Each step runs `ceil(delta /
//! SPRING_SUBSTEP)` equal substeps (at most 1/240 s) of semi-implicit Euler with the spring and damper implicit,
//! so it stays stable for any stiffness and damping; the goal angles are interpolated across the substeps.
//! Results therefore agree across frame rates up to the sampling of the goal's motion.
//!
//! # Where the handedness enters
//!
//! Everything here is measured in the global frame: angles with [`signed_angle`](crate::signed_angle) between
//! global segments, torques as 2D cross products. Reflecting the whole input (goal joints, root direction, gravity, limits)
//! reflects every angle and every cross product together, so the output is exactly the mirror image: a mirrored
//! character's chain moves as the mirror image of the unmirrored one with no sign rule anywhere in this module.
//! The handedness of the bones' own frames enters only at the two edges, both through matrices: when the
//! caller turns limits on local rotations into segment limits
//! ([`ChainPose::segment_limits`](crate::write_back::ChainPose::segment_limits)) and when it writes the output
//! joints back as local rotations ([`ChainPose::write_back`](crate::write_back::ChainPose::write_back)). A
//! character that flips between two steps (a `scale.x` sign change above the chain) is a reflection of the state
//! itself: [`carry_spring`] reflects it with the character, so the chain does not whip across.

mod settings;
mod state;
mod step;
#[cfg(test)]
mod tests;

pub use settings::{ANGLE_STEP_TIME, RIGID_LENGTH, SpringError, SpringGoal, SpringScale, SpringSettings};
pub use state::{SpringBone, SpringFrame, carry_spring, mirror_spring, reset_spring, spring_energy};
pub use step::{MAX_SPRING_DELTA, SPRING_SUBSTEP, SpringReport, step_spring};
