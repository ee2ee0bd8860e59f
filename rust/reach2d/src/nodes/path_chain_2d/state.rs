//! `PathChain2D`'s run-time state: the path's curve, watched through its `changed` signal and sampled (its baked
//! points, in the path's own space) only when it changed or was replaced; the polyline in global space
//! (`reach2d_core::PathPolyline`), made again only when the curve or the path's global transform changed; and the
//! fit's buffers and the joints' travel from the last frame (`reach2d_core::PathTravel`). Per frame: two engine calls (`Path2D.get_curve`, to notice a replaced curve, and
//! `get_global_transform`), no allocation once the buffers have grown to the curve and the chain.

use std::cell::Cell;
use std::rc::Rc;

use glam::Affine2;
use godot::builtin::{Callable, StringName};
use godot::classes::{Curve2D, Path2D};
use godot::obj::{Gd, InstanceId};
use reach2d_core::write_back::ChainPose;
use reach2d_core::{AngleLimit, PathError, PathPolyline, PathTravel, Vec2};

use crate::engine::convert::{affine, vec2};
use crate::io::bones::is_collapsed;
use crate::problem::Problem;

/// The path's curve and polyline, and the buffers one fit works in.
#[derive(Default)]
pub struct PathState {
    watch: CurveWatch,
    /// The curve's baked points in the path's own space, as sampled last.
    local: Vec<Vec2>,
    /// The path's global transform the polyline was made with; `None`: make it again.
    placed: Option<Affine2>,
    /// Why no polyline could be made from `local` and `placed` (kept, so a broken curve is not measured again every
    /// frame).
    refused: Option<Problem>,
    /// The path in global space.
    pub polyline: PathPolyline,
    /// The bones' rotation limits as segment limits for the pose as read.
    pub segment_limits: Vec<Option<AngleLimit>>,
    /// Where the fit wanted each joint, global px.
    pub wanted: Vec<Vec2>,
    /// The last fit's joints, for the next one's travel over corners (`reset()` forgets them).
    pub travel: PathTravel,
}

impl PathState {
    /// Brings the polyline up to date with `path` (alive and in the tree): samples the curve again if it changed or
    /// was replaced since, and places it again if the path's global transform changed. Returns why the path cannot
    /// be followed, if it cannot.
    pub fn refresh(&mut self, path: &Gd<Path2D>) -> Result<(), Problem> {
        let Some(curve) = path.get_curve() else {
            self.watch.forget();
            self.local.clear();
            self.placed = None;
            return Err(Problem::NoCurve);
        };
        if self.watch.take_change(&curve) {
            let baked = curve.get_baked_points();
            self.local.clear();
            self.local.extend(baked.as_slice().iter().map(|&p| vec2(p)));
            self.placed = None;
        }
        let transform = affine(path.get_global_transform());
        if self.placed != Some(transform) {
            self.place(transform);
        }
        self.refused.map_or(Ok(()), Err)
    }

    /// Makes the polyline: the sampled points placed by `transform`.
    fn place(&mut self, transform: Affine2) {
        self.placed = Some(transform);
        if !transform.is_finite() || is_collapsed(transform.matrix2) {
            self.polyline.clear();
            self.refused = Some(Problem::PathNotFinite);
            return;
        }
        let placed = self.local.iter().map(|&p| transform.transform_point2(p));
        self.refused = self.polyline.set(placed).err().map(problem);
    }
}

/// The problem a path or fit error is for the user.
pub fn problem(error: PathError) -> Problem {
    match error {
        PathError::TooFewPoints => Problem::CurveTooShort,
        PathError::Chain(error) => Problem::Solver(error),
        _ => Problem::PathNotFinite,
    }
}

/// The largest distance (global px) between a joint of the chain as written (`pose` turned by `rotations`) and
/// where the fit wanted it (`wanted`, one per joint).
pub fn written_error(pose: ChainPose<'_>, rotations: &[f32], wanted: &[Vec2]) -> f32 {
    let mut global = pose.parent;
    let mut error = 0.0f32;
    for ((bone, &rotation), &aim) in pose.bones.iter().zip(rotations).zip(wanted) {
        global *= bone.local_with(rotation);
        error = error.max(global.translation.distance(aim));
    }
    let tip = global.transform_point2(pose.tip_offset);
    wanted.get(pose.bones.len()).map_or(error, |&aim| error.max(tip.distance(aim)))
}

/// The curve being followed, and the watch on its `changed` signal.
#[derive(Default)]
struct CurveWatch {
    /// The curve, the callable connected to its `changed` signal and that signal's name.
    connection: Option<(Gd<Curve2D>, Callable, StringName)>,
    id: Option<InstanceId>,
    /// Set by the curve's `changed` signal.
    changed: Rc<Cell<bool>>,
}

impl CurveWatch {
    /// `true` when `curve` must be sampled: it is not the curve watched until now (which it then becomes) or it
    /// changed since the last call.
    fn take_change(&mut self, curve: &Gd<Curve2D>) -> bool {
        if self.id != Some(curve.instance_id()) {
            self.watch(curve);
            return true;
        }
        self.changed.replace(false)
    }

    fn watch(&mut self, curve: &Gd<Curve2D>) {
        self.forget();
        let changed = Rc::new(Cell::new(false));
        let flag = changed.clone();
        let callable = Callable::from_fn("reach2d_curve_changed", move |_| flag.set(true));
        let signal = StringName::from("changed");
        let mut curve = curve.clone();
        curve.connect(&signal, &callable);
        self.id = Some(curve.instance_id());
        self.changed = changed;
        self.connection = Some((curve, callable, signal));
    }

    /// Stops watching.
    fn forget(&mut self) {
        self.changed.set(false);
        self.id = None;
        if let Some((mut curve, callable, signal)) = self.connection.take()
            && curve.is_instance_valid()
            && curve.is_connected(&signal, &callable)
        {
            curve.disconnect(&signal, &callable);
        }
    }
}

impl Drop for CurveWatch {
    fn drop(&mut self) {
        self.forget();
    }
}
