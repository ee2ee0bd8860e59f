//! Property tests of the path fit (proptest): on any path, any chain and any limits the fit is finite and keeps
//! every bone's length and the root; without limits every joint past the run-in lies on the path (or its
//! extension), and with them every limit holds; a travelling fit (`PathTravel`) over frames too.

use core::f32::consts::PI;

use glam::Vec2;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

use super::fixtures::{distance_from, lengths_of};
use crate::angle::{AngleLimit, ChainLimits, signed_angle};
use crate::path_fit::{PathFitSettings, PathPolyline, PathTravel, fit_chain};

fn point(range: f32) -> impl Strategy<Value = Vec2> {
    (-range..range, -range..range).prop_map(|(x, y)| Vec2::new(x, y))
}

/// A path: random points (repeats and a closing point included), or a smooth wave.
fn path_points() -> impl Strategy<Value = Vec<Vec2>> {
    let random = prop::collection::vec(prop_oneof![4 => point(500.0), 1 => Just(Vec2::new(10.0, 10.0))], 2..40)
        .prop_map(|mut points| {
            if points.len() > 5 && points.len() % 3 == 0 {
                points.push(points[0]);
            }
            points
        });
    let wave = (1.0f32..200.0, 0.001f32..0.1, 2.0f32..20.0, 10usize..300).prop_map(|(amplitude, k, step, n)| {
        (0..n).map(|i| Vec2::new(i as f32 * step, amplitude * (i as f32 * step * k).sin())).collect()
    });
    prop_oneof![random, wave]
}

fn limit() -> impl Strategy<Value = Option<AngleLimit>> {
    prop_oneof![2 => Just(None), 1 => (-PI..PI, 0.0f32..(2.0 * PI)).prop_map(|(min, w)| AngleLimit::new(min, min + w))]
}

#[derive(Debug, Clone)]
struct Case {
    path: Vec<Vec2>,
    joints: Vec<Vec2>,
    limits: Vec<Option<AngleLimit>>,
    root_direction: Vec2,
    settings: PathFitSettings,
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..=16).prop_flat_map(|n| {
        (
            path_points(),
            prop::collection::vec(prop_oneof![6 => point(600.0), 1 => Just(Vec2::ZERO)], n + 1),
            prop_oneof![1 => Just(Vec::new()), 1 => prop::collection::vec(limit(), n)],
            (-PI..PI).prop_map(Vec2::from_angle),
            (-2000.0f32..2000.0, any::<bool>()),
        )
            .prop_map(|(path, joints, limits, root_direction, (offset, tip_along_tangent))| Case {
                path,
                joints,
                limits,
                root_direction,
                settings: PathFitSettings { offset, tip_along_tangent },
            })
    })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 2000,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    }
}

