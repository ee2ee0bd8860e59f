//! The shapes a [`LocalWorld`] holds: how each kind is stored in its flat buffers, and adding them (each `add_*`
//! refuses what it cannot hold exactly).

use glam::{Affine2, Vec2};

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
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
pub(super) struct Shape {
    pub(super) kind: Kind,
    pub(super) start: usize,
    pub(super) count: usize,
    pub(super) radius: f32,
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
    pub(super) shapes: Vec<Shape>,
    pub(super) points: Vec<Vec2>,
    pub(super) normals: Vec<Vec2>,
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
}

/// The uniform scale of a similarity transform (`|x| = |y|`, `x ⊥ y`), or `None`.
fn similarity_scale(transform: Affine2) -> Option<f32> {
    let (x, y) = (transform.matrix2.x_axis, transform.matrix2.y_axis);
    let (xx, yy, xy) = (x.length_squared(), y.length_squared(), x.dot(y));
    let largest = xx.max(yy);
    let similar = (xx - yy).abs() <= SIMILARITY_TOLERANCE * largest && xy.abs() <= SIMILARITY_TOLERANCE * largest;
    (similar && largest > 0.0 && largest.is_finite() && transform.translation.is_finite()).then(|| xx.sqrt())
}
