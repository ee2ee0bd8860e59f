//! Input validation shared by the solvers. Runs before anything is written.

use glam::Vec2;

use crate::angle::ChainLimits;
use crate::error::{MAX_COORDINATE, SolveError};
use crate::solver::{CcdSettings, FabrikSettings};

/// Finite and within [`MAX_COORDINATE`].
#[inline]
pub(crate) fn coord_ok(v: Vec2) -> bool {
    // NaN fails both comparisons; infinities fail the bound.
    v.x.abs() <= MAX_COORDINATE && v.y.abs() <= MAX_COORDINATE
}

#[inline]
pub(crate) fn length_ok(l: f32) -> bool {
    (0.0..=MAX_COORDINATE).contains(&l)
}

#[inline]
pub(crate) fn tolerance_ok(t: f32) -> bool {
    t.is_finite() && t >= 0.0
}

/// A usable direction: not (numerically) zero, and short enough to normalize (a squared length that
/// overflows to infinity would normalize to zero).
#[inline]
pub(crate) fn direction_ok(d: Vec2) -> bool {
    let length_squared = d.length_squared();
    length_squared.is_finite() && length_squared > f32::MIN_POSITIVE
}

pub(crate) fn joints(joints: &[Vec2]) -> Result<(), SolveError> {
    match joints.iter().position(|&j| !coord_ok(j)) {
        Some(index) => Err(SolveError::NonFiniteJoint { index }),
        None => Ok(()),
    }
}

pub(crate) fn limits(limits: &ChainLimits, bones: usize) -> Result<(), SolveError> {
    let n = limits.per_bone.len();
    if n == 0 {
        return Ok(());
    }
    if n != bones {
        return Err(SolveError::LimitsMismatch { bones, limits: n });
    }
    if let Some(index) = limits.per_bone.iter().position(|l| l.is_some_and(|l| !l.is_valid())) {
        return Err(SolveError::InvalidLimit { index });
    }
    if limits.is_active() && !direction_ok(limits.root_direction) {
        return Err(SolveError::InvalidDirection);
    }
    Ok(())
}

/// Shape and numbers of a chain with lengths (FABRIK, `ChainSolver`).
pub(crate) fn chain(joints_: &[Vec2], lengths: &[f32], target: Vec2, limits_: &ChainLimits) -> Result<(), SolveError> {
    if joints_.len() < 2 && lengths.is_empty() {
        return Err(SolveError::EmptyChain);
    }
    if joints_.len() != lengths.len() + 1 {
        return Err(SolveError::LengthMismatch { joints: joints_.len(), lengths: lengths.len() });
    }
    limits(limits_, lengths.len())?;
    if !coord_ok(target) {
        return Err(SolveError::NonFiniteTarget);
    }
    joints(joints_)?;
    if let Some(index) = lengths.iter().position(|&l| !length_ok(l)) {
        return Err(SolveError::InvalidLength { index });
    }
    Ok(())
}

/// Shape and numbers of a chain without lengths (CCD).
pub(crate) fn ccd_chain(joints_: &[Vec2], target: Vec2, limits_: &ChainLimits) -> Result<(), SolveError> {
    if joints_.len() < 2 {
        return Err(SolveError::EmptyChain);
    }
    limits(limits_, joints_.len() - 1)?;
    if !coord_ok(target) {
        return Err(SolveError::NonFiniteTarget);
    }
    joints(joints_)
}

pub(crate) fn fabrik_settings(s: &FabrikSettings) -> Result<(), SolveError> {
    if tolerance_ok(s.tolerance) { Ok(()) } else { Err(SolveError::InvalidSettings) }
}

pub(crate) fn ccd_settings(s: &CcdSettings) -> Result<(), SolveError> {
    // `> 0.0` is false for NaN; INFINITY is allowed (= unlimited).
    if tolerance_ok(s.tolerance) && s.max_angle_step > 0.0 { Ok(()) } else { Err(SolveError::InvalidSettings) }
}
