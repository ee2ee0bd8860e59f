//! A path as a measured polyline: its points, the arc length at each, open or closed; places along it and the
//! first meeting of a circle with it.

use core::fmt;

use glam::Vec2;

use crate::error::SolveError;
use crate::geom::unit_or;
use crate::validate::coord_ok;

/// Two consecutive points closer than this, relative to their size (at least 1 unit), are one point: a segment that
/// short has no usable direction in `f32`.
const REPEAT: f32 = 1.0e-6;

/// Slack (in the segment's parameter) for a meeting that rounding put just before where the search starts.
const PARAMETER_SLACK: f64 = 1.0e-9;

/// Why a path or a fit was refused. Nothing is written when one is returned.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PathError {
    /// The path has fewer than two distinct points: empty, one point, or every point in one place.
    TooFewPoints,
    /// Point `index` (as given, before repeated points were dropped) is NaN, infinite or beyond
    /// [`MAX_COORDINATE`](crate::MAX_COORDINATE).
    NonFinitePoint {
        /// Index of the first bad point.
        index: usize,
    },
    /// The offset along the path is NaN or infinite.
    InvalidOffset,
    /// The chain was refused (joints that are not finite, a bad limit).
    Chain(SolveError),
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewPoints => f.write_str("the path needs at least two distinct points"),
            Self::NonFinitePoint { index } => write!(f, "path point {index} is NaN, infinite or too large"),
            Self::InvalidOffset => f.write_str("the offset along the path must be finite"),
            Self::Chain(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for PathError {}

/// A place on a [`PathPolyline`]: segment `segment` (from point `segment` to point `segment + 1`) at parameter `t`
/// (0 at its start, 1 at its end). On an open path `t` is below 0 on the first segment before the path's start and
/// above 1 on the last segment beyond its end: the path's extensions along its end segments.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PathCursor {
    /// Index of the segment.
    pub segment: usize,
    /// Parameter along it.
    pub t: f32,
}

/// A path as a polyline: points (caller units, say global px), the arc length at each, and whether it is closed.
///
/// Filled by [`PathPolyline::set`], which allocates only when the path has more points than ever before: set it
/// when the path changes, then fit chains to it every frame without allocating.
#[derive(Clone, Debug, Default)]
pub struct PathPolyline {
    points: Vec<Vec2>,
    /// `distances[i]`: the arc length from the first point to point `i`.
    distances: Vec<f32>,
    closed: bool,
}

impl PathPolyline {
    /// Sets the path to `points`, in order, dropping each point that repeats the one before it (closer than
    /// `1e-6` of its coordinates' size). The path is closed when its last point repeats its first and it has at
    /// least two other points; its last point is then made exactly its first.
    ///
    /// # Errors
    /// [`PathError::NonFinitePoint`] for a NaN or infinite point, [`PathError::TooFewPoints`] when fewer than two
    /// distinct points are left. The path is then empty.
    pub fn set(&mut self, points: impl IntoIterator<Item = Vec2>) -> Result<(), PathError> {
        self.clear();
        for (index, point) in points.into_iter().enumerate() {
            if !coord_ok(point) {
                self.clear();
                return Err(PathError::NonFinitePoint { index });
            }
            if self.points.last().is_none_or(|&last| !repeats(last, point)) {
                self.points.push(point);
            }
        }
        let n = self.points.len();
        if n < 2 {
            self.clear();
            return Err(PathError::TooFewPoints);
        }
        if n >= 4 && repeats(self.points[0], self.points[n - 1]) {
            self.points[n - 1] = self.points[0];
            self.closed = true;
        }
        self.distances.push(0.0);
        let mut total = 0.0;
        for pair in self.points.windows(2) {
            total += pair[0].distance(pair[1]);
            self.distances.push(total);
        }
        Ok(())
    }

    /// Empties the path (no allocation is given back).
    pub fn clear(&mut self) {
        self.points.clear();
        self.distances.clear();
        self.closed = false;
    }

