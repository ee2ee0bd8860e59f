//! Mirror images: reflecting the path, the chain and the limits gives the reflected fit.

use glam::{Mat2, Vec2};

use super::fixtures::{circle, open, straight_chain};
use crate::common::assert_approx_eq;
use crate::path_fit::{PathFitSettings, PathPolyline, fit_chain};
use crate::{AngleLimit, ChainLimits};

/// The reflection across the line through the origin along `axis`.
fn reflection(axis: Vec2) -> Mat2 {
    let a = axis.normalize();
    Mat2::from_cols(
        Vec2::new(a.x * a.x - a.y * a.y, 2.0 * a.x * a.y),
        Vec2::new(2.0 * a.x * a.y, a.y * a.y - a.x * a.x),
    )
}

fn reflected(path: &PathPolyline, m: Mat2) -> PathPolyline {
    let mut out = PathPolyline::default();
    out.set(path.points().iter().map(|&p| m * p)).unwrap();
    out
}

/// Fits `joints` to `path` and the reflected chain to the reflected path (limits mirrored: a reflection reverses
/// angles), and returns the largest distance between the reflected fit and the fit of the reflection.
fn mirror_difference(path: &PathPolyline, joints: &[Vec2], limits: &[Option<AngleLimit>], offset: f32, m: Mat2) -> f32 {
    let settings = PathFitSettings { offset, tip_along_tangent: true };
    let mut plain = joints.to_vec();
    let plain_limits = ChainLimits { root_direction: Vec2::new(0.3, 1.0), per_bone: limits };
    fit_chain(path, &mut plain, &plain_limits, &settings, &mut []).unwrap();
    let mirrored_limits: Vec<_> = limits.iter().map(|l| l.map(|l| AngleLimit { min: -l.max, max: -l.min })).collect();
    let mut mirrored: Vec<Vec2> = joints.iter().map(|&j| m * j).collect();
    let limits = ChainLimits { root_direction: m * Vec2::new(0.3, 1.0), per_bone: &mirrored_limits };
    fit_chain(&reflected(path, m), &mut mirrored, &limits, &settings, &mut []).unwrap();
    plain.iter().zip(&mirrored).map(|(&p, &q)| (m * p).distance(q)).fold(0.0, f32::max)
}

#[test]
fn the_fit_of_a_reflection_is_the_reflected_fit() {
    let wave: Vec<Vec2> = (0..200).map(|i| Vec2::new(i as f32 * 4.0 - 300.0, 60.0 * (i as f32 * 0.05).sin())).collect();
    let paths = [open(&wave), circle(Vec2::new(120.0, -40.0), 150.0, 500)];
    let lengths = [25.0, 30.0, 0.0, 20.0, 35.0, 25.0, 30.0, 20.0];
    let limits =
        [None, Some(AngleLimit::new(-0.2, 0.2).unwrap()), None, None, Some(AngleLimit::new(0.0, 0.5).unwrap())];
    let limits: Vec<_> = limits.into_iter().chain(core::iter::repeat(None)).take(lengths.len()).collect();
    for (p, path) in paths.iter().enumerate() {
        for (axis, exact) in [(Vec2::Y, true), (Vec2::X, true), (Vec2::new(1.0, 2.5), false)] {
            for (root, offset) in [(Vec2::new(-300.0, 0.0), 0.0), (Vec2::new(-150.0, 80.0), 140.0), (Vec2::ZERO, -50.0)]
            {
                let joints = straight_chain(root, Vec2::new(1.0, -0.4), &lengths);
                for limits in [&[][..], &limits[..]] {
                    let difference = mirror_difference(path, &joints, limits, offset, reflection(axis));
                    // Across an axis the arithmetic is the same up to signs: bit for bit. Across another line the
                    // reflected inputs round differently.
                    let tolerance = if exact { 0.0 } else { 2e-3 };
                    assert!(
                        difference <= tolerance,
                        "path {p}, axis {axis}, root {root}, {} limits: off by {difference}",
                        limits.len()
                    );
                }
            }
        }
    }
    assert_approx_eq!(reflection(Vec2::Y) * Vec2::new(3.0, 4.0), Vec2::new(-3.0, 4.0));
}
