//! Why a node cannot solve (its setup, the pose it read, or the solver's refusal), said once and in words that tell
//! the user what to do.

use godot::classes::Node2D;
use godot::prelude::*;
use reach2d_core::SolveError;

#[cfg(test)]
mod tests;

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
    /// The chain's root bone is not under a Skeleton2D (its first ancestor that is no Bone2D is another node).
    NotInSkeleton,
    PoseNotFinite,
    SpringForceNotFinite,
    /// `SpringChain2D.advance(delta)` with a delta that is not a finite 32-bit float.
    DeltaNotFinite,
    /// The skeleton, an ancestor or a bone of the chain has a zero scale (on one axis or both).
    ZeroScale,
    Solver(SolveError),
    /// `FabrikRig2D`: `effector_tips` is empty.
    NoEffectors,
    /// `FabrikRig2D`: `effector_tips` and `effector_targets` differ in length.
    EffectorsMismatch,
    /// `FabrikRig2D`: `effector_tips[i]` is no Bone2D (unset, freed, or a `tip_bones` path that leads nowhere).
    RigTipMissing(u16),
    /// `FabrikRig2D`: `effector_targets[i]` is no Node2D in the tree (unset, freed, outside the tree, or a `targets`
    /// path that leads nowhere).
    RigTargetMissing(u16),
    /// `FabrikRig2D`: `effector_targets[i]`'s global position is NaN or infinite.
    RigTargetNotFinite(u16),
    /// `FabrikRig2D`: `effector_tips[i]` is not under `root_bone`.
    RigTipNotUnderRoot(u16),
    /// `FabrikRig2D`: a tip bone is named twice or lies on another tip's chain.
    RigTipsOverlap,
    /// `FootGrounder2D`: neither leg is set.
    NoLegs,
    /// `FootGrounder2D`: the leg in slot 0 or 1 was freed.
    LegFreed(u8),
    /// `FootGrounder2D`: the leg in slot 0 or 1 cannot be read (its own setup or pose; the leg reports why).
    LegNotReady(u8),
    /// `FootGrounder2D`: the leg in slot 0 or 1 is held by another helper (a FootGrounder2D or LegStepper2D that
    /// named it first).
    LegClaimed(u8),
    /// `FootGrounder2D`: the foot in slot 0 or 1 was freed or left the tree.
    FootFreed(u8),
    /// `FootGrounder2D`: the foot in slot 0 or 1 is not a direct Bone2D child of its leg's tip bone.
    FootNotChildOfTip(u8),
    /// `FootGrounder2D`: `hips` was freed or left the tree.
    HipsFreed,
    /// `FootGrounder2D`: `hips` has a zero scale or a NaN transform.
    HipsCollapsed,
    /// `FootGrounder2D`, `LegStepper2D`: the node has no physics world to cast in.
    NoWorld,
    /// `PathChain2D`: `path` is not set.
    NoPath,
    /// `PathChain2D`: the `path` node was freed.
    PathFreed,
    /// `PathChain2D`: the `path` node is not in the scene tree.
    PathOutsideTree,
    /// `PathChain2D`: the path has no `Curve2D`.
    NoCurve,
    /// `PathChain2D`: the curve has fewer than two distinct points.
    CurveTooShort,
    /// `PathChain2D`: the curve's points or the path's global transform are NaN, infinite or collapsed.
    PathNotFinite,
    /// `CopyTransform2D`: `source` is not set.
    NoSource,
    /// `CopyTransform2D`: `source` was freed.
    SourceFreed,
    /// `CopyTransform2D`: `source` is not inside the scene tree.
    SourceOutsideTree,
    /// `CopyTransform2D`: the source's transform is NaN or infinite.
    SourceNotFinite,
    /// `CopyTransform2D`: the source has a zero scale (on one axis or both).
    SourceZeroScale,
    /// `CopyTransform2D`: `source` and `bone` are the same node.
    SourceIsBone,
    /// `CopyTransform2D`: in the global space, the source is below the bone (it would chase itself).
    SourceUnderBone,
    /// `CopyTransform2D`: the rest space needs a Bone2D source (a plain Node2D has no rest).
    SourceHasNoRest,
    /// `CopyTransform2D`: the source's or the bone's rest has a zero scale.
    RestZeroScale,
    /// `CopyTransform2D`: the scale to write is zero on an axis.
    CopyScaleZero,
    /// `LegStepper2D`: `legs` is empty.
    NoStepperLegs,
    /// `LegStepper2D`: `legs[i]` is empty, was freed or is outside the tree.
    StepperLegMissing(u16),
    /// `LegStepper2D`: `legs[i]` is not a TwoBoneIk2D, FabrikChain2D or CcdChain2D.
    StepperLegNotLeg(u16),
    /// `LegStepper2D`: `legs[i]` names a leg an earlier entry names.
    StepperLegTwice(u16),
    /// `LegStepper2D`: `legs[i]` is held by another helper (a LegStepper2D or FootGrounder2D that named it first).
    StepperLegClaimed(u16),
    /// `LegStepper2D`: the stepper was moved out from under the creature it walks (its ancestor above every leg).
    StepperLeftCreature,
    /// `LegStepper2D`: `legs[i]` cannot be read or solved (its own setup or pose; the leg reports why).
    StepperLegNotReady(u16),
    /// `LegStepper2D`: `body` was freed or left the tree.
    StepperBodyFreed,
    /// `LegStepper2D`: `body` has a zero scale or a NaN transform.
    StepperBodyCollapsed,
    /// `LegStepper2D`: `body` is the stepper or one of its ancestors.
    StepperUnderBody,
    /// `LegStepper2D`: its own global transform is NaN, infinite or collapsed (a zero scale).
    StepperNotFinite,
    /// `LegStepper2D`: the home of `legs[i]` rests at `.1` percent of the leg's reach from its hip, with no room to
    /// step: a warning, the creature still walks.
    StepperNoRoom(u16, u8),
}

