//! What the chain asks its world: one query when nothing is near, and nothing changed by nonsense answers.

use glam::Vec2;

use super::sim::straight;
use super::worlds::{Boxes, Broken, Counted, floor_world};
use crate::angle::ChainLimits;
use crate::spring::{SpringBone, SpringFrame, SpringGoal, SpringSettings, step_spring};
use crate::spring_contact::*;

#[test]
fn a_chain_far_from_every_shape_asks_once() {
    let joints = straight(Vec2::ZERO, &[20.0, 20.0, 20.0], 1.0);
    let settings = SpringSettings { gravity: Vec2::new(0.0, 980.0), ..SpringSettings::default() };
    let goal = SpringGoal { joints: &joints, limits: ChainLimits::NONE, scales: &[] };
    let (mut frame, mut bones, mut out) = (SpringFrame::default(), vec![SpringBone::default(); 3], joints.clone());
    let mut far = Counted(floor_world(), 0);
    step_spring(&mut frame, &mut bones, &goal, &settings, 1.0 / 60.0, &mut out).unwrap();
    let previous = out.clone();
    let ends = SpringEnds { radii: &[3.0; 3], previous: Some(&previous) };
    collide_spring(&frame, &mut bones, &goal, &settings, ends, &mut out, &mut far);
    assert_eq!(far.1, 1, "one bounding query, nothing near");
    // Near a shape (not touching it): the bounding query, then a sweep and an overlap per end.
    let mut near = Counted(Boxes(vec![(Vec2::new(-100.0, 55.0), Vec2::new(100.0, 60.0))]), 0);
    let mut out = previous.clone();
    collide_spring(&frame, &mut bones, &goal, &settings, ends, &mut out, &mut near);
    assert_eq!(near.1, 7);
}

#[test]
fn a_broken_world_changes_nothing() {
    let joints = straight(Vec2::new(3.0, 4.0), &[10.0, 20.0], 0.3);
    let settings = SpringSettings { gravity: Vec2::new(0.0, 980.0), ..SpringSettings::default() };
    let mut frame = SpringFrame::default();
    let mut bones = vec![SpringBone::default(); 2];
    let mut out = vec![Vec2::ZERO; 3];
    let goal = SpringGoal { joints: &joints, limits: ChainLimits::NONE, scales: &[] };
    step_spring(&mut frame, &mut bones, &goal, &settings, 1.0 / 60.0, &mut out).unwrap();
    let (before, state) = (out.clone(), bones.clone());
    let previous = out.clone();
    assert_eq!(
        collide_spring(
            &frame,
            &mut bones,
            &goal,
            &settings,
            SpringEnds { radii: &[3.0, 3.0], previous: Some(&previous) },
            &mut out,
            &mut Broken
        ),
        0
    );
    assert_eq!((out, bones), (before, state));
}
