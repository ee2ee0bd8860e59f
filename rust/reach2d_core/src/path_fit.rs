//! A chain laid along a path: the path as a measured polyline ([`PathPolyline`], sampled once per change of the
//! curve, never per frame), and the fit ([`fit_chain`]) that places each joint where a circle of its bone's length
//! around the previous joint first meets the path further along, so only the bones' directions change and their
//! lengths stay exact.
//!
//! # The fit
//!
//! The root joint stays where it is. The chain runs straight from it to the path's point at `offset` (arc length
//! along the path; the *run-in*, empty when the root is there), then follows the path: each next joint is the first
//! meeting of the circle of the bone's length around the previous joint with the polyline, searched from where the
//! previous joint met it (an exact circle-segment intersection, not the nearest sampled point). An open path
//! continues past its ends along its end segments' directions (the last tangent): a chain longer than the path
//! lies on that line beyond the end, with exact lengths. A closed path (its last point on its first) wraps. The
//! last bone can instead lie along the path's tangent at its origin. A per-bone angle limit (on the bone's segment
//! relative to its parent segment, as in the other solvers) holds where it conflicts: the bone stops at its limit,
//! and the next bone meets the path again from where that one really ends.
//!
//! # Corners
//!
//! The first meeting moves with the path wherever it can, but not at a sharp corner: while a bone's circle around
//! a joint before the corner still holds the corner outside, the next joint lies before it; once the corner is
//! inside, the circle leaves the near leg only far along the other one (up to twice the bone's length away at a
//! hairpin), and no exact place lies between. [`PathTravel::fit`] lets such a joint travel there over frames: each
//! joint moves at most [`TRAVEL_SPEED`] times as far as the path moved under the chain since the last frame, plus
//! [`TRAVEL_FLOOR`] bone lengths per second, its bone turned toward its place; the bones after it meet the path
//! from where it really is. A jump of the path, the root or the offset moves the path under the chain as far, so
//! the chain follows it at once.
//!
//! # Mirror-exact
//!
//! Dot products, square roots and divisions only (the circle-segment intersection is solved in `f64`): reflecting
//! the path, the chain and the limits gives the reflected fit.
//!
//! # Degenerate input
//!
//! A path of fewer than two distinct points (empty, one point, every point in one place) is refused when it is
//! set, with [`PathError::TooFewPoints`]; repeated points in a longer path are dropped. No input gives a NaN: a
//! NaN or infinite point is refused, and a bone that cannot reach the path at all (held off it by a limit) points
//! at it.

mod fit;
mod polyline;
#[cfg(test)]
mod tests;
mod travel;

pub use fit::{PathFitReport, PathFitSettings, fit_chain};
pub use polyline::{PathCursor, PathError, PathPolyline};
pub use travel::{PathTravel, TRAVEL_FLOOR, TRAVEL_SPEED};
