//! What a `Ragdoll2D` keeps between frames: its bones (resolved when the setup changes, never per frame), their
//! animated and written poses, the bodies' pose as rotations, and the phase.

use glam::Affine2;
use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;
use reach2d_core::AngleLimit;
use reach2d_core::Vec2;
use reach2d_core::ragdoll::{BodyMotion, BodyPlacement, JointFrame};
use reach2d_core::write_back::BonePose;

/// Why a ragdoll cannot run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    NoRootBone,
    RootFreed,
    NotInTree,
    DegenerateBone,
    NoSpace,
}

impl Problem {
    /// The one sentence shown as the configuration warning and printed once.
    pub fn message(self) -> &'static str {
        match self {
            Problem::NoRootBone => "root_bone is not set: pick the first Bone2D of the ragdoll.",
            Problem::RootFreed => "root_bone was freed: pick another Bone2D.",
            Problem::NotInTree => "root_bone is not in the scene tree.",
            Problem::DegenerateBone => {
                "a bone's transform is collapsed or not finite (a zero scale?): no body can be placed along it."
            }
            Problem::NoSpace => "the node is not in a 2D world with a physics space.",
        }
    }
}

/// Where the ragdoll is between the animation and the physics.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Phase {
    /// The bones are the animation's; the bodies follow them kinematically.
    #[default]
    Animated,
    /// The bones follow the bodies (by `weight`).
    Running,
    /// Blending back to the animation from the last physics pose: `left` of `time` seconds remain.
    Returning { left: f32, time: f32 },
}

/// The ragdoll's bones, each before its children.
#[derive(Default)]
pub struct Rig {
    pub bones: Vec<Gd<Bone2D>>,
    ids: Vec<InstanceId>,
    /// Each bone's parent's index; `None` for the root.
    pub parents: Vec<Option<usize>>,
    pub lengths: Vec<f32>,
    pub bone_angles: Vec<f32>,
    /// The root bone's parent, when it is a `Node2D` (its global transform places the root).
    pub root_parent: Option<Gd<Node2D>>,
    /// The root's parent is a bone the animation moves: the root is pinned to it, its position never written.
    pub anchored: bool,
    /// The root bone these bones were resolved from.
    resolved_for: Option<InstanceId>,
}

impl Rig {
    /// The index of the bone with `id`.
    pub fn index_of(&self, id: InstanceId) -> Option<usize> {
        self.ids.iter().position(|&b| b == id)
    }

    /// The root bone these bones were resolved from.
    pub fn root_id(&self) -> Option<InstanceId> {
        self.resolved_for
    }

    /// `true` while every bone is alive.
    pub fn alive(&self) -> bool {
        self.bones.iter().all(Gd::is_instance_valid)
    }

    fn clear(&mut self) {
        *self = Rig::default();
    }

    /// The bones from `root` down, each before its children (walks the tree: only when the setup changed).
    fn walk(&mut self, root: &Gd<Bone2D>) {
        self.clear();
        let mut stack = vec![(root.clone(), None)];
        while let Some((bone, parent)) = stack.pop() {
            let index = self.bones.len();
            self.ids.push(bone.instance_id());
            self.parents.push(parent);
            self.lengths.push(bone.get_length());
            self.bone_angles.push(bone.get_bone_angle());
            let children = bone.get_children();
            for child in children.iter_shared().collect::<Vec<_>>().into_iter().rev() {
                if let Ok(child) = child.try_cast::<Bone2D>() {
                    stack.push((child, Some(index)));
                }
            }
            self.bones.push(bone);
        }
        let parent = root.get_parent();
        self.anchored = parent.as_ref().is_some_and(|p| p.is_class("Bone2D"));
        self.root_parent = parent.and_then(|p| p.try_cast::<Node2D>().ok());
        self.resolved_for = Some(root.instance_id());
    }
}