    /// `true` before a successful [`PathPolyline::set`].
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.points.len() < 2
    }

    /// The points, repeated ones dropped.
    #[must_use]
    pub fn points(&self) -> &[Vec2] {
        &self.points
    }

    /// `true` when the path's last point is its first: places along it wrap around.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The path's arc length (0 when empty).
    #[must_use]
    pub fn length(&self) -> f32 {
        self.distances.last().copied().unwrap_or(0.0)
    }

    /// The place at arc length `distance` from the first point: wrapped around a closed path; on an open path's
    /// extensions before its start and beyond its end. A NaN `distance` gives the start; an empty path the default
    /// cursor.
    #[must_use]
    pub fn cursor_at(&self, distance: f32) -> PathCursor {
        if self.is_empty() || distance.is_nan() {
            return PathCursor::default();
        }
        let total = self.length();
        let last = self.points.len() - 2;
        let distance = if self.closed { distance.rem_euclid(total) } else { distance };
        if distance <= 0.0 {
            return PathCursor { segment: 0, t: distance / self.segment_length(0) };
        }
        if distance >= total {
            return PathCursor { segment: last, t: 1.0 + (distance - total) / self.segment_length(last) };
        }
        let segment = self.distances.partition_point(|&d| d <= distance).saturating_sub(1).min(last);
        let t = (distance - self.distances[segment]) / self.segment_length(segment);
        PathCursor { segment, t: t.clamp(0.0, 1.0) }
    }

    /// The arc length at `cursor` (negative before an open path's start, beyond its length after its end).
    #[must_use]
    pub fn distance_at(&self, cursor: PathCursor) -> f32 {
        match self.distances.get(cursor.segment) {
            Some(&start) if !self.is_empty() => start + cursor.t * self.segment_length(cursor.segment),
            _ => 0.0,
        }
    }

    /// The point at `cursor`; the origin when the path is empty.
    #[must_use]
    pub fn point(&self, cursor: PathCursor) -> Vec2 {
        match self.segment(cursor.segment) {
            Some((a, b)) => a + (b - a) * cursor.t,
            None => Vec2::ZERO,
        }
    }

    /// The unit tangent at `cursor`: along the path, blended between the directions of the segments that meet at
    /// each point, so it turns smoothly as the cursor moves; the end segment's direction on an open path's
    /// extensions. +X when the path is empty.
    #[must_use]
    pub fn tangent(&self, cursor: PathCursor) -> Vec2 {
        let Some((a, b)) = self.segment(cursor.segment) else { return Vec2::X };
        let direction = unit_or(b - a, Vec2::X);
        if !(0.0..=1.0).contains(&cursor.t) {
            return direction;
        }
        let start = self.vertex_tangent(cursor.segment);
        let end = self.vertex_tangent(cursor.segment + 1);
        unit_or(start.lerp(end, cursor.t), direction)
    }

    /// The first place from `from` on, along the path, where it is `radius` away from `center`: the first meeting
    /// of that circle with the path (leaving it when `from` is inside, entering it when outside). Searches past an
    /// open path's end along its extension, and once around a closed path. `None` when there is no such place (or
    /// `radius` is not above 0).
    #[must_use]
    pub fn first_meeting(&self, from: PathCursor, center: Vec2, radius: f32) -> Option<PathCursor> {
        if self.is_empty() || radius.is_nan() || radius <= 0.0 || from.segment + 1 >= self.points.len() {
            return None;
        }
        let last = self.points.len() - 2;
        let (mut segment, mut start) = (from.segment, f64::from(from.t));
        // A closed path: every segment once, and the first again from its start.
        for _ in 0..=last + 1 {
            let (a, b) = self.segment(segment)?;
            let beyond_end = !self.closed && segment == last;
            let end = if beyond_end { f64::INFINITY } else { 1.0 };
            if let Some(t) = circle_meeting(a, b - a, center, radius, start, end) {
                return Some(PathCursor { segment, t: t as f32 });
            }
            if beyond_end {
                return None;
            }
            segment = if segment == last { 0 } else { segment + 1 };
            start = 0.0;
        }
        None
    }

    /// The distance of `point` from the part of the path within `window` (arc length) of `cursor`: from the
    /// segments that part touches (all of a closed path's when the window goes round it), an open path's end
    /// segments with their extensions. Infinite when the path is empty.
    #[must_use]
    pub fn distance_near(&self, point: Vec2, cursor: PathCursor, window: f32) -> f32 {
        let count = self.points.len().saturating_sub(1);
        if self.is_empty() || cursor.segment >= count {
            return f32::INFINITY;
        }
        let mut best = self.segment_distance(cursor.segment, point);
        let here = self.distance_at(cursor);
        let total = self.length();
        // Outward both ways, while a segment's near end is within the window (round a closed path at most once).
        for forward in [true, false] {
            let (mut segment, mut covered) = (cursor.segment, 0.0f32);
            for _ in 1..count {
                let next = match (forward, self.closed) {
                    (true, _) if segment + 1 < count => segment + 1,
                    (true, true) => 0,
                    (false, _) if segment > 0 => segment - 1,
                    (false, true) => count - 1,
                    _ => break,
                };
                let near_end = if forward { self.distances[next] } else { self.distances[next + 1] };
                let mut gap = if forward { near_end - here } else { here - near_end };
                if self.closed && gap < 0.0 {
                    gap += total;
                }
                if gap.max(covered) > window {
                    break;
                }
                covered = gap;
                segment = next;
                best = best.min(self.segment_distance(segment, point));
            }
        }
        best
    }

    /// The distance of `point` from segment `segment` (with its extension on an open path's end segments).
    fn segment_distance(&self, segment: usize, point: Vec2) -> f32 {
        let count = self.points.len() - 1;
        let (a, b) = (self.points[segment], self.points[segment + 1]);
        let d = b - a;
        let mut t = (point - a).dot(d) / d.length_squared();
        if self.closed || segment != 0 {
            t = t.max(0.0);
        }
        if self.closed || segment + 1 != count {
            t = t.min(1.0);
        }
        point.distance(a + d * t)
    }

    fn segment(&self, segment: usize) -> Option<(Vec2, Vec2)> {
        Some((*self.points.get(segment)?, *self.points.get(segment + 1)?))
    }

    fn segment_length(&self, segment: usize) -> f32 {
        self.distances[segment + 1] - self.distances[segment]
    }

    /// The tangent at point `i`: the mean of the directions of the segments meeting there (a closed path's first and
    /// last point meet its last and first segment); an open path's end points take their one segment's.
    fn vertex_tangent(&self, i: usize) -> Vec2 {
        let n = self.points.len();
        let direction = |s: usize| unit_or(self.points[s + 1] - self.points[s], Vec2::X);
        let (before, after) = match i {
            0 if self.closed => (n - 2, 0),
            0 => (0, 0),
            i if i == n - 1 && self.closed => (n - 2, 0),
            i if i == n - 1 => (n - 2, n - 2),
            i => (i - 1, i),
        };
        unit_or(direction(before) + direction(after), direction(after))
    }
}

