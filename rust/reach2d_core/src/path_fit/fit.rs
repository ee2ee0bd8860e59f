//! The fit of a chain to a path: the run-in from the root, then each joint where its bone's circle first meets the
//! path further along, angle limits holding.

use glam::Vec2;

use crate::angle::ChainLimits;
use crate::geom::unit_or;
use crate::path_fit::polyline::{PathCursor, PathError, PathPolyline};
use crate::validate;

/// A limit that turns a bone by at most this (radians, about) does not hold it off the path: the wanted direction
/// was on the limit's edge, and rounding alone (which a mirrored chain's differs in) put it a hair outside.
const LIMIT_SLACK: f32 = 1.0e-5;

/// How a chain is laid along a path.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PathFitSettings {
    /// Arc length along the path (caller units) where the chain's run-in from the root meets it: wrapped around a
    /// closed path; before an open path's start (negative) or beyond its end, on its extension there. Finite.
    pub offset: f32,
    /// Lay the last bone along the path's tangent at its origin instead of ending it on the path.
    pub tip_along_tangent: bool,
}

/// What a fit did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PathFitReport {
    /// Joints after the root laid on the straight run-in from the root to the path's point at the offset (0 when the
    /// root is there).
    pub run_in: usize,
    /// Largest distance (caller units) between a joint and the place the fit wanted it at (on the path, or on the
    /// run-in): 0 unless an angle limit held a bone off it, the path was out of a bone's reach, or (with
    /// [`PathTravel`](crate::PathTravel)) a joint is still on its way to its place.
    pub off_path: f32,
}

/// Lays the chain `joints` (its `N + 1` joints as posed now: they give the bones' lengths) along `path`, keeping
/// `joints[0]`: see the [module docs](crate::path_fit). `limits` bound each bone's segment relative to its parent
/// segment (the root bone's relative to `limits.root_direction`), as in the other solvers; empty for none.
/// `wanted` (one entry per joint, or empty) receives where the fit wanted each joint: on the path or on the run-in,
/// before the limits.
///
/// A zero-length bone keeps its joint on its parent's. Allocation-free.
///
/// # Errors
/// [`PathError::TooFewPoints`] for an empty path, [`PathError::InvalidOffset`], and [`PathError::Chain`] for
/// fewer than 2 joints, joints that are not finite, or bad limits. The joints are then unchanged.
pub fn fit_chain(
    path: &PathPolyline,
    joints: &mut [Vec2],
    limits: &ChainLimits,
    settings: &PathFitSettings,
    wanted: &mut [Vec2],
) -> Result<PathFitReport, PathError> {
    fit_with(path, joints, limits, settings, wanted, None)
}

/// How far each joint may move from where the last frame put it ([`PathTravel`](crate::PathTravel)), and where
/// the fit records how far along the path from the entry it wanted each joint.
pub(crate) struct FitTravel<'a> {
    /// The joints as last fitted; empty: no bound.
    pub previous: &'a [Vec2],
    /// How far any joint may move, as far as known.
    pub reach: f32,
    /// How much farther, per unit of its bone's length.
    pub per_length: f32,
    /// Per joint: the arc length from the entry to where the fit wanted it, NaN where not on the path.
    pub along: &'a mut [f32],
    /// How far any joint may move, all measured (at least `reach`): asked once, when a joint would move farther
    /// than `reach` allows.
    pub full: &'a mut dyn FnMut() -> f32,
    /// Whether `full` was asked.
    pub measured: bool,
}

impl FitTravel<'_> {
    /// The direction nearest `aim` for the end of a bone from `origin`, `length` long, that moves joint `joint` no
    /// farther than it may.
    fn direction(&mut self, joint: usize, origin: Vec2, length: f32, aim: Vec2) -> Vec2 {
        let Some(&previous) = self.previous.get(joint) else { return aim };
        let floor = self.per_length * length;
        if (origin + aim * length).distance_squared(previous) <= (self.reach + floor) * (self.reach + floor) {
            return aim;
        }
        if !self.measured {
            self.measured = true;
            self.reach = self.reach.max((self.full)());
        }
        toward_within(origin, length, aim, previous, self.reach + floor)
    }
}

