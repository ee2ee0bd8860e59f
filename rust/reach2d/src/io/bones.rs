//! Reading a chain's bones into flat buffers and writing rotations back.
//!
//! Per solve this costs O(N) engine calls and, once the buffers have grown to the chain's length, no heap
//! allocation: each bone's local transform and rotation are read once, the globals are composed here (never read
//! back from the engine), and only each bone's `rotation` is written (and `TwoBoneIk2D`'s stretch, the tip's
//! `position`; `PathChain2D`'s follow mode, the root's).

use glam::{Affine2, Mat2};
use reach2d_core::ground::max_step;
use reach2d_core::write_back::{BonePose, ChainPose};
use reach2d_core::{AngleLimit, Vec2, stretched_end};

use crate::debug::phases::{self, Phase};
use crate::engine::convert::affine;
use crate::engine::prefetch::{BUFFER_LINES, OBJECT_LINES, object_address, prefetch as engine_prefetch};
use crate::io::chain::BoneChain;
use crate::io::pose::{PoseBuffers, start};
use crate::io::pose_memory::PoseMemory;
use crate::io::stretch::BonePosition;
use crate::io::tree_watch::Verified;
use crate::problem::Problem;

/// Scale (relative to the other axis) at or below which a skeleton, ancestor or bone counts as collapsed: Godot turns
/// a zero scale into 1e-5.
const COLLAPSED_SCALE: f32 = 1.5e-5;

/// Everything a node keeps about its bones between solves.
#[derive(Default)]
pub struct Bones {
    /// The bones themselves, found and watched.
    pub chain: BoneChain,
    /// What the user authored and what the node wrote.
    pub memory: PoseMemory,
    /// `TwoBoneIk2D`'s stretch: the tip bone's authored and written position.
    pub tip_position: BonePosition,
    /// `PathChain2D`'s follow mode: the root bone's authored and written position.
    pub root_position: BonePosition,
    /// The pose as last read and the buffers its solves work in.
    pub pose: PoseBuffers,
    /// The epoch the setup was verified at (`io/tree_watch.rs`): its structural checks are skipped until then.
    pub verified: Verified,
}

/// A piece of memory a solve touches, by address (0: none): only ever prefetched, never read through.
#[derive(Clone, Copy)]
pub enum Touched {
    /// An engine object (`Object*`).
    Object(usize),
    /// A Rust buffer.
    Buffer(usize),
}

/// The memory a solve of `bones` touches, to `visit`: the engine objects (the root's parent, then every bone), then
/// the Rust buffers (the chain's handles, the pose buffers, the memory of what was written). For [`prefetch`] and
/// the batch's memos.
pub fn touched(bones: &Bones, mut visit: impl FnMut(Touched)) {
    visit(Touched::Object(bones.chain.parent().map_or(0, object_address)));
    for bone in bones.chain.bones() {
        visit(Touched::Object(object_address(bone)));
    }
    visit(Touched::Buffer(start(bones.chain.bones())));
    for address in bones.pose.addresses().into_iter().chain(bones.memory.addresses()) {
        visit(Touched::Buffer(address));
    }
}

/// Asks the cache for everything a solve of `bones` touches ([`touched`]), all at once: a node solved by itself
/// (`solve()` from a script) then waits for its bones' misses together, not one bone after another (issue 39).
pub fn prefetch(bones: &Bones) {
    touched(bones, |touched| match touched {
        Touched::Object(address) => engine_prefetch(address, OBJECT_LINES),
        Touched::Buffer(address) => engine_prefetch(address, BUFFER_LINES),
    });
}

/// How the tip bone's end is placed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TipEnd {
    /// `Vector2.from_angle(bone_angle) * length` in the tip bone's space: the end effector of a chain.
    BoneLength,
    /// `Vector2.from_angle(bone_angle + offset)` (radians): only the direction matters (look-at).
    Direction(f32),
}

