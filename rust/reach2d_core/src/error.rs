//! Why a solve refused its input ([`SolveError`]), and the coordinate bound its checks use.

use core::fmt;

use crate::angle::MAX_LIMIT_ANGLE;

/// Largest accepted absolute value of a coordinate or a bone length, in caller units.
///
/// Anything finite beyond it is rejected like a non-finite value (as
/// [`SolveError::NonFiniteJoint`], [`SolveError::NonFiniteTarget`] or
/// [`SolveError::InvalidLength`]), so that squared distances stay finite in `f32`.
pub const MAX_COORDINATE: f32 = 1.0e15;

/// Why a solve refused its input. The buffers are left unchanged whenever one is returned.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SolveError {
    /// The chain has no bone (fewer than 2 joints, or no lengths).
    EmptyChain,
    /// `joints.len()` is not `lengths.len() + 1`.
    LengthMismatch {
        /// Number of joint positions given.
        joints: usize,
        /// Number of bone lengths given.
        lengths: usize,
    },
    /// `limits.per_bone` is neither empty nor one entry per bone.
    LimitsMismatch {
        /// Number of bones in the chain.
        bones: usize,
        /// Number of limit entries given.
        limits: usize,
    },
    /// The target has a NaN or infinite coordinate (or one beyond [`MAX_COORDINATE`]).
    NonFiniteTarget,
    /// Joint `index` (or, for look-at and two-bone, the origin/root: index 0) has a NaN or
    /// infinite coordinate (or one beyond [`MAX_COORDINATE`]).
    NonFiniteJoint {
        /// Index of the first bad joint.
        index: usize,
    },
    /// Bone length `index` is negative, NaN, infinite or beyond [`MAX_COORDINATE`].
    InvalidLength {
        /// Index of the first bad length.
        index: usize,
    },
    /// Limit `index` is not finite (or beyond ±[`MAX_LIMIT_ANGLE`]), has `min > max`, or is wider than a full turn.
    InvalidLimit {
        /// Index of the first bad limit (0 for look-at).
        index: usize,
    },
    /// A setting is out of range: tolerance negative or non-finite, CCD `max_angle_step` not
    /// `> 0`, or a look-at offset that is not finite.
    InvalidSettings,
    /// A direction is zero, not finite, or so long its squared length overflows:
    /// `ChainLimits::root_direction` while a limit is set,
    /// or look-at's `current_direction` / reference direction.
    InvalidDirection,
    /// A [`FabrikRig`](crate::FabrikRig)'s bones are not a tree with its effectors' tips as its leaves: a parent
    /// after its child, a tip out of range, named twice or carrying another bone, or a branch that leads to no
    /// effector.
    InvalidTree,
    /// Effector `index`'s weight is negative or not finite.
    InvalidWeight {
        /// Index of the first bad effector.
        index: usize,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::EmptyChain => {
                f.write_str("the chain has no bone: give at least 2 joint positions (and 1 bone length)")
            }
            Self::LengthMismatch { joints, lengths } => write!(
                f,
                "{joints} joint positions but {lengths} bone lengths: give one more joint than \
                 lengths (the bone origins plus the tip)"
            ),
            Self::LimitsMismatch { bones, limits } => write!(
                f,
                "{limits} angle limits for {bones} bones: give one entry per bone (None = free) \
                 or none at all"
            ),
            Self::NonFiniteTarget => {
                write!(f, "the target is NaN, infinite or beyond ±{MAX_COORDINATE:e}: give a finite target")
            }
            Self::NonFiniteJoint { index } => write!(
                f,
                "joint {index} is NaN, infinite or beyond ±{MAX_COORDINATE:e}: reset the chain \
                 to finite positions"
            ),
            Self::InvalidLength { index } => write!(
                f,
                "bone length {index} is negative, NaN, infinite or beyond {MAX_COORDINATE:e}: \
                 lengths must be finite and >= 0"
            ),
            Self::InvalidLimit { index } => write!(
                f,
                "angle limit {index} is invalid: min and max must be finite radians within \
                 ±{MAX_LIMIT_ANGLE} with min <= max <= min + TAU"
            ),
            Self::InvalidSettings => f.write_str(
                "invalid settings: tolerance must be finite and >= 0, max_angle_step > 0 \
                 (INFINITY = unlimited), offsets finite",
            ),
            Self::InvalidDirection => f.write_str(
                "a direction is zero or not finite: give a non-zero finite root/reference/current \
                 direction",
            ),
            Self::InvalidTree => f.write_str(
                "the bones are not a tree whose leaves are the effectors' tips: number parents before children, \
                 name each tip once, give no tip a child bone and every branch an effector",
            ),
            Self::InvalidWeight { index } => {
                write!(f, "effector {index}'s weight is negative or not finite: weights must be finite and >= 0")
            }
        }
    }
}

impl std::error::Error for SolveError {}
