//! A chain of Bone2D nodes: found once, checked cheaply every solve, read into flat arrays, written back as
//! local rotations.
//!
//! Per solve this costs O(N) engine calls and, once the buffers have grown to the chain's length, no heap
//! allocation: each bone's local transform and rotation are read once, the globals are composed here (never read
//! back from the engine), and only each bone's `rotation` is written. The chain's structure is not walked again
//! every frame: any change to it (a bone reparented, a node inserted, the root moved elsewhere) takes the tip bone
//! out of the tree and back, and its `tree_entered` signal marks the cached chain stale.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use glam::Affine2;
use godot::builtin::Callable;
use godot::classes::{Bone2D, CanvasItem, Node};
use godot::obj::{Gd, InstanceId};
use reach2d_core::write_back::{BonePose, ChainPose};
use reach2d_core::{AngleLimit, ChainSolver, SolveReport, Vec2};

use crate::convert::{affine, vec2, vector2};
use crate::pose::{PoseBuffers, TipDirection};
use crate::problem::Problem;

/// How the tip bone's end is placed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TipEnd {
    /// `Vector2.from_angle(bone_angle) * length` in the tip bone's space: the end effector of a chain.
    BoneLength,
    /// `Vector2.from_angle(bone_angle + offset)` (radians): only the direction matters (look-at).
    Direction(f32),
}

/// How one solve starts and how far it may move the bones: the shared settings `solve_from_rest` and
/// `max_angular_speed`, set by the node before each solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    /// Start from each bone's rest rotation, unless something else (an animation) wrote the rotation since the
    /// last solve.
    pub from_rest: bool,
    /// Most each written rotation may move in this solve, radians, before `weight`; `f32::INFINITY` for no limit.
    pub max_step: f32,
}

impl Default for Motion {
    fn default() -> Self {
        Self { from_rest: false, max_step: f32::INFINITY }
    }
}

/// Scale (relative to the other axis) at or below which a skeleton, ancestor or bone counts as collapsed: Godot turns
/// a zero scale into 1e-5.
const COLLAPSED_SCALE: f32 = 1.5e-5;

/// The bones of one IK node, root first, with the buffers its solves reuse.
#[derive(Default)]
pub struct BoneChain {
    bones: Vec<Gd<Bone2D>>,
    /// The resolved root's and tip's instance ids, kept beside the chain so that the per-solve check touches no
    /// other memory.
    ends: Option<(InstanceId, InstanceId)>,
    /// The root bone's parent when it is a CanvasItem (its global transform places the chain).
    parent: Option<Gd<CanvasItem>>,
    /// Set by the tip bone's `tree_entered` signal: the chain may have changed shape.
    stale: Option<&'static AtomicBool>,
    /// The tip bone and the callable connected to its `tree_entered`, to disconnect when the chain changes.
    watch: Option<(Gd<Bone2D>, Callable)>,
    /// The pose as last read and the buffers its solves work in.
    pose: PoseBuffers,
    /// Editor only: the rotations the user authored, which the preview solves from and saving restores.
    authored: Vec<f32>,
    /// What the last solve wrote, to tell the user's own edits (editor) or an animation's (`solve_from_rest`)
    /// apart from the node's.
    written: Vec<f32>,
    /// Editor only: the preview has written `written`.
    has_written: bool,
    /// `written` holds the last solve of this chain (run time and editor).
    wrote_once: bool,
    /// This solve's motion settings.
    motion: Motion,
    /// TwoBoneIk2D's stretch: the tip bone's local position as authored and as written.
    tip_position: TipPosition,
}

/// The tip bone's local `position` when a limb stretches: the value the user (or an animation) gave it, and the one
/// the last stretched solve wrote. Restored by the same rules as the rotations (before saving, when the preview
/// stops), and also when stretching stops or the node leaves the tree.
#[derive(Default)]
struct TipPosition {
    authored: Vec2,
    /// The last stretched position written, and whether it is in the bone now.
    written: Option<Vec2>,
    applied: bool,
}

impl BoneChain {
    /// Number of bones in the resolved chain.
    pub fn len(&self) -> usize {
        self.bones.len()
    }

    /// Forgets the resolved chain (after `root_bone`/`tip_bone` change), restoring the authored pose first.
    pub fn reset(&mut self) {
        self.restore_authored();
        self.bones.clear();
        self.ends = None;
        self.parent = None;
        self.unwatch();
        self.has_written = false;
        self.wrote_once = false;
        self.tip_position = TipPosition::default();
        self.pose.forget_steps();
    }

