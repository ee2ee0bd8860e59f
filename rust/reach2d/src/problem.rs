//! Why a node cannot solve (its setup, the pose it read, or the solver's refusal), said once and in words that tell
//! the user what to do.

use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::SolveError;

/// Why a node did not solve: a missing or broken target or chain, a pose that is not finite, or input the solver
/// refused. Shown as a configuration warning in the editor and reported once at run time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Problem {
    NoTarget,
    TargetFreed,
    TargetOutsideTree,
    TargetNotFinite,
    PoleFreed,
    PoleOutsideTree,
    PoleNotFinite,
    NoRootBone,
    NoTipBone,
    NoBone,
    /// The chain holds no bone: it was not resolved from the node's bones.
    EmptyChain,
    BoneFreed,
    TipNotUnderRoot,
    NodeBetweenIsNotBone2D,
    TipNotChildOfRoot,
    BoneOutsideTree,
    PoseNotFinite,
    SpringForceNotFinite,
    /// `SpringChain2D.advance(delta)` with a delta that is not a finite 32-bit float.
    DeltaNotFinite,
    /// The skeleton, an ancestor or a bone of the chain has a zero scale (on one axis or both).
    ZeroScale,
    Solver(SolveError),
    /// `FabrikRig2D`: `tip_bones` is empty.
    NoEffectors,
    /// `FabrikRig2D`: `tip_bones` and `targets` differ in length.
    EffectorsMismatch,
    /// `FabrikRig2D`: `tip_bones[i]` does not lead to a Bone2D in the tree.
    RigTipMissing(u16),
    /// `FabrikRig2D`: `targets[i]` does not lead to a Node2D in the tree (unset, wrong path, freed).
    RigTargetMissing(u16),
    /// `FabrikRig2D`: `targets[i]`'s global position is NaN or infinite.
    RigTargetNotFinite(u16),
    /// `FabrikRig2D`: `tip_bones[i]` is not under `root_bone`.
    RigTipNotUnderRoot(u16),
    /// `FabrikRig2D`: a tip bone is named twice or lies on another tip's chain.
    RigTipsOverlap,
}

impl Problem {
    /// `true` for problems only a solve can find (in the pose it reads or the solver's answer), not a setup check.
    pub fn found_by_solving(self) -> bool {
        matches!(self, Self::PoseNotFinite | Self::ZeroScale | Self::DeltaNotFinite | Self::Solver(_))
    }

