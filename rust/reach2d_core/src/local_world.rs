//! A local narrow phase: a handful of physics shapes copied out of a physics engine once per frame, and exact
//! queries against them ([`LocalWorld`]): the first hit of a ray and the deepest overlap of a circle. A caller asks
//! its engine once for the shapes near what it is about to query (in Godot: one `intersect_shape` with a bounding
//! circle), fills a `LocalWorld` with them and then answers many small queries here, without an engine call (and
//! without the `Dictionary` each engine answer comes in).
//!
//! # Shapes
//!
//! Each shape is added in its global placement (an affine transform, as a physics engine stores it):
//! - a **convex polygon** ([`LocalWorld::add_convex_polygon`], [`LocalWorld::add_rectangle`]): the vertices
//!   transformed by the full affine transform (any scale, skew or reflection), in either winding. Solid.
//! - a **rounded segment**: a circle ([`LocalWorld::add_circle`]) or a capsule ([`LocalWorld::add_capsule`]), only
//!   under a similarity transform (uniform scale, no skew; a reflection is fine): under any other a circle would be
//!   an ellipse, and the call refuses. Solid.
//! - **segments** ([`LocalWorld::add_segment`], [`LocalWorld::add_segments`], a concave polygon's segment soup):
//!   two-sided, no inside.
//! - a **half-plane** ([`LocalWorld::add_world_boundary`]): a world boundary, solid on the side its normal points
//!   away from.
//!
//! An `add_*` call that refuses (not finite, a degenerate or non-convex polygon, a circle under a non-uniform
//! scale) returns `false` and adds nothing: the caller then asks its engine instead.
//!
//! # Mirror-exact
//!
//! Every query is plain vector arithmetic: dot products, cross products, square roots, one division per
//! parameter; no angles. Reflecting the world and the query (`x → -x`: a transform `M·T` with `M` the reflection)
//! negates exactly the `x` of every intermediate value and leaves the rest bit for bit as it was, so the answer is
//! the exact mirror image. A polygon keeps its vertex order under a reflection (the winding flips, and with it the
//! sign that turns an edge into its outward normal); the closest point of a segment is computed symmetrically in
//! its two ends. What cannot be mirror-exact is a choice in a mirror-symmetric situation: a circle centred exactly
//! on a two-sided segment or a capsule's axis (either side is as deep: the side facing up, `-y`, is taken), or two
//! shapes, edges or vertices exactly equally near (the first is taken; two polygon edges that tie at a vertex give
//! the sum of their normals, which is symmetric).
//!
//! Never panics; a query with a value that is not finite answers `None`; an answer is always finite.

use glam::{Affine2, Vec2};

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

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// `count` vertices at `points[start..]`, their edges' outward unit normals at `normals[start..]`.
    Convex,
    /// The segment `points[start]..points[start + 1]` grown by `radius` (a circle when both are the same point).
    Rounded,
    /// `count / 2` two-sided segments, pairs at `points[start..]`.
    Segments,
    /// Solid where `(p - points[start]) · normals[start] < 0`.
    HalfPlane,
}

#[derive(Clone, Copy, Debug)]
struct Shape {
    kind: Kind,
    start: usize,
    count: usize,
    radius: f32,
}

/// Relative tolerance of the similarity test for circles and capsules (equal axis lengths, perpendicular axes).
const SIMILARITY_TOLERANCE: f32 = 1e-5;

/// Relative tolerance of the convexity test (a polygon from a decomposition can have nearly collinear vertices).
const CONVEXITY_TOLERANCE: f32 = 1e-5;

/// A set of shapes in one frame (global coordinates) and exact queries against them. The buffers are kept between
/// frames ([`Self::clear`] keeps their capacity), so a frame that adds no more than an earlier one allocates
/// nothing.
#[derive(Clone, Debug, Default)]
pub struct LocalWorld {
    shapes: Vec<Shape>,
    points: Vec<Vec2>,
    normals: Vec<Vec2>,
    bound: Option<(Vec2, f32)>,
}

impl LocalWorld {
    /// An empty world with room for `shapes` shapes and `points` vertices before it allocates again.
    #[must_use]
    pub fn with_capacity(shapes: usize, points: usize) -> Self {
        Self {
            shapes: Vec::with_capacity(shapes),
            points: Vec::with_capacity(points),
            normals: Vec::with_capacity(points),
            bound: None,
        }
    }