    /// Forgets the speed limit's memory: the next limited solve steps from the rotations it reads.
    pub fn forget_steps(&mut self) {
        self.pose.forget_steps();
    }

    /// Sets how the next solves start and how far they may move the bones.
    pub fn set_motion(&mut self, motion: Motion) {
        self.motion = motion;
    }

    /// Makes sure the cached chain is `root ..= tip` and still linked the same way, resolving it again if not.
    ///
    /// With `direct_child`, the tip must be the root's direct child (two-bone). Allocates only when the chain
    /// is resolved anew and longer than before.
    pub fn ensure(
        &mut self,
        root: Option<&Gd<Bone2D>>,
        tip: Option<&Gd<Bone2D>>,
        direct_child: bool,
    ) -> Result<(), Problem> {
        let root = root.ok_or(Problem::NoRootBone)?;
        let tip = tip.ok_or(Problem::NoTipBone)?;
        if !root.is_instance_valid() || !tip.is_instance_valid() {
            return Err(Problem::BoneFreed);
        }
        if self.still_linked(root, tip) {
            return Ok(());
        }
        self.reset();
        let problem = self.resolve(root, tip, direct_child);
        if problem.is_err() {
            self.bones.clear();
            self.ends = None;
        }
        problem
    }

    fn still_linked(&self, root: &Gd<Bone2D>, tip: &Gd<Bone2D>) -> bool {
        let Some((first, last)) = self.ends else { return false };
        // Both are alive (the caller has checked), so their cached ids are current. Freeing any bone of the chain
        // frees the tip with it.
        first == root.instance_id_unchecked()
            && last == tip.instance_id_unchecked()
            && self.stale.is_some_and(|stale| !stale.load(Ordering::Relaxed))
    }

    /// Watches the tip bone: it leaves and re-enters the tree whenever the chain above it changes.
    fn watch(&mut self, tip: &Gd<Bone2D>) {
        self.unwatch();
        let stale = take_stale_flag();
        let callable = Callable::from_fn("reach2d_chain_changed", move |_| stale.store(true, Ordering::Relaxed));
        let mut tip = tip.clone();
        tip.connect("tree_entered", &callable);
        self.stale = Some(stale);
        self.watch = Some((tip, callable));
    }

    fn unwatch(&mut self) {
        if let Some(stale) = self.stale.take() {
            release_stale_flag(stale);
        }
        if let Some((mut tip, callable)) = self.watch.take()
            && tip.is_instance_valid()
            && tip.is_connected("tree_entered", &callable)
        {
            tip.disconnect("tree_entered", &callable);
        }
    }

    fn resolve(&mut self, root: &Gd<Bone2D>, tip: &Gd<Bone2D>, direct_child: bool) -> Result<(), Problem> {
        let root_id = root.instance_id();
        let mut bone = tip.clone();
        while bone.instance_id() != root_id {
            self.bones.push(bone.clone());
            let parent = bone.get_parent().ok_or(Problem::TipNotUnderRoot)?;
            bone = match parent.try_cast::<Bone2D>() {
                Ok(parent) => parent,
                // A non-bone in between, or the root is not above the tip at all.
                Err(other) => {
                    return Err(if is_ancestor(root_id, other) {
                        Problem::NodeBetweenIsNotBone2D
                    } else {
                        Problem::TipNotUnderRoot
                    });
                }
            };
        }
        self.bones.push(bone);
        self.bones.reverse();
        self.ends = Some((root_id, tip.instance_id()));
        if direct_child && self.bones.len() != 2 {
            return Err(Problem::TipNotChildOfRoot);
        }
        self.parent = self.bones[0].get_parent().and_then(|p| p.try_cast::<CanvasItem>().ok());
        self.watch(tip);
        Ok(())
    }

    /// Reads the chain's pose into the flat buffers: local poses, global joints and segment lengths.
    ///
    /// In the editor the preview solves from the pose the user authored: a rotation that differs from what the
    /// last solve wrote is the user's edit and becomes the new authored rotation.
    fn read(&mut self, tip_end: TipEnd) -> Result<(), Problem> {
        self.read_adjusted(tip_end, |_| {})
    }

