//! Write-back of solved joint positions into local bone rotations, exact under any negative scale.
//!
//! An engine builds a bone's local transform as `translate(position) * rotate(rotation) * basis`, where
//! `basis` holds scale and skew. Only `rotation` may change. [`ChainPose::write_back`] walks the chain from the
//! root, keeps each parent's new global transform itself (it never reads one back from the engine), and sets
//! each rotation so that the bone's child lands where the solver put it:
//!
//! ```text
//! v          = parent⁻¹ · q[i+1] − position_i      (where the child must sit, seen from the parent)
//! rotation_i = angle(v) − angle(basis_i · c_i)     (c_i: the child's offset in bone i's own space)
//! ```
//!
//! A reflection anywhere (a mirrored skeleton, a mirrored ancestor, the bone's own negative scale on one or
//! both axes) lives inside the matrices, so no sign rules are needed. When every transform on the chain is a
//! similarity (uniform scale of any sign, no skew) the bones land exactly on the solved joints; under
//! non-uniform scale or skew the bones still point the right way but their lengths change with the angle.

use glam::{Affine2, Mat2, Vec2};

use crate::angle::{AngleLimit, signed_angle, step_toward, wrap_angle};

/// Squared length below which a direction is treated as undefined (the bone keeps its rotation).
const DEGENERATE_SQ: f32 = 1.0e-12;

/// Input rotations beyond this (radians) are wrapped before blending; below it they are kept bit for bit.
const HUGE_ROTATION: f32 = 1000.0;

/// One bone's local transform split the way Godot's `Node2D` builds it.
///
/// `local = translate(position) * rotate(rotation) * basis`, with `basis` the scale-and-skew part
/// `[[sx, -sy·sin(skew)], [0, sy·cos(skew)]]` (columns `(sx, 0)` and `(-sy·sin(skew), sy·cos(skew))`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BonePose {
    /// Local position, in the parent's units.
    pub position: Vec2,
    /// Local rotation, radians.
    pub rotation: f32,
    /// Scale and skew, applied before the rotation.
    pub basis: Mat2,
}

impl Default for BonePose {
    fn default() -> Self {
        Self { position: Vec2::ZERO, rotation: 0.0, basis: Mat2::IDENTITY }
    }
}

impl BonePose {
    /// A pose from Godot's `Node2D` properties: position, rotation (radians), scale and skew (radians).
    #[must_use]
    pub fn new(position: Vec2, rotation: f32, scale: Vec2, skew: f32) -> Self {
        let (sin, cos) = skew.sin_cos();
        let basis = Mat2::from_cols(Vec2::new(scale.x, 0.0), Vec2::new(-scale.y * sin, scale.y * cos));
        Self { position, rotation, basis }
    }

    /// The local transform with this pose's own rotation.
    #[must_use]
    pub fn local(&self) -> Affine2 {
        self.local_with(self.rotation)
    }

    /// The local transform with `rotation` (radians) in place of this pose's rotation.
    #[must_use]
    pub fn local_with(&self, rotation: f32) -> Affine2 {
        Affine2::from_mat2_translation(Mat2::from_angle(rotation) * self.basis, self.position)
    }
}

/// A speed limit for one write-back: see [`ChainPose::write_back_stepped`].
#[derive(Debug)]
pub struct RotationStep<'a> {
    /// Each bone's rotation after the previous write-back's step (radians), root first.
    pub previous: &'a [f32],
    /// Most each rotation may move in this write-back, radians; `f32::INFINITY` for no limit.
    pub max_step: f32,
    /// Receives each bone's rotation after this step, before `weight` (radians).
    pub stepped: &'a mut [f32],
}

/// A chain's pose as read from the engine: the root's parent global transform and each bone's local pose.
#[derive(Clone, Copy, Debug)]
pub struct ChainPose<'a> {
    /// Global transform of the root bone's parent.
    pub parent: Affine2,
    /// Local poses from the root bone to the tip bone; each is the parent of the next.
    pub bones: &'a [BonePose],
    /// The end of the tip bone in its own space (Godot: `Vector2.from_angle(bone_angle) * length`).
    pub tip_offset: Vec2,
}

