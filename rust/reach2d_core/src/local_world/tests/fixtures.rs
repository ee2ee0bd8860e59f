//! Random shapes and transforms for the local world's tests, the mirror, and a unit square.

use glam::{Affine2, Mat2, Vec2};

use crate::common::Rng;
use crate::local_world::LocalWorld;

pub(super) fn mirror(v: Vec2) -> Vec2 {
    Vec2::new(-v.x, v.y)
}

/// `M·T`: the transform reflected in the y axis.
pub(super) fn mirrored(t: Affine2) -> Affine2 {
    let m = |v: Vec2| Vec2::new(-v.x, v.y);
    Affine2::from_mat2_translation(Mat2::from_cols(m(t.matrix2.x_axis), m(t.matrix2.y_axis)), m(t.translation))
}

/// A random affine transform: rotation, scale (either sign, `uniform` or not), skew unless `uniform`.
fn random_transform(rng: &mut Rng, uniform: bool) -> Affine2 {
    let angle = rng.range(-3.2, 3.2);
    let (sx, sy) = if uniform {
        let s = rng.range(0.5, 2.0);
        (s * rng.sign(), s)
    } else {
        (rng.range(0.5, 2.0) * rng.sign(), rng.range(0.5, 2.0) * rng.sign())
    };
    let skew = if uniform { 0.0 } else { rng.range(-0.5, 0.5) };
    let basis = Mat2::from_angle(angle) * Mat2::from_cols(Vec2::new(sx, 0.0), Vec2::new(skew * sy, sy));
    Affine2::from_mat2_translation(basis, Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0)))
}

/// A random convex polygon around the origin, 3 to 8 vertices, in a random winding.
pub(super) fn random_convex(rng: &mut Rng) -> Vec<Vec2> {
    let n = 3 + rng.below(6);
    let mut angles: Vec<f32> = (0..n).map(|_| rng.range(0.0, core::f32::consts::TAU)).collect();
    angles.sort_by(f32::total_cmp);
    angles.dedup_by(|a, b| (*a - *b).abs() < 0.05);
    if angles.len() < 3 {
        angles = vec![0.5, 2.5, 4.5];
    }
    // On an ellipse: convex.
    let axes = Vec2::new(rng.range(10.0, 40.0), rng.range(10.0, 40.0));
    let mut points: Vec<Vec2> = angles.iter().map(|&a| Vec2::from_angle(a) * axes).collect();
    if rng.sign() < 0.0 {
        points.reverse();
    }
    points
}

/// Adds one random shape of each kind `k` (0..6) to `world` under `t`; returns whether it was added.
pub(super) fn add_kind(world: &mut LocalWorld, kind: usize, data: &ShapeData, t: Affine2) -> bool {
    match kind {
        0 => world.add_convex_polygon(data.polygon.iter().copied(), t),
        1 => world.add_rectangle(data.half, t),
        2 => world.add_circle(data.radius, t),
        3 => world.add_capsule(data.height, data.radius, t),
        4 => world.add_segments(data.polygon.iter().copied().chain([data.polygon[0]]).take(data.polygon.len() & !1), t),
        _ => world.add_world_boundary(data.boundary_normal, data.boundary_distance, t),
    }
}

/// Case `case` of a randomised test: a world holding one random shape of kind `case % 6` under a random transform
/// (uniformly scaled for circles and capsules, which need it, otherwise half the time); its kind, data and transform.
pub(super) fn random_world(rng: &mut Rng, case: usize) -> (usize, ShapeData, Affine2, LocalWorld) {
    let kind = case % 6;
    let data = random_data(rng);
    let uniform = kind == 2 || kind == 3 || rng.sign() > 0.0;
    let t = random_transform(rng, uniform);
    let mut world = LocalWorld::default();
    assert!(add_kind(&mut world, kind, &data, t), "case {case} kind {kind}: refused under {t:?}");
    (kind, data, t, world)
}

pub(super) struct ShapeData {
    pub(super) polygon: Vec<Vec2>,
    pub(super) half: Vec2,
    pub(super) radius: f32,
    pub(super) height: f32,
    pub(super) boundary_normal: Vec2,
    pub(super) boundary_distance: f32,
}

fn random_data(rng: &mut Rng) -> ShapeData {
    ShapeData {
        polygon: random_convex(rng),
        half: Vec2::new(rng.range(2.0, 30.0), rng.range(2.0, 30.0)),
        radius: rng.range(2.0, 20.0),
        height: rng.range(0.0, 80.0),
        boundary_normal: Vec2::from_angle(rng.range(-3.2, 3.2)),
        boundary_distance: rng.range(-20.0, 20.0),
    }
}

pub(super) fn unit_square() -> LocalWorld {
    let mut world = LocalWorld::default();
    assert!(world.add_rectangle(Vec2::splat(1.0), Affine2::IDENTITY));
    world
}