    /// [`BoneChain::read`], letting `adjust` change the bones' local poses before the joints are derived.
    fn read_adjusted(&mut self, tip_end: TipEnd, adjust: impl FnOnce(&mut [BonePose])) -> Result<(), Problem> {
        let n = self.bones.len();
        let Some(tip) = self.bones.last() else { return Err(Problem::EmptyChain) };
        if !tip.is_inside_tree() {
            return Err(Problem::BoneOutsideTree);
        }
        let direction = Vec2::from_angle(tip.get_bone_angle());
        let tip_offset = match tip_end {
            TipEnd::BoneLength => direction * tip.get_length(),
            TipEnd::Direction(offset) => Vec2::from_angle(tip.get_bone_angle() + offset),
        };
        let parent = self.parent.as_ref().map_or(Affine2::IDENTITY, |p| affine(p.get_global_transform()));
        self.pose.begin(parent, tip_offset);
        for bone in &self.bones {
            let rotation = bone.get_rotation();
            let local = affine(bone.get_transform());
            let basis = glam::Mat2::from_angle(-rotation) * local.matrix2;
            self.pose.push_bone(BonePose { position: local.translation, rotation, basis });
        }
        let editor = crate::editor::in_editor();
        if editor {
            self.authored.resize(n, 0.0);
        }
        let from_rest = self.motion.from_rest;
        for (i, pose) in self.pose.bones_mut().iter_mut().enumerate() {
            let written = self.written.get(i).copied();
            let own = written.is_some_and(|w| (pose.rotation - w).abs() <= 1e-5);
            if editor {
                if !self.has_written || !own {
                    self.authored[i] = pose.rotation;
                }
                pose.rotation = self.authored[i];
            }
            // solve_from_rest: a rotation still equal to what the last solve wrote is the node's own, so the solve
            // starts from rest; one that differs was written by someone else since (an animation, the user in the
            // editor) and is kept. Before the first solve every rotation is someone else's (the scene's, an
            // animation's).
            if from_rest && own && self.wrote_once {
                pose.rotation = rest_rotation(&self.bones[i]);
            }
        }
        adjust(self.pose.bones_mut());
        if !self.pose.finish() {
            return Err(Problem::PoseNotFinite);
        }
        // A zero scale on the skeleton, an ancestor or a bone collapses the chain to a point or a line: any rotation
        // "solves" it, so writing one would only be noise. Keep the last good pose instead.
        // Godot stores a zero scale as 1e-5 (CMP_EPSILON), so a basis this flat on either axis counts as collapsed.
        let collapsed = |m: glam::Mat2| {
            let longest = m.x_axis.length().max(m.y_axis.length());
            !(longest > COLLAPSED_SCALE && m.determinant().abs() > COLLAPSED_SCALE * longest * longest)
        };
        if collapsed(parent.matrix2) || self.pose.pose().bones.iter().any(|b| collapsed(b.basis)) {
            return Err(Problem::ZeroScale);
        }
        Ok(())
    }

    /// The pose as last read and the rotations of the last solve, for drawing; `None` before a good read of the
    /// resolved chain.
    pub fn drawn_pose(&self) -> Option<(ChainPose<'_>, &[f32])> {
        let n = self.bones.len();
        (n > 0 && self.pose.joints().len() == n + 1).then(|| (self.pose.pose(), self.pose.rotations()))
    }

    /// Turns the solved joints into rotations (blended by `weight`, held in `rotation_limits`) and writes them.
    ///
    /// Returns the global end effector of the written pose. Writes nothing when any rotation would not be finite.
    fn write(&mut self, weight: f32, rotation_limits: &[Option<AngleLimit>]) -> Result<Vec2, Problem> {
        let effector =
            self.pose.write_back(weight, rotation_limits, self.motion.max_step).ok_or(Problem::PoseNotFinite)?;
        // Tip to root; root to tip measured no different (BENCHMARKS.md, the I/O floor's alternatives).
        for (bone, &rotation) in self.bones.iter_mut().zip(self.pose.rotations()).rev() {
            bone.set_rotation(rotation);
        }
        self.written.clear();
        self.written.extend_from_slice(self.pose.rotations());
        self.wrote_once = true;
        if crate::editor::in_editor() {
            self.has_written = true;
        }
        Ok(effector)
    }