/// How one solve starts and how far it may move the bones: the shared settings `solve_from_rest` and
/// `max_angular_speed`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    /// Start from each bone's rest rotation, unless something else (an animation) wrote the rotation since the
    /// last solve.
    pub from_rest: bool,
    /// Most each written rotation may move in this solve, radians, before `weight`; `f32::INFINITY` for no limit.
    pub max_step: f32,
}

impl Motion {
    /// The motion of a solve that advances time by `delta` seconds: `speed` rad/s at most (0: no limit). A negative
    /// or non-finite `delta` counts as 0.
    pub fn new(from_rest: bool, speed: f32, delta: f64) -> Self {
        Self { from_rest, max_step: max_step(speed, delta) }
    }
}

/// How a solve starts from the pose it reads (see [`PoseMemory::start_pose`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Start {
    /// `solve_from_rest`: a bone still holding the node's own result starts from its rest rotation.
    pub from_rest: bool,
    /// `weight` below 1: a bone still holding the node's own result blends from its last rotation the node did
    /// not write.
    pub blending: bool,
    /// A blending solve starts from the last solved pose (before `weight`), as the same solve at weight 1 would;
    /// without it, from the unwritten rotation too (`SpringChain2D`'s goal).
    pub warm: bool,
}

impl Start {
    /// Every bone still holding the node's own result starts from its last rotation the node did not write:
    /// `SpringChain2D`'s goal, the pose the animation (or the IK before it) gave the chain.
    pub const UNWRITTEN: Start = Start { from_rest: false, blending: true, warm: false };

    /// The start of a node's solve with `solve_from_rest` = `from_rest` and this `weight`.
    pub fn new(from_rest: bool, weight: f32) -> Self {
        Self { from_rest, blending: weight < 1.0, warm: true }
    }
}

/// Reads the chain's pose into `bones.pose`: local poses, global joints and segment lengths, starting from the
/// authored (editor), rest or unwritten rotations by the memory's rules.
pub fn read(bones: &mut Bones, tip_end: TipEnd, start: Start) -> Result<(), Problem> {
    read_adjusted(bones, tip_end, start, |_| {})
}

/// [`read`], letting `adjust` change the bones' local poses before the joints are derived (the stretch's authored
/// tip position, the spring's goal rotations).
pub fn read_adjusted(
    bones: &mut Bones,
    tip_end: TipEnd,
    start: Start,
    adjust: impl FnOnce(&mut [BonePose]),
) -> Result<(), Problem> {
    let Some(tip) = bones.chain.bones().last() else { return Err(Problem::EmptyChain) };
    if !bones.verified.current() && !tip.is_inside_tree() {
        return Err(Problem::BoneOutsideTree);
    }
    let direction = Vec2::from_angle(tip.get_bone_angle());
    let tip_offset = match tip_end {
        TipEnd::BoneLength => direction * tip.get_length(),
        TipEnd::Direction(offset) => Vec2::from_angle(tip.get_bone_angle() + offset),
    };
    read_local_poses(bones, tip_offset, start, adjust)?;
    if !bones.pose.finish() {
        return Err(Problem::PoseNotFinite);
    }
    Ok(())
}

/// Reads every bone's local pose and the root parent's global transform into `bones.pose` (with `tip_offset`, the
/// end of the last bone in its own space), starting from the authored, rest or unwritten rotations by the memory's
/// rules, then lets `adjust` change them. The one read of a node's bones: chains ([`read`]) derive their joints
/// from it, `FabrikRig2D` its tree's points. Fails on a pose that is not finite or collapsed.
pub fn read_local_poses(
    bones: &mut Bones,
    tip_offset: Vec2,
    start: Start,
    adjust: impl FnOnce(&mut [BonePose]),
) -> Result<(), Problem> {
    let Bones { chain, memory, pose, .. } = bones;
    let parent = chain.parent().map_or(Affine2::IDENTITY, |p| affine(p.get_global_transform()));
    pose.begin(parent, tip_offset);
    for bone in chain.bones() {
        let rotation = bone.get_rotation();
        let local = affine(bone.get_transform());
        let basis = Mat2::from_angle(-rotation) * local.matrix2;
        pose.push_bone(BonePose { position: local.translation, rotation, basis });
    }
    memory.start_pose(chain.bones(), pose.bones_mut(), start.from_rest, start.blending, start.warm);
    adjust(pose.bones_mut());
    if !pose.is_finite() {
        return Err(Problem::PoseNotFinite);
    }
    // A zero scale on the skeleton, an ancestor or a bone collapses the chain to a point or a line: any rotation
    // "solves" it, so writing one would only be noise. Keep the last good pose instead.
    if is_collapsed(parent.matrix2) || pose.pose().bones.iter().any(|b| is_collapsed(b.basis)) {
        return Err(Problem::ZeroScale);
    }
    Ok(())
}

