//! The first hit of a ray ([`LocalWorld::ray`]): one exact test per kind of shape.

use glam::Vec2;

use super::overlap::nearest_on_segment;
use super::shapes::{Kind, LocalWorld};

/// The first hit of a ray ([`LocalWorld::ray`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The fraction of the motion travelled to the hit, in `[0, 1]`.
    pub fraction: f32,
    /// Where the ray meets the surface.
    pub point: Vec2,
    /// The surface's unit outward normal there (for a two-sided segment: the side the ray came from).
    pub normal: Vec2,
}

impl LocalWorld {
    /// The first hit of the ray from `from` along `motion` (fraction 0 to 1), skipping every solid shape that
    /// contains `from` (strictly inside; a ray starting on a surface and moving in hits it at 0). `None` when it
    /// hits nothing, or for a value that is not finite.
    #[must_use]
    pub fn ray(&self, from: Vec2, motion: Vec2) -> Option<RayHit> {
        if !(from.is_finite() && motion.is_finite()) || motion == Vec2::ZERO {
            return None;
        }
        let mut best: Option<(f32, Vec2)> = None;
        let mut consider = |hit: Option<(f32, Vec2)>| {
            if let Some((t, n)) = hit
                && (0.0..=1.0).contains(&t)
                && best.is_none_or(|(b, _)| t < b)
            {
                best = Some((t, n));
            }
        };
        for shape in &self.shapes {
            let points = &self.points[shape.start..shape.start + shape.count];
            let normals = &self.normals[shape.start..shape.start + shape.count];
            match shape.kind {
                Kind::Convex => consider(ray_convex(points, normals, from, motion)),
                Kind::Rounded => consider(ray_rounded(points[0], points[1], shape.radius, from, motion)),
                Kind::Segments => {
                    for pair in points.chunks_exact(2) {
                        consider(ray_segment(pair[0], pair[1], from, motion));
                    }
                }
                Kind::HalfPlane => consider(ray_half_plane(points[0], normals[0], from, motion)),
            }
        }
        let (fraction, normal) = best?;
        let point = from + motion * fraction;
        (point.is_finite() && normal.is_finite()).then_some(RayHit { fraction, point, normal })
    }
}

/// A ray against a convex polygon (Liang–Barsky against its edges' half-planes): `(fraction, normal)` of the
/// entry, `None` when it misses or starts strictly inside.
fn ray_convex(points: &[Vec2], normals: &[Vec2], from: Vec2, motion: Vec2) -> Option<(f32, Vec2)> {
    let (mut enter, mut exit) = (f32::NEG_INFINITY, f32::INFINITY);
    let mut normal = Vec2::ZERO;
    let mut outside = false;
    for (v, n) in points.iter().zip(normals) {
        let s = (from - *v).dot(*n);
        let m = motion.dot(*n);
        outside |= s >= 0.0;
        if m < 0.0 && s >= 0.0 {
            let t = -s / m;
            if t > enter {
                (enter, normal) = (t, *n);
            } else if t == enter {
                normal += *n;
            }
        } else if m > 0.0 {
            if s > 0.0 {
                return None;
            }
            exit = exit.min(-s / m);
        } else if m == 0.0 && s > 0.0 {
            return None;
        }
    }
    if !outside || enter == f32::NEG_INFINITY || enter > exit {
        return None;
    }
    Some((enter.max(0.0), normal.try_normalize()?))
}

/// A ray against a circle of `radius` around `centre`: the entry, `None` when it misses or starts inside.
fn ray_circle(centre: Vec2, radius: f32, from: Vec2, motion: Vec2) -> Option<(f32, Vec2)> {
    let offset = from - centre;
    let c = offset.dot(offset) - radius * radius;
    let b = offset.dot(motion);
    if c < 0.0 || b >= 0.0 {
        return None;
    }
    let a = motion.dot(motion);
    let discriminant = b * b - a * c;
    if discriminant < 0.0 {
        return None;
    }
    let t = (-b - discriminant.sqrt()) / a;
    let normal = (from + motion * t - centre).try_normalize()?;
    Some((t, normal))
}

/// A ray against the segment `a..b` grown by `radius` (a capsule; a circle when `a == b`).
fn ray_rounded(a: Vec2, b: Vec2, radius: f32, from: Vec2, motion: Vec2) -> Option<(f32, Vec2)> {
    if from.distance(nearest_on_segment(a, b, from)) < radius {
        return None;
    }
    let mut best = ray_circle(a, radius, from, motion);
    if a == b {
        return best;
    }
    if let Some(hit) = ray_circle(b, radius, from, motion)
        && best.is_none_or(|(t, _)| hit.0 < t)
    {
        best = Some(hit);
    }
    // The straight sides: the band between the two ends, entered through a side line.
    let e = b - a;
    let Some(side) = e.perp().try_normalize() else { return best };
    let along = e.normalize_or_zero();
    for n in [side, -side] {
        let s = (from - a).dot(n) - radius;
        let m = motion.dot(n);
        if s < 0.0 || m >= 0.0 {
            continue;
        }
        let t = -s / m;
        let at = from + motion * t;
        let within = (at - a).dot(along) >= 0.0 && (b - at).dot(along) >= 0.0;
        if within && best.is_none_or(|(b, _)| t < b) {
            best = Some((t, n));
        }
    }
    best
}

/// A ray against the two-sided segment `a..b`: the normal faces where the ray came from.
fn ray_segment(a: Vec2, b: Vec2, from: Vec2, motion: Vec2) -> Option<(f32, Vec2)> {
    let e = b - a;
    let denominator = motion.perp_dot(e);
    if denominator == 0.0 {
        return None;
    }
    let to_a = a - from;
    let t = to_a.perp_dot(e) / denominator;
    let u = to_a.perp_dot(motion) / denominator;
    if !((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)) {
        return None;
    }
    let normal = e.perp().try_normalize()?;
    Some((t, if normal.dot(motion) > 0.0 { -normal } else { normal }))
}

/// A ray against the half-plane solid behind `normal` at `point`.
fn ray_half_plane(point: Vec2, normal: Vec2, from: Vec2, motion: Vec2) -> Option<(f32, Vec2)> {
    let s = (from - point).dot(normal);
    let m = motion.dot(normal);
    (s >= 0.0 && m < 0.0).then(|| (-s / m, normal))
}
