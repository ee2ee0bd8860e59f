//! What a helper node (`FootGrounder2D`, `LegStepper2D`) asks of a leg it drives, kept by each class that can be a
//! leg (`TwoBoneIk2D`, `FabrikChain2D`, `CcdChain2D`): whether a helper names it, whether the helper solves it at run
//! time (its own ticks then rest), and the goal of the solve the helper runs now, handed over on the Rust side so the
//! user's target node is never moved. Also the leg's unwritten pose, which the helpers read: the pose the IK did not
//! write (the animation's, the scene's).

use glam::{Affine2, Mat2};
use godot::classes::Object;
use godot::obj::{Gd, InstanceId};
use reach2d_core::Vec2;
use reach2d_core::stepper::LegReach;

use crate::io::bones::Bones;
use crate::problem::Problem;
use crate::runtime::frame::{self, BoneDriver};
use crate::runtime::setup::{self, Setup, Slots};

/// The most a chain leg's end may miss a helper's goal (px): a planted foot's end then moves less than this a frame
/// as the body walks over it, whatever the leg's own `tolerance` (which stays for its own target).
pub const HELD_TOLERANCE: f32 = 0.02;

/// What a helper node asks of a leg (nothing unless one names it).
#[derive(Default)]
pub struct Drive {
    /// A helper names this leg: without a target (or while driven) the leg keeps its pose unless the helper gives
    /// it a goal.
    attached: bool,
    /// The helper solves this leg itself (at run time; a `LegStepper2D` also in its editor preview): the leg's own
    /// ticks do nothing, so it never solves twice in a frame.
    driven: bool,
    /// The goal of the solve the helper runs now (global px), instead of the target's position.
    goal: Option<Vec2>,
    /// The helper that holds the leg (the first to name it); another helper that names it too is refused.
    by: Option<InstanceId>,
}

impl Drive {
    /// The helper `helper` names the leg (`attached`) and solves it itself (`driven`), or lets go of it (`attached`
    /// false). `false` when another helper, still alive, holds the leg: nothing changes (a leg named by two helpers,
    /// issue 36; the second one reports it). A helper that lets go of a leg it does not hold changes nothing.
    pub fn set(&mut self, helper: InstanceId, attached: bool, driven: bool) -> bool {
        let held_by_another = self.by.is_some_and(|by| by != helper && Gd::<Object>::try_from_instance_id(by).is_ok());
        if held_by_another {
            return !attached;
        }
        self.by = attached.then_some(helper);
        self.attached = attached;
        self.driven = driven;
        true
    }

    /// The tolerance (px) of this solve for a chain whose own is `own`: while a helper hands it a goal, at most
    /// [`HELD_TOLERANCE`], so a planted foot does not creep by up to the leg's tolerance a frame.
    pub fn tolerance(&self, own: f32) -> f32 {
        if self.goal.is_some() { own.min(HELD_TOLERANCE) } else { own }
    }

    /// `true` while a helper names this leg.
    pub fn attached(&self) -> bool {
        self.attached
    }

    /// `true` while a helper solves the leg itself.
    pub fn driven(&self) -> bool {
        self.driven
    }

    /// The setup check of this solve for a leg a helper names (`setup::check` on `slots`, the leg's own): the
    /// helper's goal in place of the
    /// target's position when it gave one; `None` for a leg a helper names that has no goal now and is driven or has
    /// no target (it keeps its pose); else the target's, checked as usual.
    pub fn check(&self, bones: &mut Bones, mut slots: Slots<'_>) -> Result<Option<Setup>, Problem> {
        let has_target = slots.target.is_some_and(Option::is_some);
        let keeps_pose = self.goal.is_none() && self.attached && (self.driven || !has_target);
        if self.goal.is_some() || keeps_pose {
            slots.target = None;
        }
        let setup = setup::check(bones, slots)?;
        Ok(match self.goal {
            Some(goal) => Some(Setup { goal, ..setup }),
            None if keeps_pose => None,
            None => Some(setup),
        })
    }
}

