//! Paths and chains the path-fit tests share, and the brute-force distance of a point from a path.

use core::f32::consts::TAU;

use glam::Vec2;

use crate::path_fit::PathPolyline;

/// A closed circle of `radius` around `center` sampled at `samples` points (the first repeated at the end).
pub fn circle(center: Vec2, radius: f32, samples: usize) -> PathPolyline {
    let mut path = PathPolyline::default();
    let points = (0..=samples).map(|i| center + Vec2::from_angle(TAU * (i % samples) as f32 / samples as f32) * radius);
    path.set(points).expect("a circle");
    path
}

/// An open path through `points`.
pub fn open(points: &[Vec2]) -> PathPolyline {
    let mut path = PathPolyline::default();
    path.set(points.iter().copied()).expect("two distinct points");
    path
}

/// A chain of bones of `lengths` from `root`, straight along `direction`: its joints.
pub fn straight_chain(root: Vec2, direction: Vec2, lengths: &[f32]) -> Vec<Vec2> {
    let mut joints = vec![root];
    for &length in lengths {
        let last = *joints.last().unwrap();
        joints.push(last + direction.normalize() * length);
    }
    joints
}

/// The distance of `point` from `path`: from its segments, and on an open path also from its extensions along its
/// end segments.
pub fn distance_from(path: &PathPolyline, point: Vec2) -> f32 {
    let points = path.points();
    let last = points.len() - 2;
    let mut best = f32::INFINITY;
    for s in 0..=last {
        let (a, b) = (points[s], points[s + 1]);
        let d = b - a;
        let mut t = (point - a).dot(d) / d.length_squared();
        let before = s == 0 && !path.is_closed();
        let after = s == last && !path.is_closed();
        if !before {
            t = t.max(0.0);
        }
        if !after {
            t = t.min(1.0);
        }
        best = best.min(point.distance(a + d * t));
    }
    best
}

/// The lengths between consecutive joints.
pub fn lengths_of(joints: &[Vec2]) -> Vec<f32> {
    joints.windows(2).map(|pair| pair[0].distance(pair[1])).collect()
}