    /// One iterative solve: reads the chain (its end is the tip bone's length), pre-bends it toward `pole` if there
    /// is one, solves it toward `goal` and writes the result; returns the written end effector and the solver's
    /// report.
    ///
    /// `rotation_limits` bound each bone's local rotation (an empty slice: none); they are translated into the
    /// solver's segment limits for this pose, and the written rotations are clamped into them again.
    ///
    /// With `tip`, the tip bone's global x axis takes its direction (see [`PoseBuffers::solve_with_tip_direction`]).
    pub fn solve_iterative(
        &mut self,
        solver: &impl ChainSolver,
        goal: Vec2,
        pole: Option<Vec2>,
        tip: Option<TipDirection>,
        weight: f32,
        rotation_limits: &[Option<AngleLimit>],
    ) -> Result<(Vec2, SolveReport), Problem> {
        self.read(TipEnd::BoneLength)?;
        let rotation_limits = &rotation_limits[..rotation_limits.len().min(self.bones.len())];
        let report = match tip {
            Some(tip) => self.pose.solve_with_tip_direction(solver, goal, pole, tip, rotation_limits),
            None => self.pose.solve(solver, goal, pole, rotation_limits),
        };
        let report = report.map_err(Problem::Solver)?;
        let effector = self.write(weight, rotation_limits)?;
        Ok((effector, report))
    }