/// Godot stores a zero scale as 1e-5 (CMP_EPSILON), so a basis this flat on either axis counts as collapsed (a
/// skeleton's, a bone's, a path's).
pub fn is_collapsed(m: Mat2) -> bool {
    let longest = m.x_axis.length().max(m.y_axis.length());
    !(longest > COLLAPSED_SCALE && m.determinant().abs() > COLLAPSED_SCALE * longest * longest)
}

/// Turns the solved joints into rotations (each moved by at most `max_step` from the last, blended by `weight`,
/// held in `rotation_limits`) and writes them, each as the equal angle within half a turn of the bone's last
/// rotation the node did not write. Returns the global end effector of the written pose; writes nothing
/// when any rotation would not be finite.
pub fn write(
    bones: &mut Bones,
    weight: f32,
    rotation_limits: &[Option<AngleLimit>],
    max_step: f32,
) -> Result<Vec2, Problem> {
    bones.pose.blend_from(bones.memory.blend_from());
    let effector = bones.pose.write_back(weight, rotation_limits, max_step).ok_or(Problem::PoseNotFinite)?;
    phases::enter(Phase::Write);
    write_rotations(bones);
    Ok(effector)
}

/// Writes `bones.pose`'s rotations (finite: the caller checked), each as the equal angle within half a turn of the
/// bone's last rotation the node did not write, and remembers them. The one write of a node's bones.
pub fn write_rotations(bones: &mut Bones) {
    let Bones { chain, memory, pose, .. } = bones;
    // The same angles, each within half a turn of the pose the node did not write: a rotation never winds up
    // over frames (that would break blending with animation and make the inspector's numbers meaningless).
    pose.keep_near(memory.unwritten());
    // Tip to root; root to tip measured no different (BENCHMARKS.md, the I/O floor's alternatives). A rotation the
    // engine already holds is not written: the same value, without the engine's transform update and dirty
    // propagation (a settled chain, a weight of 0, a limb at rest writes nothing).
    for (bone, (rotation, changed)) in chain.bones_mut().iter_mut().zip(pose.rotations_to_write()).rev() {
        if changed {
            bone.set_rotation(rotation);
            #[cfg(any(debug_assertions, feature = "bench"))]
            crate::debug::alloc::count_bone_write();
        }
    }
    memory.remember(pose.rotations(), pose.solved());
}

/// The bone limits that apply to the resolved chain: `limits` cut to its length.
pub fn chain_limits<'l>(bones: &Bones, limits: &'l [Option<AngleLimit>]) -> &'l [Option<AngleLimit>] {
    &limits[..limits.len().min(bones.chain.len())]
}

/// The pose as last read and the rotations of the last solve, for drawing; `None` before a good read of the
/// resolved chain.
pub fn drawn_pose(bones: &Bones) -> Option<(ChainPose<'_>, &[f32])> {
    let n = bones.chain.len();
    (n > 0 && bones.pose.joints().len() == n + 1).then(|| (bones.pose.pose(), bones.pose.rotations()))
}

/// Puts the user's authored pose back (editor: before saving, or when the preview stops), moved positions included.
pub fn restore_authored(bones: &mut Bones) {
    bones.memory.restore_authored(bones.chain.bones_mut());
    restore_positions(bones);
}