/// A leg class: it keeps a [`Drive`] and reads its unwritten pose; the rest of what a helper asks of a leg comes
/// with that, the same for every class.
pub trait DrivenLeg: BoneDriver {
    /// The leg's [`Drive`].
    fn drive(&mut self) -> &mut Drive;
    /// Reads the bones as a solve does (the same start, so the solve that follows sees the same pose) and returns
    /// [`unwritten_limb`].
    fn read_unwritten(&mut self) -> Result<(Vec2, Vec2, Affine2), Problem>;

    /// The helper `helper` names this leg (`attached`) and solves it itself (`driven`: the leg's own update mode
    /// then does nothing, so it never solves twice in a frame); `false` when another helper holds it ([`Drive::set`]).
    fn set_drive(&mut self, helper: InstanceId, attached: bool, driven: bool) -> bool {
        self.drive().set(helper, attached, driven)
    }

    /// `LegStepper2D`: the end effector in the pose this node did not write, enabled or not ([`read_limb`]), and
    /// the leg's reach from its root (the hip), global px.
    fn unwritten_reach(&mut self) -> Result<(Vec2, LegReach), ()>
    where
        Self: Sized,
    {
        let (hip, end, _) = read_limb(self)?;
        Ok((end, LegReach::of_lengths(hip, self.state().bones.pose.lengths())))
    }

    /// `FootGrounder2D`, `LegStepper2D`: solves now toward `goal` (global px) instead of the target, advancing time
    /// by `delta` seconds, reported like `solve()`. Returns `true` when the bones were written.
    fn solve_toward(&mut self, goal: Vec2, delta: f64) -> bool
    where
        Self: Sized,
    {
        solve_toward(self, goal, delta)
    }
}

/// The leg's unwritten pose ([`unwritten_limb`]): `Ok(None)` while the leg is disabled (the grounder leaves such a
/// leg alone); `Err` when the leg cannot be read, which the leg reports itself (once, like a failed solve).
pub fn animated_limb<T: DrivenLeg>(leg: &mut T) -> Result<Option<(Vec2, Vec2, Affine2)>, ()> {
    if !leg.enabled() {
        return Ok(None);
    }
    read_limb(leg).map(Some)
}

/// The leg's unwritten pose ([`unwritten_limb`]), whether it is enabled or not; `Err` when the leg cannot be read,
/// which the leg reports itself (once, like a failed solve).
pub fn read_limb<T: DrivenLeg>(leg: &mut T) -> Result<(Vec2, Vec2, Affine2), ()> {
    match frame::counted(|| leg.read_unwritten()) {
        Ok(limb) => Ok(limb),
        Err(problem) => {
            frame::refuse(leg, problem);
            Err(())
        }
    }
}

/// Solves `leg` now toward `goal` (global px) instead of its target, advancing time by `delta` seconds, reported
/// like `solve()`. Returns `true` when the bones were written.
pub fn solve_toward<T: DrivenLeg>(leg: &mut T, goal: Vec2, delta: f64) -> bool {
    leg.drive().goal = Some(goal);
    let solved = frame::solve_for(leg, delta);
    leg.drive().goal = None;
    solved
}

/// The chain just read into `bones`, posed with each bone's last rotation the node did not write: the root bone's
/// origin and the end effector (global px) and the tip bone's global transform. A pose that is not finite is
/// [`Problem::PoseNotFinite`].
pub fn unwritten_limb(bones: &Bones) -> Result<(Vec2, Vec2, Affine2), Problem> {
    let pose = bones.pose.pose();
    let mut global = pose.parent;
    for (bone, &rotation) in pose.bones.iter().zip(bones.memory.unwritten()) {
        global *= Affine2::from_mat2_translation(Mat2::from_angle(rotation) * bone.basis, bone.position);
    }
    let end = global.transform_point2(pose.tip_offset);
    let root = pose.parent.transform_point2(pose.bones.first().map_or(Vec2::ZERO, |b| b.position));
    let finite = root.is_finite() && end.is_finite() && global.is_finite();
    if finite { Ok((root, end, global)) } else { Err(Problem::PoseNotFinite) }
}
