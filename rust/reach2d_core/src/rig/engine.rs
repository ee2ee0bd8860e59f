//! The engine side of a rig ([`RigPose`]): its points from the bones' local poses, limits on local rotations as
//! limits on axis angles, and the write-back of solved points as local rotations; the tree forms of
//! [`ChainPose`](crate::write_back::ChainPose)'s.

use glam::{Affine2, Vec2};

use super::tree::{DEGENERATE_SQ, FabrikRig};
use crate::angle::{AngleLimit, signed_angle, wrap_angle};
use crate::write_back::{BonePose, finish_rotation, solved_rotation};

/// A rig's pose as read from the engine: the root bone's parent's global transform, each bone's local pose (parents
/// first) and each effector's end in its tip bone's own space.
#[derive(Clone, Copy, Debug)]
pub struct RigPose<'a> {
    /// Global transform of the root bone's parent.
    pub parent: Affine2,
    /// Local poses, numbered as in the [`FabrikRig`].
    pub bones: &'a [BonePose],
    /// Per effector: the end in its tip bone's space (Godot: `Vector2.from_angle(bone_angle) * length`).
    pub tip_offsets: &'a [Vec2],
}

impl FabrikRig {
    /// Writes the global points of `pose` (bone origins, then each effector's end). `bones` holds each bone's local
    /// pose (parents first, as numbered in this rig), `tip_offsets` each effector's end in its tip bone's own space.
    /// Points without a bone or an offset are left as they are.
    pub fn pose_points(&mut self, pose: &RigPose, points: &mut [Vec2]) {
        let n = self.parents.len();
        for (i, bone) in pose.bones.iter().enumerate().take(n) {
            let parent = if i == 0 { pose.parent } else { self.globals[self.parents[i]] };
            self.globals[i] = parent * bone.local();
            if let Some(point) = points.get_mut(i) {
                *point = self.globals[i].translation;
            }
        }
        if pose.bones.len() < n {
            return;
        }
        for (k, (&tip, &offset)) in self.tips.iter().zip(pose.tip_offsets).enumerate() {
            if let Some(point) = points.get_mut(n + k) {
                *point = self.globals[tip].transform_point2(offset);
            }
        }
    }

    /// Translates limits on each bone's local rotation into [`FabrikRig::solve`]'s limits on axis angles for this
    /// pose (its points from [`FabrikRig::pose_points`]); the tree form of
    /// [`ChainPose::segment_limits`](crate::write_back::ChainPose::segment_limits): exact under similarity transforms
    /// of either handedness. Returns the root direction.
    pub fn segment_limits(
        &mut self,
        pose: &RigPose,
        points: &[Vec2],
        rotation_limits: &[Option<AngleLimit>],
        out: &mut [Option<AngleLimit>],
    ) -> Vec2 {
        let root_direction = if pose.parent.matrix2.x_axis.length_squared() > DEGENERATE_SQ {
            pose.parent.matrix2.x_axis
        } else {
            Vec2::X
        };
        let n = self.parents.len().min(pose.bones.len());
        for i in 0..n {
            let parent = if i == 0 { pose.parent } else { self.globals[self.parents[i]] };
            self.globals[i] = parent * pose.bones[i].local();
        }
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = None;
            let (Some(limit), true) = (rotation_limits.get(i).copied().flatten(), i < n) else { continue };
            let axis = match (points.get(i), points.get(self.axis_point(i))) {
                (Some(&a), Some(&b)) => b - a,
                _ => continue,
            };
            if axis.length_squared() <= DEGENERATE_SQ {
                continue;
            }
            let parent = if i == 0 { pose.parent } else { self.globals[self.parents[i]] };
            let reference = self.reference(points, i, root_direction.normalize_or(Vec2::X));
            let handedness = parent.matrix2.determinant().signum();
            let offset = wrap_angle(signed_angle(reference, axis) - handedness * pose.bones[i].rotation);
            let (a, b) = (offset + handedness * limit.min, offset + handedness * limit.max);
            *slot = AngleLimit::new(a.min(b), a.max(b));
        }
        root_direction
    }

    /// Each bone's new local rotation from solved `points`, blended by `weight` (Godot's `lerp_angle` from the read
    /// rotation) and clamped into `rotation_limits`, into `out`; each effector's end in the written pose into
    /// `ends`. Parents first, keeping each parent's new global transform (never read back), with
    /// [`ChainPose::write_back`](crate::write_back::ChainPose::write_back)'s formula: exact under any reflection. A
    /// bone whose axis is undefined keeps its rotation. Returns `false` (`out` unspecified: write nothing) when a
    /// result would not be finite or a buffer is short.
    pub fn write_back(
        &mut self,
        pose: &RigPose,
        points: &[Vec2],
        weight: f32,
        rotation_limits: &[Option<AngleLimit>],
        out: &mut [f32],
        ends: &mut [Vec2],
    ) -> bool {
        let (n, e) = (self.parents.len(), self.tips.len());
        if pose.bones.len() < n
            || pose.tip_offsets.len() < e
            || points.len() < n + e
            || out.len() < n
            || ends.len() < e
            || !weight.is_finite()
        {
            return false;
        }
        // Indexed: each bone reads its parent's transforms from the buffers it writes.
        #[allow(clippy::needless_range_loop)]
        for i in 0..n {
            let bone = &pose.bones[i];
            let (solved_parent, written_parent) = if i == 0 {
                (pose.parent, pose.parent)
            } else {
                (self.solved[self.parents[i]], self.globals[self.parents[i]])
            };
            let limit = rotation_limits.get(i).copied().flatten();
            let axis_point = self.axis_point(i);
            let local_axis =
                if axis_point < n { pose.bones[axis_point].position } else { pose.tip_offsets[axis_point - n] };
            let solved = solved_rotation(solved_parent, bone, points[axis_point], local_axis);
            let rotation = finish_rotation(bone.rotation, solved, weight, limit, None);
            if !rotation.written.is_finite() {
                return false;
            }
            out[i] = rotation.written;
            self.solved[i] = solved_parent * bone.local_with(rotation.solved);
            self.globals[i] = written_parent * bone.local_with(rotation.written);
        }
        for (k, (&tip, &offset)) in self.tips.iter().zip(pose.tip_offsets).enumerate() {
            ends[k] = self.globals[tip].transform_point2(offset);
            if !ends[k].is_finite() {
                return false;
            }
        }
        true
    }
}