impl Problem {
    /// `true` for problems only a solve can find (in the pose it reads or the solver's answer), not a setup check.
    pub fn found_by_solving(self) -> bool {
        matches!(
            self,
            Self::PoseNotFinite
                | Self::ZeroScale
                | Self::DeltaNotFinite
                | Self::Solver(_)
                | Self::SourceNotFinite
                | Self::SourceZeroScale
                | Self::RestZeroScale
                | Self::CopyScaleZero
                | Self::StepperNotFinite
                | Self::StepperBodyCollapsed
                | Self::StepperLegNotReady(_)
                | Self::StepperNoRoom(..)
        )
    }

    /// `true` for a warning that stops nothing: the node still solves (and the frame counts as solved).
    pub fn is_advisory(self) -> bool {
        matches!(self, Self::StepperNoRoom(..))
    }

    /// `true` for a problem another node prints itself (a grounder's leg reports its own setup): this node only
    /// shows it as a configuration warning, so one problem is one message.
    pub fn reported_elsewhere(self) -> bool {
        matches!(self, Self::LegNotReady(_) | Self::StepperLegNotReady(_))
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
            Self::NoBone if class == "CopyTransform2D" => "No bone: set `bone` to the Bone2D that follows the source.".into(),
            Self::NoBone => "No bone: set `bone` to the Bone2D to turn.".into(),
            Self::EmptyChain if look_at => "The node has no bone to turn: set `bone`.".into(),
            Self::EmptyChain if class == "CopyTransform2D" => "The node has no bone to drive: set `bone`.".into(),
            Self::EmptyChain => "The node has no bones to solve: set `root_bone` and `tip_bone`.".into(),
            Self::BoneFreed => "A bone of the chain was freed: set the bones again.".into(),
            Self::TipNotUnderRoot => "`tip_bone` is not `root_bone` or one of its descendants: pick bones on one branch of the skeleton.".into(),
            Self::NodeBetweenIsNotBone2D => "A node between `root_bone` and `tip_bone` is not a Bone2D: every node of the chain must be a Bone2D.".into(),
            Self::TipNotChildOfRoot => "`tip_bone` must be a direct Bone2D child of `root_bone` (upper and lower limb).".into(),
            Self::BoneOutsideTree => "The bones are not inside the scene tree.".into(),
            Self::NotInSkeleton => "The bones are not under a Skeleton2D: put the chain's bones in a Skeleton2D (a Bone2D works only under a Skeleton2D or another Bone2D). The bones keep their pose.".into(),
            Self::PoseNotFinite => "The bones' transforms are NaN or infinite (a zero scale?): the bones keep their pose until they are finite again.".into(),
            Self::SpringForceNotFinite => "`gravity` or `external_force` is NaN or infinite: give finite vectors in pixels per second squared.".into(),
            Self::DeltaNotFinite => "`advance(delta)`: delta is NaN, infinite or too large for a 32-bit float (or negative, for FootGrounder2D): give a finite time in seconds.".into(),
            Self::ZeroScale => "The skeleton, an ancestor or a bone of the chain has a zero scale (on one axis or both): the chain has collapsed, so the bones keep their last pose until the scale is non-zero again.".into(),
            Self::Solver(error) => format!("The solver rejected the chain: {error}."),
            Self::NoEffectors => "No effectors: add the tip Bone2D of each branch to `effector_tips` and its target to `effector_targets` (or call `add_effector(tip, target)`).".into(),
            Self::EffectorsMismatch => "`effector_tips` and `effector_targets` differ in length: give one target per tip bone.".into(),
            Self::RigTipMissing(i) => format!("`effector_tips[{i}]` is no Bone2D (unset, freed, or a `tip_bones` path that leads nowhere): pick the last bone of that branch."),
            Self::RigTargetMissing(i) => format!("`effector_targets[{i}]` is no Node2D in the scene tree (unset, freed, outside the tree, or a `targets` path that leads nowhere): pick the node that effector reaches for."),
            Self::RigTargetNotFinite(i) => format!("`effector_targets[{i}]`'s global position is NaN or infinite: give it a finite position."),
            Self::RigTipNotUnderRoot(i) => format!("`effector_tips[{i}]` is not `root_bone` or one of its Bone2D descendants: every branch must start at `root_bone`."),
            Self::RigTipsOverlap => "A tip bone is named twice or lies on another tip's chain: each effector needs a branch of its own (its tip a leaf of the rig).".into(),
            Self::NoLegs => "No legs: set `first_leg` (and `second_leg`) to TwoBoneIk2D legs.".into(),
            Self::LegFreed(i) => format!("`{}` was freed: set it to a TwoBoneIk2D that exists, or clear it.", leg(i)),
            Self::LegNotReady(i) => format!("`{}` cannot be solved: its own warning says why (set its bones).", leg(i)),
            Self::LegClaimed(i) => format!("`{}` is driven by another FootGrounder2D or LegStepper2D, which named it first: name each leg in one helper only (this one leaves its legs alone).", leg(i)),
            Self::FootFreed(i) => format!("`{}` was freed or is outside the tree: set it to a Bone2D that exists, or clear it.", foot(i)),
            Self::FootNotChildOfTip(i) => format!("`{}` must be a direct Bone2D child of `{}`'s tip bone.", foot(i), leg(i)),
            Self::HipsFreed => "`hips` was freed or is outside the tree: set it to a Node2D that exists, or clear it.".into(),
            Self::HipsCollapsed => "`hips` has a zero scale or a NaN transform: the hips keep their position.".into(),
            Self::NoWorld => "The node has no physics world (World2D) to cast its rays in.".into(),
            Self::NoPath => "No path: set `path` to the Path2D whose curve the chain follows.".into(),
            Self::PathFreed => "The path was freed: set `path` to a Path2D that exists.".into(),
            Self::PathOutsideTree => "The path is not inside the scene tree: add it to the tree or pick another Path2D.".into(),
            Self::NoCurve => "The path has no curve: give the Path2D a Curve2D (its `curve` property) with two points or more.".into(),
            Self::CurveTooShort => "The path's curve has fewer than two distinct points (it is empty, has one point, or all its points are in one place): add points apart from each other. The bones keep their pose.".into(),
            Self::PathNotFinite => "The path's curve or global transform is NaN, infinite or has a zero scale: give it finite points and a non-zero scale. The bones keep their pose.".into(),
            Self::NoSource => "No source: set `source` to the Node2D (a Bone2D, a hand, a cart) the bone follows.".into(),
            Self::SourceFreed => "The source was freed: set `source` to a Node2D that exists.".into(),
            Self::SourceOutsideTree => "The source is not inside the scene tree: add it to the tree or pick another source.".into(),
            Self::SourceNotFinite => "The source's transform is NaN or infinite: the bone keeps its pose until it is finite again.".into(),
            Self::SourceZeroScale => "The source has a zero scale (on one axis or both): it has no direction to copy, so the bone keeps its pose until the source's scale is non-zero again.".into(),
            Self::SourceIsBone => "`source` and `bone` are the same node: a bone cannot follow itself; pick another source.".into(),
            Self::SourceUnderBone => "The source is below `bone` in the tree: copied in the global space the bone would chase itself. Pick a source outside the bone, or copy in the local or rest space.".into(),
            Self::SourceHasNoRest => "The rest space needs a Bone2D source (its change from `Bone2D.rest` is copied): pick a Bone2D, or copy in the global or local space.".into(),
            Self::RestZeroScale => "The rest (`Bone2D.rest`) of the source or of the bone has a zero scale: give it a non-zero scale, or copy in the global or local space.".into(),
            Self::CopyScaleZero => "The scale to write is zero on an axis (check `scale_offset`, the scale factors and clamps): the bone keeps its pose.".into(),
            Self::NoStepperLegs => "No legs: add the TwoBoneIk2D, FabrikChain2D or CcdChain2D legs to `legs`.".into(),
            Self::StepperLegMissing(i) => format!("`legs[{i}]` is empty, was freed or is outside the tree: set it to a leg that exists, or remove the entry."),
            Self::StepperLegNotLeg(i) => format!("`legs[{i}]` is not a TwoBoneIk2D, FabrikChain2D or CcdChain2D: only those can be legs."),
            Self::StepperLegTwice(i) => format!("`legs[{i}]` names a leg an earlier entry names: list each leg once."),
            Self::StepperLegClaimed(i) => format!("`legs[{i}]` is driven by another LegStepper2D or FootGrounder2D, which named it first: name each leg in one helper only (this one leaves its legs alone)."),
            Self::StepperLeftCreature => "The node was moved out from under the creature whose legs it walks: it no longer moves with them, so it leaves them alone. Put it back under the creature's root (beside the skeleton), or set `legs` again to walk them from here.".into(),
            Self::StepperLegNotReady(i) => format!("`legs[{i}]` cannot be solved: its own warning says why (set its bones)."),
            Self::StepperBodyFreed => "`body` was freed or is outside the tree: set it to a Node2D that exists, or clear it.".into(),
            Self::StepperBodyCollapsed => "`body` has a zero scale or a NaN transform: the body keeps its pose.".into(),
            Self::StepperUnderBody => "`body` is this node or one of its ancestors: raising it would carry the homes along. Put the LegStepper2D beside the skeleton (a child of the creature's root), or pick the torso bone as `body`.".into(),
            Self::StepperNoRoom(i, percent) => format!("The foot of `legs[{i}]` rests at {percent}% of the leg's full reach from its hip: no step can keep it planted (a foot lifts before its leg stretches past 99%), so it steps in place. Put its home nearer the hip (`home_points`, or the leg's pose), or lengthen the leg."),
            Self::StepperNotFinite => "The node's global transform is NaN, infinite or has a zero scale: the feet keep their place until it is finite again.".into(),
        }
    }
}