impl ChainPose<'_> {
    /// The offset of bone `i`'s child joint in bone `i`'s own space.
    fn child_offset(&self, i: usize) -> Vec2 {
        self.bones.get(i + 1).map_or(self.tip_offset, |next| next.position)
    }

    /// The angle (radians, `(-PI, PI]`) from bone `i`'s global x axis to its segment (toward its child joint) in
    /// this pose. Turning the bone does not change it when its global transform is a similarity (uniform scale of
    /// any sign, no skew), so a wanted x-axis direction gives the segment's direction. 0 for a bone past the end or
    /// a degenerate axis.
    #[must_use]
    pub fn segment_angle_from_x_axis(&self, i: usize) -> f32 {
        let Some(bones) = self.bones.get(..=i) else { return 0.0 };
        let global = bones.iter().fold(self.parent, |global, bone| global * bone.local());
        signed_angle(global.matrix2.x_axis, global.matrix2 * self.child_offset(i))
    }

    /// Writes the global joint positions of this pose: each bone's origin, then the tip's end.
    ///
    /// Only the first `min(joints.len(), bones.len() + 1)` joints are written.
    pub fn joints(&self, joints: &mut [Vec2]) {
        let mut global = self.parent;
        for (i, bone) in self.bones.iter().enumerate() {
            global *= bone.local();
            if let Some(joint) = joints.get_mut(i) {
                *joint = global.translation;
            }
        }
        if let Some(tip) = joints.get_mut(self.bones.len()) {
            *tip = global.transform_point2(self.tip_offset);
        }
    }

    /// Translates limits on each bone's local rotation into the solvers' limits on segment angles.
    ///
    /// `rotation_limits[i]` bounds bone `i`'s local rotation (an empty slice: no limits). The solvers bound the
    /// angle of a bone's segment relative to its parent segment (the last non-zero segment before it, else the
    /// returned root direction). Under similarity transforms the two differ by a constant offset and a sign
    /// (the parent's handedness), both measured here from the current pose, so the mapping is exact; elsewhere
    /// it is approximate, and [`ChainPose::write_back`] clamps the rotations again. A zero-length bone gets no
    /// segment limit. `joints` are this pose's joints (see [`ChainPose::joints`]). Returns the root direction.
    pub fn segment_limits(
        &self,
        joints: &[Vec2],
        rotation_limits: &[Option<AngleLimit>],
        out: &mut [Option<AngleLimit>],
    ) -> Vec2 {
        let root_direction = if self.parent.matrix2.x_axis.length_squared() > DEGENERATE_SQ {
            self.parent.matrix2.x_axis
        } else {
            Vec2::X
        };
        let mut parent = self.parent;
        let mut reference = root_direction;
        for (i, bone) in self.bones.iter().enumerate() {
            let segment = match (joints.get(i), joints.get(i + 1)) {
                (Some(&a), Some(&b)) => b - a,
                _ => Vec2::ZERO,
            };
            let limit = rotation_limits.get(i).copied().flatten();
            if let (Some(limit), Some(slot)) = (limit, out.get_mut(i)) {
                *slot = if segment.length_squared() > DEGENERATE_SQ {
                    let handedness = parent.matrix2.determinant().signum();
                    let offset = wrap_angle(signed_angle(reference, segment) - handedness * bone.rotation);
                    let (a, b) = (offset + handedness * limit.min, offset + handedness * limit.max);
                    AngleLimit::new(a.min(b), a.max(b))
                } else {
                    None
                };
            } else if let Some(slot) = out.get_mut(i) {
                *slot = None;
            }
            if segment.length_squared() > DEGENERATE_SQ {
                reference = segment;
            }
            parent *= bone.local();
        }
        root_direction
    }

    /// Computes each bone's new local rotation from solved joints, blended and limited; returns the end effector.
    ///
    /// `joints` holds the solved global positions (bone origins, then the tip's end; at least `bones.len() + 1`).
    /// Each written rotation is `lerp_angle(input, solved, weight)` (Godot's `lerp_angle`), with `weight` in
    /// `[0, 1]`; a bone with a limit in `rotation_limits` has its solved and its written rotation clamped into
    /// the limit. A bone whose direction is undefined (zero length, a joint on its origin, a singular parent)
    /// keeps its input rotation. Returns the global end effector of the written pose, or `None`, with `out`
    /// unspecified, when the result would not be finite (then write nothing). Never panics.
    pub fn write_back(
        &self,
        joints: &[Vec2],
        weight: f32,
        rotation_limits: &[Option<AngleLimit>],
        out: &mut [f32],
    ) -> Option<Vec2> {
        self.write_back_stepped(joints, weight, rotation_limits, None, out)
    }

    /// [`ChainPose::write_back`] with a speed limit: each bone's solved rotation moves from `step.previous` by at
    /// most `step.max_step` (see [`step_toward`]: along the allowed arc of its limit, never across the excluded
    /// side) before `weight` blends it with the input rotation.
    ///
    /// Bone by bone from the root, so a bone held back by the limit leaves its children aiming at the solved
    /// joints from where it really is. `step.stepped` receives the stepped rotations (before `weight`): the next
    /// write-back's `previous`. A bone without a `previous` entry is not limited. On `None`, `step.stepped` is
    /// unspecified too.
    pub fn write_back_stepped(
        &self,
        joints: &[Vec2],
        weight: f32,
        rotation_limits: &[Option<AngleLimit>],
        mut step: Option<RotationStep<'_>>,
        out: &mut [f32],
    ) -> Option<Vec2> {
        if joints.len() <= self.bones.len() || out.len() < self.bones.len() || !weight.is_finite() {
            return None;
        }
        let mut solved_parent = self.parent;
        let mut written_parent = self.parent;
        for (i, (bone, slot)) in self.bones.iter().zip(out.iter_mut()).enumerate() {
            let limit = rotation_limits.get(i).copied().flatten();
            let turn = solved_turn(solved_parent, bone, joints[i + 1], self.child_offset(i));
            let solved = turn.map_or(bone.rotation, |turn| turn.angle);
            let bone_step = step
                .as_ref()
                .and_then(|step| step.previous.get(i).map(|&previous| BoneStep { previous, max_step: step.max_step }));
            let rotation = finish_rotation(bone.rotation, solved, weight, limit, bone_step);
            if let Some(stepped) = step.as_mut().and_then(|step| step.stepped.get_mut(i)) {
                *stepped = rotation.solved;
            }
            if !rotation.written.is_finite() {
                return None;
            }
            *slot = rotation.written;
            // The next bone's parent, from the turn's cosine and sine when nothing clamped or stepped the angle: the
            // arctangent and the sine and cosine are then off the chain of dependent operations from bone to bone,
            // which is what a write-back's time is (issue 39).
            let solved_local = match turn {
                Some(turn) if rotation.solved == turn.angle => Affine2::from_mat2_translation(
                    Mat2::from_cols(turn.unit, turn.unit.perp()) * bone.basis,
                    bone.position,
                ),
                _ => bone.local_with(rotation.solved),
            };
            // At full weight with nothing clamped the written pose is the solved one: not composed a second time.
            let written_local =
                if rotation.written == rotation.solved { solved_local } else { bone.local_with(rotation.written) };
            solved_parent *= solved_local;
            written_parent *= written_local;
        }
        let effector = written_parent.transform_point2(self.tip_offset);
        effector.is_finite().then_some(effector)
    }
}