    /// A sentence that says what is wrong with a node of class `class` and what to do about it.
    pub fn message(self, class: &str) -> String {
        let look_at = class == "LookAt2D";
        match self {
            Self::NoTarget if look_at => "No target: set `target` to the Node2D to look at.".into(),
            Self::NoTarget => "No target: set `target` to the Node2D to reach.".into(),
            Self::TargetFreed => "The target was freed: set `target` to a Node2D that exists.".into(),
            Self::TargetOutsideTree => "The target is not inside the scene tree: add it to the tree or pick another target.".into(),
            Self::TargetNotFinite => "The target's global position is NaN or infinite: give it a finite position (check for zero scale or a division by zero in your script).".into(),
            Self::PoleFreed => "The pole was freed: set `pole` to a Node2D that exists, or clear it.".into(),
            Self::PoleOutsideTree => "The pole is not inside the scene tree: add it to the tree, pick another pole, or clear `pole`.".into(),
            Self::PoleNotFinite => "The pole's global position is NaN or infinite: give it a finite position, or clear `pole`.".into(),
            Self::NoRootBone => "No root bone: set `root_bone` to the first Bone2D of the chain.".into(),
            Self::NoTipBone => "No tip bone: set `tip_bone` to the last Bone2D of the chain (the root bone or one of its Bone2D descendants).".into(),
            Self::NoBone => "No bone: set `bone` to the Bone2D to turn.".into(),
            Self::EmptyChain if look_at => "The node has no bone to turn: set `bone`.".into(),
            Self::EmptyChain => "The node has no bones to solve: set `root_bone` and `tip_bone`.".into(),
            Self::BoneFreed => "A bone of the chain was freed: set the bones again.".into(),
            Self::TipNotUnderRoot => "`tip_bone` is not `root_bone` or one of its descendants: pick bones on one branch of the skeleton.".into(),
            Self::NodeBetweenIsNotBone2D => "A node between `root_bone` and `tip_bone` is not a Bone2D: every node of the chain must be a Bone2D.".into(),
            Self::TipNotChildOfRoot => "`tip_bone` must be a direct Bone2D child of `root_bone` (upper and lower limb).".into(),
            Self::BoneOutsideTree => "The bones are not inside the scene tree.".into(),
            Self::PoseNotFinite => "The bones' transforms are NaN or infinite (a zero scale?): the bones keep their pose until they are finite again.".into(),
            Self::SpringForceNotFinite => "`gravity` or `external_force` is NaN or infinite: give finite vectors in pixels per second squared.".into(),
            Self::DeltaNotFinite => "`advance(delta)`: delta is NaN, infinite or too large for a 32-bit float: give a finite time in seconds.".into(),
            Self::ZeroScale => "The skeleton, an ancestor or a bone of the chain has a zero scale (on one axis or both): the chain has collapsed, so the bones keep their last pose until the scale is non-zero again.".into(),
            Self::Solver(error) => format!("The solver rejected the chain: {error}."),
            Self::NoEffectors => "No effectors: add the tip Bone2D of each branch to `tip_bones` and its target to `targets`.".into(),
            Self::EffectorsMismatch => "`tip_bones` and `targets` differ in length: give one target per tip bone.".into(),
            Self::RigTipMissing(i) => format!("`tip_bones[{i}]` does not lead to a Bone2D in the scene tree: pick the last bone of that branch."),
            Self::RigTargetMissing(i) => format!("`targets[{i}]` does not lead to a Node2D in the scene tree (unset, a wrong path, or freed): pick the node that effector reaches for."),
            Self::RigTargetNotFinite(i) => format!("`targets[{i}]`'s global position is NaN or infinite: give it a finite position."),
            Self::RigTipNotUnderRoot(i) => format!("`tip_bones[{i}]` is not `root_bone` or one of its Bone2D descendants: every branch must start at `root_bone`."),
            Self::RigTipsOverlap => "A tip bone is named twice or lies on another tip's chain: each effector needs a branch of its own (its tip a leaf of the rig).".into(),
        }
    }
}

/// Reports each new problem once, so a broken setup prints one message, not one per frame.
#[derive(Default)]
pub struct ProblemReporter {
    last: Option<Problem>,
    /// Good solves in a row since `last` was reported.
    good_solves: u32,
}

/// Good solves in a row after which a problem counts as fixed and is reported again if it comes back: a setup that
/// flips between good and broken every frame is reported once, not every other frame.
const GOOD_SOLVES_TO_FORGET: u32 = 60;

impl ProblemReporter {
    /// Reports `problem` for `node` unless it is the one reported last. In the editor, configuration warnings say
    /// it instead, so nothing is printed.
    pub fn report(&mut self, node: &Gd<Node2D>, problem: Problem) {
        if self.is_reported(problem) {
            return;
        }
        self.last = Some(problem);
        self.good_solves = 0;
        if crate::editor::in_editor() {
            return;
        }
        let path = if node.is_inside_tree() { node.get_path().to_string() } else { node.get_name().to_string() };
        let class = node.get_class().to_string();
        godot_error!("{class} ({path}): {}", problem.message(&class));
    }

    /// `true` when `problem` is the one reported last.
    pub fn is_reported(&self, problem: Problem) -> bool {
        self.last == Some(problem)
    }

    /// The reported problem is still there: the run of good solves starts over.
    pub fn still_there(&mut self) {
        self.good_solves = 0;
    }

    /// Counts a good solve; after [`GOOD_SOLVES_TO_FORGET`] in a row the last problem is forgotten, so a problem
    /// that comes back later is reported again.
    pub fn clear(&mut self) {
        self.good_solves = self.good_solves.saturating_add(1);
        if self.good_solves >= GOOD_SOLVES_TO_FORGET {
            self.last = None;
        }
    }
}