/// `FootGrounder2D`'s leg slot `i`.
fn leg(i: u8) -> &'static str {
    if i == 0 { "first_leg" } else { "second_leg" }
}

/// `FootGrounder2D`'s foot slot `i`.
fn foot(i: u8) -> &'static str {
    if i == 0 { "first_foot" } else { "second_foot" }
}

/// What [`Problems::note`] asks of the node: [`Noted::apply`] it.
#[must_use]
pub struct Noted {
    /// A problem to print now.
    print: Option<Problem>,
    /// The configuration warnings changed.
    warnings_changed: bool,
}

impl Noted {
    /// `true` when there is nothing to do: no problem to print, the warnings unchanged (a good solve after a good
    /// one, every frame). The caller then need not reach the node's base at all.
    pub fn is_nothing(&self) -> bool {
        self.print.is_none() && !self.warnings_changed
    }

    /// Prints the new problem as one error naming `node` (not in the editor, where configuration warnings say it)
    /// and refreshes its configuration warnings when they changed.
    pub fn apply(self, node: &mut Node2D) {
        if let Some(problem) = self.print.filter(|_| !crate::engine::editor::in_editor()) {
            let path = if node.is_inside_tree() { node.get_path().to_string() } else { node.get_name().to_string() };
            let class = node.get_class().to_string();
            godot_error!("{class} ({path}): {}", problem.message(&class));
        }
        if self.warnings_changed {
            node.update_configuration_warnings();
        }
    }
}