/// [`fit_chain`], each joint's move bounded by `travel`.
pub(crate) fn fit_with(
    path: &PathPolyline,
    joints: &mut [Vec2],
    limits: &ChainLimits,
    settings: &PathFitSettings,
    wanted: &mut [Vec2],
    travel: Option<FitTravel<'_>>,
) -> Result<PathFitReport, PathError> {
    if path.is_empty() {
        return Err(PathError::TooFewPoints);
    }
    if !settings.offset.is_finite() {
        return Err(PathError::InvalidOffset);
    }
    if joints.len() < 2 {
        return Err(PathError::Chain(crate::SolveError::EmptyChain));
    }
    let bones = joints.len() - 1;
    validate::joints(joints).map_err(PathError::Chain)?;
    validate::limits(limits, bones).map_err(PathError::Chain)?;
    let mut fit = Fit::start(path, joints[0], settings.offset, limits, travel);
    fit.record(0, f32::NAN);
    let mut length = joints[0].distance(joints[1]);
    for i in 0..bones {
        // The next bone's length, read before this bone's end is moved.
        let next_length = joints.get(i + 2).map_or(0.0, |&end| end.distance(joints[i + 1]));
        let origin = joints[i];
        let tip_along_tangent = settings.tip_along_tangent && i + 1 == bones;
        let (placed, aim) = fit.bone(i, origin, length, tip_along_tangent);
        joints[i + 1] = placed;
        if let Some(slot) = wanted.get_mut(i + 1) {
            *slot = aim;
        }
        length = next_length;
    }
    if let Some(slot) = wanted.first_mut() {
        *slot = joints[0];
    }
    Ok(fit.report)
}

/// The state of one fit as it walks the chain from the root.
struct Fit<'a, 't> {
    path: &'a PathPolyline,
    limits: &'a ChainLimits<'a>,
    root: Vec2,
    /// The unit direction of the run-in from the root to the path, and its length.
    run_in: (Vec2, f32),
    /// How far along the run-in the last joint placed on it lies; `None` once the chain has left the run-in.
    along_run_in: Option<f32>,
    /// Where on the path the last joint met it (the run-in's end until one has).
    cursor: PathCursor,
    /// The direction of the last bone of non-zero length, for the next bone's limit.
    parent_direction: Vec2,
    /// The arc length at the path's point at the offset.
    entry_distance: f32,
    travel: Option<FitTravel<'t>>,
    report: PathFitReport,
}

impl<'a, 't> Fit<'a, 't> {
    fn start(
        path: &'a PathPolyline,
        root: Vec2,
        offset: f32,
        limits: &'a ChainLimits<'a>,
        travel: Option<FitTravel<'t>>,
    ) -> Self {
        let cursor = path.cursor_at(offset);
        let to_path = path.point(cursor) - root;
        let run_in = (unit_or(to_path, path.tangent(cursor)), to_path.length());
        let parent_direction = unit_or(limits.root_direction, Vec2::X);
        let report = PathFitReport::default();
        let entry_distance = path.distance_at(cursor);
        let along_run_in = Some(0.0);
        Self { path, limits, root, run_in, along_run_in, cursor, parent_direction, entry_distance, travel, report }
    }

    /// Records how far along the path from the entry the fit wanted joint `joint` (NaN: not on the path).
    fn record(&mut self, joint: usize, along: f32) {
        if let Some(slot) = self.travel.as_mut().and_then(|travel| travel.along.get_mut(joint)) {
            *slot = along;
        }
    }

