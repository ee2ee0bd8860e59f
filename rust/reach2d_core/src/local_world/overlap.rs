//! The deepest overlap of a circle ([`LocalWorld::overlap`]): the nearest surface point and outward normal of each
//! kind of shape, also from inside.

use glam::Vec2;

use super::shapes::{Kind, LocalWorld};

/// The deepest overlap of a circle ([`LocalWorld::overlap`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Overlap {
    /// How far the circle reaches into the shape (`radius - signed distance`; > 0).
    pub depth: f32,
    /// The point of the shape's surface nearest to the circle's centre (centre inside: the nearest boundary point).
    pub point: Vec2,
    /// The surface's unit outward normal at `point`, toward the centre (centre inside: the nearest boundary's).
    pub normal: Vec2,
}

impl LocalWorld {
    /// The deepest overlap of the circle of `radius` around `at` with any shape (a circle that only touches does
    /// not overlap). `None` when it overlaps nothing, or for a value that is not finite or a negative radius.
    #[must_use]
    pub fn overlap(&self, at: Vec2, radius: f32) -> Option<Overlap> {
        if !(at.is_finite() && radius.is_finite() && radius >= 0.0) {
            return None;
        }
        let mut best: Option<Overlap> = None;
        let mut consider = |found: Option<(f32, Vec2, Vec2)>| {
            if let Some((distance, point, normal)) = found {
                let depth = radius - distance;
                if depth > 0.0 && best.is_none_or(|b| depth > b.depth) {
                    best = Some(Overlap { depth, point, normal });
                }
            }
        };
        for shape in &self.shapes {
            let points = &self.points[shape.start..shape.start + shape.count];
            let normals = &self.normals[shape.start..shape.start + shape.count];
            match shape.kind {
                Kind::Convex => consider(nearest_convex(points, normals, at, radius)),
                Kind::Rounded => consider(Some(nearest_rounded(points[0], points[1], shape.radius, at))),
                Kind::Segments => {
                    for pair in points.chunks_exact(2) {
                        consider(Some(nearest_rounded(pair[0], pair[1], 0.0, at)));
                    }
                }
                Kind::HalfPlane => {
                    let distance = (at - points[0]).dot(normals[0]);
                    consider(Some((distance, at - normals[0] * distance, normals[0])));
                }
            }
        }
        best.filter(|b| b.point.is_finite() && b.normal.is_finite() && b.depth.is_finite())
    }
}

/// The point of the segment `a..b` nearest to `p`, symmetric in `a` and `b` (swapping them gives the same bits).
pub(super) fn nearest_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let e = b - a;
    let (from_a, from_b) = ((p - a).dot(e), (b - p).dot(e));
    if from_a <= 0.0 {
        return a;
    }
    if from_b <= 0.0 {
        return b;
    }
    let ee = e.dot(e);
    if from_a < from_b {
        a + e * (from_a / ee)
    } else if from_b < from_a {
        b - e * (from_b / ee)
    } else {
        (a + b) * 0.5
    }
}

/// The unit normal of the direction `e` (a segment's), the one facing up (`-y`), or `+x` for a vertical `e`:
/// where a circle centred on a segment is pushed. `-y` when `e` is zero.
fn upward_normal(e: Vec2) -> Vec2 {
    match e.perp().try_normalize() {
        Some(n) if n.y > 0.0 || (n.y == 0.0 && n.x < 0.0) => -n,
        Some(n) => n,
        None => Vec2::NEG_Y,
    }
}

/// `(signed distance, nearest surface point, outward normal)` of `p` to the segment `a..b` grown by `radius`.
fn nearest_rounded(a: Vec2, b: Vec2, radius: f32, p: Vec2) -> (f32, Vec2, Vec2) {
    let q = nearest_on_segment(a, b, p);
    let away = p - q;
    let distance = away.length();
    let normal = if distance > 0.0 { away / distance } else { upward_normal(b - a) };
    let normal = if normal.is_finite() { normal } else { upward_normal(b - a) };
    (distance - radius, q + normal * radius, normal)
}

/// `(signed distance, nearest surface point, outward normal)` of `p` to a convex polygon, or `None` when it is
/// certainly `radius` or more outside.
fn nearest_convex(points: &[Vec2], normals: &[Vec2], p: Vec2, radius: f32) -> Option<(f32, Vec2, Vec2)> {
    // The edge line `p` lies farthest outside of (inside: the nearest boundary), ties summed (a vertex).
    let (mut most, mut normal) = (f32::NEG_INFINITY, Vec2::ZERO);
    for (v, n) in points.iter().zip(normals) {
        let s = (p - *v).dot(*n);
        if s > most {
            (most, normal) = (s, *n);
        } else if s == most {
            normal += *n;
        }
    }
    if most >= radius || !most.is_finite() {
        return None;
    }
    if most <= 0.0 {
        let normal = normal.try_normalize()?;
        return Some((most, p - normal * most, normal));
    }
    // Outside: the nearest point of the outline.
    let count = points.len();
    let (mut nearest, mut distance_squared) = (points[0], f32::INFINITY);
    for i in 0..count {
        let q = nearest_on_segment(points[i], points[(i + 1) % count], p);
        let d = q.distance_squared(p);
        if d < distance_squared {
            (nearest, distance_squared) = (q, d);
        }
    }
    let away = p - nearest;
    let distance = away.length();
    let normal = (away / distance).is_finite().then(|| away / distance).or_else(|| normal.try_normalize())?;
    Some((distance, nearest, normal))
}
