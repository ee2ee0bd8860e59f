//! What every solver shares: the iterative solvers' settings ([`FabrikSettings`], [`CcdSettings`]), what a solve
//! did ([`SolveReport`]) and the [`ChainSolver`] trait over the two iterative solvers.

use glam::Vec2;

use crate::angle::ChainLimits;
use crate::error::SolveError;

/// Iteration budget and stopping rule shared by the iterative solvers.
///
/// Used by [`solve_fabrik`](crate::solve_fabrik); `Default` is 10 iterations and a tolerance of 0.5.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FabrikSettings {
    /// Most backward+forward passes to run (with limits: passes plus refinement iterations).
    /// `0` only conforms the chain to its lengths (and limits) and reports the distance.
    pub max_iterations: u32,
    /// Stop as soon as `|tip - target| <= tolerance` (caller units, e.g. px; finite, `>= 0`).
    pub tolerance: f32,
}

impl Default for FabrikSettings {
    fn default() -> Self {
        Self { max_iterations: 10, tolerance: 0.5 }
    }
}

/// Settings of [`solve_ccd`](crate::solve_ccd).
///
/// `Default` is 10 sweeps, tolerance 0.5 and no damping (`max_angle_step = INFINITY`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcdSettings {
    /// Most tip-to-root sweeps plus refinement iterations to run.
    pub max_iterations: u32,
    /// Stop as soon as `|tip - target| <= tolerance` (caller units; finite, `>= 0`).
    pub tolerance: f32,
    /// Largest rotation of one bone in one sweep (or refinement iteration), radians;
    /// `f32::INFINITY` = unlimited. Must be `> 0` (NaN is rejected). Limits take priority: a
    /// bone that starts outside its limit is brought inside in one step, however far. Damped
    /// sweeps hand over to the refinement only when they stall.
    pub max_angle_step: f32,
}

impl Default for CcdSettings {
    fn default() -> Self {
        Self { max_iterations: 10, tolerance: 0.5, max_angle_step: f32::INFINITY }
    }
}

/// What a solve did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveReport {
    /// `0` when the tip was already within tolerance before any work; `1` for FABRIK's
    /// straight-line answer to an unreachable target and for the closed-form two-bone solve;
    /// otherwise the passes (FABRIK) or sweeps (CCD) actually used, plus the refinement's
    /// iterations (see the crate docs); never more than `max_iterations`.
    pub iterations: u32,
    /// Final `|tip - target|`, caller units.
    pub distance: f32,
    /// `distance <= tolerance`.
    pub reached: bool,
}

impl SolveReport {
    pub(crate) fn new(iterations: u32, distance: f32, tolerance: f32) -> Self {
        Self { iterations, distance, reached: distance <= tolerance }
    }
}

/// An iterative chain solver, kept apart from the chain data (the settings are the solver).
///
/// Both implementations return joints exactly `lengths` apart: [`FabrikSettings`] by
/// construction, [`CcdSettings`] by first re-spacing the incoming joints along their own
/// directions to `lengths` (then CCD keeps those segments). Never panics.
pub trait ChainSolver {
    /// Moves `joints` (N + 1 points) so that the tip approaches `target`; see [`solve_fabrik`](crate::solve_fabrik).
    ///
    /// # Errors
    /// The same [`SolveError`]s as [`solve_fabrik`](crate::solve_fabrik); the buffers are then unchanged.
    fn solve(
        &self,
        joints: &mut [Vec2],
        lengths: &[f32],
        target: Vec2,
        limits: &ChainLimits,
    ) -> Result<SolveReport, SolveError>;
}

#[cfg(test)]
mod tests;