/// `true` when `b` is `a` again: closer than [`REPEAT`] of their size.
fn repeats(a: Vec2, b: Vec2) -> bool {
    let size = a.abs().max_element().max(b.abs().max_element()).max(1.0);
    (a - b).abs().max_element() <= REPEAT * size
}

/// The smallest parameter `t` in `[start, end]` where the point `a + t·d` is `radius` from `center`, if any. Solved
/// in `f64`: `|a - center + t·d|² = radius²`, with the roots taken in the form that cancels nothing.
fn circle_meeting(a: Vec2, d: Vec2, center: Vec2, radius: f32, start: f64, end: f64) -> Option<f64> {
    let (px, py) = (f64::from(a.x) - f64::from(center.x), f64::from(a.y) - f64::from(center.y));
    let (dx, dy) = (f64::from(d.x), f64::from(d.y));
    let qa = dx * dx + dy * dy;
    // Finite `f32` inputs keep every `f64` here finite.
    if qa <= 0.0 {
        return None;
    }
    let qb = px * dx + py * dy;
    let qc = px * px + py * py - f64::from(radius) * f64::from(radius);
    let discriminant = qb * qb - qa * qc;
    if discriminant < 0.0 {
        return None;
    }
    let q = -(qb + discriminant.sqrt().copysign(qb));
    let (first, second) = if q == 0.0 { (0.0, 0.0) } else { (q / qa, qc / q) };
    let (low, high) = if first <= second { (first, second) } else { (second, first) };
    [low, high].into_iter().find(|&t| t >= start - PARAMETER_SLACK && t <= end).map(|t| t.max(start))
}