    /// Removes every shape and the bound; keeps the buffers' capacity.
    pub fn clear(&mut self) {
        self.shapes.clear();
        self.points.clear();
        self.normals.clear();
        self.bound = None;
    }

    /// How many shapes were added since the last [`Self::clear`].
    #[must_use]
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// `true` when no shape was added since the last [`Self::clear`].
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// Says that the world holds every shape that overlaps the circle of `radius` around `centre` (the caller's
    /// bounding query) and perhaps others: [`Self::covers`] tells whether a query lies inside it.
    pub fn set_bound(&mut self, centre: Vec2, radius: f32) {
        self.bound = Some((centre, radius));
    }

    /// `true` when the circle of `radius` around `at` lies inside the bound (or there is none): the shapes this
    /// world holds are all the shapes it can touch.
    #[must_use]
    pub fn covers(&self, at: Vec2, radius: f32) -> bool {
        self.bound.is_none_or(|(centre, r)| at.distance(centre) + radius <= r)
    }

    /// Adds a convex polygon: `vertices` (in either winding) placed by `transform`. Refuses (`false`, nothing
    /// added) fewer than 3 vertices, a collapsed or repeated vertex, zero area, a non-convex outline or a value
    /// that is not finite.
    pub fn add_convex_polygon(&mut self, vertices: impl IntoIterator<Item = Vec2>, transform: Affine2) -> bool {
        let start = self.points.len();
        self.points.extend(vertices.into_iter().map(|v| transform.transform_point2(v)));
        if self.finish_convex(start) {
            true
        } else {
            self.points.truncate(start);
            self.normals.truncate(start);
            false
        }
    }

    /// Adds a rectangle of `half_extents` centred on its local origin, placed by `transform` (as Godot's
    /// `RectangleShape2D`).
    pub fn add_rectangle(&mut self, half_extents: Vec2, transform: Affine2) -> bool {
        let h = half_extents;
        let corners = [Vec2::new(-h.x, -h.y), Vec2::new(h.x, -h.y), Vec2::new(h.x, h.y), Vec2::new(-h.x, h.y)];
        self.add_convex_polygon(corners, transform)
    }

    /// Adds a circle of `radius` centred on its local origin. Refuses a transform that is not a similarity.
    pub fn add_circle(&mut self, radius: f32, transform: Affine2) -> bool {
        self.add_rounded(Vec2::ZERO, Vec2::ZERO, radius, transform)
    }

    /// Adds a capsule along its local y axis, `height` tall in all (as Godot's `CapsuleShape2D`: the caps'
    /// centres at `±(height / 2 - radius)`), of `radius`. Refuses a transform that is not a similarity.
    pub fn add_capsule(&mut self, height: f32, radius: f32, transform: Affine2) -> bool {
        let half = (height * 0.5 - radius).max(0.0);
        self.add_rounded(Vec2::new(0.0, -half), Vec2::new(0.0, half), radius, transform)
    }

    fn add_rounded(&mut self, a: Vec2, b: Vec2, radius: f32, transform: Affine2) -> bool {
        let Some(scale) = similarity_scale(transform) else { return false };
        let radius = radius * scale;
        let (a, b) = (transform.transform_point2(a), transform.transform_point2(b));
        if !(radius.is_finite() && radius >= 0.0 && a.is_finite() && b.is_finite()) {
            return false;
        }
        self.push(Kind::Rounded, [a, b], radius);
        true
    }

    /// Adds one two-sided segment from `a` to `b`, placed by `transform`.
    pub fn add_segment(&mut self, a: Vec2, b: Vec2, transform: Affine2) -> bool {
        let (a, b) = (transform.transform_point2(a), transform.transform_point2(b));
        if !(a.is_finite() && b.is_finite()) {
            return false;
        }
        self.push(Kind::Segments, [a, b], 0.0);
        true
    }

    /// Adds a soup of two-sided segments (as Godot's `ConcavePolygonShape2D`): `pairs` holds each segment's two
    /// ends in turn (an odd last point is refused with the rest).
    pub fn add_segments(&mut self, pairs: impl IntoIterator<Item = Vec2>, transform: Affine2) -> bool {
        let start = self.points.len();
        self.points.extend(pairs.into_iter().map(|v| transform.transform_point2(v)));
        let count = self.points.len() - start;
        if !count.is_multiple_of(2) || count == 0 || !self.points[start..].iter().all(|p| p.is_finite()) {
            self.points.truncate(start);
            return false;
        }
        self.normals.resize(self.points.len(), Vec2::ZERO);
        self.shapes.push(Shape { kind: Kind::Segments, start, count, radius: 0.0 });
        true
    }

