//! `PathChain2D`: a chain of Bone2D nodes laid along a `Path2D`'s curve (`reach2d_core::path_fit`).

mod gizmo;
pub mod state;

use godot::classes::notify::CanvasItemNotification;
use godot::classes::{Bone2D, INode2D, Node2D, Path2D};
use godot::meta::GodotConvert;
use godot::meta::shape::GodotShape;
use godot::prelude::*;
use godot::register::info::PropertyInfo;
use godot::register::property::{Export, Var};
use reach2d_core::{ChainLimits, PathFitSettings, Vec2};

use crate::batch;
use crate::engine::slot::{Slot, slot};
use crate::io::bones::{self, Start, TipEnd};
use crate::io::chain::Shape;
use crate::problem::Problem;
use crate::runtime::checked::{self, Choice};
use crate::runtime::frame::{self, BoneDriver, NodeState, RUNTIME_PROCESS_PRIORITY, Solved, Tick, UpdateMode};
use crate::runtime::node_property::NodeSlot;
use crate::runtime::setup::{self, Slots};
use crate::runtime::{self, node_limits};
use state::PathState;

/// Lays a chain of [Bone2D] nodes along the curve of a [Path2D]: a snake, a worm or a centipede following a path, a
/// tentacle or a whip swept along a drawn curve, a train of segments, a scarf along a spline.
///
/// The chain is [member tip_bone] and its Bone2D ancestors up to [member root_bone]; its end is the end of the tip
/// bone ([method Bone2D.get_length] along [method Bone2D.get_bone_angle]). Each joint after the root's is placed
/// where a circle of its bone's length around the previous joint meets the curve, the first meeting further along
/// the curve, so the bones keep their lengths exactly and only their local [member Node2D.rotation] is written
/// (like Godot's [code]SplineIK3D[/code]). With [member mode] [constant MODE_FIT] (the default) the root bone stays
/// where it is: the chain runs straight from it to the curve's point at [member offset] and follows the curve from
/// there. With [constant MODE_FOLLOW] (Spine's path constraint) the root bone itself moves to that point, by its
/// local [member Node2D.position]: animate [member offset] and the whole chain slides along the path. That
/// position is put back when the mode returns to fit (at the next solve), when the node is disabled or leaves the
/// tree, and before a scene is saved; a position someone else sets since (an animation) becomes the one put back.
///
/// Past the end of an open curve the chain goes on straight along the curve's last direction; before its start
/// (a negative [member offset]) likewise along its first. A curve whose last point is its first (Path2D's [i]Close
/// Curve[/i]) is closed: the chain and [member offset] wrap around it. [member tip_follows_tangent] lays the tip
/// bone along the curve's direction instead. Angle limits ([method set_angle_limits]) hold where they conflict with
/// the curve: that bone stops at its limit and the next one meets the curve again from where it really ends;
/// [member last_error] says how far off the chain ended.
///
/// At a sharp corner (the Path2D editor's default point has no handles) a joint's place can jump: while its bone's
/// circle still holds the corner, the first meeting lies on the near side; once the corner is inside the circle,
/// it lies far along the other side (up to twice the bone's length away, at a hairpin). No exact fit is between
/// the two, so the joint travels there over a few frames instead, turning its bone toward its place: each frame it
/// moves at most 3 times as far as the curve moved under the chain (the step of [member offset], a moving curve or
/// path, the root bone), plus 2 bone lengths per second, and the bones after it meet the curve from where it
/// really is; [member last_error] counts how far it still has to go. A jump of the path, of the root or of
/// [member offset] moves the curve under the chain as far, so the chain follows it at once; [method reset] makes
/// the next solve snap.
///
/// The curve is sampled when it changes (its [signal Resource.changed] signal) or the path gets another curve, not
/// every frame: a curve edited with its signals blocked is seen once it emits [code]changed[/code] again. The path
/// may move, turn and scale (also with a negative scale: a mirrored character with a mirrored path gets the mirror
/// image); bone lengths, [member offset] and [member last_error] are in global pixels. The node runs with the IK
/// nodes after [AnimationPlayer] and [AnimationTree], in tree order, so it sees what IK nodes above it in the tree
/// solved this frame; [member weight] blends the animated and the fitted pose.
#[reach2d_macros::shared_docs]
#[derive(GodotClass, reach2d_macros::NodeFields)]
#[class(init, tool, base = Node2D)]
pub struct PathChain2D {
    /// The [Path2D] whose [member Path2D.curve] the chain is laid along.
    #[export]
    #[init(val = NodeSlot::named("PathChain2D", "path"))]
    path: NodeSlot<Path2D>,
    /// First bone of the chain. With [member mode] [constant MODE_FIT] it turns but never moves; with
    /// [constant MODE_FOLLOW] its position moves onto the curve.
    #[export]
    #[init(val = NodeSlot::named("PathChain2D", "root_bone"))]
    root_bone: NodeSlot<Bone2D>,
    /// @shared chain.tip_bone
    #[export]
    #[init(val = NodeSlot::named("PathChain2D", "tip_bone"))]
    tip_bone: NodeSlot<Bone2D>,
    /// How the chain takes the curve: [constant MODE_FIT] (the root bone stays; the chain runs straight from it to
    /// the curve at [member offset], then along it) or [constant MODE_FOLLOW] (the root bone moves onto the curve at
    /// [member offset], by its local [member Node2D.position]). Any other value is an error and is ignored.
    #[export(enum = (Fit = 0, Follow = 1))]
    mode: PathMode,
    /// Where along the curve the chain enters it, in global pixels of arc length from the curve's first point: the
    /// point the run-in from the root reaches ([constant MODE_FIT]) or the root itself moves to
    /// ([constant MODE_FOLLOW]; animate it to slide the chain along the path). Around a closed curve it wraps; on an
    /// open one, a negative value or one beyond its length lies on its straight extension. Between -1,000,000 and
    /// 1,000,000 (where an [code]f32[/code] still places a point to 0.06 px); anything else (or NaN) is an error and
    /// is ignored.
    #[export(range = (-10000.0, 10000.0, 0.1, or_less, or_greater, suffix = "px"))]
    #[var(set = set_offset)]
    offset: f32,
    /// @shared enabled
    #[export]
    #[init(val = true)]
    enabled: bool,
    /// @shared weight
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_weight)]
    #[init(val = 1.0)]
    weight: f32,
    /// @shared update_mode
    #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
    update_mode: UpdateMode,
    /// @shared editor_preview
    #[export]
    #[init(val = true)]
    editor_preview: bool,

    /// Lay the tip bone along the curve's direction at its origin (Spine's [i]tangent[/i] rotate mode) instead of
    /// ending it on the curve. Its angle limit still holds.
    #[export_group(name = "Tip Rotation")]
    #[export]
    tip_follows_tangent: bool,

    /// How far off the fit the chain ended after the last solve, in global pixels: the largest distance between a
    /// joint as written and where the fit wanted it (on the curve, or on the straight run-in from the root). 0 up to
    /// rounding unless an angle limit held a bone, [member weight] is below 1, no part of the curve was within a
    /// bone's reach, or a joint is still travelling past a sharp corner. [code]-1.0[/code] before the first solve.
    #[var(no_set)]
    #[init(val = -1.0)]
    last_error: f32,
    /// Always 1 after a solve: the fit is one pass.
    #[var(no_set)]
    last_iterations: i32,

    path_state: PathState,
    state: NodeState,
    base: Base<Node2D>,
}

