//! Exact, allocation-free 2D inverse kinematics on flat, caller-owned arrays.
//!
//! ```
//! use reach2d_core::{solve_fabrik, ChainLimits, FabrikSettings, Vec2};
//!
//! // Three bones of length 10 lying along +X: 4 joints (3 bone origins + the tip).
//! let mut joints = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(20.0, 0.0), Vec2::new(30.0, 0.0)];
//! let lengths = [10.0, 10.0, 10.0];
//! let target = Vec2::new(12.0, 15.0);
//!
//! let report = solve_fabrik(&mut joints, &lengths, target, &ChainLimits::NONE, &FabrikSettings::default())?;
//! assert!(report.reached);
//! assert!(joints[3].distance(target) <= 0.5);
//! assert_eq!(joints[0], Vec2::ZERO); // the root never moves
//! # Ok::<(), reach2d_core::SolveError>(())
//! ```
//!
//! # Data layout
//!
//! A chain of `N` bones is its `N + 1` joint positions (`&mut [Vec2]`: the bone origins, then
//! the tip) and, for FABRIK, its `N` bone lengths (`&[f32]`). The solvers read and write those
//! slices in place and never allocate on the heap (`tests/no_alloc.rs` proves it with a
//! counting global allocator). Units are the caller's (pixels in Godot); angles are radians,
//! counter-clockwise positive (with Godot's y-down screen axes that shows as clockwise).
//!
//! # Solvers
//!
//! * [`solve_fabrik`]: FABRIK (forward and backward reaching), any `N`, exact bone lengths,
//!   optional [`ChainLimits`] that hold exactly in the output.
//! * [`solve_ccd`]: cyclic coordinate descent, tip-to-root sweeps, `O(N)` per sweep, optional
//!   damping ([`CcdSettings::max_angle_step`]) and limits.
//! * [`solve_two_bone`]: closed-form two-bone solve (law of cosines).
//! * [`solve_look_at`]: one bone pointing at a target, with an optional limit.
//! * [`side_of`], [`pre_bend_toward_pole`]: pole targets (the two-bone bend side, a chain's start pose).
//! * [`fit_chain`]: a chain laid along a path ([`PathPolyline`]), lengths exact ([`path_fit`]).
//! * [`ChainSolver`]: a trait over the two iterative solvers' settings.
//! * [`copy_transform`]: a bone that follows another node (rotation, position, scale in the global, local or
//!   rest space, each remappable from another of the source's properties).
//!
//! # Bad input
//!
//! No solver panics. Every input is validated before anything is written: a NaN or infinite
//! coordinate, a negative or non-finite length, a mismatched slice length or a bad setting
//! leaves the buffers unchanged and returns a [`SolveError`] that says what to fix. Finite
//! coordinates must stay within [`MAX_COORDINATE`] so that squared distances cannot overflow.
//! Degenerate but valid input (zero-length bones, coincident joints, a target exactly at the
//! root or at the tip) gets a deterministic answer without NaN.
//!
//! # Limits and the refinement
//!
//! With [`ChainLimits`], FABRIK passes (clamped) and CCD sweeps run while each one at least
//! halves the distance; then a limit-aware refinement takes the rest of the budget: damped
//! least squares (Levenberg–Marquardt) on the bones' relative angles, `O(N)` per iteration
//! because the task space is 2D (the normal matrix is 2x2). Each limited angle is clamped into
//! its arc, bones pushed against a bound are frozen (active set), the chain is re-posed root to
//! tip with exact lengths, and a step is written only if it brings the tip closer, so the
//! refinement never increases the distance. When it stalls in a local minimum (limits can
//! leave several in the reachable set), it restarts from seeded poses inside the limits in a
//! stack buffer (chains of up to 64 bones) and keeps the closest result. Without limits (and
//! when damped), CCD stays plain CCD until its sweeps stall or half the budget (at least 8
//! sweeps) is spent, then hands over to the same refinement. No heap allocation anywhere.
//!
//! # Convergence (measured)
//!
//! Iterations used on 10,000 seeded random chains (N uniform in 1..=64, lengths uniform in
//! 0..100 with 10% zeros, random poses, reachable targets taken as the tip of another random
//! pose of the same chain), tolerance 0.5, `max_iterations = 64`, no limits:
//!
//! | solver | cases | reached | mean iterations | median | p99 | max |
//! |---|---|---|---|---|---|---|
//! | FABRIK | 10000 | 100.00% | 1.31 | 1 | 9 | 34 |
//! | CCD | 10000 | 100.00% | 6.99 | 3 | 34 | 50 |
//!
//! Plain FABRIK passes used to miss 0.09% of these targets: a chain folded along the line to
//! the target is a fixed point of the passes, and the inner edge of the reachable annulus
//! converges slowly. A pass that barely helps while the tip is still far (more than 1e-3 of the
//! chain's length), or half the budget spent, now hands over to the refinement, whose first
//! restart nudges the folded pose. Plain CCD sweeps converge linearly along arcs on some
//! curled chains (1.5% needed more than 64 sweeps); handing over after 32 sweeps (or a stall)
//! reaches all of them while most solves stay plain CCD. Iterations count passes or sweeps
//! plus refinement iterations.
//!
//! With limits: warm-started solves (each from the previous result), targets the tips of
//! random poses inside the limits (so reachable while respecting them), tolerance 0.5.
//! "Probe": 4 bones of lengths 40, 35, 30, 25, limits (-0.5, 0.8), (0, 1.2), (-1, 0),
//! (-0.3, 0.3), 200 targets. "Random": 100 chains (N in 2..=16, lengths 5..60 with 10% zeros,
//! 90% of the bones limited to arcs 0.3..2.5 rad wide) x 10 targets. Reached, before the
//! refinement -> now:
//!
//! | chains | solver | 16 iterations | 64 iterations | mean iterations now (64) |
//! |---|---|---|---|---|
//! | probe | FABRIK | 16.5% -> 100.0% | 18.0% -> 100.0% | 3.79 |
//! | probe | CCD | 23.5% -> 100.0% | 74.5% -> 100.0% | 3.56 |
//! | random | FABRIK | 69.4% -> 97.7% | 73.9% -> 100.0% | 3.73 |
//! | random | CCD | 82.9% -> 97.4% | 94.1% -> 99.8% | 4.22 |
//!
//! Produced by (machine and timings in `BENCHMARKS.md`):
//! `cargo test -p reach2d_core --release --test reach_rate -- --ignored --nocapture` and
//! `cargo test -p reach2d_core --release --test limited_reach -- --ignored --nocapture`.

