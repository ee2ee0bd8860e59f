//! A chain's travel along a path from frame to frame: where a corner moves a joint's fitted place by a jump (its
//! bone's circle stops meeting the path near the corner and meets it next far beyond), the joint travels there over
//! frames, at most [`TRAVEL_SPEED`] times as far per frame as the path itself moved under the chain (the offset's
//! step, the path's own motion, the root's), plus [`TRAVEL_FLOOR`] of its bone's length per second so it arrives
//! while all stands still.

use glam::Vec2;

use crate::angle::ChainLimits;
use crate::path_fit::fit::{FitTravel, PathFitReport, PathFitSettings, fit_with};
use crate::path_fit::polyline::{PathError, PathPolyline};

/// How many times as far as the path moved under the chain a joint may move in one frame: a joint on a smooth
/// stretch moves about as far as the path (1); one whose place jumps at a corner travels there at this speed.
pub const TRAVEL_SPEED: f32 = 3.0;

/// How far a travelling joint moves per second at least, in lengths of its bone (when nothing else moves).
pub const TRAVEL_FLOOR: f32 = 2.0;

/// What a chain's fit keeps from one frame to the next so that its joints travel instead of jumping. Allocates
/// only when the chain has more joints than before; [`PathTravel::reset`] forgets the last frame (the next fit
/// places every joint where it belongs at once).
#[derive(Clone, Debug, Default)]
pub struct PathTravel {
    /// The joints as last fitted.
    placed: Vec<Vec2>,
    /// Where the fit wanted each joint then.
    wanted: Vec<Vec2>,
    /// How far along the path from the entry each wanted place lay (NaN: not on the path).
    along: Vec<f32>,
    /// The path's point at the offset then.
    entry: Vec2,
    primed: bool,
}

impl PathTravel {
    /// Forgets the last frame: the next fit snaps.
    pub fn reset(&mut self) {
        self.primed = false;
    }

    /// `true` once a fit was made since the last [`PathTravel::reset`].
    #[must_use]
    pub fn is_primed(&self) -> bool {
        self.primed
    }

    /// [`fit_chain`](crate::fit_chain), each joint moving at most as far from where the last fit put it as
    /// [`TRAVEL_SPEED`] times the path's motion under the chain since then (the largest move of the path's point
    /// at each joint's place, counted from the offset, and of the root; plus any change of the bones' lengths),
    /// plus [`TRAVEL_FLOOR`] bone lengths per second of `delta`. A joint held back turns toward its place by the
    /// shorter way; angle limits still hold. The first fit (and the first after a reset or a change of the
    /// chain's joint count) snaps. A jump of the path, the root or the offset moves the path's points as far, so
    /// the chain follows at once.
    ///
    /// # Errors
    /// As [`fit_chain`](crate::fit_chain); the memory is then unchanged.
    pub fn fit(
        &mut self,
        path: &PathPolyline,
        joints: &mut [Vec2],
        limits: &ChainLimits,
        settings: &PathFitSettings,
        wanted: &mut [Vec2],
        delta: f32,
    ) -> Result<PathFitReport, PathError> {
        let n = joints.len();
        let primed = self.primed && self.placed.len() == n;
        let motion =
            if primed && !path.is_empty() { self.motion(path, joints, settings.offset) } else { f32::INFINITY };
        let floor = if delta.is_finite() && delta > 0.0 { TRAVEL_FLOOR * delta } else { 0.0 };
        self.along.resize(n, f32::NAN);
        self.wanted.resize(n, Vec2::ZERO);
        let travel = FitTravel {
            previous: if primed { &self.placed } else { &[] },
            reach: TRAVEL_SPEED * motion,
            per_length: floor,
            along: &mut self.along,
        };
        let report = fit_with(path, joints, limits, settings, &mut self.wanted, Some(travel))?;
        for (slot, &aim) in wanted.iter_mut().zip(&self.wanted) {
            *slot = aim;
        }
        self.placed.clear();
        self.placed.extend_from_slice(joints);
        self.entry = path.point(path.cursor_at(settings.offset));
        self.primed = true;
        Ok(report)
    }

    /// How far the path moved under the chain since the last fit: the largest move of the root, of the path's point
    /// at the offset (the offset's own step), and of the path under each joint's wanted place (its distance from
    /// the path now, near as far along from the offset as then), plus how much the bones' lengths changed.
    fn motion(&self, path: &PathPolyline, joints: &[Vec2], offset: f32) -> f32 {
        let entry_cursor = path.cursor_at(offset);
        let entry = path.point(entry_cursor);
        let entry_distance = path.distance_at(entry_cursor);
        let mut motion = joints[0].distance(self.placed[0]).max(entry.distance(self.entry));
        for (&along, &was) in self.along.iter().zip(&self.wanted).skip(1) {
            if along.is_finite() {
                let distance = entry_distance + along;
                // Where it would be had it kept its place along the path: the path moved at most that far there,
                // and at least half as far (a point of the path that moves by `d` shortens or lengthens the path
                // before a place by at most `d`), or as far as its distance from the path now.
                let kept = path.point(path.cursor_at(distance)).distance(was);
                motion = motion.max(path.distance_near(was, distance, kept).min(kept).max(0.5 * kept));
            }
        }
        let stretch: f32 = joints
            .windows(2)
            .zip(self.placed.windows(2))
            .map(|(now, then)| (now[0].distance(now[1]) - then[0].distance(then[1])).abs())
            .sum();
        motion + stretch
    }
}