/// Puts the preview's last solve back (editor: after saving), moved positions included.
pub fn reapply_written(bones: &mut Bones) {
    bones.memory.reapply_written(bones.chain.bones_mut());
    bones.tip_position.reapply(bones.chain.bones_mut().last_mut());
    bones.root_position.reapply(bones.chain.bones_mut().first_mut());
}

/// Puts back every bone position a node moved, when the bone still holds it (a disabled node, one leaving the
/// tree): the stretch's tip position, the follow mode's root position. No engine call when nothing was moved.
pub fn restore_positions(bones: &mut Bones) {
    restore_tip_position(bones);
    restore_root_position(bones);
}

/// `TwoBoneIk2D`'s stretch: the tip bone's authored local position for the read, while `stretching`; otherwise the
/// authored position goes back into the bone (a no-op when nothing is stretched) and `None`.
pub fn authored_tip_position(bones: &mut Bones, stretching: bool) -> Option<Vec2> {
    if !stretching {
        restore_tip_position(bones);
        return None;
    }
    bones.chain.bones().last().map(|tip| bones.tip_position.authored(tip))
}

/// `TwoBoneIk2D`'s stretch, after [`write`]: writes the tip bone's position as its authored one times the solved
/// `factor`, blended by `weight`. Returns the global end of the limb so written (`None` without a read pose).
pub fn write_tip_position(bones: &mut Bones, factor: f32, weight: f32) -> Option<Vec2> {
    let written = 1.0 + (factor - 1.0) * weight;
    bones.tip_position.write(bones.chain.bones_mut().last_mut(), written);
    drawn_pose(bones).and_then(|(pose, rotations)| stretched_end(pose, rotations, written))
}

/// Puts the tip bone's authored position back if a stretch moved it (stretching off, the node disabled or leaving
/// the tree).
pub fn restore_tip_position(bones: &mut Bones) {
    bones.tip_position.restore(bones.chain.bones_mut().last_mut());
}

/// `PathChain2D`'s follow mode: the root bone's authored local position for the read, while `following`; otherwise
/// the authored position goes back into the bone (a no-op when nothing was moved) and `None`.
pub fn authored_root_position(bones: &mut Bones, following: bool) -> Option<Vec2> {
    if !following {
        restore_root_position(bones);
        return None;
    }
    bones.chain.bones().first().map(|root| bones.root_position.authored(root))
}

/// `PathChain2D`'s follow mode, after [`write`]: writes the root bone's local `position` (the authored one restores
/// it).
pub fn write_root_position(bones: &mut Bones, position: Vec2) {
    bones.root_position.place(bones.chain.bones_mut().first_mut(), position);
}

/// Puts the root bone's authored position back if the follow mode moved it.
pub fn restore_root_position(bones: &mut Bones) {
    bones.root_position.restore(bones.chain.bones_mut().first_mut());
}

/// Forgets everything remembered about the chain (it is about to be resolved again), restoring the authored pose
/// first.
pub fn forget(bones: &mut Bones) {
    restore_authored(bones);
    bones.memory.forget();
    bones.tip_position = BonePosition::default();
    bones.root_position = BonePosition::default();
    bones.pose.forget_steps();
}

/// Bench only: reads the chain as a solve does and writes each bone's rotation back unchanged, with no solving in
/// between: the engine I/O every solve pays. Returns the tip's end, global px.
#[cfg(feature = "bench")]
pub fn rewrite_as_read(bones: &mut Bones) -> Result<Vec2, Problem> {
    phases::enter(Phase::Read);
    read(bones, TipEnd::BoneLength, Start::default())?;
    phases::enter(Phase::Write);
    let Bones { chain, pose, .. } = bones;
    for (bone, read) in chain.bones_mut().iter_mut().zip(pose.pose().bones).rev() {
        bone.set_rotation(read.rotation);
    }
    Ok(*pose.joints().last().unwrap_or(&Vec2::ZERO))
}
