//! The authored-pose memory: what the user (or an animation) gave the bones, told apart from what the node wrote.
//!
//! In the editor the preview solves from the rotations the user authored, and saving restores them. At run time
//! too the node remembers what its last solve wrote: `solve_from_rest` replaces a read rotation that still equals it
//! with the bone's rest rotation (any other was written by someone else, an animation, and is kept), and so does a
//! blending solve (`weight` below 1) with the bone's last rotation the node did not write. That *unwritten* pose is
//! also what every written rotation stays within half a turn of, so rotations never wind up over many frames, and
//! what `SpringChain2D` follows (its goal: a bone still holding the spring's output was not posed again since).
//! Whether a read rotation is the node's own is `io/written.rs`'s one rule.

use godot::classes::Bone2D;
use godot::obj::Gd;
use reach2d_core::write_back::BonePose;

use crate::engine::convert::affine;
use crate::engine::editor::in_editor;
use crate::io::pose::start;
use crate::io::written::RoundTrip;

/// One chain's authored and written rotations.
#[derive(Default)]
pub struct PoseMemory {
    /// Editor only: the rotations the user authored, which the preview solves from and saving restores.
    authored: Vec<f32>,
    /// What the last solve wrote.
    written: Vec<f32>,
    /// The last solve's rotations before `weight` blended them (the solved pose; `written` at weight 1): what a
    /// blending solve starts from, so the solve itself never depends on the weight.
    solved: Vec<f32>,
    /// The rotations the last [`PoseMemory::start_pose`] says to blend from: the pose as read, or for a bone still
    /// holding the node's own result when blending, its last rotation the node did not write.
    blend_from: Vec<f32>,
    /// Editor only: the preview has written `written`.
    preview_written: bool,
    /// `written` holds the last solve of this chain (run time and editor).
    wrote_once: bool,
    /// Each bone's last rotation that the node did not write (the animation's, the scene's, the user's): what a
    /// blending solve starts from and blends from, and what written rotations stay within half a turn of.
    unwritten: Vec<f32>,
    /// The last [`PoseMemory::start_pose`] left every bone at the node's own last result.
    starts_from_own: bool,
    /// Until the next write, every [`PoseMemory::start_pose`] starts from the unwritten pose, as a new node's first
    /// solve on it (`reset()`; a helper's read of the leg before the solve sees the same).
    afresh: bool,
}

impl PoseMemory {
    /// Sets the rotations a solve starts from, in `poses` as read from `bones`: in the editor the authored ones (a
    /// read rotation that differs from what the last solve wrote is the user's edit and becomes authored); for each
    /// bone that still holds the node's own last result, with `from_rest` its rest rotation, else when `blending`
    /// (a `weight` below 1) its last solved rotation before the weight when `warm` (so a blending solve starts where
    /// the same solve at weight 1 would: the weight never changes what is solved, issue 36), or its last rotation
    /// the node did not write (`SpringChain2D`'s goal). The blend is from that unwritten rotation
    /// ([`PoseMemory::blend_from`]), so it never creeps toward the node's own output.
    pub fn start_pose(
        &mut self,
        bones: &[Gd<Bone2D>],
        poses: &mut [BonePose],
        from_rest: bool,
        blending: bool,
        warm: bool,
    ) {
        let editor = in_editor();
        if editor {
            self.authored.resize(poses.len(), 0.0);
        }
        if self.unwritten.len() != poses.len() {
            self.unwritten.clear();
            self.unwritten.extend(poses.iter().map(|pose| pose.rotation));
        }
        let afresh = self.afresh && !editor;
        let warm_blend = !afresh && blending && warm && !editor && self.solved.len() == poses.len();
        let mut all_own = !afresh && self.wrote_once && !editor && !from_rest && (!blending || warm_blend);
        self.blend_from.clear();
        for (i, pose) in poses.iter_mut().enumerate() {
            let written = self.written.get(i).copied();
            let own = written.is_some_and(|w| f32::is_written(pose.rotation, w));
            all_own &= own;
            if editor {
                if !self.preview_written || !own {
                    self.authored[i] = pose.rotation;
                }
                pose.rotation = self.authored[i];
            }
            // A rotation that differs was written by someone else since (an animation, the user in the editor) and
            // is kept. Before the first solve every rotation is someone else's (the scene's, an animation's).
            let own_result = own && self.wrote_once;
            if !own_result {
                self.unwritten[i] = pose.rotation;
            }
            if from_rest && own_result {
                pose.rotation = rest_rotation(&bones[i]);
            } else if warm_blend && own_result {
                self.blend_from.push(self.unwritten[i]);
                pose.rotation = self.solved[i];
                continue;
            } else if (blending || afresh) && own_result {
                pose.rotation = self.unwritten[i];
            }
            self.blend_from.push(pose.rotation);
        }
        self.starts_from_own = all_own && self.written.len() == poses.len();
    }