#[reach2d_macros::api(update_constants, solve, reset, angle_limits, setup_warning, bone_count)]
#[godot_api]
impl PathChain2D {
    /// [member mode]: the root bone stays; the chain runs from it to the curve, then along it (the default).
    #[constant]
    pub const MODE_FIT: i32 = PathMode::Fit as i32;
    /// [member mode]: the root bone moves onto the curve at [member offset].
    #[constant]
    pub const MODE_FOLLOW: i32 = PathMode::Follow as i32;

    // The checked setters: a bad value prints one error naming the valid range and keeps the last good one.
    #[func]
    fn set_offset(&mut self, value: f32) {
        checked::set_float(&mut self.offset, "PathChain2D", "offset", value, -1.0e6, 1.0e6);
    }
    #[func]
    fn set_weight(&mut self, value: f32) {
        checked::set_float(&mut self.weight, "PathChain2D", "weight", value, 0.0, 1.0);
    }
}

#[godot_api]
impl INode2D for PathChain2D {
    fn ready(&mut self) {
        batch::ready(self, RUNTIME_PROCESS_PRIORITY);
    }
    fn process(&mut self, delta: f64) {
        frame::tick(self, Tick::Process, delta);
    }
    fn physics_process(&mut self, delta: f64) {
        frame::tick(self, Tick::Physics, delta);
    }
    fn on_notification(&mut self, what: CanvasItemNotification) {
        batch::notification(self, what);
    }
    fn draw(&mut self) {
        let mut node = self.to_gd().upcast();
        let polyline = &self.path_state.polyline;
        gizmo::draw_path(&mut node, polyline.points(), polyline.point(polyline.cursor_at(self.offset)));
        runtime::gizmo::draw(&mut node, &self.state.bones, None, None, self.state.limits.active());
    }
    fn get_configuration_warnings(&self) -> PackedStringArray {
        frame::configuration_warnings(self)
    }
    fn on_get_property_list(&mut self) -> Vec<PropertyInfo> {
        node_limits::property_list(self)
    }
    fn on_get(&self, property: StringName) -> Option<Variant> {
        node_limits::get_property(self, &property)
    }
    fn on_set(&mut self, property: StringName, value: Variant) -> bool {
        node_limits::set_property(self, &property, &value)
    }
    fn on_property_get_revert(&self, property: StringName) -> Option<Variant> {
        node_limits::property_revert(&property)
    }
}

impl BoneDriver for PathChain2D {
    fn check_setup(&mut self) -> Result<(), Problem> {
        self.check()
    }