    /// Places the end of bone `i` (at `origin`, `length` long): returns where it goes and where the fit wanted it.
    fn bone(&mut self, i: usize, origin: Vec2, length: f32, along_tangent: bool) -> (Vec2, Vec2) {
        self.record(i + 1, f32::NAN);
        if length <= 0.0 {
            if self.along_run_in.is_some() {
                self.report.run_in += 1;
            }
            return (origin, origin);
        }
        let (direction, run_in) = self.run_in;
        let aim = match self.along_run_in {
            Some(along) if along + length <= run_in => {
                self.along_run_in = Some(along + length);
                self.report.run_in += 1;
                self.root + direction * (along + length)
            }
            _ if along_tangent => {
                self.along_run_in = None;
                origin + self.path.tangent(self.cursor) * length
            }
            _ => {
                self.along_run_in = None;
                match self.path.first_meeting(self.cursor, origin, length) {
                    Some(meeting) => {
                        self.cursor = meeting;
                        self.record(i + 1, self.path.distance_at(meeting) - self.entry_distance);
                        self.path.point(meeting)
                    }
                    // Nothing of the path within reach (a limit held the chain off it): point at where it left it.
                    None => {
                        let toward = self.path.point(self.cursor);
                        let aim_direction = unit_or(toward - origin, self.path.tangent(self.cursor));
                        return self.limited(i, origin, length, aim_direction, (toward, false));
                    }
                }
            }
        };
        let aim_direction = unit_or(aim - origin, self.parent_direction);
        self.limited(i, origin, length, aim_direction, (aim, true))
    }

    /// Bone `i`'s end along `aim_direction`, or along the nearest direction its limit allows. `aim` is where the fit
    /// wanted it and whether the bone reaches it (it lies `length` from `origin`).
    fn limited(&mut self, i: usize, origin: Vec2, length: f32, aim_direction: Vec2, aim: (Vec2, bool)) -> (Vec2, Vec2) {
        let (aim, reaches) = aim;
        // Not farther from where the last frame put this joint than it may travel in one.
        let travelled = match self.travel.as_mut() {
            Some(travel) => travel.direction(i + 1, origin, length, aim_direction),
            None => aim_direction,
        };
        let direction = match self.limits.get(i) {
            Some(limit) => limit.clamp_direction(self.parent_direction, travelled),
            None => travelled,
        };
        // A limit that moves the direction by rounding only (the wanted angle on its edge) holds it nowhere.
        let direction =
            if direction.distance_squared(travelled) <= LIMIT_SLACK * LIMIT_SLACK { travelled } else { direction };
        self.parent_direction = direction;
        if reaches && direction == aim_direction {
            // The wanted point itself, not a length along a rounded direction: exactly on the path.
            return (aim, aim);
        }
        let placed = origin + direction * length;
        // Off the run-in now: the next bones meet the path from where this one ends.
        self.along_run_in = None;
        self.report.off_path = self.report.off_path.max(placed.distance(aim));
        (placed, aim)
    }
}

/// The unit direction nearest `aim` (unit) whose bone end `origin + direction * length` lies within `reach` of
/// `previous` (the joint's place last frame): `aim` itself when its end does; turned toward `previous` by the
/// shorter way otherwise; straight at `previous` when no direction gets that close. Mirror-exact: a reflection of
/// the inputs gives the reflected direction.
#[must_use]
pub fn toward_within(origin: Vec2, length: f32, aim: Vec2, previous: Vec2, reach: f32) -> Vec2 {
    if (origin + aim * length).distance_squared(previous) <= reach * reach {
        return aim;
    }
    let to_previous = previous - origin;
    let distance = to_previous.length();
    if !(distance > 0.0 && length > 0.0) {
        return aim;
    }
    let toward = to_previous / distance;
    // The angle from `toward` whose end lies `reach` from `previous` (law of cosines).
    let cos = (length * length + distance * distance - reach * reach) / (2.0 * length * distance);
    if cos.is_nan() || cos <= -1.0 {
        return aim;
    }
    if cos >= 1.0 {
        return toward;
    }
    let side = toward.perp_dot(aim);
    if side == 0.0 {
        return toward;
    }
    let sin = (1.0 - cos * cos).sqrt();
    toward * cos + toward.perp() * (sin * side.signum())
}