/// Everything a running ragdoll keeps; buffers sized once per build, so a frame allocates nothing.
#[derive(Default)]
pub struct RagdollState {
    pub rig: Rig,
    pub phase: Phase,
    /// Each bone's local pose as the animation left it (its rotation the unwritten one), and that rotation.
    pub animated: Vec<BonePose>,
    pub animated_rotations: Vec<f32>,
    /// Global transforms: the animated pose's, or the written pose's while it is worked out.
    pub globals: Vec<Affine2>,
    /// The bodies' placements this tick, and their velocities (of the centre of mass; angular).
    pub placements: Vec<BodyPlacement>,
    pub linear: Vec<Vector2>,
    pub angular: Vec<f32>,
    /// Each bone's joint frame and rotation limit, as built.
    pub frames: Vec<Option<JointFrame>>,
    pub limits: Vec<Option<AngleLimit>>,
    /// The root's animated position.
    pub animated_root: Vec2,
    /// What the node wrote last (rotations; the root's position), to tell the animation's values from its own.
    pub written: Vec<f32>,
    pub written_root: Vector2,
    pub has_written: bool,
    /// The bodies' pose as local rotations and the root's position (frozen while returning).
    pub physics: Vec<f32>,
    pub physics_root: Vec2,
    /// Where each body goes in the animated pose, this tick and the one before, and the motion between.
    pub targets: Vec<BodyPlacement>,
    pub previous_targets: Vec<BodyPlacement>,
    pub motions: Vec<BodyMotion>,
    /// The buffer the blend writes into.
    pub blended: Vec<f32>,
    /// `false` until the targets hold a pose (no velocity is taken from before it).
    pub has_targets: bool,
    /// The problem last noted (the configuration warning), and the one last printed, so each is told once.
    noted: Option<Problem>,
    pub told: Option<Problem>,
    /// Why the last build failed (the bones are fine but no body can be placed), until a build works.
    pub build_problem: Option<Problem>,
    checked_once: bool,
}

impl RagdollState {
    /// Resolves the bones from `root` when it changed or a bone is gone; the setup's problem otherwise.
    pub fn resolve(&mut self, root: Option<&Gd<Bone2D>>) -> Result<(), Problem> {
        let Some(root) = root else {
            self.rig.clear();
            return Err(Problem::NoRootBone);
        };
        if !root.is_instance_valid() {
            self.rig.clear();
            return Err(Problem::RootFreed);
        }
        if !root.is_inside_tree() {
            return Err(Problem::NotInTree);
        }
        let changed = self.rig.resolved_for != Some(root.instance_id()) || !self.rig.alive();
        if changed {
            self.rig.walk(root);
            self.size_buffers();
        }
        Ok(())
    }

    /// Forgets the bones: the next resolve walks the tree again.
    pub fn forget(&mut self) {
        self.rig.resolved_for = None;
        self.build_problem = None;
    }

    fn size_buffers(&mut self) {
        let n = self.rig.bones.len();
        self.animated = vec![BonePose::default(); n];
        self.animated_rotations = vec![0.0; n];
        self.globals = vec![Affine2::IDENTITY; n];
        self.placements = vec![BodyPlacement::default(); n];
        self.linear = vec![Vector2::ZERO; n];
        self.angular = vec![0.0; n];
        self.frames = vec![None; n];
        self.limits = vec![None; n];
        self.written = vec![0.0; n];
        self.physics = vec![0.0; n];
        self.blended = vec![0.0; n];
        self.targets = vec![BodyPlacement::default(); n];
        self.previous_targets = vec![BodyPlacement::default(); n];
        self.motions = vec![BodyMotion::default(); n];
        self.has_written = false;
        self.has_targets = false;
        self.phase = Phase::Animated;
    }

    /// Notes `problem` as the current one; `true` when it changed (tell it once, update the warning).
    pub fn note(&mut self, problem: Option<Problem>) -> bool {
        let changed = self.noted != problem || !self.checked_once;
        self.noted = problem;
        self.checked_once = true;
        changed
    }

    /// The current problem, as last noted.
    pub fn problem(&self) -> Option<Problem> {
        self.noted
    }
}
