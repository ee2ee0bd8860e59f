//! One physics tick and one process frame of a `Ragdoll2D`: the animated pose read, the bodies followed or read.
//!
//! The physics tick (priority 100, after scripts that pose the bones) reads the animated pose (each bone's rotation
//! unless it still holds the node's own last write), places the bodies' targets there, then by phase: the bodies
//! follow the targets kinematically; or they run (the active drive pulls them toward the targets) and the bones
//! take their pose; or the written pose blends back to the animation. The process frame (priority 100, after
//! animation players) writes the last physics pose again over what the animation wrote since.

use godot::prelude::*;
use reach2d_core::Vec2;
use reach2d_core::ragdoll::{BodyMotion, BodyPlacement, blend_pose, bone_rotation};
use reach2d_core::write_back::BonePose;

use super::Ragdoll2D;
use super::state::{Phase, RagdollState};
use crate::engine::convert::{affine, vec2, vector2};
use crate::engine::editor::in_editor;

/// A body that would move faster than this (px/s) to follow the animation is teleported instead: the character
/// was moved, not swung.
const TELEPORT_SPEED: f32 = 20_000.0;

impl Ragdoll2D {
    /// The physics tick (see the module help).
    pub(super) fn physics_tick(&mut self, delta: f64) {
        if in_editor() || !self.ensure_built() {
            return;
        }
        self.tick(delta);
        if let Some(recording) = self.recording.as_mut() {
            recording.advance(delta, &self.state.rig.bones);
        }
    }

    /// The tick's work, by phase.
    fn tick(&mut self, delta: f64) {
        let delta = delta as f32;
        if !self.read_animated() {
            self.tear_down();
            return;
        }
        let teleport = self.place_targets(delta);
        if self.character.is_stale() {
            let node = self.to_gd().upcast::<Node>();
            self.character.refresh(&node);
        }
        let anchor = self.anchor_target();
        match self.state.phase {
            Phase::Animated => self.bodies.follow(&self.state.targets, anchor, teleport),
            Phase::Running => {
                self.bodies.follow(&[], anchor, teleport);
                self.read_bodies();
                self.hold_limits(delta);
                self.drive(delta);
                self.bodies.set_velocities(&self.state.linear, &self.state.angular, !self.state.rig.anchored);
                self.physics_pose();
                self.write(self.blend_weight());
            }
            Phase::Returning { left, time } => {
                self.bodies.follow(&self.state.targets, anchor, teleport);
                let left = left - delta;
                if left <= 0.0 {
                    self.restore_animated();
                    self.state.phase = Phase::Animated;
                } else {
                    self.state.phase = Phase::Returning { left, time };
                    self.write(self.blend_weight());
                }
            }
        }
    }

    /// The process frame: the running pose written again over what an animation wrote since the physics tick
    /// (nothing when no bone holds anything but the node's own write).
    pub(super) fn process_frame(&mut self) {
        if in_editor() || matches!(self.state.phase, Phase::Animated) || !self.state.has_written {
            return;
        }
        if self.state.rig.alive() && self.read_overwritten() {
            self.write(self.blend_weight());
        }
    }

    /// The animation's rotations (and root position) where it wrote since the node did; `true` when it wrote any.
    fn read_overwritten(&mut self) -> bool {
        let state = &mut self.state;
        let mut overwritten = false;
        for (i, bone) in state.rig.bones.iter().enumerate() {
            let rotation = bone.get_rotation();
            if rotation.to_bits() != state.written[i].to_bits() {
                state.animated_rotations[i] = rotation;
                state.animated[i].rotation = rotation;
                overwritten = true;
            }
        }
        if let (false, Some(root)) = (state.rig.anchored, state.rig.bones.first()) {
            let position = root.get_position();
            if position != state.written_root {
                state.animated_root = vec2(position);
                state.animated[0].position = state.animated_root;
                overwritten = true;
            }
        }
        overwritten
    }

    /// How much of the physics pose is written now.
    fn blend_weight(&self) -> f32 {
        let phase = match self.state.phase {
            Phase::Animated => 0.0,
            Phase::Running => 1.0,
            Phase::Returning { left, time } => (left / time).clamp(0.0, 1.0),
        };
        self.weight * self.character.weight() * phase
    }