    /// One closed-form solve: reads the chain (its end placed by `tip_end`), lets `place` move the joints from the
    /// pose as read, and writes the result, blended by `weight` and clamped by `rotation_limits`. Returns the
    /// written end effector and what `place` returned; on any error no bone is written.
    pub fn solve_closed_form<R>(
        &mut self,
        tip_end: TipEnd,
        weight: f32,
        rotation_limits: &[Option<AngleLimit>],
        place: impl FnOnce(ChainPose<'_>, &mut [Vec2]) -> Result<R, Problem>,
    ) -> Result<(Vec2, R), Problem> {
        self.solve_closed_form_adjusted(tip_end, weight, rotation_limits, |_| {}, place)
    }

    /// [`BoneChain::solve_closed_form`], letting `adjust` change the bones' local poses as read before the joints
    /// are derived (TwoBoneIk2D's stretch reads the tip bone at its authored position).
    pub fn solve_closed_form_adjusted<R>(
        &mut self,
        tip_end: TipEnd,
        weight: f32,
        rotation_limits: &[Option<AngleLimit>],
        adjust: impl FnOnce(&mut [BonePose]),
        place: impl FnOnce(ChainPose<'_>, &mut [Vec2]) -> Result<R, Problem>,
    ) -> Result<(Vec2, R), Problem> {
        self.read_adjusted(tip_end, adjust)?;
        let placed = self.pose.place_joints(place)?;
        let effector = self.write(weight, rotation_limits)?;
        Ok((effector, placed))
    }

    /// One step of a node that follows the pose the bones were given (the spring): reads the chain (its end is the
    /// tip bone's length), lets `goal` replace read rotations before the joints are derived (the spring's goal
    /// memory), lets `place` move the joints from the pose as read, and writes the result, blended by `weight` and
    /// clamped by `rotation_limits`. Returns the written end effector, what `place` returned, and the rotations
    /// written; on any error no bone is written.
    pub fn solve_following<R>(
        &mut self,
        weight: f32,
        rotation_limits: &[Option<AngleLimit>],
        goal: impl FnOnce(&mut [BonePose]),
        place: impl FnOnce(ChainPose<'_>, &mut [Vec2]) -> Result<R, Problem>,
    ) -> Result<(Vec2, R, &[f32]), Problem> {
        self.read_adjusted(TipEnd::BoneLength, goal)?;
        let rotation_limits = &rotation_limits[..rotation_limits.len().min(self.bones.len())];
        let placed = self.pose.place_joints(place)?;
        let effector = self.write(weight, rotation_limits)?;
        Ok((effector, placed, self.pose.rotations()))
    }

    /// Bench only: reads the chain as a solve does and writes each bone's rotation back unchanged, with no solving
    /// in between: the engine I/O every solve pays. Returns the tip's end, global px.
    #[cfg(feature = "bench")]
    pub fn rewrite_as_read(&mut self) -> Result<Vec2, Problem> {
        self.read(TipEnd::BoneLength)?;
        for (bone, pose) in self.bones.iter_mut().zip(self.pose.pose().bones).rev() {
            bone.set_rotation(pose.rotation);
        }
        Ok(*self.pose.joints().last().unwrap_or(&Vec2::ZERO))
    }

    /// Editor: puts the user's authored rotations back (before saving, or when the preview stops), and the tip
    /// bone's authored position when a stretch moved it.
    pub fn restore_authored(&mut self) {
        if self.has_written {
            set_rotations(&mut self.bones, &self.authored);
        }
        self.restore_tip_position();
    }

    /// Editor: puts the preview's last solve back (after saving), stretch included.
    pub fn reapply_written(&mut self) {
        if self.has_written {
            set_rotations(&mut self.bones, &self.written);
        }
        if let (Some(written), Some(tip)) = (self.tip_position.written, self.bones.last_mut())
            && !self.tip_position.applied
            && tip.is_instance_valid()
        {
            tip.set_position(vector2(written));
            self.tip_position.applied = true;
        }
    }

    /// The tip bone's authored local position (TwoBoneIk2D's stretch): a position that differs from what the last
    /// stretch wrote is the user's (or an animation's) and becomes the authored one. `None` without a chain.
    pub fn authored_tip_position(&mut self) -> Option<Vec2> {
        let tip = self.bones.last()?;
        let position = vec2(tip.get_position());
        let own = self.tip_position.applied
            && self.tip_position.written.is_some_and(|w| w.distance_squared(position) <= 1e-8);
        if !own {
            self.tip_position.authored = position;
            self.tip_position.written = None;
            self.tip_position.applied = false;
        }
        Some(self.tip_position.authored)
    }

    /// Writes the tip bone's local position as its authored one times `factor` (TwoBoneIk2D's stretch); a factor
    /// of 1 restores the authored position. Call [`BoneChain::authored_tip_position`] first.
    pub fn write_tip_position(&mut self, factor: f32) {
        if factor == 1.0 {
            self.restore_tip_position();
            return;
        }
        let Some(tip) = self.bones.last_mut() else { return };
        let position = self.tip_position.authored * factor;
        if position.is_finite() {
            tip.set_position(vector2(position));
            self.tip_position.written = Some(position);
            self.tip_position.applied = true;
        }
    }

    /// Puts the tip bone's authored position back if a stretch moved it (stretching off, the node disabled or
    /// leaving the tree, saving).
    pub fn restore_tip_position(&mut self) {
        if !self.tip_position.applied {
            return;
        }
        self.tip_position.applied = false;
        if let Some(tip) = self.bones.last_mut()
            && tip.is_instance_valid()
        {
            tip.set_position(vector2(self.tip_position.authored));
        }
    }

    /// Editor: forget the preview, so the next solve treats the current rotations as authored.
    pub fn forget_preview(&mut self) {
        self.has_written = false;
    }
}

/// The staleness flags of all watched chains, side by side in blocks that are never freed, and the free ones.
///
/// A flag of its own per chain (an `Rc`) was a cache miss every solve with many characters (most of
/// `BoneChain::ensure`'s time in `perf`, BENCHMARKS.md); here the flags of 1000 chains share 16 cache lines. Taken
/// and released only when a chain is resolved or forgotten, never per frame. A flag released while a disconnected
/// callable still held it could at worst mark another chain stale: one extra re-resolve, never a missed change.
static STALE_FLAGS: Mutex<Vec<&'static AtomicBool>> = Mutex::new(Vec::new());

/// Flags allocated at once when none is free.
const STALE_FLAG_BLOCK: usize = 256;

fn take_stale_flag() -> &'static AtomicBool {
    let mut free = STALE_FLAGS.lock().unwrap_or_else(PoisonError::into_inner);
    if free.is_empty() {
        let block: &'static [AtomicBool] =
            Box::leak((0..STALE_FLAG_BLOCK).map(|_| AtomicBool::new(false)).collect::<Box<[_]>>());
        free.extend(block.iter().rev());
    }
    let flag = free.pop().unwrap_or_else(|| Box::leak(Box::new(AtomicBool::new(false))));
    flag.store(false, Ordering::Relaxed);
    flag
}

fn release_stale_flag(flag: &'static AtomicBool) {
    STALE_FLAGS.lock().unwrap_or_else(PoisonError::into_inner).push(flag);
}

/// `true` when the node `ancestor` is `node` or above it.
fn is_ancestor(ancestor: InstanceId, node: Gd<Node>) -> bool {
    let mut current = Some(node);
    while let Some(n) = current {
        if n.instance_id() == ancestor {
            return true;
        }
        current = n.get_parent();
    }
    false
}

impl Drop for BoneChain {
    fn drop(&mut self) {
        self.unwatch();
    }
}

/// The rotation of a bone's rest transform (`Bone2D.rest`), as `Node2D.rotation` reads it from a transform.
fn rest_rotation(bone: &Gd<Bone2D>) -> f32 {
    affine(bone.get_rest()).matrix2.x_axis.to_angle()
}

fn set_rotations(bones: &mut [Gd<Bone2D>], rotations: &[f32]) {
    for (bone, &rotation) in bones.iter_mut().zip(rotations) {
        if bone.is_instance_valid() {
            bone.set_rotation(rotation);
        }
    }
}
