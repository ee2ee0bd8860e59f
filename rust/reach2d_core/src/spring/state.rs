//! The simulation's state between steps ([`SpringBone`], [`SpringFrame`]): snapping it to the goal
//! ([`reset_spring`]), carrying it through a jump or a flip of the character ([`carry_spring`], [`mirror_spring`]),
//! and its energy ([`spring_energy`]).

use glam::{Affine2, Vec2};

use super::settings::{RIGID_LENGTH, SpringError, SpringGoal, SpringScale, SpringSettings, validate_goal};
use crate::angle::{signed_angle, wrap_angle};

/// One bone's simulation state. `Default` is an unprimed bone; [`reset_spring`] (or the first
/// [`step_spring`](crate::step_spring)) primes it.
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
    pub(super) pivot: Vec2,
    pub(super) pivot_velocity: Vec2,
    /// The goal pose's global angle of the parent segment (or root direction) at the last step, and its rate.
    pub(super) parent_angle: f32,
    pub(super) parent_velocity: f32,
    /// This step's change of the goal angle, radians (scratch).
    pub(super) goal_change: f32,
    /// This step's bone length (scratch).
    pub(crate) length: f32,
}

/// The root frame's motion as of the last step. `Default` is unprimed: the next step resets the chain first.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpringFrame {
    pub(super) position: Vec2,
    pub(super) angle: f32,
    /// `false` right after a reset: the next step takes the goal's velocities as it finds them (no impulse).
    pub(super) velocity_known: bool,
    /// Set by [`carry_spring`]: the next step keeps the carried velocities (the jump also swallowed that frame's
    /// own motion, which would otherwise read as a sudden stop).
    pub(super) coast: bool,
    pub(super) primed: bool,
}

impl SpringFrame {
    /// `true` once the state follows a chain (after [`reset_spring`] or a first
    /// [`step_spring`](crate::step_spring)).
    #[must_use]
    pub fn is_primed(&self) -> bool {
        self.primed
    }

    /// Makes the next [`step_spring`](crate::step_spring) snap to its goal pose first (as [`reset_spring`] would).
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

/// [`wrap_angle`] that leaves an angle already in `(-PI, PI]` bit for bit (a state at rest stays exactly at rest).
#[inline]
pub(super) fn wrapped(angle: f32) -> f32 {
    if angle > -core::f32::consts::PI && angle <= core::f32::consts::PI { angle } else { wrap_angle(angle) }
}

/// Writes each bone's goal relative angle into `goal_change` and its length into `length`.
pub(super) fn measure_goal(bones: &mut [SpringBone], goal: &SpringGoal) {
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
/// [`SpringError::Chain`] or [`SpringError::ScalesMismatch`] for a bad goal (see
/// [`step_spring`](crate::step_spring)); the state is then unchanged. Never panics.
pub fn reset_spring(frame: &mut SpringFrame, bones: &mut [SpringBone], goal: &SpringGoal) -> Result<(), SpringError> {
    validate_goal(bones.len(), goal, goal.joints.len())?;
    reset_unchecked(frame, bones, goal);
    Ok(())
}

pub(super) fn reset_unchecked(frame: &mut SpringFrame, bones: &mut [SpringBone], goal: &SpringGoal) {
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
