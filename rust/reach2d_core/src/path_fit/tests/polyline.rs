//! The polyline: setting it (repeats, degenerate and bad points, closing), places along it, tangents, and the first
//! meeting of a circle.

use core::f32::consts::FRAC_1_SQRT_2;

use glam::Vec2;

use super::fixtures::{circle, open};
use crate::common::assert_approx_eq;
use crate::path_fit::{PathCursor, PathError, PathPolyline};

#[test]
fn repeated_points_are_dropped_and_lengths_measured() {
    let mut path = PathPolyline::default();
    let points = [Vec2::ZERO, Vec2::ZERO, Vec2::new(3.0, 4.0), Vec2::new(3.0, 4.0 + 1e-9), Vec2::new(3.0, 10.0)];
    path.set(points).unwrap();
    assert_eq!(path.points(), &[Vec2::ZERO, Vec2::new(3.0, 4.0), Vec2::new(3.0, 10.0)]);
    assert_approx_eq!(path.length(), 11.0);
    assert!(!path.is_closed());
}

#[test]
fn degenerate_paths_are_refused_and_leave_it_empty() {
    let mut path = open(&[Vec2::ZERO, Vec2::X]);
    for points in [vec![], vec![Vec2::ONE], vec![Vec2::ONE; 5], vec![Vec2::ONE, Vec2::ONE + Vec2::splat(1e-8)]] {
        assert_eq!(path.set(points.clone()), Err(PathError::TooFewPoints), "{points:?}");
        assert!(path.is_empty());
        assert_eq!(path.length(), 0.0);
    }
    assert_eq!(path.set([Vec2::ZERO, Vec2::X, Vec2::new(f32::NAN, 0.0)]), Err(PathError::NonFinitePoint { index: 2 }));
    assert_eq!(path.set([Vec2::new(0.0, f32::INFINITY), Vec2::X]), Err(PathError::NonFinitePoint { index: 0 }));
    assert!(path.is_empty());
    // An empty path answers without NaN.
    assert_eq!(path.cursor_at(3.0), PathCursor::default());
    assert_eq!(path.point(PathCursor { segment: 0, t: 0.5 }), Vec2::ZERO);
    assert_eq!(path.tangent(PathCursor::default()), Vec2::X);
    assert_eq!(path.first_meeting(PathCursor::default(), Vec2::ZERO, 1.0), None);
}

#[test]
fn a_path_whose_last_point_is_its_first_is_closed() {
    let square = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0), Vec2::new(0.0, 10.0), Vec2::new(1e-7, 0.0)];
    let mut path = PathPolyline::default();
    path.set(square).unwrap();
    assert!(path.is_closed());
    assert_eq!(path.points().last(), path.points().first(), "closed exactly");
    assert_approx_eq!(path.length(), 40.0);
    // Back and forth along one line is no loop.
    path.set([Vec2::ZERO, Vec2::X, Vec2::ZERO]).unwrap();
    assert!(!path.is_closed());
}

#[test]
fn places_along_an_open_path_extend_beyond_its_ends() {
    let path = open(&[Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 20.0)]);
    let cases = [(5.0, Vec2::new(5.0, 0.0)), (10.0, Vec2::new(10.0, 0.0)), (15.0, Vec2::new(10.0, 5.0))];
    for (distance, point) in cases {
        let cursor = path.cursor_at(distance);
        assert_approx_eq!(path.point(cursor), point);
        assert_approx_eq!(path.distance_at(cursor), distance);
    }
    let before = path.cursor_at(-4.0);
    assert_eq!(before.segment, 0);
    assert_approx_eq!(path.point(before), Vec2::new(-4.0, 0.0));
    let beyond = path.cursor_at(36.0);
    assert_eq!(beyond.segment, 1);
    assert_approx_eq!(path.point(beyond), Vec2::new(10.0, 26.0));
    assert_approx_eq!(path.distance_at(beyond), 36.0);
    assert_eq!(path.cursor_at(f32::NAN), PathCursor::default());
}

#[test]
fn places_along_a_closed_path_wrap() {
    let path = circle(Vec2::new(50.0, -20.0), 100.0, 360);
    let length = path.length();
    for distance in [-3.5 * length, -10.0, 0.25 * length, length, 7.25 * length] {
        let wrapped = distance.rem_euclid(length);
        assert_approx_eq!(path.point(path.cursor_at(distance)), path.point(path.cursor_at(wrapped)), 1e-2);
    }
}