/// The speed limit of one bone's rotation in one write-back (see [`finish_rotation`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneStep {
    /// The rotation the previous write-back stepped to, radians.
    pub previous: f32,
    /// Most the rotation may move from `previous`, radians; `f32::INFINITY` for no limit (negative or NaN: 0).
    pub max_step: f32,
}

/// One bone's rotations after a solve (see [`finish_rotation`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneRotation {
    /// The solved rotation, clamped into the bone's limit and stepped, radians: the pose the bone's children aim
    /// from (its global transform is the parent's solved one times [`BonePose::local_with`] this).
    pub solved: f32,
    /// The rotation to write, radians: `solved` blended from the read rotation by `weight`, clamped again. Not
    /// finite only when the weight is not.
    pub written: f32,
}

/// The local rotation (radians) that puts `bone`'s child on the global point `child_point`, when the bone's parent
/// has the global transform `parent_global` and the child sits at `child_offset` in the bone's own space:
/// `angle(parent_global⁻¹ · child_point − position) − angle(basis · child_offset)`.
///
/// A reflection anywhere (a mirrored parent, the bone's own negative scale) lives inside the matrices, so this
/// needs no sign rule. Under similarity transforms the child lands exactly on `child_point` (when the bone can reach
/// it: a point at another distance gives the direction toward it). Undefined directions give the bone's own
/// `rotation`: a singular parent (zero scale), `child_point` on the bone's origin, a `child_offset` that is zero or
/// that the basis collapses, a value that is not finite. Never panics.
#[must_use]
pub fn solved_rotation(parent_global: Affine2, bone: &BonePose, child_point: Vec2, child_offset: Vec2) -> f32 {
    solved_turn(parent_global, bone, child_point, child_offset).map_or(bone.rotation, |turn| turn.angle)
}

