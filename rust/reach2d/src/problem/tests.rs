//! Every problem a node can report is one sentence that says what is wrong and what to do, and each is reported
//! once, not every frame.

use reach2d_core::SolveError;

use super::{Problem, Problems};

/// One of each problem (an index where it carries one).
fn every_problem() -> Vec<Problem> {
    vec![
        Problem::NoTarget,
        Problem::TargetFreed,
        Problem::TargetOutsideTree,
        Problem::TargetNotFinite,
        Problem::PoleFreed,
        Problem::PoleOutsideTree,
        Problem::PoleNotFinite,
        Problem::NoRootBone,
        Problem::NoTipBone,
        Problem::NoBone,
        Problem::EmptyChain,
        Problem::BoneFreed,
        Problem::TipNotUnderRoot,
        Problem::NodeBetweenIsNotBone2D,
        Problem::TipNotChildOfRoot,
        Problem::BoneOutsideTree,
        Problem::NotInSkeleton,
        Problem::PoseNotFinite,
        Problem::SpringForceNotFinite,
        Problem::DeltaNotFinite,
        Problem::ZeroScale,
        Problem::Solver(SolveError::NonFiniteTarget),
        Problem::NoEffectors,
        Problem::EffectorsMismatch,
        Problem::RigTipMissing(1),
        Problem::RigTargetMissing(1),
        Problem::RigTargetNotFinite(1),
        Problem::RigTipNotUnderRoot(1),
        Problem::RigTipsOverlap,
        Problem::NoLegs,
        Problem::LegFreed(1),
        Problem::LegNotReady(1),
        Problem::LegClaimed(1),
        Problem::FootFreed(1),
        Problem::FootNotChildOfTip(1),
        Problem::HipsFreed,
        Problem::HipsCollapsed,
        Problem::NoWorld,
        Problem::NoPath,
        Problem::PathFreed,
        Problem::PathOutsideTree,
        Problem::NoCurve,
        Problem::CurveTooShort,
        Problem::PathNotFinite,
        Problem::NoSource,
        Problem::SourceFreed,
        Problem::SourceOutsideTree,
        Problem::SourceNotFinite,
        Problem::SourceZeroScale,
        Problem::SourceIsBone,
        Problem::SourceUnderBone,
        Problem::SourceHasNoRest,
        Problem::RestZeroScale,
        Problem::CopyScaleZero,
        Problem::NoStepperLegs,
        Problem::StepperLegMissing(2),
        Problem::StepperLegNotLeg(2),
        Problem::StepperLegTwice(2),
        Problem::StepperLegClaimed(2),
        Problem::StepperLeftCreature,
        Problem::StepperLegNotReady(2),
        Problem::StepperBodyFreed,
        Problem::StepperBodyCollapsed,
        Problem::StepperUnderBody,
        Problem::StepperNotFinite,
        Problem::StepperNoRoom(2, 99),
    ]
}

/// Fails to compile when a problem is added without being listed in [`every_problem`].
#[allow(dead_code)]
fn listed(problem: Problem) {
    match problem {
        Problem::NoTarget
        | Problem::TargetFreed
        | Problem::TargetOutsideTree
        | Problem::TargetNotFinite
        | Problem::PoleFreed
        | Problem::PoleOutsideTree
        | Problem::PoleNotFinite
        | Problem::NoRootBone
        | Problem::NoTipBone
        | Problem::NoBone
        | Problem::EmptyChain
        | Problem::BoneFreed
        | Problem::TipNotUnderRoot
        | Problem::NodeBetweenIsNotBone2D
        | Problem::TipNotChildOfRoot
        | Problem::BoneOutsideTree
        | Problem::NotInSkeleton
        | Problem::PoseNotFinite
        | Problem::SpringForceNotFinite
        | Problem::DeltaNotFinite
        | Problem::ZeroScale
        | Problem::Solver(..)
        | Problem::NoEffectors
        | Problem::EffectorsMismatch
        | Problem::RigTipMissing(..)
        | Problem::RigTargetMissing(..)
        | Problem::RigTargetNotFinite(..)
        | Problem::RigTipNotUnderRoot(..)
        | Problem::RigTipsOverlap
        | Problem::NoLegs
        | Problem::LegFreed(..)
        | Problem::LegNotReady(..)
        | Problem::LegClaimed(..)
        | Problem::FootFreed(..)
        | Problem::FootNotChildOfTip(..)
        | Problem::HipsFreed
        | Problem::HipsCollapsed
        | Problem::NoWorld
        | Problem::NoPath
        | Problem::PathFreed
        | Problem::PathOutsideTree
        | Problem::NoCurve
        | Problem::CurveTooShort
        | Problem::PathNotFinite
        | Problem::NoSource
        | Problem::SourceFreed
        | Problem::SourceOutsideTree
        | Problem::SourceNotFinite
        | Problem::SourceZeroScale
        | Problem::SourceIsBone
        | Problem::SourceUnderBone
        | Problem::SourceHasNoRest
        | Problem::RestZeroScale
        | Problem::CopyScaleZero
        | Problem::NoStepperLegs
        | Problem::StepperLegMissing(..)
        | Problem::StepperLegNotLeg(..)
        | Problem::StepperLegTwice(..)
        | Problem::StepperLegClaimed(..)
        | Problem::StepperLeftCreature
        | Problem::StepperLegNotReady(..)
        | Problem::StepperBodyFreed
        | Problem::StepperBodyCollapsed
        | Problem::StepperUnderBody
        | Problem::StepperNotFinite
        | Problem::StepperNoRoom(..) => {}
    }
}

