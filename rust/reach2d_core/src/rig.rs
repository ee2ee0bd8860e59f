//! Multi-effector FABRIK over a tree of bones: [`FabrikRig`].
//!
//! Aristidou and Lasenby's sub-base method ("FABRIK: a fast, iterative solver for the inverse kinematics problem",
//! 2011, section 4.2), generalized from point joints to rigid bones. A bone carries *points*: the origins of its
//! child bones, or (a tip bone) its end effector. The backward pass runs from the tips toward the root; a bone with
//! one carried point is placed exactly as in FABRIK (on the line from the point's backward position to the bone's
//! old origin, at the point's distance), a bone with several (the sub-base) is the best rigid fit of its shape to
//! where its branches want their points, weighted by the effectors' weights below each, with a faint pull toward its
//! old origin. When the branches start from one point (the paper's case) that fit is the paper's weighted centroid
//! of the branch results; when they start from different points on one bone (two shoulders on a chest), the chest
//! also turns to fit them. The forward pass runs from the root outward: each bone keeps its origin (where its parent
//! put it), turns about it to fit its carried points (one point: FABRIK's forward step), is clamped into its angle
//! limit relative to its parent's axis, and places its carried points rigidly.
//!
//! Every step is plane geometry without a preferred side (sums of dot and cross products, rotations as unit complex
//! numbers), so a mirrored input gives the mirrored output; bone shapes only turn, so lengths (and the angles between
//! a bone's children) are exact to `f32` rounding. Warm-started from the pose it reads and deterministic, the
//! iteration settles on one compromise when not every target can be reached, instead of flipping between them.
//!
//! [`FabrikRig::new`] allocates every buffer a solve needs, once per rig shape; [`FabrikRig::solve`] and the
//! engine-side helpers ([`FabrikRig::pose_points`], [`FabrikRig::segment_limits`], [`FabrikRig::write_back`])
//! allocate nothing and never panic.

mod engine;
mod solve;
#[cfg(test)]
mod tests;
mod tree;

pub use engine::RigPose;
pub use solve::RigEffector;
pub use tree::FabrikRig;