#![deny(unsafe_code)]

mod angle;
mod ccd;
pub mod copy_transform;
#[cfg(doctest)]
mod doctests;
mod error;
mod fabrik;
mod geom;
pub mod ground;
mod limb;
pub mod local_world;
mod look_at;
pub mod path_fit;
mod pole;
mod posed;
pub mod ragdoll;
mod refine;
mod rig;
mod solver;
pub mod spring;
mod spring_contact;
pub mod stepper;
mod two_bone;
mod validate;
pub mod write_back;

// The test helpers live with the integration tests; the unit tests share them (see that file).
#[cfg(test)]
extern crate self as reach2d_core;
#[cfg(test)]
#[path = "../tests/common/mod.rs"]
mod common;

pub use glam::Vec2;

pub use angle::{AngleLimit, ChainLimits, MAX_LIMIT_ANGLE, signed_angle, step_toward, wrap_angle};
pub use ccd::solve_ccd;
pub use error::{MAX_COORDINATE, SolveError};
pub use fabrik::solve_fabrik;
pub use limb::{BendSide, LimbAim, LimbStretch, solve_limb, stretched_end, unstretch_joints};
pub use local_world::{LocalWorld, Overlap, RayHit};
pub use look_at::{LookAtSolution, solve_look_at};
pub use path_fit::{PathCursor, PathError, PathFitReport, PathFitSettings, PathPolyline, PathTravel, fit_chain};
pub use pole::{STRAIGHT_SINE, pre_bend_toward_pole, side_of};
pub use posed::{Aim, PosedChain, TipDirection, follow_tip_direction, solve_posed};
pub use rig::{FabrikRig, RigEffector, RigPose};
pub use solver::{CcdSettings, ChainSolver, FabrikSettings, SolveReport};
pub use spring::{
    SpringBone, SpringError, SpringFrame, SpringGoal, SpringReport, SpringScale, SpringSettings, carry_spring,
    mirror_spring, reset_spring, step_spring,
};
pub use spring_contact::{
    CONTACT_SKIN, Contact, SpringCollider, SpringEnds, collide_spring, slide_on_circle, slide_velocity,
};
pub use two_bone::{TwoBoneSolution, soften_reach, solve_two_bone};
