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
//! Everything here is measured in the global frame: angles with [`signed_angle`] between global segments,
//! torques as 2D cross products. Reflecting the whole input (goal joints, root direction, gravity, limits)
//! reflects every angle and every cross product together, so the output is exactly the mirror image: a mirrored
//! character's chain moves as the mirror image of the unmirrored one with no sign rule anywhere in this file.
//! The handedness of the bones' own frames enters only at the two edges, both through matrices: when the
//! caller turns limits on local rotations into segment limits
//! ([`ChainPose::segment_limits`](crate::write_back::ChainPose::segment_limits)) and when it writes the output
//! joints back as local rotations ([`ChainPose::write_back`](crate::write_back::ChainPose::write_back)). A
//! character that flips between two steps (a `scale.x` sign change above the chain) is a reflection of the state
//! itself: [`carry_spring`] reflects it with the character, so the chain does not whip across.

use core::fmt;

use glam::{Affine2, Vec2};

use crate::angle::{ChainLimits, signed_angle, wrap_angle};
use crate::error::SolveError;
use crate::validate;

/// The longest simulation substep, seconds: a step of `delta` runs `ceil(delta / SPRING_SUBSTEP)` equal substeps.
pub const SPRING_SUBSTEP: f32 = 1.0 / 240.0;

/// The longest stretch of time one step simulates, seconds: a longer `delta` (a hitch, a breakpoint) simulates
/// only this much, so one slow frame costs at most 60 substeps.
pub const MAX_SPRING_DELTA: f32 = 0.25;

/// Most substeps in one step: `MAX_SPRING_DELTA / SPRING_SUBSTEP`.
const MAX_SUBSTEPS: u32 = 60;

/// Hard cap on a bone's relative angular speed, rad/s, whatever the settings: keeps every state finite.
const MAX_RELATIVE_SPEED: f32 = 2000.0;

/// Segments shorter than this (caller units) are rigid: they keep the goal pose and give no direction.
pub const RIGID_LENGTH: f32 = 1.0e-3;

/// The time unit of [`SpringSettings::max_angle_step`], seconds.
pub const ANGLE_STEP_TIME: f32 = 1.0 / 60.0;

/// Chain-wide settings of [`step_spring`].
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

/// One bone's simulation state. `Default` is an unprimed bone; [`reset_spring`] (or the first [`step_spring`])
/// primes it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpringBone {
    /// The bone's angle relative to its parent segment (the last one longer than [`RIGID_LENGTH`]), or to the
    /// root direction, in the global frame's handedness, radians in `(-PI, PI]`.
    pub angle: f32,
    /// Rate of change of `angle`, rad/s.
    pub velocity: f32,
    /// The goal pose's relative angle at the last step, radians.
    pub goal: f32,
    /// The goal pose's origin of this bone at the last step (caller units), and its velocity (units/s).
    pivot: Vec2,
    pivot_velocity: Vec2,
    /// The goal pose's global angle of the parent segment (or root direction) at the last step, and its rate.
    parent_angle: f32,
    parent_velocity: f32,
    /// This step's change of the goal angle, radians (scratch).
    goal_change: f32,
    /// This step's bone length (scratch).
    pub(crate) length: f32,
}

/// The root frame's motion as of the last step. `Default` is unprimed: the next step resets the chain first.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpringFrame {
    position: Vec2,
    angle: f32,
    /// `false` right after a reset: the next step takes the goal's velocities as it finds them (no impulse).
    velocity_known: bool,
    /// Set by [`carry_spring`]: the next step keeps the carried velocities (the jump also swallowed that frame's
    /// own motion, which would otherwise read as a sudden stop).
    coast: bool,
    primed: bool,
}

impl SpringFrame {
    /// `true` once the state follows a chain (after [`reset_spring`] or a first [`step_spring`]).
    #[must_use]
    pub fn is_primed(&self) -> bool {
        self.primed
    }

    /// Makes the next [`step_spring`] snap to its goal pose first (as [`reset_spring`] would).
    pub fn unprime(&mut self) {
        self.primed = false;
    }

    /// The root joint's position at the last step (caller units).
    #[must_use]
    pub fn position(&self) -> Vec2 {
        self.position
    }

