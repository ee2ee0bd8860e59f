//! What a spring step is given: the chain-wide settings and their time unit, the per-bone scales, the goal pose,
//! and the checks of all three ([`SpringError`]).

use core::fmt;

use glam::Vec2;

use crate::angle::ChainLimits;
use crate::error::SolveError;
use crate::validate;

/// Segments shorter than this (caller units) are rigid: they keep the goal pose and give no direction.
pub const RIGID_LENGTH: f32 = 1.0e-3;

/// The time unit of [`SpringSettings::max_angle_step`], seconds.
pub const ANGLE_STEP_TIME: f32 = 1.0 / 60.0;

/// Chain-wide settings of [`step_spring`](crate::step_spring).
///
/// `Default`: stiffness 200 /s² (about 2.3 Hz), damping 12 /s (damping ratio 0.42), no gravity, no external force,
/// no speed cap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringSettings {
    /// How strongly each bone is pulled toward its goal angle, 1/s² (angular acceleration per radian of
    /// deviation; the undamped angular frequency is its square root). Finite, `>= 0`; 0 lets the chain swing free.
    pub stiffness: f32,
    /// How quickly a bone's motion relative to its parent dies out, 1/s. Finite, `>= 0`.
    pub damping: f32,
    /// Gravity, caller units (px) per s², in the global frame. Finite.
    pub gravity: Vec2,
    /// A constant acceleration added to gravity (wind), caller units per s², global. Finite.
    pub external_force: Vec2,
    /// Largest turn of a bone relative to its parent per [`ANGLE_STEP_TIME`] (1/60 s), radians: a cap on the
    /// relative angular speed that tames violent motion. `f32::INFINITY` = no cap; must be `> 0`.
    pub max_angle_step: f32,
}

impl Default for SpringSettings {
    fn default() -> Self {
        Self {
            stiffness: 200.0,
            damping: 12.0,
            gravity: Vec2::ZERO,
            external_force: Vec2::ZERO,
            max_angle_step: f32::INFINITY,
        }
    }
}

/// Per-bone multipliers of the chain's settings (both `1.0` by default). Finite, `>= 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringScale {
    /// Multiplies [`SpringSettings::stiffness`] for this bone.
    pub stiffness: f32,
    /// Multiplies [`SpringSettings::damping`] for this bone.
    pub damping: f32,
}

impl Default for SpringScale {
    fn default() -> Self {
        Self { stiffness: 1.0, damping: 1.0 }
    }
}

/// What the chain should follow in one step.
#[derive(Clone, Copy, Debug)]
pub struct SpringGoal<'a> {
    /// The goal pose's global joints: each bone's origin, then the tip's end (`N + 1` points). The root joint
    /// is followed exactly; the others give the goal angles and the bone lengths.
    pub joints: &'a [Vec2],
    /// The root frame (`root_direction`, finite and non-zero, always used: its turning drives the chain) and
    /// optional segment limits relative to the parent segment, as for the IK solvers (empty, or one per bone).
    pub limits: ChainLimits<'a>,
    /// Per-bone multipliers: empty (all 1), or one per bone.
    pub scales: &'a [SpringScale],
}

/// Why a spring step refused its input. The state and the output are left unchanged whenever one is returned.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpringError {
    /// The chain is bad: no bone, joints that are not finite, mismatched or invalid limits, or a root direction
    /// that is zero or not finite (see [`SolveError`]).
    Chain(SolveError),
    /// `scales` is neither empty nor one entry per bone.
    ScalesMismatch {
        /// Number of bones in the chain.
        bones: usize,
        /// Number of scale entries given.
        scales: usize,
    },
    /// A setting or a scale is out of range (see [`SpringSettings`], [`SpringScale`]).
    InvalidSettings,
    /// `delta` is NaN or infinite.
    InvalidDelta,
}

impl fmt::Display for SpringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Chain(error) => error.fmt(f),
            Self::ScalesMismatch { bones, scales } => {
                write!(f, "{scales} per-bone scales for {bones} bones: give one per bone or none")
            }
            Self::InvalidSettings => f.write_str(
                "invalid spring settings: stiffness, damping and per-bone scales must be finite and >= 0, gravity \
                 and external force finite, max_angle_step > 0 (INFINITY = no cap)",
            ),
            Self::InvalidDelta => f.write_str("the time step is NaN or infinite: give a finite delta in seconds"),
        }
    }
}

impl std::error::Error for SpringError {}

impl From<SolveError> for SpringError {
    fn from(error: SolveError) -> Self {
        Self::Chain(error)
    }
}

/// Checks `goal` for a chain of `n` bones whose output holds `out_len` joints.
pub(super) fn validate_goal(n: usize, goal: &SpringGoal, out_len: usize) -> Result<(), SpringError> {
    if n == 0 {
        return Err(SolveError::EmptyChain.into());
    }
    if goal.joints.len() != n + 1 || out_len != n + 1 {
        let joints = if goal.joints.len() != n + 1 { goal.joints.len() } else { out_len };
        return Err(SolveError::LengthMismatch { joints, lengths: n }.into());
    }
    validate::joints(goal.joints)?;
    validate::limits(&goal.limits, n)?;
    if !validate::direction_ok(goal.limits.root_direction) {
        return Err(SolveError::InvalidDirection.into());
    }
    if !goal.scales.is_empty() && goal.scales.len() != n {
        return Err(SpringError::ScalesMismatch { bones: n, scales: goal.scales.len() });
    }
    let non_negative = |v: f32| v.is_finite() && v >= 0.0;
    if !goal.scales.iter().all(|s| non_negative(s.stiffness) && non_negative(s.damping)) {
        return Err(SpringError::InvalidSettings);
    }
    Ok(())
}

/// Checks each setting against its range (see [`SpringSettings`]).
pub(super) fn validate_settings(settings: &SpringSettings) -> Result<(), SpringError> {
    let non_negative = |v: f32| v.is_finite() && v >= 0.0;
    let ok = non_negative(settings.stiffness)
        && non_negative(settings.damping)
        && settings.gravity.is_finite()
        && settings.external_force.is_finite()
        && settings.max_angle_step > 0.0;
    if ok { Ok(()) } else { Err(SpringError::InvalidSettings) }
}