#[test]
fn every_message_is_a_sentence_that_says_what_to_do_and_no_two_are_alike() {
    let mut seen = std::collections::HashSet::new();
    for problem in every_problem() {
        for class in ["FabrikChain2D", "LookAt2D", "LegStepper2D", "FootGrounder2D", "FabrikRig2D"] {
            let message = problem.message(class);
            assert!(message.len() > 20, "{problem:?}: {message:?} says little");
            assert!(message.ends_with('.') || message.ends_with(')'), "{problem:?}: {message:?} is a sentence");
            assert!(message.chars().next().is_some_and(|c| c.is_uppercase() || c == '`'), "{problem:?}: {message:?}");
            for debug in ["Some(", "None", "Err(", "Ok(", "{", "::", "\n"] {
                assert!(!message.contains(debug), "{problem:?}: {message:?} holds {debug:?}");
            }
        }
        assert!(seen.insert(problem.message("FabrikChain2D")), "{problem:?} says what another problem says");
    }
}

#[test]
fn messages_name_the_slot_they_are_about() {
    assert!(Problem::StepperLegMissing(2).message("LegStepper2D").contains("legs[2]"));
    assert!(Problem::RigTipMissing(1).message("FabrikRig2D").contains("[1]"));
    assert!(Problem::StepperNoRoom(2, 99).message("LegStepper2D").contains("99%"));
    assert!(Problem::NoTarget.message("LookAt2D").contains("look at"));
    assert_ne!(Problem::NoTarget.message("LookAt2D"), Problem::NoTarget.message("FabrikChain2D"));
}

#[test]
fn a_problem_is_printed_once_until_sixty_good_solves_forget_it() {
    let mut problems = Problems::default();
    let first = problems.note(Some(Problem::NoTarget));
    assert_eq!(first.print, Some(Problem::NoTarget));
    assert!(first.warnings_changed);
    for _ in 0..100 {
        let again = problems.note(Some(Problem::NoTarget));
        assert_eq!(again.print, None, "the same problem every frame prints nothing more");
        assert!(!again.warnings_changed);
    }
    assert_eq!(problems.current(), Some(Problem::NoTarget));
    // Flickering between good and broken is still one problem.
    for _ in 0..30 {
        assert!(problems.note(None).print.is_none());
        assert_eq!(problems.note(Some(Problem::NoTarget)).print, None);
    }
    // Another problem is new.
    assert_eq!(problems.note(Some(Problem::TargetFreed)).print, Some(Problem::TargetFreed));
    // Fixed for a second (60 good solves), then back: printed again.
    for _ in 0..59 {
        assert!(problems.note(None).print.is_none());
    }
    assert_eq!(problems.note(Some(Problem::TargetFreed)).print, None, "59 good solves do not forget it");
    for _ in 0..60 {
        assert!(problems.note(None).print.is_none());
    }
    assert_eq!(problems.current(), None);
    assert_eq!(problems.note(Some(Problem::TargetFreed)).print, Some(Problem::TargetFreed));
}

#[test]
fn shown_problems_and_problems_a_leg_prints_itself_are_not_printed() {
    let mut problems = Problems::default();
    let shown = problems.show(Some(Problem::NoRootBone));
    assert_eq!(shown.print, None);
    assert!(shown.warnings_changed);
    assert_eq!(problems.current(), Some(Problem::NoRootBone));
    assert!(!problems.show(Some(Problem::NoRootBone)).warnings_changed);
    for problem in [Problem::LegNotReady(0), Problem::StepperLegNotReady(3)] {
        assert!(problem.reported_elsewhere());
        assert_eq!(Problems::default().note(Some(problem)).print, None, "{problem:?}: the leg prints it");
    }
}

#[test]
fn only_the_advisory_problem_lets_a_node_solve() {
    let advisory: Vec<Problem> = every_problem().into_iter().filter(|p| p.is_advisory()).collect();
    assert_eq!(advisory, vec![Problem::StepperNoRoom(2, 99)]);
    assert!(Problem::Solver(SolveError::NonFiniteTarget).found_by_solving());
    assert!(!Problem::NoTarget.found_by_solving());
}