    /// The root frame's global angle at the last step, radians: the first bone's angle is relative to it.
    #[must_use]
    pub fn root_angle(&self) -> f32 {
        self.angle
    }
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringReport {
    /// Substeps simulated (0 for a step of zero time).
    pub substeps: u32,
    /// Largest deviation of a bone's relative angle from the goal's, radians, after the step.
    pub deviation: f32,
    /// `true` when this step first snapped an unprimed state to the goal pose.
    pub reset: bool,
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

fn validate_goal(bones: &[SpringBone], goal: &SpringGoal, out_len: usize) -> Result<(), SpringError> {
    let n = bones.len();
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

fn validate_settings(settings: &SpringSettings) -> Result<(), SpringError> {
    let non_negative = |v: f32| v.is_finite() && v >= 0.0;
    let ok = non_negative(settings.stiffness)
        && non_negative(settings.damping)
        && settings.gravity.is_finite()
        && settings.external_force.is_finite()
        && settings.max_angle_step > 0.0;
    if ok { Ok(()) } else { Err(SpringError::InvalidSettings) }
}

/// [`wrap_angle`] that leaves an angle already in `(-PI, PI]` bit for bit (a state at rest stays exactly at rest).
#[inline]
fn wrapped(angle: f32) -> f32 {
    if angle > -core::f32::consts::PI && angle <= core::f32::consts::PI { angle } else { wrap_angle(angle) }
}

/// Writes each bone's goal relative angle into `goal_change` and its length into `length`.
fn measure_goal(bones: &mut [SpringBone], goal: &SpringGoal) {
    let mut reference = goal.limits.root_direction;
    for (bone, pair) in bones.iter_mut().zip(goal.joints.windows(2)) {
        let segment = pair[1] - pair[0];
        bone.length = segment.length();
        bone.goal_change = if bone.length > RIGID_LENGTH {
            let angle = signed_angle(reference, segment);
            reference = segment;
            angle
        } else {
            0.0
        };
    }
}

/// Snaps the simulation to the goal pose at rest: every bone at its goal angle (clamped into its limit) with no
/// velocity, and the goal's motion forgotten (the next step takes the root's velocity as it finds it).
///
/// # Errors
/// [`SpringError::Chain`] or [`SpringError::ScalesMismatch`] for a bad goal (see [`step_spring`]); the state is
/// then unchanged. Never panics.
pub fn reset_spring(frame: &mut SpringFrame, bones: &mut [SpringBone], goal: &SpringGoal) -> Result<(), SpringError> {
    validate_goal(bones, goal, goal.joints.len())?;
    reset_unchecked(frame, bones, goal);
    Ok(())
}

fn reset_unchecked(frame: &mut SpringFrame, bones: &mut [SpringBone], goal: &SpringGoal) {
    measure_goal(bones, goal);
    let mut reference = goal.limits.root_direction;
    for (i, (bone, pair)) in bones.iter_mut().zip(goal.joints.windows(2)).enumerate() {
        let within = |angle: f32| match goal.limits.get(i) {
            Some(limit) if !limit.contains(angle, 0.0) => wrapped(limit.clamp(angle)),
            _ => angle,
        };
        *bone = SpringBone {
            angle: within(bone.goal_change),
            velocity: 0.0,
            goal: bone.goal_change,
            pivot: pair[0],
            pivot_velocity: Vec2::ZERO,
            parent_angle: reference.to_angle(),
            parent_velocity: 0.0,
            ..*bone
        };
        if bone.length > RIGID_LENGTH {
            reference = pair[1] - pair[0];
        }
    }
    *frame = SpringFrame {
        position: goal.joints[0],
        angle: goal.limits.root_direction.to_angle(),
        velocity_known: false,
        coast: false,
        primed: true,
    };
}

/// Carries the state through a jump of the whole character between two steps: `jump` maps the old global
/// placement of the root frame onto the new one (`new_parent * old_parent⁻¹`).
///
/// The jump itself then causes no motion: the goal's last positions and velocities are moved with it (and the
/// next step keeps those velocities, since `jump` also holds that frame's own motion), and a
/// reflection (a `scale.x` flip above the chain, `jump` with a negative determinant) reflects the bones' angles and
/// velocities too, so the chain keeps its swing, mirrored, instead of whipping across. A jump that is not finite
/// or is singular unprimes the state (the next step resets). Never panics.
pub fn carry_spring(frame: &mut SpringFrame, bones: &mut [SpringBone], jump: Affine2) {
    let determinant = jump.matrix2.determinant();
    if !jump.is_finite() || !determinant.is_finite() || determinant == 0.0 {
        frame.primed = false;
        return;
    }
    let turn = |angle: f32| {
        let direction = jump.matrix2 * Vec2::from_angle(angle);
        (direction.is_finite() && direction != Vec2::ZERO).then(|| direction.to_angle())
    };
    let position = jump.transform_point2(frame.position);
    let Some(angle) = turn(frame.angle).filter(|_| position.is_finite()) else {
        frame.primed = false;
        return;
    };
    frame.position = position;
    frame.angle = angle;
    frame.coast = true;
    let sign = determinant.signum();
    for bone in bones.iter_mut() {
        let (Some(parent_angle), pivot, pivot_velocity) =
            (turn(bone.parent_angle), jump.transform_point2(bone.pivot), jump.matrix2 * bone.pivot_velocity)
        else {
            frame.primed = false;
            return;
        };
        if !(pivot.is_finite() && pivot_velocity.is_finite()) {
            frame.primed = false;
            return;
        }
        bone.parent_angle = parent_angle;
        bone.pivot = pivot;
        bone.pivot_velocity = pivot_velocity;
        bone.parent_velocity *= sign;
        bone.angle = wrapped(sign * bone.angle);
        bone.velocity *= sign;
        bone.goal = wrapped(sign * bone.goal);
    }
}

/// Reflects the state with the character when the reflection that flipped it is known: `mirror` maps the old
/// world onto the flipped one (for a `scale.x` flip of a node with global transform `G`, `G * diag(-1, 1) * G⁻¹`).
///
/// Unlike [`carry_spring`], the next step then feels the frame's own motion as usual (the goal's move since the last
/// step, seen in the reflected world), so a character flipped in the middle of a run keeps being the exact mirror
/// image of one that never flipped, not only on frames where its root keeps its velocity. `mirror` must be a
/// reflection (negative determinant); anything not finite or singular unprimes the state. Never panics.
pub fn mirror_spring(frame: &mut SpringFrame, bones: &mut [SpringBone], mirror: Affine2) {
    carry_spring(frame, bones, mirror);
    frame.coast = false;
}

/// Advances the chain by `delta` seconds toward `goal` and writes the simulated global joints into `out`.
///
/// `out[0]` is the goal's root joint; each following joint is the previous one plus the bone's goal length along
/// its simulated direction, so lengths are kept exactly; a bone shorter than [`RIGID_LENGTH`] keeps its goal
/// segment. An unprimed state (`SpringFrame::default()`, or after [`SpringFrame::unprime`]) is first reset to
/// the goal. `delta <= 0` simulates nothing and writes the current state. `delta` beyond [`MAX_SPRING_DELTA`]
/// simulates only that much. Limits hold after every substep (a bone that hits one stops there). Allocates
/// nothing; `O(N)` per substep.
///
/// # Errors
/// [`SpringError`] when the chain, the settings or `delta` are bad (`bones.len() == N`,
/// `goal.joints.len() == out.len() == N + 1`); the state and `out` are then unchanged. Never panics; with valid
/// input every output and every state value is finite.
pub fn step_spring(
    frame: &mut SpringFrame,
    bones: &mut [SpringBone],
    goal: &SpringGoal,
    settings: &SpringSettings,
    delta: f32,
    out: &mut [Vec2],
) -> Result<SpringReport, SpringError> {
    validate_goal(bones, goal, out.len())?;
    validate_settings(settings)?;
    if !delta.is_finite() {
        return Err(SpringError::InvalidDelta);
    }
    let reset = !frame.primed;
    if reset {
        reset_unchecked(frame, bones, goal);
    }
    let velocity_known = frame.velocity_known;
    measure_goal(bones, goal);
    for bone in bones.iter_mut() {
        bone.goal_change = wrapped(bone.goal_change - bone.goal);
    }
    let mut substeps = 0;
    if delta > 0.0 {
        substeps = simulate(frame, bones, goal, settings, delta);
        // Right after a reset the root has not moved yet: its velocity becomes known at the next step.
        frame.velocity_known = velocity_known || !reset;
    } else {
        // No time passes: the chain keeps its relative angles and is carried by the root frame as it is now.
        for bone in bones.iter_mut() {
            bone.goal_change = 0.0;
        }
        frame.angle = wrapped(goal.limits.root_direction.to_angle());
        frame.position = goal.joints[0];
    }
    let mut deviation = 0.0f32;
    let mut angle = frame.angle;
    out[0] = goal.joints[0];
    for (i, (bone, pair)) in bones.iter().zip(goal.joints.windows(2)).enumerate() {
        out[i + 1] = if bone.length > RIGID_LENGTH {
            deviation = deviation.max(wrapped(bone.angle - bone.goal).abs());
            angle += bone.angle;
            out[i] + Vec2::from_angle(angle) * bone.length
        } else {
            out[i] + (pair[1] - pair[0])
        };
    }
    Ok(SpringReport { substeps, deviation, reset })
}

/// The substeps of one step; returns how many ran. The goal angles move from `goal` by `goal_change`.
fn simulate(
    frame: &mut SpringFrame,
    bones: &mut [SpringBone],
    goal: &SpringGoal,
    settings: &SpringSettings,
    delta: f32,
) -> u32 {
    let root_angle = goal.limits.root_direction.to_angle();
    let turn = wrapped(root_angle - frame.angle);
    let speed_cap = (settings.max_angle_step / ANGLE_STEP_TIME).min(MAX_RELATIVE_SPEED);
    let capped = |velocity: f32| if velocity.is_finite() { velocity.clamp(-speed_cap, speed_cap) } else { 0.0 };

    // Each bone's pivot and parent direction in the goal pose: their change of velocity since the last step is
    // an impulse on the bone (the mass keeps its velocity; only the pivot's push across the bone turns it).
    let mut reference = goal.limits.root_direction;
    let mut simulated_angle = frame.angle;
    for (bone, pair) in bones.iter_mut().zip(goal.joints.windows(2)) {
        let parent_angle = reference.to_angle();
        let pivot_velocity = (pair[0] - bone.pivot) / delta;
        let parent_velocity = wrapped(parent_angle - bone.parent_angle) / delta;
        let (pivot_velocity, parent_velocity) = if pivot_velocity.is_finite() && parent_velocity.is_finite() {
            (pivot_velocity, parent_velocity)
        } else {
            (Vec2::ZERO, 0.0)
        };
        if bone.length > RIGID_LENGTH {
            simulated_angle += bone.angle;
            if frame.velocity_known && !frame.coast {
                let pivot_change = pivot_velocity - bone.pivot_velocity;
                let push = Vec2::from_angle(simulated_angle).perp_dot(-pivot_change) / bone.length;
                bone.velocity = capped(bone.velocity + push - (parent_velocity - bone.parent_velocity));
            }
            reference = pair[1] - pair[0];
        }
        bone.pivot = pair[0];
        bone.parent_angle = parent_angle;
        if !frame.coast {
            bone.pivot_velocity = pivot_velocity;
            bone.parent_velocity = parent_velocity;
        }
    }
    frame.coast = false;

    let simulated = delta.min(MAX_SPRING_DELTA);
    // At least 1, at most MAX_SUBSTEPS; the float-to-int cast saturates.
    let steps = ((simulated / SPRING_SUBSTEP).ceil() as u32).clamp(1, MAX_SUBSTEPS);
    let h = simulated / steps as f32;
    let acceleration = settings.gravity + settings.external_force;
    for step in 0..steps {
        let end = (step + 1) as f32 / steps as f32;
        let mut absolute = frame.angle + turn * (step as f32 / steps as f32);
        for (i, bone) in bones.iter_mut().enumerate() {
            if bone.length <= RIGID_LENGTH {
                continue;
            }
            let scale = goal.scales.get(i).copied().unwrap_or_default();
            let k = settings.stiffness * scale.stiffness;
            let c = settings.damping * scale.damping;
            absolute += bone.angle;
            let torque = Vec2::from_angle(absolute).perp_dot(acceleration) / bone.length;
            let target = bone.goal + bone.goal_change * end;
            let deviation = wrapped(bone.angle - target);
            // Semi-implicit Euler with the spring and damper taken at the end of the substep: stable for any k, c.
            let explicit = bone.velocity + h * (torque - k * deviation);
            let mut velocity = capped(explicit / (1.0 + h * c + h * h * k));
            let mut angle = wrapped(bone.angle + h * velocity);
            if let Some(limit) = goal.limits.get(i)
                && !limit.contains(angle, 0.0)
            {
                angle = wrapped(limit.clamp(angle));
                velocity = 0.0;
            }
            bone.angle = angle;
            bone.velocity = velocity;
        }
    }
    for bone in bones.iter_mut() {
        bone.goal = wrapped(bone.goal + bone.goal_change);
        bone.goal_change = 0.0;
    }
    frame.position = goal.joints[0];
    frame.angle = wrapped(root_angle);
    frame.velocity_known = true;
    steps
}

/// The chain's mechanical energy per unit mass and length² without gravity: `Σ ½ω² + ½k·x²` over the bones
/// (relative angles and velocities), for tests and diagnostics.
#[must_use]
pub fn spring_energy(bones: &[SpringBone], settings: &SpringSettings, scales: &[SpringScale]) -> f32 {
    bones
        .iter()
        .enumerate()
        .filter(|(_, b)| b.length > RIGID_LENGTH)
        .map(|(i, b)| {
            let k = settings.stiffness * scales.get(i).map_or(1.0, |s| s.stiffness);
            let x = wrapped(b.angle - b.goal);
            0.5 * b.velocity * b.velocity + 0.5 * k * x * x
        })
        .sum()
}

#[cfg(test)]
mod tests;