#[test]
fn tangents_turn_smoothly_through_the_points() {
    let path = open(&[Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)]);
    assert_approx_eq!(path.tangent(PathCursor { segment: 0, t: 0.0 }), Vec2::X);
    // At the corner: the mean of both segments' directions, from either side.
    let corner = Vec2::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2);
    assert_approx_eq!(path.tangent(PathCursor { segment: 0, t: 1.0 }), corner);
    assert_approx_eq!(path.tangent(PathCursor { segment: 1, t: 0.0 }), corner);
    assert_approx_eq!(path.tangent(PathCursor { segment: 1, t: 1.0 }), Vec2::Y);
    // On the extensions: the end segment's direction.
    assert_approx_eq!(path.tangent(PathCursor { segment: 1, t: 3.0 }), Vec2::Y);
    assert_approx_eq!(path.tangent(PathCursor { segment: 0, t: -1.0 }), Vec2::X);
    // A closed path's seam blends its last and first segments.
    let square = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0), Vec2::new(0.0, 10.0), Vec2::ZERO];
    let closed = open(&square);
    assert_approx_eq!(closed.tangent(PathCursor { segment: 0, t: 0.0 }), Vec2::new(FRAC_1_SQRT_2, -FRAC_1_SQRT_2));
}

#[test]
fn the_first_meeting_leaves_or_enters_the_circle_further_along() {
    let path = open(&[Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0), Vec2::new(0.0, 10.0)]);
    // From inside: where the path leaves a circle of 5 around (10, 0).
    let from = path.cursor_at(10.0);
    let meeting = path.first_meeting(from, Vec2::new(10.0, 0.0), 5.0).unwrap();
    assert_approx_eq!(path.point(meeting), Vec2::new(10.0, 5.0));
    // A chord across the corner: exactly 5 from (8, 0), beyond it.
    let meeting = path.first_meeting(path.cursor_at(8.0), Vec2::new(8.0, 0.0), 5.0).unwrap();
    let point = path.point(meeting);
    assert_approx_eq!(point.distance(Vec2::new(8.0, 0.0)), 5.0, 1e-5);
    assert_approx_eq!(point, Vec2::new(10.0, 21.0f32.sqrt()), 1e-5);
    // From outside: where it enters.
    let meeting = path.first_meeting(PathCursor::default(), Vec2::new(10.0, 10.0), 3.0).unwrap();
    assert_approx_eq!(path.point(meeting), Vec2::new(10.0, 7.0));
    // Beyond the end, along the last segment's direction.
    let meeting = path.first_meeting(path.cursor_at(28.0), Vec2::new(2.0, 10.0), 12.0).unwrap();
    assert_approx_eq!(path.point(meeting), Vec2::new(-10.0, 10.0));
    // Nothing meets a circle far off the path, or of radius 0.
    assert_eq!(path.first_meeting(PathCursor::default(), Vec2::new(100.0, 100.0), 3.0), None);
    assert_eq!(path.first_meeting(PathCursor::default(), Vec2::ZERO, 0.0), None);
    assert_eq!(path.first_meeting(PathCursor::default(), Vec2::ZERO, f32::NAN), None);
}

#[test]
fn the_first_meeting_wraps_around_a_closed_path() {
    let path = circle(Vec2::ZERO, 100.0, 720);
    let start = path.cursor_at(path.length() - 10.0);
    let from = path.point(start);
    let meeting = path.first_meeting(start, from, 40.0).unwrap();
    // 30 px past the seam (the chord of 40 px along the circle is a little longer than 30 px of arc... here 40.3).
    let past_seam = path.distance_at(meeting);
    assert!(past_seam > 25.0 && past_seam < 35.0, "met again past the seam: {meeting:?} at {past_seam}");
    assert_approx_eq!(path.point(meeting).distance(from), 40.0, 1e-3);
    // A circle holding the whole loop never meets it.
    assert_eq!(path.first_meeting(start, Vec2::ZERO, 150.0), None);
}

#[test]
fn distance_near_sees_only_the_path_within_the_window() {
    // A hairpin: along +X to (100, 0), back along -X at y = 10.
    let path = open(&[Vec2::ZERO, Vec2::new(100.0, 0.0), Vec2::new(100.0, 10.0), Vec2::new(0.0, 10.0)]);
    let point = Vec2::new(50.0, 4.0);
    let on_first = path.cursor_at(50.0);
    // Near its place on the first leg: 4 away; the far leg (6 away) is out of a small window but in a large one.
    assert_approx_eq!(path.distance_near(point, on_first, 10.0), 4.0);
    let on_last = path.cursor_at(160.0);
    assert_approx_eq!(path.distance_near(point, on_last, 10.0), 6.0);
    assert_approx_eq!(path.distance_near(point, on_last, 200.0), 4.0);
    // An open path's ends go on along their extensions.
    assert_approx_eq!(path.distance_near(Vec2::new(-20.0, 3.0), path.cursor_at(0.0), 1.0), 3.0);
    // A closed circle: round past its start.
    let loop_ = circle(Vec2::ZERO, 100.0, 360);
    let near_start = loop_.cursor_at(loop_.length() - 1.0);
    let beyond = Vec2::from_angle(0.05) * 103.0;
    assert!((loop_.distance_near(beyond, near_start, 10.0) - 3.0).abs() < 0.01);
    assert!(loop_.distance_near(beyond, near_start, 1.0) > 3.5);
}