/// Every bone of the fitted `joints` kept its length in `case.joints`, and every bone lies within its limit of
/// `case.limits` (the first against `case.root_direction`, a zero-length parent skipped); `scale` sizes the
/// tolerances. A bone of at most `1e-3 * scale` has no direction the joints can tell, so neither its own limit nor its
/// child's (measured from it) is checked.
fn lengths_and_limits_hold(case: &Case, joints: &[Vec2], scale: f32) -> Result<(), TestCaseError> {
    for (i, (fitted, wanted_length)) in lengths_of(joints).iter().zip(lengths_of(&case.joints)).enumerate() {
        prop_assert!((fitted - wanted_length).abs() <= 1e-4 * scale, "bone {i} length {wanted_length} -> {fitted}");
    }
    // The parent's direction, `None` when it is too short to be told.
    let mut parent = Some(case.root_direction);
    for (i, pair) in joints.windows(2).enumerate() {
        let segment = pair[1] - pair[0];
        if segment == Vec2::ZERO {
            continue;
        }
        if segment.length() <= 1e-3 * scale {
            parent = None;
            continue;
        }
        if let (Some(limit), Some(parent)) = (case.limits.get(i).copied().flatten(), parent) {
            let angle = signed_angle(parent, segment);
            prop_assert!(
                limit.contains(angle, 1e-3),
                "limit {i} holds: {angle} outside [{}, {}]",
                limit.min,
                limit.max
            );
        }
        parent = Some(segment);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_fit_is_finite_keeps_lengths_and_holds_limits(case in case()) {
        let mut path = PathPolyline::default();
        prop_assume!(path.set(case.path.iter().copied()).is_ok());
        let mut joints = case.joints.clone();
        let mut wanted = vec![Vec2::ZERO; joints.len()];
        let limits = ChainLimits { root_direction: case.root_direction, per_bone: &case.limits };
        let report = fit_chain(&path, &mut joints, &limits, &case.settings, &mut wanted).unwrap();
        prop_assert!(joints.iter().chain(&wanted).all(|j| j.is_finite()));
        prop_assert!(report.off_path.is_finite());
        prop_assert_eq!(joints[0], case.joints[0]);
        let scale = case.joints.iter().chain(path.points()).map(|p| p.abs().max_element()).fold(1.0f32, f32::max);
        lengths_and_limits_hold(&case, &joints, scale)?;
        if case.limits.iter().all(Option::is_none) {
            // Each joint met the path where it wanted to; beyond the run-in, on the path or its extension (or, on
            // a closed path, pointing at it when no point of the loop was a bone's length away).
            for (i, (joint, aim)) in joints.iter().zip(&wanted).enumerate().skip(report.run_in + 1) {
                let tip_along = case.settings.tip_along_tangent && i + 1 == joints.len();
                let zero_length = *joint == joints[i - 1];
                if joint == aim && !tip_along && !zero_length {
                    prop_assert!(distance_from(&path, *joint) <= 1e-4 * scale, "joint {} on the path", i);
                }
            }
            if !path.is_closed() {
                prop_assert_eq!(report.off_path, 0.0);
            }
        }
    }

    #[test]
    fn a_travelling_fit_is_finite_keeps_lengths_and_holds_limits(
        case in case(),
        moves in prop::collection::vec((-300.0f32..300.0, point(40.0), 0.0f32..0.1), 1..6),
    ) {
        let mut path = PathPolyline::default();
        prop_assume!(path.set(case.path.iter().copied()).is_ok());
        let mut joints = case.joints.clone();
        let mut wanted = vec![Vec2::ZERO; joints.len()];
        let limits = ChainLimits { root_direction: case.root_direction, per_bone: &case.limits };
        let mut travel = PathTravel::default();
        let scale = case.joints.iter().chain(path.points()).map(|p| p.abs().max_element()).fold(1.0f32, f32::max) + 2000.0;
        let mut settings = case.settings;
        // Frames: the offset steps on, the chain moves, the time step varies (0 included).
        for (step, shift, delta) in moves.into_iter().chain([(0.0, Vec2::ZERO, 0.0)]) {
            travel.fit(&path, &mut joints, &limits, &settings, &mut wanted, delta).unwrap();
            prop_assert!(joints.iter().chain(&wanted).all(|j| j.is_finite()));
            lengths_and_limits_hold(&case, &joints, scale)?;
            settings.offset += step;
            joints.iter_mut().for_each(|joint| *joint += shift);
        }
    }

    #[test]
    fn a_smooth_path_holds_every_joint(
        radius in 80.0f32..2000.0,
        lengths in prop::collection::vec(1.0f32..40.0, 1..24),
        center in point(1000.0),
        start in 0.0f32..1.0,
    ) {
        // A circle of radius well above the bones, sampled every 5 units as Godot bakes a curve.
        let samples = ((2.0 * PI * radius / 5.0) as usize).max(16);
        let mut path = PathPolyline::default();
        let points = (0..=samples).map(|i| center + Vec2::from_angle(2.0 * PI * (i % samples) as f32 / samples as f32) * radius);
        path.set(points).unwrap();
        let root = path.point(path.cursor_at(start * path.length()));
        let mut joints = vec![root];
        for length in &lengths {
            let last = *joints.last().unwrap();
            joints.push(last + Vec2::X * *length);
        }
        let settings = PathFitSettings { offset: start * path.length(), tip_along_tangent: false };
        fit_chain(&path, &mut joints, &ChainLimits::NONE, &settings, &mut []).unwrap();
        // The polyline's chords lie within radius * (1 - cos(step / 2)) of the circle; the joints on them.
        let sagitta = radius * (1.0 - (PI / samples as f32).cos());
        for joint in &joints {
            prop_assert!((joint.distance(center) - radius).abs() <= sagitta + 2e-6 * (radius + center.abs().max_element()));
        }
        for (fitted, length) in lengths_of(&joints).iter().zip(&lengths) {
            prop_assert!((fitted - length).abs() <= 2e-6 * (radius + center.abs().max_element()));
        }
    }
}
