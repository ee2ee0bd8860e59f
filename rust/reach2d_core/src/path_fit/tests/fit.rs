//! The fit: joints on the path with exact lengths, the run-in and the offset, the ends, wrapping, the tip along the
//! tangent, limits, zero-length bones and bad input.

use glam::Vec2;

use super::fixtures::{circle, distance_from, lengths_of, open, straight_chain};
use crate::common::assert_approx_eq;
use crate::path_fit::{PathError, PathFitSettings, PathPolyline, fit_chain};
use crate::{AngleLimit, ChainLimits, SolveError, signed_angle};

const ALONG: PathFitSettings = PathFitSettings { offset: 0.0, tip_along_tangent: false };

#[test]
fn every_joint_lies_on_a_circle_path_with_exact_lengths() {
    let center = Vec2::new(300.0, 200.0);
    let path = circle(center, 200.0, 720);
    let lengths = [30.0, 25.0, 40.0, 10.0, 35.0, 30.0];
    // The root on the path's start; the chain drawn straight anywhere.
    let mut joints = straight_chain(center + Vec2::new(200.0, 0.0), Vec2::new(-0.3, 1.0), &lengths);
    let mut wanted = vec![Vec2::ZERO; joints.len()];
    let report = fit_chain(&path, &mut joints, &ChainLimits::NONE, &ALONG, &mut wanted).unwrap();
    assert_eq!(report.run_in, 0);
    assert_eq!(report.off_path, 0.0);
    for (i, joint) in joints.iter().enumerate() {
        assert_approx_eq!(joint.distance(center), 200.0, 0.05);
        assert!(distance_from(&path, *joint) < 1e-3, "joint {i} on the polyline");
    }
    for (fitted, length) in lengths_of(&joints).iter().zip(lengths) {
        assert_approx_eq!(*fitted, length, 1e-3);
    }
    assert_eq!(wanted, joints);
    // Along the path's direction (counter-clockwise here), one after the other.
    for pair in joints.windows(2) {
        assert!((pair[0] - center).perp_dot(pair[1] - center) > 0.0);
    }
}

#[test]
fn the_run_in_goes_straight_from_the_root_to_the_offset() {
    let path = open(&[Vec2::new(0.0, 100.0), Vec2::new(500.0, 100.0)]);
    let lengths = [20.0, 20.0, 20.0, 50.0, 20.0];
    let root = Vec2::new(100.0, 50.0);
    let mut joints = straight_chain(root, Vec2::X, &lengths);
    let settings = PathFitSettings { offset: 100.0, ..ALONG };
    let report = fit_chain(&path, &mut joints, &ChainLimits::NONE, &settings, &mut []).unwrap();
    // The entry (100, 100) is 50 below the root: two bones on the run-in, the third reaches past it.
    assert_eq!(report.run_in, 2);
    assert_eq!(joints[0], root);
    assert_approx_eq!(joints[1], Vec2::new(100.0, 70.0));
    assert_approx_eq!(joints[2], Vec2::new(100.0, 90.0));
    assert_approx_eq!(joints[3], Vec2::new(100.0 + 300.0f32.sqrt(), 100.0), 1e-4);
    assert_approx_eq!(joints[4].y, 100.0);
    assert_approx_eq!(joints[5].y, 100.0);
    for (fitted, length) in lengths_of(&joints).iter().zip(lengths) {
        assert_approx_eq!(*fitted, length, 1e-3);
    }
}

#[test]
fn an_open_path_goes_on_along_its_last_tangent_and_before_its_start() {
    let path = open(&[Vec2::ZERO, Vec2::new(50.0, 0.0), Vec2::new(50.0, 30.0)]);
    let lengths = [20.0; 8];
    let mut joints = straight_chain(Vec2::ZERO, Vec2::Y, &lengths);
    fit_chain(&path, &mut joints, &ChainLimits::NONE, &ALONG, &mut []).unwrap();
    let tip = joints[8];
    assert_approx_eq!(tip.x, 50.0, 1e-3);
    assert!(tip.y > 30.0 + 60.0, "beyond the end along +y: {tip}");
    for (fitted, length) in lengths_of(&joints).iter().zip(lengths) {
        assert_approx_eq!(*fitted, length, 1e-3);
    }
    // An offset before the start: the root runs in to the extension, the chain then comes onto the path.
    let mut joints = straight_chain(Vec2::new(-40.0, 0.0), Vec2::Y, &lengths);
    let settings = PathFitSettings { offset: -40.0, ..ALONG };
    let report = fit_chain(&path, &mut joints, &ChainLimits::NONE, &settings, &mut []).unwrap();
    assert_eq!(report.run_in, 0);
    assert_approx_eq!(joints[2], Vec2::ZERO, 1e-4);
    assert_approx_eq!(joints[4], Vec2::new(40.0, 0.0), 1e-4);
}

#[test]
fn a_closed_path_wraps_a_chain_longer_than_itself() {
    let center = Vec2::new(-50.0, 80.0);
    let path = circle(center, 60.0, 360);
    let lengths = [15.0; 40]; // 600 px around a loop of 377
    let mut joints = straight_chain(center + Vec2::new(60.0, 0.0), Vec2::X, &lengths);
    fit_chain(&path, &mut joints, &ChainLimits::NONE, &ALONG, &mut []).unwrap();
    for joint in &joints {
        assert_approx_eq!(joint.distance(center), 60.0, 0.05);
    }
    for (fitted, length) in lengths_of(&joints).iter().zip(lengths) {
        assert_approx_eq!(*fitted, length, 1e-3);
    }
}