    /// Forgets where the joints were: the next solve places every joint where the fit wants it at once, instead of
    /// letting one that a corner moved travel there (also on the first solve, when the chain changes and after a
    /// frame that could not be solved).
    fn reset_own(&mut self) {
        self.path_state.travel.reset();
    }

    fn solve_frame(&mut self, delta: f64) -> Result<Solved, Problem> {
        let solved = self.fit_and_write(delta as f32);
        if solved.is_err() {
            // Whatever comes next starts afresh: the next good solve snaps.
            self.path_state.travel.reset();
        }
        solved
    }

    /// The floor of a travelling joint's speed is per second.
    fn needs_delta(&self) -> bool {
        true
    }
}

impl PathChain2D {
    /// check → read (the root at its authored position) → follow: the root onto the curve → fit → write.
    fn fit_and_write(&mut self, delta: f32) -> Result<Solved, Problem> {
        self.check()?;
        let weight = self.weight * self.state.character.weight();
        let following = self.mode == PathMode::Follow;
        let settings = PathFitSettings { offset: self.offset, tip_along_tangent: self.tip_follows_tangent };
        let (bones, path) = (&mut self.state.bones, &mut self.path_state);
        let limits = bones::chain_limits(bones, self.state.limits.active());
        let authored = bones::authored_root_position(bones, following);
        bones::read_adjusted(bones, TipEnd::BoneLength, Start::new(false, weight), |poses| {
            if let (Some(position), Some(root)) = (authored, poses.first_mut()) {
                root.position = position;
            }
        })?;
        // Follow: the root's origin onto the curve at the offset, blended by weight, as a local position.
        let root_position = authored.map(|authored| {
            let on_path = path.polyline.point(path.polyline.cursor_at(self.offset));
            let local = bones.pose.pose().parent.inverse().transform_point2(on_path);
            authored + (local - authored) * weight
        });
        if let (Some(position), Some(root)) = (root_position, bones.pose.bones_mut().first_mut()) {
            root.position = position;
            if !bones.pose.finish() {
                return Err(Problem::PoseNotFinite);
            }
        }
        let n = bones.chain.len();
        path.segment_limits.resize(n, None);
        path.wanted.resize(n + 1, Vec2::ZERO);
        let chain_limits = if limits.iter().any(Option::is_some) {
            let root_direction =
                bones.pose.pose().segment_limits(bones.pose.joints(), limits, &mut path.segment_limits);
            ChainLimits { root_direction, per_bone: &path.segment_limits }
        } else {
            ChainLimits::NONE
        };
        let (polyline, wanted, travel) = (&path.polyline, &mut path.wanted, &mut path.travel);
        bones
            .pose
            .place_joints(|_, joints| travel.fit(polyline, joints, &chain_limits, &settings, wanted, delta))
            .map_err(state::problem)?;
        bones::write(bones, weight, limits, f32::INFINITY)?;
        if let Some(position) = root_position {
            bones::write_root_position(bones, position);
        }
        let error = bones::drawn_pose(bones)
            .map_or(0.0, |(pose, rotations)| state::written_error(pose, rotations, &path.wanted));
        Ok(Solved { error, iterations: 1 })
    }

    /// The path, the bones, then the curve, checked in that order without touching a bone.
    fn check(&mut self) -> Result<(), Problem> {
        let path = match slot(&self.path) {
            Slot::Empty => return Err(Problem::NoPath),
            Slot::Freed => return Err(Problem::PathFreed),
            Slot::Live(path) => path,
        };
        if !path.is_inside_tree() {
            return Err(Problem::PathOutsideTree);
        }
        let slots = Slots { target: None, pole: None, root: &self.root_bone, tip: &self.tip_bone, shape: Shape::Chain };
        if setup::check(&mut self.state.bones, slots)?.chain_changed {
            self.path_state.travel.reset(); // Other bones: nothing of the last frame applies.
        }
        self.path_state.refresh(path)
    }
}

/// How the chain takes the curve: the `mode` property (Godot sees an `int`; see `checked.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathMode {
    /// The root bone stays; the chain runs from it to the curve, then along it.
    #[default]
    Fit = 0,
    /// The root bone moves onto the curve.
    Follow = 1,
}

impl Choice for PathMode {
    const NAMES: &'static [&'static str] = &["MODE_FIT", "MODE_FOLLOW"];

    fn from_index(index: i64) -> Option<Self> {
        match index {
            0 => Some(Self::Fit),
            1 => Some(Self::Follow),
            _ => None,
        }
    }

    fn index(self) -> i64 {
        self as i64
    }
}

impl GodotConvert for PathMode {
    type Via = i64;
    fn godot_shape() -> GodotShape {
        GodotShape::of_builtin::<i64>()
    }
}

impl Var for PathMode {
    type PubType = Self;
    fn var_get(field: &Self) -> i64 {
        field.index()
    }
    fn var_set(field: &mut Self, value: i64) {
        checked::set_choice(field, "mode", value);
    }
    fn var_pub_get(field: &Self) -> Self {
        *field
    }
    fn var_pub_set(field: &mut Self, value: Self) {
        *field = value;
    }
}

impl Export for PathMode {}
