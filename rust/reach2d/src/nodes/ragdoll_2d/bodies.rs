//! The ragdoll's bodies, shapes and joints on the `PhysicsServer2D` (whichever server the project runs): made when
//! the ragdoll is built, freed when it is torn down. Each body is a rigid placement (no scale) at the bone's origin
//! with one capsule along the bone. A child body is turned in its own frame by its joint frame's offset
//! (`reach2d_core::ragdoll::joint_frame`), so its joint's limits are symmetric; everything outside this file speaks
//! of the bone's axis (`BodyPlacement::angle` is the axis angle), the offsets applied here at the server's edge.
//! The pins carry no angular limit of the server's: Godot's pin limits are known not to hold or to spin the bodies
//! (godotengine/godot#91691, #88481; the fix, #104539, is not merged), and with them on these bodies' state turned
//! NaN in the first physics step under Godot 4.6.3. `drive.rs` (`hold_limits`) holds the limits instead, alike on
//! any server.

use core::f32::consts::FRAC_PI_2;

use godot::classes::PhysicsServer2D;
use godot::classes::physics_server_2d::{BodyMode, BodyParameter, BodyState, PinJointParam};
use godot::prelude::*;
use reach2d_core::ragdoll::{BodyMotion, BodyPlacement, Capsule, JointFrame, capsule_inertia, point_velocity};

use crate::engine::convert::{vec2, vector2};

/// One bone's joint to its parent's body (or to the anchor): the parent body and its limit's frame.
pub struct JointSpec {
    /// The parent's body index; `None` pins the body to the anchor.
    pub parent: Option<usize>,
    /// The limit, as the child body's offset and the half width the node holds it in.
    pub frame: Option<JointFrame>,
}

/// What the bodies are made of.
pub struct BodySettings {
    pub space: Rid,
    pub layer: u32,
    pub mask: u32,
    pub softness: f32,
    pub collide_with_self: bool,
    /// Added to the world's damping (1/s).
    pub linear_damp: f32,
    pub angular_damp: f32,
}

/// The server's objects of one ragdoll. Empty until built.
#[derive(Default)]
pub struct Bodies {
    bodies: Vec<Rid>,
    shapes: Vec<Rid>,
    joints: Vec<Rid>,
    /// A kinematic body on the root's parent bone, for a branch.
    anchor: Option<Rid>,
    /// Each body's capsule (its length places the centre of mass).
    capsules: Vec<Capsule>,
    /// Each body's bone axis angle minus its own angle.
    offsets: Vec<f32>,
    /// Each body's moment of inertia (kg·px²).
    inertias: Vec<f32>,
    /// Each body's velocities as last read (linear, angular).
    read: Vec<(Vector2, f32)>,
    /// The gravity scale the bodies have now.
    gravity_scale: f32,
}

fn server() -> Gd<PhysicsServer2D> {
    PhysicsServer2D::singleton()
}

/// A body's transform for the bone axis placement `placement`: no scale, turned back by the body's `offset`.
fn transform(placement: BodyPlacement, offset: f32) -> Transform2D {
    Transform2D::from_angle_origin(placement.angle - offset, vector2(placement.origin))
}

impl Bodies {
    /// `true` once built.
    pub fn is_built(&self) -> bool {
        !self.bodies.is_empty()
    }

    /// Makes one kinematic body per capsule (at its placement), the anchor when `anchor` is given, and the joints.
    pub fn build(
        &mut self,
        settings: &BodySettings,
        capsules: &[Capsule],
        masses: &[f32],
        joints: &[JointSpec],
        anchor: Option<BodyPlacement>,
    ) {
        self.free();
        let mut server = server();
        self.offsets.clear();
        self.offsets.extend(joints.iter().map(|j| j.frame.map_or(0.0, |f| f.child_offset)));
        for ((capsule, &mass), &offset) in capsules.iter().zip(masses).zip(&self.offsets) {
            let body = server.body_create();
            server.body_set_space(body, settings.space);
            // Static while the joints are made: a static body's transform is set at once.
            server.body_set_mode(body, BodyMode::STATIC);
            let shape = server.capsule_shape_create();
            let height = capsule.length + 2.0 * capsule.radius;
            server.shape_set_data(shape, &Vector2::new(capsule.radius.max(0.01), height).to_variant());
            // A capsule shape stands along its y axis: turned to lie along the bone, centred half a bone along it.
            let along = Vector2::from_angle(offset) * (0.5 * capsule.length);
            server
                .body_add_shape_ex(body, shape)
                .transform(Transform2D::from_angle_origin(offset + FRAC_PI_2, along))
                .done();
            server.body_set_param(body, BodyParameter::MASS, &mass.to_variant());
            let inertia = capsule_inertia(mass, capsule.length, capsule.radius);
            server.body_set_param(body, BodyParameter::INERTIA, &inertia.to_variant());
            self.inertias.push(inertia);
            server.body_set_param(body, BodyParameter::CENTER_OF_MASS, &along.to_variant());
            server.body_set_param(body, BodyParameter::LINEAR_DAMP, &settings.linear_damp.to_variant());
            server.body_set_param(body, BodyParameter::ANGULAR_DAMP, &settings.angular_damp.to_variant());
            server.body_set_collision_layer(body, settings.layer);
            server.body_set_collision_mask(body, settings.mask);
            server.body_set_state(body, BodyState::TRANSFORM, &transform(capsule.placement, offset).to_variant());
            self.bodies.push(body);
            self.shapes.push(shape);
        }
        self.capsules.clear();
        self.capsules.extend_from_slice(capsules);
        self.read.clear();
        self.read.resize(capsules.len(), (Vector2::ZERO, 0.0));
        if let Some(placement) = anchor {
            let body = server.body_create();
            server.body_set_space(body, settings.space);
            server.body_set_mode(body, BodyMode::STATIC);
            server.body_set_collision_layer(body, 0);
            server.body_set_collision_mask(body, 0);
            server.body_set_state(body, BodyState::TRANSFORM, &transform(placement, 0.0).to_variant());
            self.anchor = Some(body);
        }
        for (child, spec) in joints.iter().enumerate() {
            let (parent, parent_angle) = match (spec.parent, anchor, self.anchor) {
                (Some(p), _, _) => (self.bodies[p], capsules[p].placement.angle - self.offsets[p]),
                (None, Some(placement), Some(anchor)) => (anchor, placement.angle),
                _ => continue,
            };
            self.pin(&mut server, child, parent, parent_angle, settings.softness);
        }
        self.except_collisions(settings.collide_with_self, joints);
        for &body in self.bodies.iter().chain(&self.anchor) {
            server.body_set_mode(body, BodyMode::KINEMATIC);
        }
        self.gravity_scale = 1.0;
    }

