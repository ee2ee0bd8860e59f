//! `SpringChain2D`'s run-time state: the simulation stepped on the chain's flat arrays (`reach2d_core::spring`). The
//! goal pose it follows is the chain's pose memory (`io/pose_memory.rs`: a bone still holding what the node wrote
//! keeps its last rotation the node did not write). No engine calls here beyond sampling the curves; nothing
//! allocates once the buffers have grown to the chain's length.

use glam::Affine2;
use godot::classes::Curve;
use godot::obj::Gd;
use reach2d_core::write_back::ChainPose;
use reach2d_core::{
    AngleLimit, ChainLimits, SpringBone, SpringCollider, SpringEnds, SpringError, SpringFrame, SpringGoal,
    SpringReport, SpringScale, SpringSettings, Vec2, carry_spring, collide_spring, mirror_spring, step_spring,
};

use crate::problem::Problem;

/// The simulation's state and buffers, reused every step.
#[derive(Default)]
pub struct Simulation {
    frame: SpringFrame,
    bones: Vec<SpringBone>,
    scales: Vec<SpringScale>,
    simulated: Vec<Vec2>,
    /// The root bone's parent's global transform at the last step, to tell a flip or a jump.
    last_parent: Option<Affine2>,
    /// The angle limits as segment limits for the simulation, derived from the rotation limits every step.
    segment_limits: Vec<Option<AngleLimit>>,
    /// Whether the last step had limits (`segment_limits` apply).
    limited: bool,
    /// Each bone's collision radius (sampled when colliders are on), the joints the last step wrote (the sweeps
    /// start there) and whether they belong to the state (not after a reset, nor after a step without colliders).
    radii: Vec<f32>,
    previous: Vec<Vec2>,
    previous_known: bool,
}

impl Simulation {
    /// Sizes the simulation for a chain of `n` bones; a new length starts it afresh.
    pub fn fit(&mut self, n: usize) {
        if self.bones.len() == n {
            return;
        }
        self.bones.resize(n, SpringBone::default());
        self.simulated.resize(n + 1, Vec2::ZERO);
        self.segment_limits.resize(n, None);
        self.previous.resize(n + 1, Vec2::ZERO);
        self.previous_known = false;
        self.frame.unprime();
    }

    /// Snaps the simulation onto the next pose it reads, at rest.
    pub fn reset(&mut self) {
        self.frame.unprime();
        self.last_parent = None;
        self.previous_known = false;
    }

    /// Samples each bone's collision radius: `radius` times the curve at `i / (bones - 1)` (negative or not finite
    /// counts as 0: no collision for that bone).
    pub fn sample_radii(&mut self, bones: usize, radius: f32, curve: Option<&Gd<Curve>>) {
        self.radii.clear();
        let curve = curve.filter(|c| c.is_instance_valid());
        for i in 0..bones {
            let x = if bones > 1 { i as f32 / (bones - 1) as f32 } else { 0.0 };
            let r = radius * curve.map_or(1.0, |c| c.sample_baked(x));
            self.radii.push(if r.is_finite() { r.max(0.0) } else { 0.0 });
        }
    }

    /// After [`Self::step`]: keeps each bone's end outside the world that `collider` answers for (`joints`, the
    /// step's output, move with them; see `reach2d_core::collide_spring`). Without a collider it only forgets the
    /// last joints. Returns how many ends touched.
    pub fn collide(
        &mut self,
        joints: &mut [Vec2],
        settings: &SpringSettings,
        collider: Option<&mut dyn SpringCollider>,
    ) -> u32 {
        let Some(collider) = collider.filter(|_| self.radii.len() == self.bones.len()) else {
            self.previous_known = false;
            return 0;
        };
        let per_bone = if self.limited { &self.segment_limits[..] } else { &[][..] };
        // The limits and scales are what `collide_spring` reads of the goal; the root direction is not used.
        let goal =
            SpringGoal { joints, limits: ChainLimits { root_direction: Vec2::X, per_bone }, scales: &self.scales };
        let previous = self.previous_known.then_some(&self.previous[..]);
        let ends = SpringEnds { radii: &self.radii, previous };
        let contacts =
            collide_spring(&self.frame, &mut self.bones, &goal, settings, ends, &mut self.simulated, collider);
        joints.copy_from_slice(&self.simulated);
        self.previous.copy_from_slice(joints);
        self.previous_known = true;
        contacts
    }

    /// Samples the curves into per-bone scales; leaves them empty (all 1) without curves.
    pub fn sample_scales(&mut self, bones: usize, stiffness: Option<&Gd<Curve>>, damping: Option<&Gd<Curve>>) {
        let scales = &mut self.scales;
        scales.clear();
        if stiffness.is_none() && damping.is_none() {
            return;
        }
        let sample = |curve: Option<&Gd<Curve>>, x: f32| {
            curve.filter(|c| c.is_instance_valid()).map_or(1.0, |c| {
                let v = c.sample_baked(x);
                if v.is_finite() { v.max(0.0) } else { 1.0 }
            })
        };
        for i in 0..bones {
            let x = if bones > 1 { i as f32 / (bones - 1) as f32 } else { 0.0 };
            scales.push(SpringScale { stiffness: sample(stiffness, x), damping: sample(damping, x) });
        }
    }

