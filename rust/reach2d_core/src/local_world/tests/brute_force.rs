//! Overlaps and rays checked against brute force: sampled distances, marched rays.

use glam::Vec2;

use super::fixtures::random_world;
use crate::common::Rng;
use crate::local_world::LocalWorld;
use crate::local_world::shapes::Kind;

/// Brute force: the distance from `p` to the segment `a..b` by sampling it (200 points), refined by a ternary
/// search around the best sample (the distance along a segment is convex in its parameter).
fn sampled_distance(a: Vec2, b: Vec2, p: Vec2) -> f32 {
    let at = |f: f32| a.lerp(b, f.clamp(0.0, 1.0)).distance(p);
    let best = (0..=200).min_by(|&i, &j| at(i as f32 / 200.0).total_cmp(&at(j as f32 / 200.0))).unwrap();
    let (mut lo, mut hi) = ((best as f32 - 1.0) / 200.0, (best as f32 + 1.0) / 200.0);
    for _ in 0..60 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if at(m1) < at(m2) { hi = m2 } else { lo = m1 }
    }
    at((lo + hi) * 0.5).min(at(best as f32 / 200.0))
}

/// Brute force: the signed distance from `p` to the world's one shape (sampled boundaries; inside a convex
/// polygon by the sides of its edges).
fn brute_signed_distance(world: &LocalWorld, p: Vec2) -> f32 {
    let shape = world.shapes[0];
    let points = &world.points[shape.start..shape.start + shape.count];
    match shape.kind {
        Kind::Convex => {
            let n = points.len();
            let d = (0..n).map(|i| sampled_distance(points[i], points[(i + 1) % n], p)).fold(f32::INFINITY, f32::min);
            let sides: Vec<f32> = (0..n).map(|i| (points[(i + 1) % n] - points[i]).perp_dot(p - points[i])).collect();
            let inside = sides.iter().all(|&s| s > 0.0) || sides.iter().all(|&s| s < 0.0);
            if inside { -d } else { d }
        }
        Kind::Rounded => sampled_distance(points[0], points[1], p) - shape.radius,
        Kind::Segments => points.chunks_exact(2).map(|s| sampled_distance(s[0], s[1], p)).fold(f32::INFINITY, f32::min),
        Kind::HalfPlane => (p - points[0]).dot(world.normals[shape.start]),
    }
}

/// Brute force: the first fraction of the ray at which the shape's signed distance drops to `level` (a march of
/// 400 steps, then bisection), or `None`.
fn brute_ray(world: &LocalWorld, from: Vec2, motion: Vec2, level: f32) -> Option<f32> {
    let inside = |f: f32| brute_signed_distance(world, from + motion * f) <= level;
    let first = (0..=400).find(|&i| inside(i as f32 / 400.0))?;
    if first == 0 {
        return Some(0.0);
    }
    let (mut lo, mut hi) = ((first - 1) as f32 / 400.0, first as f32 / 400.0);
    for _ in 0..40 {
        let mid = (lo + hi) * 0.5;
        if inside(mid) { hi = mid } else { lo = mid }
    }
    Some(hi)
}

/// Brute force for a segment soup: the first fraction at which the ray changes sides of a segment's line (a
/// march, then bisection) at a point within that segment.
fn brute_ray_segments(world: &LocalWorld, from: Vec2, motion: Vec2) -> Option<f32> {
    let shape = world.shapes[0];
    let points = &world.points[shape.start..shape.start + shape.count];
    let mut first: Option<f32> = None;
    for pair in points.chunks_exact(2) {
        let side = |f: f32| (pair[1] - pair[0]).perp_dot(from + motion * f - pair[0]).signum();
        let Some(i) = (1..=400).find(|&i| side(i as f32 / 400.0) != side(0.0)) else { continue };
        let (mut lo, mut hi) = ((i - 1) as f32 / 400.0, i as f32 / 400.0);
        for _ in 0..40 {
            let mid = (lo + hi) * 0.5;
            if side(mid) == side(0.0) { lo = mid } else { hi = mid }
        }
        if sampled_distance(pair[0], pair[1], from + motion * hi) < 1e-2 && first.is_none_or(|f| hi < f) {
            first = Some(hi);
        }
    }
    first
}