/// A bone's solved local rotation (see [`solved_rotation`]) as an angle and as the unit vector of its cosine and
/// sine, or `None` when the direction is undefined.
#[derive(Clone, Copy)]
struct Turn {
    angle: f32,
    unit: Vec2,
}

fn solved_turn(parent_global: Affine2, bone: &BonePose, child_point: Vec2, child_offset: Vec2) -> Option<Turn> {
    let aim = bone.basis * child_offset;
    let v = try_inverse(parent_global)?.transform_point2(child_point) - bone.position;
    let (aim_sq, v_sq) = (aim.length_squared(), v.length_squared());
    if !(v_sq > DEGENERATE_SQ && aim_sq > DEGENERATE_SQ) {
        return None;
    }
    // The angle from `aim` to `v` in one arctangent (not the difference of two).
    let angle = signed_angle(aim, v);
    let unit = Vec2::new(aim.dot(v), aim.perp_dot(v)) / (aim_sq * v_sq).sqrt();
    (angle.is_finite() && unit.is_finite()).then_some(Turn { angle, unit })
}

/// What a bone writes after its solve: the `solved` rotation (radians, e.g. from [`solved_rotation`]) clamped into
/// `limit`, moved from `step.previous` by at most `step.max_step` ([`step_toward`]: along the allowed arc, never
/// across the excluded side), then blended from the `read` rotation by `weight` (Godot's `lerp_angle`, the weight
/// clamped into `[0, 1]`) and clamped into `limit` again.
///
/// A `solved` that is not finite counts as `read` (unclamped). A huge `read` (beyond 1000 rad, e.g. 1e30) has no
/// sub-turn precision left: the blend starts from its wrapped angle instead. A NaN `weight` gives a NaN `written`
/// (callers check it first). Never panics.
#[must_use]
pub fn finish_rotation(
    read: f32,
    solved: f32,
    weight: f32,
    limit: Option<AngleLimit>,
    step: Option<BoneStep>,
) -> BoneRotation {
    let clamp = |angle: f32| limit.map_or(angle, |l| l.clamp(wrap_angle(angle)));
    let solved = if solved.is_finite() { clamp(solved) } else { read };
    let solved = step.map_or(solved, |step| step_toward(step.previous, solved, step.max_step, limit));
    let from = if read.abs() <= HUGE_ROTATION { read } else { wrap_angle(read) };
    let written = clamp(lerp_angle(from, solved, weight.clamp(0.0, 1.0)));
    BoneRotation { solved, written }
}

/// The inverse of `a`, or `None` when it is singular (glam's `inverse` would assert in debug builds).
pub(crate) fn try_inverse(a: Affine2) -> Option<Affine2> {
    let matrix = a.matrix2.try_inverse()?;
    Some(Affine2::from_mat2_translation(matrix, -(matrix * a.translation)))
}

/// Godot's `lerp_angle`: from `from` toward `to` by `weight` along the shorter way round (radians).
#[must_use]
pub fn lerp_angle(from: f32, to: f32, weight: f32) -> f32 {
    let difference = remainder_of_turn(to - from);
    let distance = remainder_of_turn(2.0 * difference) - difference;
    from + distance * weight
}

/// `x % TAU`, without the division when `x` is already within a turn (where the remainder is `x` itself, bit for
/// bit): the write-back calls it twice per bone, and a solved rotation is nearly always within a turn of the read.
#[inline]
fn remainder_of_turn(x: f32) -> f32 {
    if x.abs() < core::f32::consts::TAU { x } else { x % core::f32::consts::TAU }
}

#[cfg(test)]
mod tests;