    /// `true` when the last [`PoseMemory::start_pose`] left the pose as the node's own last result (a warm start),
    /// `false` when any bone holds someone else's rotation (an animation's, the rest pose, the authored one).
    pub fn starts_from_own(&self) -> bool {
        self.starts_from_own
    }

    /// Each bone's last rotation the node did not write (empty before the first read).
    pub fn unwritten(&self) -> &[f32] {
        &self.unwritten
    }

    /// Where each buffer a solve touches starts (0: empty), to prefetch (`io::bones::touched`).
    pub fn addresses(&self) -> [usize; 4] {
        [start(&self.written), start(&self.solved), start(&self.unwritten), start(&self.blend_from)]
    }

    /// The rotations to blend from, one per bone, as the last [`PoseMemory::start_pose`] set them.
    pub fn blend_from(&self) -> &[f32] {
        &self.blend_from
    }

    /// Remembers the rotations a solve wrote and the ones it solved before `weight` (`solved`).
    pub fn remember(&mut self, rotations: &[f32], solved: &[f32]) {
        self.written.clear();
        self.written.extend_from_slice(rotations);
        self.solved.clear();
        self.solved.extend_from_slice(solved);
        self.afresh = false;
        self.wrote_once = true;
        if in_editor() {
            self.preview_written = true;
        }
    }

    /// Editor: puts the user's authored rotations back (before saving, or when the preview stops).
    pub fn restore_authored(&self, bones: &mut [Gd<Bone2D>]) {
        if self.preview_written {
            set_rotations(bones, &self.authored);
        }
    }

    /// Editor: puts the preview's last solve back (after saving).
    pub fn reapply_written(&self, bones: &mut [Gd<Bone2D>]) {
        if self.preview_written {
            set_rotations(bones, &self.written);
        }
    }

    /// Editor: forgets the preview, so the next solve treats the current rotations as authored.
    pub fn forget_preview(&mut self) {
        self.preview_written = false;
    }

    /// `reset()` at run time: each bone still holding the node's last result gets back its last rotation the node
    /// did not write (the animation's, the scene's), exactly as it was read, and the last solves are forgotten
    /// ([`PoseMemory::forget_solves`]): the next solve is a new node's first on that pose.
    pub fn take_back(&mut self, bones: &mut [Gd<Bone2D>]) {
        if self.wrote_once && !in_editor() {
            for ((bone, &written), &unwritten) in bones.iter_mut().zip(&self.written).zip(&self.unwritten) {
                if bone.is_instance_valid() && f32::is_written(bone.get_rotation(), written) {
                    bone.set_rotation(unwritten);
                }
            }
        }
        self.forget_solves();
    }

    /// Forgets the last solves: the next solve starts as a new node's first on the pose the node blends from (each
    /// bone still holding the node's own result from its last rotation the node did not write: the animation's or
    /// the scene's), not from the node's own result. What is the node's own and what it covers are still known, so
    /// the blend and the spring's goal stay the animation's pose.
    pub fn forget_solves(&mut self) {
        self.afresh = true;
        self.starts_from_own = false;
        self.solved.clear();
    }

    /// Forgets what was written (the chain changed): the next solve starts from the pose it finds.
    pub fn forget(&mut self) {
        self.preview_written = false;
        self.wrote_once = false;
        self.starts_from_own = false;
        self.unwritten.clear();
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