    /// Starts the physics (see `start`).
    pub(super) fn start_simulation(&mut self) {
        if in_editor() || matches!(self.state.phase, Phase::Running) || !self.ensure_built() {
            return;
        }
        if !self.read_animated() {
            return;
        }
        self.refresh_targets();
        let n = self.state.rig.bones.len();
        self.state.physics[..n].copy_from_slice(&self.state.animated_rotations);
        self.state.physics_root = self.state.animated_root;
        self.bodies.start(&self.state.targets, &self.state.motions, 1.0 - self.strength);
        self.state.phase = Phase::Running;
    }

    /// Blends back to the animation (see `stop`).
    pub(super) fn stop_simulation(&mut self, blend_time: f32) {
        if !matches!(self.state.phase, Phase::Running) {
            return;
        }
        let anchor = self.anchor_target();
        self.bodies.stop(&self.state.targets, anchor);
        if blend_time.is_finite() && blend_time > 0.0 {
            self.state.phase = Phase::Returning { left: blend_time, time: blend_time };
        } else {
            self.restore_animated();
            self.state.phase = Phase::Animated;
        }
    }

    /// Reads each bone's local pose, its rotation the animation's (the last one read while the bone still holds
    /// the node's own write); `false` when a bone is gone.
    pub(super) fn read_animated(&mut self) -> bool {
        let state = &mut self.state;
        if !state.rig.alive() {
            return false;
        }
        for (i, bone) in state.rig.bones.iter().enumerate() {
            let rotation = bone.get_rotation();
            let own = state.has_written && rotation.to_bits() == state.written[i].to_bits();
            let animated = if own { state.animated_rotations[i] } else { rotation };
            let mut position = vec2(bone.get_position());
            if i == 0 && !state.rig.anchored {
                let own = state.has_written && bone.get_position() == state.written_root;
                position = if own { state.animated_root } else { position };
                state.animated_root = position;
            }
            state.animated_rotations[i] = animated;
            state.animated[i] = BonePose::new(position, animated, vec2(bone.get_scale()), bone.get_skew());
        }
        true
    }

    /// The root bone's parent's global transform (identity without a `Node2D` parent).
    pub(super) fn root_parent_global(&self) -> glam::Affine2 {
        self.state.rig.root_parent.as_ref().map_or(Default::default(), |p| affine(p.get_global_transform()))
    }

    /// The animated pose's global transforms into `globals`.
    pub(super) fn animated_globals(&mut self) {
        let root_parent = self.root_parent_global();
        let state = &mut self.state;
        for i in 0..state.animated.len() {
            let parent = state.rig.parents[i].map_or(root_parent, |p| state.globals[p]);
            state.globals[i] = parent * state.animated[i].local();
        }
    }

    /// The anchor's placement, for a branch: the root's parent bone, its x axis.
    pub(super) fn anchor_target(&self) -> Option<BodyPlacement> {
        if !self.state.rig.anchored {
            return None;
        }
        let global = self.root_parent_global();
        Some(BodyPlacement { origin: global.translation, angle: global.matrix2.x_axis.to_angle() })
    }

    /// The bodies' targets in the animated pose, and the motion since the last tick; `true` when it jumped (a
    /// teleport: no motion is kept).
    fn place_targets(&mut self, delta: f32) -> bool {
        self.animated_globals();
        let state = &mut self.state;
        let mut jumped = false;
        for i in 0..state.targets.len() {
            let Some(placement) = target_of(state, i) else { continue };
            state.previous_targets[i] = state.targets[i];
            state.targets[i] = placement;
            let motion = BodyMotion::between(state.previous_targets[i], placement, delta);
            let reach = self.bodies.length(i);
            let kept = motion.unless_faster_than(TELEPORT_SPEED, reach);
            jumped |= kept != motion;
            state.motions[i] = if state.has_targets { kept } else { BodyMotion::default() };
        }
        state.has_targets = true;
        if jumped {
            state.motions.iter_mut().for_each(|m| *m = BodyMotion::default());
        }
        jumped
    }

