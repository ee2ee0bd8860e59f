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
    /// This fit's `wanted` and `along`, swapped with them once it is done.
    next: (Vec<Vec2>, Vec<f32>),
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
    /// [`TRAVEL_SPEED`] times the path's motion under the chain since then (the largest move of the root, of the
    /// path's point at the offset and of the path under each joint's last wanted place; plus any change of the
    /// bones' lengths), plus [`TRAVEL_FLOOR`] bone lengths per second of `delta`. A joint held back turns toward
    /// its place by the shorter way; angle limits still hold. The first fit (and the first after a reset or a
    /// change of the chain's joint count) snaps. A jump of the path, the root or the offset moves the path under
    /// the chain as far, so the chain follows at once. The path under each joint is measured only when a joint
    /// would move farther than the rest allows.
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
        let primed = self.primed && self.placed.len() == n && !path.is_empty();
        let entry_cursor = path.cursor_at(settings.offset);
        let entry = path.point(entry_cursor);
        let entry_distance = path.distance_at(entry_cursor);
        let base = if primed { self.base_motion(joints, entry) } else { f32::INFINITY };
        let floor = if delta.is_finite() && delta > 0.0 { TRAVEL_FLOOR * delta } else { 0.0 };
        // Both pairs of buffers grown at once, so that no later fit allocates.
        let (next_wanted, next_along) = &mut self.next;
        for wanted in [&mut self.wanted, next_wanted] {
            wanted.resize(n, Vec2::ZERO);
        }
        for along in [&mut self.along, next_along] {
            along.resize(n, f32::NAN);
        }
        let (next_wanted, next_along) = &mut self.next;
        let (last_wanted, last_along) = (&self.wanted, &self.along);
        let mut full = || TRAVEL_SPEED * path_motion(path, last_wanted, last_along, entry_distance, base);
        let travel = FitTravel {
            previous: if primed { &self.placed } else { &[] },
            reach: TRAVEL_SPEED * base,
            per_length: floor,
            along: next_along,
            full: &mut full,
            measured: false,
        };
        let report = fit_with(path, joints, limits, settings, next_wanted, Some(travel))?;
        for (slot, &aim) in wanted.iter_mut().zip(next_wanted.iter()) {
            *slot = aim;
        }
        core::mem::swap(&mut self.wanted, next_wanted);
        core::mem::swap(&mut self.along, next_along);
        self.placed.clear();
        self.placed.extend_from_slice(joints);
        self.entry = entry;
        self.primed = true;
        Ok(report)
    }

    /// How far the chain's ends moved since the last fit: the root and the path's point at the offset (the
    /// offset's own step), plus how much the bones' lengths changed.
    fn base_motion(&self, joints: &[Vec2], entry: Vec2) -> f32 {
        let stretch: f32 = joints
            .windows(2)
            .zip(self.placed.windows(2))
            .map(|(now, then)| (now[0].distance(now[1]) - then[0].distance(then[1])).abs())
            .sum();
        joints[0].distance(self.placed[0]).max(entry.distance(self.entry)) + stretch
    }
}

/// `base`, or the path's motion under the joints' last wanted places (`wanted`, `along` from the entry, now at
/// `entry_distance`) where that is more: each place's distance from the path now, near as far along, or half the
/// move of the path's point at that arc length, whichever is more (a point of the path that moves by `d` shortens
/// or lengthens the path before a place by at most `d`), and at most that move.
fn path_motion(path: &PathPolyline, wanted: &[Vec2], along: &[f32], entry_distance: f32, base: f32) -> f32 {
    let mut motion = base;
    for (&along, &was) in along.iter().zip(wanted).skip(1) {
        if along.is_finite() {
            let cursor = path.cursor_at(entry_distance + along);
            let kept = path.point(cursor).distance(was);
            if kept > motion {
                motion = motion.max(path.distance_near(was, cursor, kept).min(kept).max(0.5 * kept));
            }
        }
    }
    motion
}