#[test]
fn the_tip_can_lie_along_the_tangent() {
    let center = Vec2::ZERO;
    let path = circle(center, 100.0, 720);
    let lengths = [20.0, 20.0, 30.0];
    let mut joints = straight_chain(Vec2::new(100.0, 0.0), Vec2::X, &lengths);
    let settings = PathFitSettings { tip_along_tangent: true, ..ALONG };
    fit_chain(&path, &mut joints, &ChainLimits::NONE, &settings, &mut []).unwrap();
    let origin = joints[2];
    let radial = (origin - center).normalize();
    let tip_direction = (joints[3] - origin).normalize();
    assert_approx_eq!(tip_direction.dot(radial), 0.0, 2e-3);
    assert!(radial.perp_dot(tip_direction) > 0.0, "along the path's direction");
    assert_approx_eq!(joints[3].distance(origin), 30.0, 1e-4);
}

#[test]
fn limits_hold_and_the_next_bone_meets_the_path_again() {
    let path = open(&[Vec2::ZERO, Vec2::new(100.0, 0.0), Vec2::new(100.0, 200.0)]);
    let lengths = [60.0, 30.0, 30.0, 30.0, 30.0];
    let limits = [None, None, Some(AngleLimit::new(-0.3, 0.3).unwrap()), None, None];
    let chain_limits = ChainLimits { root_direction: Vec2::X, per_bone: &limits };
    let mut joints = straight_chain(Vec2::ZERO, Vec2::X, &lengths);
    let mut wanted = vec![Vec2::ZERO; joints.len()];
    let report = fit_chain(&path, &mut joints, &chain_limits, &ALONG, &mut wanted).unwrap();
    // Bone 2 wanted to turn 1.2 rad across the corner: it stops at 0.3 rad.
    let turn = signed_angle(joints[2] - joints[1], joints[3] - joints[2]);
    assert_approx_eq!(turn, 0.3, 1e-5);
    assert!(report.off_path > 1.0);
    assert_approx_eq!(report.off_path, joints[3].distance(wanted[3]), 1e-4);
    // The bones after it come back onto the path.
    for joint in &joints[4..] {
        assert!(distance_from(&path, *joint) < 1e-3, "{joint} back on the path");
    }
    for (fitted, length) in lengths_of(&joints).iter().zip(lengths) {
        assert_approx_eq!(*fitted, length, 1e-3);
    }
}

#[test]
fn a_bone_held_out_of_reach_of_the_path_points_at_it() {
    let path = open(&[Vec2::ZERO, Vec2::new(100.0, 0.0)]);
    // The root bone may only point up (+y), away from the path.
    let limits = [Some(AngleLimit::new(1.4, 1.7).unwrap()), None];
    let chain_limits = ChainLimits { root_direction: Vec2::X, per_bone: &limits };
    let mut joints = straight_chain(Vec2::ZERO, Vec2::X, &[50.0, 10.0]);
    let report = fit_chain(&path, &mut joints, &chain_limits, &ALONG, &mut []).unwrap();
    assert!(joints.iter().all(|j| j.is_finite()));
    assert_approx_eq!(joints[1].distance(joints[0]), 50.0, 1e-4);
    assert_approx_eq!(joints[2].distance(joints[1]), 10.0, 1e-4);
    // Bone 1 cannot reach the path from 50 px away: it points at where the root bone wanted to meet it.
    let toward = (Vec2::new(50.0, 0.0) - joints[1]).normalize();
    assert_approx_eq!((joints[2] - joints[1]).normalize(), toward, 1e-5);
    assert!(report.off_path > 30.0);
}

#[test]
fn zero_length_bones_stay_on_their_parents_end() {
    let path = open(&[Vec2::ZERO, Vec2::new(100.0, 0.0)]);
    let mut joints = vec![Vec2::ZERO, Vec2::new(0.0, 10.0), Vec2::new(0.0, 10.0), Vec2::new(0.0, 30.0)];
    fit_chain(&path, &mut joints, &ChainLimits::NONE, &ALONG, &mut []).unwrap();
    assert_approx_eq!(joints[1], Vec2::new(10.0, 0.0));
    assert_eq!(joints[2], joints[1]);
    assert_approx_eq!(joints[3], Vec2::new(30.0, 0.0));
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let path = open(&[Vec2::ZERO, Vec2::X * 10.0]);
    let chain = straight_chain(Vec2::ZERO, Vec2::Y, &[5.0, 5.0]);
    let limits = [Some(AngleLimit { min: 1.0, max: 0.0 }), None];
    let cases: [(PathPolyline, Vec<Vec2>, ChainLimits, f32, PathError); 5] = [
        (PathPolyline::default(), chain.clone(), ChainLimits::NONE, 0.0, PathError::TooFewPoints),
        (path.clone(), chain.clone(), ChainLimits::NONE, f32::NAN, PathError::InvalidOffset),
        (path.clone(), vec![Vec2::ZERO], ChainLimits::NONE, 0.0, PathError::Chain(SolveError::EmptyChain)),
        (
            path.clone(),
            vec![Vec2::ZERO, Vec2::new(f32::NAN, 1.0)],
            ChainLimits::NONE,
            0.0,
            PathError::Chain(SolveError::NonFiniteJoint { index: 1 }),
        ),
        (
            path.clone(),
            chain.clone(),
            ChainLimits { root_direction: Vec2::X, per_bone: &limits },
            0.0,
            PathError::Chain(SolveError::InvalidLimit { index: 0 }),
        ),
    ];
    for (path, joints, limits, offset, error) in cases {
        let mut fitted = joints.clone();
        let settings = PathFitSettings { offset, ..ALONG };
        assert_eq!(fit_chain(&path, &mut fitted, &limits, &settings, &mut []), Err(error));
        assert!(fitted.iter().zip(&joints).all(|(a, b)| a == b || (a.is_nan() && b.is_nan())));
    }
    assert!(PathError::TooFewPoints.to_string().contains("two distinct points"));
}
