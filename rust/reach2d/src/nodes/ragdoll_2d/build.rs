//! Building a `Ragdoll2D`'s bodies from its bones (their capsules, masses and joint frames at the animated pose) and
//! tearing them down (the animated pose put back).

use godot::prelude::*;
use reach2d_core::ragdoll::{BodyMotion, Capsule, joint_frame, mass_of, place_capsule};

use super::Ragdoll2D;
use super::bodies::{BodySettings, JointSpec};
use super::state::{Phase, Problem};

impl Ragdoll2D {
    /// Bodies built for the current bones (built now if needed); `false` while the setup is invalid.
    pub(super) fn ensure_built(&mut self) -> bool {
        let root = self.root_bone.as_ref().filter(|b| b.is_instance_valid()).map(|b| b.instance_id());
        let stale = !self.state.rig.alive() || self.state.rig.root_id() != root;
        if self.bodies.is_built() && stale {
            self.tear_down();
        }
        if let Err(problem) = self.check_setup() {
            self.tell(problem);
            return false;
        }
        self.bodies.is_built() || self.build()
    }

    /// Makes the bodies and joints at the animated pose; `false` (and the problem noted) when it cannot.
    fn build(&mut self) -> bool {
        if !self.read_animated() {
            return false;
        }
        self.animated_globals();
        let anchor = self.anchor_target();
        let rig = &self.state.rig;
        let n = rig.bones.len();
        let mut capsules: Vec<Capsule> = Vec::with_capacity(n);
        let (mut masses, mut joints): (Vec<f32>, Vec<JointSpec>) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut limits = Vec::with_capacity(n);
        for i in 0..n {
            let width = self.bone_widths.get(i).filter(|w| *w > 0.0).unwrap_or(self.bone_width);
            let global = self.state.globals[i];
            let Some(capsule) = place_capsule(global, rig.lengths[i], rig.bone_angles[i], width) else {
                return self.refuse(Problem::DegenerateBone);
            };
            masses.push(mass_of(capsule.length, self.mass_per_length, self.bone_masses.get(i).unwrap_or(0.0)));
            let (parent_global, parent_body) = match (rig.parents[i], anchor) {
                (Some(p), _) => (self.state.globals[p], capsules[p].placement.angle - offset_of(&joints[p])),
                (None, Some(anchor)) => (self.root_parent_global(), anchor.angle),
                (None, None) => (self.root_parent_global(), 0.0),
            };
            let handedness = parent_global.matrix2.determinant().signum();
            // The root has a joint only when it is pinned to an anchor.
            let limit = self.limits.get(i as i64).filter(|_| rig.parents[i].is_some() || anchor.is_some());
            let child_axis = capsule.placement.angle;
            let rotation = self.state.animated_rotations[i];
            let frame = limit.map(|l| joint_frame(l, rotation, handedness, child_axis, parent_body));
            limits.push(limit);
            joints.push(JointSpec { parent: rig.parents[i], frame });
            capsules.push(capsule);
        }
        let space = self.base().get_world_2d().map(|w| w.get_space()).filter(Rid::is_valid);
        let Some(space) = space else { return self.refuse(Problem::NoSpace) };
        let settings = BodySettings {
            space,
            layer: u32::try_from(self.collision_layer).unwrap_or(1),
            mask: u32::try_from(self.collision_mask).unwrap_or(1),
            softness: self.joint_softness,
            collide_with_self: self.collide_with_self,
            linear_damp: self.linear_damp,
            angular_damp: self.angular_damp,
        };
        self.bodies.build(&settings, &capsules, &masses, &joints, anchor);
        for (i, (joint, limit)) in joints.iter().zip(limits).enumerate() {
            self.state.frames[i] = joint.frame;
            self.state.limits[i] = limit;
        }
        for (i, capsule) in capsules.iter().enumerate() {
            self.state.targets[i] = capsule.placement;
            self.state.previous_targets[i] = capsule.placement;
            self.state.motions[i] = BodyMotion::default();
        }
        self.state.has_targets = true;
        self.state.told = None;
        self.state.build_problem = None;
        if self.state.note(None) {
            self.base_mut().update_configuration_warnings();
        }
        true
    }

    /// Notes `problem` (told once) and gives `false`.
    fn refuse(&mut self, problem: Problem) -> bool {
        self.state.build_problem = Some(problem);
        if self.state.note(Some(problem)) {
            self.base_mut().update_configuration_warnings();
        }
        self.tell(problem);
        false
    }

    /// Frees the bodies and puts the animated pose back on the bones the node wrote; the bones are resolved again
    /// before the next build.
    pub(super) fn tear_down(&mut self) {
        if self.state.has_written && self.state.rig.alive() {
            self.restore_animated();
        }
        self.bodies.free();
        self.state.forget();
        self.state.phase = Phase::Animated;
        self.state.has_written = false;
    }
}

/// The offset of a joint's child body (0 without a limit).
fn offset_of(joint: &JointSpec) -> f32 {
    joint.frame.map_or(0.0, |f| f.child_offset)
}