#[test]
fn overlaps_agree_with_brute_force_sampling() {
    let mut rng = Rng(7);
    let mut checked = [0usize; 6];
    for case in 0..360 {
        let (kind, data, t, world) = random_world(&mut rng, case);
        let size = if kind == 2 || kind == 3 { 30.0 } else { 60.0 } + data.radius;
        let p = t.translation + Vec2::new(rng.range(-size, size), rng.range(-size, size));
        let radius = rng.range(0.5, 25.0);
        let brute = brute_signed_distance(&world, p);
        let tolerance = 0.01;
        match world.overlap(p, radius) {
            Some(o) => {
                assert!(
                    brute < radius + tolerance,
                    "case {case} kind {kind}: overlap {o:?} but brute distance {brute}"
                );
                assert!(
                    (radius - o.depth - brute).abs() < tolerance,
                    "case {case} kind {kind}: depth {} vs brute {}",
                    o.depth,
                    radius - brute
                );
                assert!((o.normal.length() - 1.0).abs() < 1e-4);
                // The point is on the surface, the centre lies along the normal from it.
                let signed = (p - o.point).dot(o.normal);
                assert!((signed - brute).abs() < tolerance, "case {case} kind {kind}: {o:?}, {signed} vs {brute}");
                assert!(
                    brute_signed_distance(&world, o.point).abs() < tolerance,
                    "case {case} kind {kind}: point {o:?} off the surface"
                );
                checked[kind] += 1;
            }
            None => assert!(
                brute > radius - tolerance,
                "case {case} kind {kind}: no overlap, brute distance {brute} < {radius}"
            ),
        }
    }
    assert!(checked.iter().all(|&c| c >= 8), "overlaps checked per kind: {checked:?}");
}

#[test]
fn rays_agree_with_brute_force_marching() {
    let mut rng = Rng(11);
    let mut hits = [0usize; 6];
    for case in 0..360 {
        let (kind, _, t, world) = random_world(&mut rng, case);
        let from = t.translation + Vec2::new(rng.range(-90.0, 90.0), rng.range(-90.0, 90.0));
        let motion = t.translation + Vec2::new(rng.range(-30.0, 30.0), rng.range(-30.0, 30.0)) - from;
        let motion = motion * rng.range(0.5, 2.5);
        let start = brute_signed_distance(&world, from);
        let hit = world.ray(from, motion);
        if start < 0.0 && kind != 4 {
            assert!(hit.is_none(), "case {case}: a ray from inside is skipped");
            continue;
        }
        // Two-sided segments have no inside: where the ray crosses a segment's line within it.
        let brute =
            if kind == 4 { brute_ray_segments(&world, from, motion) } else { brute_ray(&world, from, motion, 0.0) };
        let length = motion.length();
        match (hit, brute) {
            (Some(h), Some(f)) => {
                assert!((h.fraction - f).abs() * length < 0.02, "case {case} kind {kind}: {h:?} vs {f}");
                assert!(h.normal.dot(motion) <= 0.0, "case {case}: the normal faces the ray");
                assert!(brute_signed_distance(&world, h.point).abs() < 0.01);
                hits[kind] += 1;
            }
            (None, None) => {}
            // Grazing: within the sampling's resolution of the surface.
            (Some(h), None) => assert!(brute_signed_distance(&world, h.point).abs() < 0.01, "case {case}: {h:?}"),
            (None, Some(f)) => {
                let deepest = (0..=400)
                    .map(|i| brute_signed_distance(&world, from + motion * (i as f32 / 400.0)))
                    .fold(f32::INFINITY, f32::min);
                assert!(deepest > -0.01, "case {case} kind {kind}: missed a hit at {f} ({deepest} deep)")
            }
        }
    }
    assert!(hits.iter().all(|&c| c > 8), "hits per kind: {hits:?}");
}