    /// Adds a world boundary (as Godot's `WorldBoundaryShape2D`): the line `p · normal = distance` in local
    /// coordinates, solid on the side away from `normal`, placed by `transform` (any invertible affine transform:
    /// the normal goes through the inverse transpose).
    pub fn add_world_boundary(&mut self, normal: Vec2, distance: f32, transform: Affine2) -> bool {
        let (x, y) = (transform.matrix2.x_axis, transform.matrix2.y_axis);
        let det = x.x * y.y - y.x * x.y;
        // The inverse transpose's columns times the determinant; its sign keeps the solid side where it was.
        let n = Vec2::new(y.y * normal.x - x.y * normal.y, x.x * normal.y - y.x * normal.x) * det.signum();
        let point = transform.transform_point2(normal * distance);
        let Some(n) = n.try_normalize() else { return false };
        if !(det != 0.0 && point.is_finite()) {
            return false;
        }
        self.points.push(point);
        self.normals.push(n);
        self.shapes.push(Shape { kind: Kind::HalfPlane, start: self.points.len() - 1, count: 1, radius: 0.0 });
        true
    }

    fn push(&mut self, kind: Kind, pair: [Vec2; 2], radius: f32) {
        let start = self.points.len();
        self.points.extend(pair);
        self.normals.resize(self.points.len(), Vec2::ZERO);
        self.shapes.push(Shape { kind, start, count: 2, radius });
    }

    /// Checks the polygon at `points[start..]` and computes its outward normals.
    fn finish_convex(&mut self, start: usize) -> bool {
        let vertices = &self.points[start..];
        let n = vertices.len();
        if n < 3 || !vertices.iter().all(|v| v.is_finite()) {
            return false;
        }
        let twice_area: f32 = (0..n).map(|i| vertices[i].perp_dot(vertices[(i + 1) % n])).sum();
        if !(twice_area.is_finite() && twice_area != 0.0) {
            return false;
        }
        // A counter-clockwise outline (positive area in x-right, y-up axes) has its outside to the right of each
        // edge: `-perp(e)`. A reflection flips the area's sign and `perp` together, so the normal is mirrored.
        let outward = -twice_area.signum();
        for i in 0..n {
            let e = vertices[(i + 1) % n] - vertices[i];
            let next = vertices[(i + 2) % n] - vertices[(i + 1) % n];
            let turn = e.perp_dot(next) * twice_area.signum();
            if turn < -CONVEXITY_TOLERANCE * e.length() * next.length() {
                return false;
            }
            let Some(normal) = (e.perp() * outward).try_normalize() else { return false };
            self.normals.push(normal);
        }
        self.shapes.push(Shape { kind: Kind::Convex, start, count: n, radius: 0.0 });
        true
    }

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

/// The uniform scale of a similarity transform (`|x| = |y|`, `x ⊥ y`), or `None`.
fn similarity_scale(transform: Affine2) -> Option<f32> {
    let (x, y) = (transform.matrix2.x_axis, transform.matrix2.y_axis);
    let (xx, yy, xy) = (x.length_squared(), y.length_squared(), x.dot(y));
    let largest = xx.max(yy);
    let similar = (xx - yy).abs() <= SIMILARITY_TOLERANCE * largest && xy.abs() <= SIMILARITY_TOLERANCE * largest;
    (similar && largest > 0.0 && largest.is_finite() && transform.translation.is_finite()).then(|| xx.sqrt())
}

/// The point of the segment `a..b` nearest to `p`, symmetric in `a` and `b` (swapping them gives the same bits).
fn nearest_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
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

impl crate::spring_contact::SpringCollider for LocalWorld {
    fn sweep(&mut self, from: Vec2, motion: Vec2, _radius: f32) -> Option<(Vec2, Vec2)> {
        self.ray(from, motion).map(|hit| (hit.point, hit.normal))
    }

    fn overlap(&mut self, at: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
        LocalWorld::overlap(self, at, radius).map(|o| (o.point, o.normal))
    }

    fn anything_near(&mut self, _centre: Vec2, _radius: f32) -> bool {
        !self.is_empty()
    }
}

#[cfg(test)]
mod tests;