    /// Pins body `child` to `parent` (whose body angle is `parent_angle`) at the child's origin. The joint is made
    /// with the child turned to the parent's angle, so it measures from 0, then the child is put back.
    fn pin(&mut self, server: &mut Gd<PhysicsServer2D>, child: usize, parent: Rid, parent_angle: f32, softness: f32) {
        let (body, placement) = (self.bodies[child], self.capsules[child].placement);
        let at = vector2(placement.origin);
        let meeting = Transform2D::from_angle_origin(parent_angle, at);
        server.body_set_state(body, BodyState::TRANSFORM, &meeting.to_variant());
        let joint = server.joint_create();
        server.joint_make_pin_ex(joint, at, parent).body_b(body).done();
        server.pin_joint_set_param(joint, PinJointParam::SOFTNESS, softness);
        server.joint_disable_collisions_between_bodies(joint, true);
        server.body_set_state(body, BodyState::TRANSFORM, &transform(placement, self.offsets[child]).to_variant());
        self.joints.push(joint);
    }

    /// Bodies of one ragdoll never collide with the body they are pinned to; with `collide_with_self` off, with
    /// none of the others either.
    fn except_collisions(&mut self, collide_with_self: bool, joints: &[JointSpec]) {
        let mut server = server();
        let n = self.bodies.len();
        for a in 0..n {
            for b in a + 1..n {
                let neighbours = joints[b].parent == Some(a) || joints[a].parent == Some(b);
                if !collide_with_self || neighbours {
                    server.body_add_collision_exception(self.bodies[a], self.bodies[b]);
                    server.body_add_collision_exception(self.bodies[b], self.bodies[a]);
                }
            }
        }
    }

    /// Frees every object on the server (joints first).
    pub fn free(&mut self) {
        if self.bodies.is_empty() && self.anchor.is_none() {
            return;
        }
        let mut server = server();
        for rid in self.joints.drain(..).chain(self.bodies.drain(..)).chain(self.shapes.drain(..)) {
            server.free_rid(rid);
        }
        if let Some(anchor) = self.anchor.take() {
            server.free_rid(anchor);
        }
        self.capsules.clear();
        self.offsets.clear();
        self.inertias.clear();
    }

    /// Kinematic bodies moved to `targets` for the next step (they push what they meet); `teleport` puts them there
    /// without a velocity.
    pub fn follow(&mut self, targets: &[BodyPlacement], anchor: Option<BodyPlacement>, teleport: bool) {
        let mut server = server();
        for ((&body, &target), &offset) in self.bodies.iter().zip(targets).zip(&self.offsets) {
            place_kinematic(&mut server, body, transform(target, offset), teleport);
        }
        if let (Some(body), Some(target)) = (self.anchor, anchor) {
            place_kinematic(&mut server, body, transform(target, 0.0), teleport);
        }
    }