/// A node's problem now, its reporter and the problem its configuration warning shows.
#[derive(Default)]
pub struct Problems {
    reporter: ProblemReporter,
    /// The current problem, for configuration warnings.
    current: Option<Problem>,
    /// The problem the configuration warnings were last refreshed for.
    warned: Option<Problem>,
}

impl Problems {
    /// The current problem.
    pub fn current(&self) -> Option<Problem> {
        self.current
    }

    /// Remembers the outcome of an attempt (`None`: it went well). Returns what to do: print a new problem (once),
    /// refresh the configuration warnings.
    pub fn note(&mut self, problem: Option<Problem>) -> Noted {
        let print = match problem {
            Some(problem) => self.reporter.report(problem).then_some(problem),
            None => {
                self.reporter.clear();
                None
            }
        };
        Noted { print, ..self.show(problem) }
    }

    /// Shows `problem` as the configuration warning without reporting it.
    pub fn show(&mut self, problem: Option<Problem>) -> Noted {
        self.current = problem;
        let warnings_changed = self.warned != problem;
        self.warned = problem;
        Noted { print: None, warnings_changed }
    }

    /// The configuration warning for a node of `class`.
    pub fn warnings(&self, class: &str) -> PackedStringArray {
        let mut warnings = PackedStringArray::new();
        if let Some(problem) = self.current {
            warnings.push(&problem.message(class));
        }
        warnings
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
    /// `problem` happened: `true` when it is to be printed now (it is not the one reported last, and no other node
    /// prints it).
    pub fn report(&mut self, problem: Problem) -> bool {
        self.good_solves = 0;
        if self.is_reported(problem) {
            return false;
        }
        self.last = Some(problem);
        !problem.reported_elsewhere()
    }

    /// `true` when `problem` is the one reported last.
    fn is_reported(&self, problem: Problem) -> bool {
        self.last == Some(problem)
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