    /// One step of `delta` seconds toward the goal pose (`pose` as read, `joints` its global joints, replaced by the
    /// simulated ones). A flip of the root's parent carries the swing over mirrored; a root jump beyond
    /// `teleport_distance` (when above 0) resets.
    ///
    /// `flipped` is only called on a flip: it visits the global transforms of the root's parent and the canvas
    /// items above it (see `io::ancestors`), one of which flipped; the reflection it made is the one that moves the
    /// root's frame least (see [`flip_mirror`]).
    #[allow(clippy::too_many_arguments)] // One step's inputs; `flipped` is the rare engine walk.
    pub fn step(
        &mut self,
        pose: ChainPose<'_>,
        joints: &mut [Vec2],
        rotation_limits: &[Option<AngleLimit>],
        settings: &SpringSettings,
        delta: f32,
        teleport_distance: f32,
        flipped: impl FnOnce(&mut dyn FnMut(Affine2)),
    ) -> Result<SpringReport, Problem> {
        // The root frame (the root's parent's x axis) and the limits as segment limits for this pose.
        let root_direction = pose.segment_limits(joints, rotation_limits, &mut self.segment_limits);
        let limited = !rotation_limits.iter().all(Option::is_none);
        self.limited = limited;
        let per_bone = if limited { &self.segment_limits[..] } else { &[][..] };
        if let Some(last) = self.last_parent.filter(|_| self.frame.is_primed()) {
            // A flip (a scale sign change above the chain) carries the swing over, mirrored, instead of whipping;
            // `new * old⁻¹` also holds this frame's own motion, which the next step coasts through.
            let (old, new) = (last.matrix2.determinant(), pose.parent.matrix2.determinant());
            if old != 0.0 && new != 0.0 && old.signum() != new.signum() {
                let jump = pose.parent * last.inverse();
                let reflection = match flip_mirror(jump, self.frame.position(), flipped) {
                    Some(mirror) => {
                        mirror_spring(&mut self.frame, &mut self.bones, mirror);
                        mirror
                    }
                    None => {
                        carry_spring(&mut self.frame, &mut self.bones, jump);
                        jump
                    }
                };
                // The colliders' sweeps start where the ends were: mirrored with the rest of the swing, or a
                // sweep from the old side would cross the character's whole width.
                for end in &mut self.previous {
                    *end = reflection.transform_point2(*end);
                }
            }
            // A NaN jump (a degenerate pose) resets too.
            let jump = self.frame.position().distance(joints[0]);
            if teleport_distance > 0.0 && (jump.is_nan() || jump > teleport_distance) {
                self.frame.unprime();
            }
        }
        self.last_parent = Some(pose.parent);
        let goal = SpringGoal { joints, limits: ChainLimits { root_direction, per_bone }, scales: &self.scales };
        let report = step_spring(&mut self.frame, &mut self.bones, &goal, settings, delta, &mut self.simulated)
            .map_err(|error| match error {
                SpringError::Chain(error) => Problem::Solver(error),
                _ => Problem::SpringForceNotFinite,
            })?;
        joints.copy_from_slice(&self.simulated);
        if report.reset {
            self.previous_known = false;
        }
        Ok(report)
    }
}

/// The reflection a flip made, from `jump` (`new_parent * old_parent⁻¹`: the flip and the frame's own motion) and
/// the candidates `visit` offers (the global transforms of the nodes above the chain, one of which flipped its
/// `scale.x` or `scale.y`): a node with global transform `G` flipping on its x axis reflects the world by
/// `G * diag(-1, 1) * G⁻¹` (the same before and after its flip). Of all candidates, the one that leaves the least
/// motion `mirror⁻¹ * jump` at the root joint `root` (its move plus its turn over 100 px) is the flip; the motion is
/// then the frame's own, which the next step feels like any other. `None` when no candidate is a finite reflection.
fn flip_mirror(jump: Affine2, root: Vec2, visit: impl FnOnce(&mut dyn FnMut(Affine2))) -> Option<Affine2> {
    const TURN_PX: f32 = 100.0;
    let mut best: Option<(f32, Affine2)> = None;
    visit(&mut |global: Affine2| {
        if global.matrix2.determinant().abs() <= f32::EPSILON || !global.is_finite() {
            return;
        }
        let inverse = global.inverse();
        for axis in [Vec2::new(-1.0, 1.0), Vec2::new(1.0, -1.0)] {
            let mirror = global * Affine2::from_scale(axis) * inverse;
            let motion = mirror.inverse() * jump;
            let turn = motion.matrix2.x_axis.to_angle().abs();
            let score = motion.transform_point2(root).distance(root) + TURN_PX * turn;
            if score.is_finite() && best.is_none_or(|(least, _)| score < least) {
                best = Some((score, mirror));
            }
        }
    });
    best.map(|(_, mirror)| mirror)
}