    /// The targets moved to the pose the bones have now (an animation may have moved them since the last tick), the
    /// motion of each target that moved measured over one physics tick: the bodies start where the bones are.
    fn refresh_targets(&mut self) {
        self.animated_globals();
        let ticks = godot::classes::Engine::singleton().get_physics_ticks_per_second().max(1);
        let delta = 1.0 / ticks as f32;
        let state = &mut self.state;
        for i in 0..state.targets.len() {
            let Some(placement) = target_of(state, i) else { continue };
            if placement != state.targets[i] {
                let motion = BodyMotion::between(state.targets[i], placement, delta);
                state.motions[i] = motion.unless_faster_than(TELEPORT_SPEED, self.bodies.length(i));
                state.targets[i] = placement;
            }
        }
    }

    /// The bodies' placements and velocities (a body the server cannot answer for keeps its last placement).
    fn read_bodies(&mut self) {
        for i in 0..self.state.placements.len() {
            if let Some(placement) = self.bodies.placement(i) {
                self.state.placements[i] = placement;
            }
            (self.state.linear[i], self.state.angular[i]) = self.bodies.velocity(i);
        }
    }

    /// The bodies' pose as local rotations (and the root's position) into `physics`, root to tip through the new
    /// global transforms.
    fn physics_pose(&mut self) {
        let root_parent = self.root_parent_global();
        let state = &mut self.state;
        for i in 0..state.placements.len() {
            let body = state.placements[i];
            let mut pose = state.animated[i];
            let parent = match state.rig.parents[i] {
                Some(p) => state.globals[p],
                None => {
                    if !state.rig.anchored {
                        let inverse =
                            root_parent.matrix2.try_inverse().map(|m| m * (body.origin - root_parent.translation));
                        pose.position = inverse.filter(|p| p.is_finite()).unwrap_or(pose.position);
                        state.physics_root = pose.position;
                    }
                    root_parent
                }
            };
            // Written as the bodies lie, never clamped into the limit: a bone clamped while its body is pushed past
            // the limit by an impact is drawn inside what it hit (measured: 6 px deep, against 1.9 unclamped).
            let rotation = bone_rotation(parent, &pose, state.rig.bone_angles[i], body.angle);
            state.physics[i] = rotation;
            state.globals[i] = parent * pose.local_with(rotation);
        }
    }

    /// Writes the pose `weight` of the way from the animated one to the physics one; nothing unless every value is
    /// finite.
    fn write(&mut self, weight: f32) {
        let state = &mut self.state;
        let n = state.rig.bones.len();
        state.blended[..n].copy_from_slice(&state.physics[..n]);
        let mut root = state.physics_root;
        blend_pose(&state.animated_rotations, &mut state.blended, (state.animated_root, &mut root), weight);
        if !(state.blended.iter().all(|r| r.is_finite()) && root.is_finite()) {
            return;
        }
        for (bone, &rotation) in state.rig.bones.iter_mut().zip(&state.blended) {
            bone.set_rotation(rotation);
        }
        if let (false, Some(bone)) = (state.rig.anchored, state.rig.bones.first_mut()) {
            bone.set_position(vector2(root));
            state.written_root = bone.get_position();
        }
        for (written, bone) in state.written.iter_mut().zip(&state.rig.bones) {
            *written = bone.get_rotation();
        }
        state.has_written = true;
    }

    /// Puts the animated pose back on the bones; the node's writes are over.
    pub(super) fn restore_animated(&mut self) {
        let state = &mut self.state;
        for (bone, &rotation) in state.rig.bones.iter_mut().zip(&state.animated_rotations) {
            if bone.is_instance_valid() {
                bone.set_rotation(rotation);
            }
        }
        let root = state.rig.bones.first_mut().filter(|b| b.is_instance_valid());
        if let (false, true, Some(root)) = (state.rig.anchored, state.has_written, root) {
            root.set_position(vector2(state.animated_root));
        }
        state.has_written = false;
    }
}

/// Where body `i` goes in the pose of `state.globals`: the bone's origin, its axis along the bone on screen.
fn target_of(state: &RagdollState, i: usize) -> Option<BodyPlacement> {
    let global = state.globals[i];
    let axis = global.matrix2 * Vec2::from_angle(state.rig.bone_angles[i]);
    let placement = BodyPlacement { origin: global.translation, angle: axis.to_angle() };
    (placement.origin.is_finite() && placement.angle.is_finite()).then_some(placement)
}