    /// Makes the bodies dynamic at `targets` with the motions given (each body's centre of mass moving as the
    /// animated bone moved), gravity scaled by `gravity_scale`.
    pub fn start(&mut self, targets: &[BodyPlacement], motions: &[BodyMotion], gravity_scale: f32) {
        let mut server = server();
        for (i, (&target, &motion)) in targets.iter().zip(motions).enumerate() {
            let (body, capsule) = (self.bodies[i], self.capsules[i]);
            server.body_set_mode(body, BodyMode::RIGID);
            server.body_set_state(body, BodyState::TRANSFORM, &transform(target, self.offsets[i]).to_variant());
            let centre = target.point(reach2d_core::Vec2::new(0.5 * capsule.length, 0.0));
            let velocity = point_velocity(motion, target.origin, centre);
            server.body_set_state(body, BodyState::LINEAR_VELOCITY, &vector2(velocity).to_variant());
            server.body_set_state(body, BodyState::ANGULAR_VELOCITY, &motion.angular_velocity.to_variant());
            server.body_set_state(body, BodyState::SLEEPING, &false.to_variant());
        }
        self.set_gravity_scale(gravity_scale);
    }

    /// Kinematic again (teleported to `targets`).
    pub fn stop(&mut self, targets: &[BodyPlacement], anchor: Option<BodyPlacement>) {
        let mut server = server();
        for &body in &self.bodies {
            server.body_set_mode(body, BodyMode::KINEMATIC);
        }
        self.follow(targets, anchor, true);
    }

    /// Every body's gravity scaled by `scale` (only when it changed).
    pub fn set_gravity_scale(&mut self, scale: f32) {
        if scale == self.gravity_scale {
            return;
        }
        let mut server = server();
        for &body in &self.bodies {
            server.body_set_param(body, BodyParameter::GRAVITY_SCALE, &scale.to_variant());
        }
        self.gravity_scale = scale;
    }

    /// Body `index`'s placement now.
    pub fn placement(&self, index: usize) -> Option<BodyPlacement> {
        let body = *self.bodies.get(index)?;
        let t = server().body_get_state(body, BodyState::TRANSFORM).try_to::<Transform2D>().ok()?;
        let placement = BodyPlacement { origin: vec2(t.origin), angle: t.a.y.atan2(t.a.x) + self.offsets[index] };
        (placement.origin.is_finite() && placement.angle.is_finite()).then_some(placement)
    }

    /// Puts body `index` at `placement` (a dynamic body keeps its velocity).
    pub fn place(&mut self, index: usize, placement: BodyPlacement) {
        let body = self.bodies[index];
        let transform = transform(placement, self.offsets[index]);
        server().body_set_state(body, BodyState::TRANSFORM, &transform.to_variant());
    }

    /// Body `index`'s linear velocity (of its centre of mass) and angular velocity.
    pub fn velocity(&mut self, index: usize) -> (Vector2, f32) {
        let server = server();
        let body = self.bodies[index];
        let linear = server.body_get_state(body, BodyState::LINEAR_VELOCITY).try_to::<Vector2>().unwrap_or_default();
        let angular = server.body_get_state(body, BodyState::ANGULAR_VELOCITY).try_to::<f32>().unwrap_or_default();
        self.read[index] = (linear, angular);
        (linear, angular)
    }

    /// Sets every body's angular velocity, and the root's linear one when `root_linear`.
    pub fn set_velocities(&mut self, linear: &[Vector2], angular: &[f32], root_linear: bool) {
        let mut server = server();
        // Only what changed: setting a velocity wakes the body, and a pile whose bodies never sleep jitters.
        for (i, (&body, &angular)) in self.bodies.iter().zip(angular).enumerate() {
            let (read_linear, read_angular) = self.read[i];
            if i == 0 && root_linear && linear[0] != read_linear {
                server.body_set_state(body, BodyState::LINEAR_VELOCITY, &linear[0].to_variant());
            }
            if angular.to_bits() != read_angular.to_bits() {
                server.body_set_state(body, BodyState::ANGULAR_VELOCITY, &angular.to_variant());
            }
        }
    }

    /// Body `index`'s moment of inertia.
    pub fn inertia(&self, index: usize) -> f32 {
        self.inertias.get(index).copied().unwrap_or(1.0)
    }

    /// The length of body `index`'s capsule (its centre of mass is half of it along the body).
    pub fn length(&self, index: usize) -> f32 {
        self.capsules.get(index).map_or(0.0, |c| c.length)
    }

    /// Pushes body `index` with `impulse` at the global point `at`.
    pub fn apply_impulse(&mut self, index: usize, impulse: Vector2, at: Vector2) {
        let Some(placement) = self.placement(index) else { return };
        let body = self.bodies[index];
        let mut server = server();
        server.body_set_state(body, BodyState::SLEEPING, &false.to_variant());
        server.body_apply_impulse_ex(body, impulse).position(at - vector2(placement.origin)).done();
    }
}

/// A kinematic body moved to `target` (through the static mode when it must not gain a velocity).
fn place_kinematic(server: &mut Gd<PhysicsServer2D>, body: Rid, target: Transform2D, teleport: bool) {
    if teleport {
        server.body_set_mode(body, BodyMode::STATIC);
        server.body_set_state(body, BodyState::TRANSFORM, &target.to_variant());
        server.body_set_mode(body, BodyMode::KINEMATIC);
    } else {
        server.body_set_state(body, BodyState::TRANSFORM, &target.to_variant());
    }
}
