//! The running ragdoll's own forces, every physics tick before the bodies are written back: the joints held in
//! their limits, and the active ragdoll's pull toward the animated pose (`strength`). Both work on the velocities
//! read this tick (`RagdollState::linear`, `angular`), which `frame.rs` hands back to the server.

use godot::prelude::*;
use reach2d_core::Vec2;
use reach2d_core::ragdoll::{drive_velocity, limit_velocity, past_limit, point_velocity};

use super::Ragdoll2D;

impl Ragdoll2D {
    /// Each limited joint back on its limit when it is past it, and its relative turn held so that it ends the next
    /// step within its limit, the change shared
    /// between the two bodies by their inertia (all of it on the child when its parent is the anchor, which the
    /// animation moves). The pins carry no server limit (see `bodies.rs`), so this holds them alike on every
    /// physics server.
    pub(super) fn hold_limits(&mut self, delta: f32) {
        let anchor_angle = self.anchor_target().map_or(0.0, |a| a.angle);
        let state = &mut self.state;
        for i in 0..state.placements.len() {
            let Some(frame) = state.frames[i] else { continue };
            let parent = state.rig.parents[i];
            let (parent_angle, parent_velocity) = match parent {
                Some(p) => {
                    (state.placements[p].angle - state.frames[p].map_or(0.0, |f| f.child_offset), state.angular[p])
                }
                None => (anchor_angle, 0.0),
            };
            let mut relative = reach2d_core::wrap_angle(state.placements[i].angle - frame.child_offset - parent_angle);
            // A joint pushed past its limit (contacts win over a velocity) is turned back onto it about its pin.
            let past = 0.5 * past_limit(relative, frame.half_width);
            if past != 0.0 {
                state.placements[i].angle -= past;
                relative -= past;
                self.bodies.place(i, state.placements[i]);
            }
            let velocity = state.angular[i] - parent_velocity;
            let change = limit_velocity(relative, velocity, frame.half_width, delta) - velocity;
            if change == 0.0 {
                continue;
            }
            let child_inertia = self.bodies.inertia(i);
            let parent_inertia = parent.map_or(f32::INFINITY, |p| self.bodies.inertia(p));
            let child_share =
                if parent_inertia.is_finite() { parent_inertia / (parent_inertia + child_inertia) } else { 1.0 };
            state.angular[i] += change * child_share;
            if let Some(p) = parent {
                state.angular[p] -= change * (1.0 - child_share);
            }
        }
    }

    /// The active ragdoll: each body's velocity pulled toward what brings it to its target; gravity by
    /// `1 - strength`.
    pub(super) fn drive(&mut self, delta: f32) {
        self.bodies.set_gravity_scale(1.0 - self.strength);
        if self.strength <= 0.0 {
            return;
        }
        let state = &mut self.state;
        for i in 0..state.placements.len() {
            let (now, target, motion) = (state.placements[i], state.targets[i], state.motions[i]);
            let gap = reach2d_core::wrap_angle(target.angle - now.angle);
            state.angular[i] = drive_velocity(state.angular[i], gap, motion.angular_velocity, self.strength, delta);
            if i == 0 && !state.rig.anchored {
                let centre = Vec2::new(0.5 * self.bodies.length(i), 0.0);
                let (at, wanted) = (now.point(centre), target.point(centre));
                let animated = point_velocity(motion, target.origin, wanted);
                let gap = wanted - at;
                let linear = state.linear[i];
                let x = drive_velocity(linear.x, gap.x, animated.x, self.strength, delta);
                let y = drive_velocity(linear.y, gap.y, animated.y, self.strength, delta);
                state.linear[i] = Vector2::new(x, y);
            }
        }
    }
}
