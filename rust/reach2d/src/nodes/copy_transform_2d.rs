//! `CopyTransform2D`: a bone that follows another node (eyes that follow the head, a sword that follows the hand, a
//! wheel that turns with its cart's x). This file holds its properties and methods; the geometry is
//! `reach2d_core::copy_transform`; the engine side and the memory of what it wrote are in `copy_transform_2d/state.rs`,
//! the steps of its frame in `copy_transform_2d/frame.rs`, its engine callbacks in `copy_transform_2d/callbacks.rs`
//! and its gizmo in `copy_transform_2d/gizmo.rs`.
//!
//! One node per driven bone, not one node with an array of bones: each copy is a plain node with flat properties
//! the inspector shows (an array of settings would be a list of dictionaries), its own undo entries, its own place
//! in the tree (the batch runs nodes in tree order, so each copy can sit after exactly the IK node it reads), its
//! own configuration warning, and the bake helper finds its one `bone` like `LookAt2D`'s. Several bones that share
//! a source each get a node; the source is read once per node (one engine call).

mod callbacks;
pub mod choices;
// This node's frame; the one every node shares is named in full, `runtime::frame`.
mod frame;
mod gizmo;
pub mod state;

use core::f32::consts::PI;

use godot::classes::{Bone2D, Node2D};
use godot::prelude::*;

use crate::engine::editor::in_editor;
use crate::nodes::copy_transform_2d::choices::{SourceValue, Space};
use crate::nodes::copy_transform_2d::state::CopyState;
use crate::runtime::checked;
use crate::runtime::frame::{NodeState, UpdateMode};
use crate::runtime::node_property::NodeSlot;

/// Makes [member bone] follow [member source]: its rotation, position and scale copied, each with its own amount
/// and offset, in the [member space] you choose; any of them can be taken from another of the source's values
/// instead (a wheel that turns with its cart's x, a piston driven by a crank's rotation).
///
/// [b]What it writes.[/b] Only the bone's local [member Node2D.rotation], [member Node2D.position] and
/// [member Node2D.scale], and only those whose amount is above 0 ([member rotation_amount],
/// [member position_amount], [member scale_amount]). Each is blended from the value the bone had before the copy (an
/// [AnimationPlayer]'s, the scene's; never the copy's own last write) by its amount times [member weight]. What it
/// wrote is put back when the node is disabled, leaves the tree, its preview stops, a channel's amount goes to 0, or
/// the editor saves the scene (the preview returns after saving).
///
/// [b]Spaces.[/b] [constant SPACE_GLOBAL]: the bone takes the source's global transform (the position offset is a
/// point in the source's own frame, so a sword stays in the grip as the hand turns). [constant SPACE_LOCAL]: the bone
/// takes the source's local values (its transform in its parent) as its own. [constant SPACE_REST]: the source's
/// change from its rest ([member Bone2D.rest]) is applied to the bone's rest: rotation added, position added, scale
/// multiplied (the source must be a [Bone2D]).
///
/// [b]Remaps.[/b] Each written property (rotation, x, y, scale x, scale y) is [code]factor * source_value +
/// offset[/code], where [code]source_value[/code] is the source's value named by its [code]*_from[/code] property
/// (by default the same property), optionally held between two values (Spine 4.3's remappable transform
/// constraint, Godot's [code]ConvertTransformModifier3D[/code]). Values are read as the engine takes a transform apart:
/// rotation is the angle of the x axis, scale the axes' lengths (in the local and rest spaces the y scale is negative
/// for a mirroring transform). The rotation is read continuous across turns (each frame's shortest change added to
/// the last: a crank wound three times drives a piston three turns' worth, without a jump at the half turn); the
/// first frame, and the first after [method reset], reads it within half a turn of zero.
///
/// [b]Mirroring.[/b] A character flipped with [code]scale.x = -1[/code] above the source and the bone gets the exact
/// mirror image: a plain copy in the global space copies directions and points (the rotation offset turns the other
/// way for a mirrored source, as in Spine), and the local and rest spaces read numbers the flip does not change. A
/// remap in the global space reads world numbers, which a flip changes: remap in the local or rest space on a
/// character that flips. A flip between the source and the bone (a cart turned by its own [code]scale.x = -1[/code]
/// over its wheel): in the local and rest spaces the rotation keeps its sense on screen (written the other way round
/// when the source's parent and the bone's mirror differently), so the wheel rolls the way the cart drives; a
/// position or scale stays a number in the bone's parent's frame.
///
/// [b]Order.[/b] At run time it runs after [AnimationPlayer] and [AnimationTree] and, with the IK nodes, in tree
/// order (the batch): placed below a [TwoBoneIk2D] in the tree it reads the pose that IK node solved in the same
/// frame; placed above, it reads the source as the animation left it this frame (or the IK's result of the last
/// frame where nothing animates it). An angle limit ([method set_angle_limits], index 0) holds the written rotation.
#[reach2d_macros::shared_docs]
#[derive(GodotClass, reach2d_macros::NodeFields)]
#[class(init, tool, base = Node2D)]
pub struct CopyTransform2D {
    /// The node the bone follows: any [Node2D] ([Bone2D] included).
    #[export]
    #[init(val = NodeSlot::named("CopyTransform2D", "source"))]
    source: NodeSlot<Node2D>,
    /// The [Bone2D] that follows [member source].
    #[export]
    #[init(val = NodeSlot::named("CopyTransform2D", "bone"))]
    bone: NodeSlot<Bone2D>,
    /// Where the source is read and the bone written: [constant SPACE_GLOBAL] (the canvas), [constant SPACE_LOCAL]
    /// (each one's parent) or [constant SPACE_REST] (each one's change from its rest pose; the source must be a
    /// [Bone2D]). Any other value is an error and is ignored.
    #[export(enum = (Global = 0, Local = 1, Rest = 2))]
    space: Space,
    /// If [code]false[/code], the node stops copying and puts back what it wrote (each property still holding its
    /// write gets the value it had before); [method solve] still copies.
    #[export]
    #[var(set = set_enabled)]
    #[init(val = true)]
    enabled: bool,
    /// How much of every channel is applied, on top of each amount: each written value is
    /// [code]lerp(input, copied, amount * weight)[/code] (the rotation the short way round), where input is the
    /// bone's value as the animation or the scene left it, never the copy's own last write. A value outside [0, 1] (or
    /// NaN) is an error and is ignored.
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_weight)]
    #[init(val = 1.0)]
    weight: f32,
    /// @shared update_mode
    #[export(enum = (Process = 0, Physics = 1, Manual = 2))]
    update_mode: UpdateMode,
    /// Copy in the editor while you edit; turning it off puts back what it wrote. Saving a scene always stores your
    /// own values.
    #[export]
    #[var(set = set_editor_preview)]
    #[init(val = true)]
    editor_preview: bool,

    /// How much of the copied rotation the bone takes, in [0, 1]; 0 leaves its rotation unwritten. A value outside
    /// (or NaN) is an error and is ignored.
    #[export_group(name = "Rotation")]
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_rotation_amount)]
    #[init(val = 1.0)]
    rotation_amount: f32,
    /// Added to the copied rotation, radians (the inspector shows degrees), in [-PI, PI]. In the global space it
    /// turns the way the source is turned: the other way for a mirrored source. A value outside (or NaN) is an error
    /// and is ignored.
    #[export(range = (-180.0, 180.0, 0.1, radians_as_degrees))]
    #[var(set = set_rotation_offset)]
    rotation_offset: f32,
    /// Which of the source's values the rotation takes (by default its rotation): [constant FROM_ROTATION],
    /// [constant FROM_X], [constant FROM_Y], [constant FROM_SCALE_X] or [constant FROM_SCALE_Y]. Any other value is
    /// an error and is ignored.
    #[export(enum = (Rotation = 0, X = 1, Y = 2, ScaleX = 3, ScaleY = 4))]
    rotation_from: SourceValue,
    /// What that value is multiplied by: 1 for a plain copy, 0.5 for half the source's turn, [code]1.0 / radius[/code]
    /// (radians per pixel) for a wheel that rolls with an x. In [-10000, 10000]; anything else (or NaN) is an error
    /// and is ignored.
    #[export(range = (-10.0, 10.0, 0.001, or_greater, or_less))]
    #[var(set = set_rotation_factor)]
    #[init(val = 1.0)]
    rotation_factor: f32,
    /// Hold the rotation (after the factor and the offset) between [member rotation_min] and [member rotation_max],
    /// in the space's terms (before it becomes the bone's local rotation in the global space).
    #[export]
    rotation_clamp: bool,
    /// One end of the rotation's clamp, radians (the inspector shows degrees), in [-1000, 1000]; the ends may come in
    /// either order. A value outside (or NaN) is an error and is ignored.
    #[export(range = (-360.0, 360.0, 0.1, radians_as_degrees, or_greater, or_less))]
    #[var(set = set_rotation_min)]
    #[init(val = -PI)]
    rotation_min: f32,
    /// The other end of the rotation's clamp, radians, in [-1000, 1000]. A value outside (or NaN) is an error and is
    /// ignored.
    #[export(range = (-360.0, 360.0, 0.1, radians_as_degrees, or_greater, or_less))]
    #[var(set = set_rotation_max)]
    #[init(val = PI)]
    rotation_max: f32,

    /// How much of the copied position the bone takes, in [0, 1]; 0 leaves its position unwritten. A value outside
    /// (or NaN) is an error and is ignored.
    #[export_group(name = "Position")]
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_position_amount)]
    #[init(val = 1.0)]
    position_amount: f32,
    /// Added to the copied position, px. In the global space a point in the source's own frame: it turns, scales and
    /// mirrors with the source (a sword held 30 px along the hand stays there); in the local and rest spaces an
    /// offset in the bone's parent's frame. A NaN or infinite component is an error and is ignored.
    #[export]
    #[var(set = set_position_offset)]
    position_offset: Vector2,
    /// Which of the source's values the x takes (by default its x). Any other value is an error and is ignored.
    #[export(enum = (Rotation = 0, X = 1, Y = 2, ScaleX = 3, ScaleY = 4))]
    #[init(val = SourceValue::X)]
    x_from: SourceValue,
    /// What that value is multiplied by (pixels per radian for an x taken from a rotation), in [-10000, 10000];
    /// anything else (or NaN) is an error and is ignored.
    #[export(range = (-10.0, 10.0, 0.001, or_greater, or_less))]
    #[var(set = set_x_factor)]
    #[init(val = 1.0)]
    x_factor: f32,
    /// Which of the source's values the y takes (by default its y). Any other value is an error and is ignored.
    #[export(enum = (Rotation = 0, X = 1, Y = 2, ScaleX = 3, ScaleY = 4))]
    #[init(val = SourceValue::Y)]
    y_from: SourceValue,
    /// What that value is multiplied by, in [-10000, 10000]; anything else (or NaN) is an error and is ignored.
    #[export(range = (-10.0, 10.0, 0.001, or_greater, or_less))]
    #[var(set = set_y_factor)]
    #[init(val = 1.0)]
    y_factor: f32,
    /// Hold the position's x between [member position_min]'s and [member position_max]'s x, and its y likewise, in the
    /// space's terms (global px in the global space), after the factor and the offset.
    #[export]
    position_clamp: bool,
    /// One corner of the position's clamp, px; the ends may come in either order. A NaN or infinite component is an
    /// error and is ignored.
    #[export]
    #[var(set = set_position_min)]
    #[init(val = Vector2::new(-100.0, -100.0))]
    position_min: Vector2,
    /// The other corner of the position's clamp, px. A NaN or infinite component is an error and is ignored.
    #[export]
    #[var(set = set_position_max)]
    #[init(val = Vector2::new(100.0, 100.0))]
    position_max: Vector2,

    /// How much of the copied scale the bone takes, in [0, 1]; 0 (the default) leaves its scale unwritten. A value
    /// outside (or NaN) is an error and is ignored.
    #[export_group(name = "Scale")]
    #[export(range = (0.0, 1.0, 0.01))]
    #[var(set = set_scale_amount)]
    scale_amount: f32,
    /// Added to the copied scale. In the global space the scale is the axes' global lengths and the bone keeps its
    /// own signs; in the local space the source's local scale; in the rest space the ratio to the rest's (1 at rest).
    /// A NaN or infinite component is an error and is ignored.
    #[export]
    #[var(set = set_scale_offset)]
    scale_offset: Vector2,
    /// Which of the source's values the scale's x takes (by default its scale's x). Any other value is an error and
    /// is ignored.
    #[export(enum = (Rotation = 0, X = 1, Y = 2, ScaleX = 3, ScaleY = 4))]
    #[init(val = SourceValue::ScaleX)]
    scale_x_from: SourceValue,
    /// What that value is multiplied by, in [-10000, 10000]; anything else (or NaN) is an error and is ignored.
    #[export(range = (-10.0, 10.0, 0.001, or_greater, or_less))]
    #[var(set = set_scale_x_factor)]
    #[init(val = 1.0)]
    scale_x_factor: f32,
    /// Which of the source's values the scale's y takes (by default its scale's y). Any other value is an error and
    /// is ignored.
    #[export(enum = (Rotation = 0, X = 1, Y = 2, ScaleX = 3, ScaleY = 4))]
    #[init(val = SourceValue::ScaleY)]
    scale_y_from: SourceValue,
    /// What that value is multiplied by, in [-10000, 10000]; anything else (or NaN) is an error and is ignored.
    #[export(range = (-10.0, 10.0, 0.001, or_greater, or_less))]
    #[var(set = set_scale_y_factor)]
    #[init(val = 1.0)]
    scale_y_factor: f32,
    /// Hold the scale's x between [member scale_min]'s and [member scale_max]'s x, and its y likewise, after the
    /// factor and the offset.
    #[export]
    scale_clamp: bool,
    /// One corner of the scale's clamp; the ends may come in either order. A NaN or infinite component is an error
    /// and is ignored.
    #[export]
    #[var(set = set_scale_min)]
    #[init(val = Vector2::new(0.1, 0.1))]
    scale_min: Vector2,
    /// The other corner of the scale's clamp. A NaN or infinite component is an error and is ignored.
    #[export]
    #[var(set = set_scale_max)]
    #[init(val = Vector2::new(10.0, 10.0))]
    scale_max: Vector2,

    /// The angle in radians left between the written rotation and the copied one after the last copy (an amount or
    /// [member weight] below 1, or an angle limit, leave some; 0 when the rotation is not copied);
    /// [code]-1.0[/code] before the first copy.
    #[var(no_set)]
    #[init(val = -1.0)]
    last_error: f32,
    /// Always 1 after a copy.
    #[var(no_set)]
    last_iterations: i32,

    state: NodeState,
    /// The bone's memories, the source's cast.
    copy: CopyState,
    base: Base<Node2D>,
}

#[reach2d_macros::api(update_constants, solve, reset, angle_limits, setup_warning, bone_count)]
#[godot_api]
impl CopyTransform2D {
    /// [member space]: the canvas; global transforms (the default).
    #[constant]
    pub const SPACE_GLOBAL: i32 = 0;
    /// [member space]: each one's parent's space; local values.
    #[constant]
    pub const SPACE_LOCAL: i32 = 1;
    /// [member space]: each one's rest pose; the source's change from its rest applied to the bone's rest.
    #[constant]
    pub const SPACE_REST: i32 = 2;
    /// A remap's source value: the source's rotation (the angle of its x axis), radians.
    #[constant]
    pub const FROM_ROTATION: i32 = 0;
    /// A remap's source value: the x of the source's position, px.
    #[constant]
    pub const FROM_X: i32 = 1;
    /// A remap's source value: the y of the source's position, px.
    #[constant]
    pub const FROM_Y: i32 = 2;
    /// A remap's source value: the source's scale on x.
    #[constant]
    pub const FROM_SCALE_X: i32 = 3;
    /// A remap's source value: the source's scale on y.
    #[constant]
    pub const FROM_SCALE_Y: i32 = 4;

    /// Sets [member enabled]; disabling puts back what the node wrote (and forgets the source's turns, as
    /// [method reset] does).
    #[func]
    fn set_enabled(&mut self, value: bool) {
        self.enabled = value;
        if !value {
            self.copy.start_over();
        }
    }

    /// Sets [member editor_preview]; in the editor, turning it off puts back what the node wrote.
    #[func]
    fn set_editor_preview(&mut self, value: bool) {
        self.editor_preview = value;
        if !value && in_editor() {
            self.copy.let_go();
        }
    }

    // The checked setters: a bad value prints one error naming the valid range and keeps the last good one.
    #[func]
    fn set_weight(&mut self, value: f32) {
        checked::set_float(&mut self.weight, "CopyTransform2D", "weight", value, 0.0, 1.0);
    }
    #[func]
    fn set_rotation_amount(&mut self, value: f32) {
        checked::set_float(&mut self.rotation_amount, "CopyTransform2D", "rotation_amount", value, 0.0, 1.0);
        self.release_unused();
    }
    #[func]
    fn set_rotation_offset(&mut self, value: f32) {
        checked::set_float(&mut self.rotation_offset, "CopyTransform2D", "rotation_offset", value, -PI, PI);
    }
    #[func]
    fn set_rotation_factor(&mut self, value: f32) {
        checked::set_float(&mut self.rotation_factor, "CopyTransform2D", "rotation_factor", value, -10000.0, 10000.0);
    }
    #[func]
    fn set_rotation_min(&mut self, value: f32) {
        checked::set_float(&mut self.rotation_min, "CopyTransform2D", "rotation_min", value, -1000.0, 1000.0);
    }
    #[func]
    fn set_rotation_max(&mut self, value: f32) {
        checked::set_float(&mut self.rotation_max, "CopyTransform2D", "rotation_max", value, -1000.0, 1000.0);
    }
    #[func]
    fn set_position_amount(&mut self, value: f32) {
        checked::set_float(&mut self.position_amount, "CopyTransform2D", "position_amount", value, 0.0, 1.0);
        self.release_unused();
    }
    #[func]
    fn set_position_offset(&mut self, value: Vector2) {
        checked::set_vector(&mut self.position_offset, "CopyTransform2D", "position_offset", value);
    }
    #[func]
    fn set_x_factor(&mut self, value: f32) {
        checked::set_float(&mut self.x_factor, "CopyTransform2D", "x_factor", value, -10000.0, 10000.0);
    }
    #[func]
    fn set_y_factor(&mut self, value: f32) {
        checked::set_float(&mut self.y_factor, "CopyTransform2D", "y_factor", value, -10000.0, 10000.0);
    }
    #[func]
    fn set_position_min(&mut self, value: Vector2) {
        checked::set_vector(&mut self.position_min, "CopyTransform2D", "position_min", value);
    }
    #[func]
    fn set_position_max(&mut self, value: Vector2) {
        checked::set_vector(&mut self.position_max, "CopyTransform2D", "position_max", value);
    }
    #[func]
    fn set_scale_amount(&mut self, value: f32) {
        checked::set_float(&mut self.scale_amount, "CopyTransform2D", "scale_amount", value, 0.0, 1.0);
        self.release_unused();
    }
    #[func]
    fn set_scale_offset(&mut self, value: Vector2) {
        checked::set_vector(&mut self.scale_offset, "CopyTransform2D", "scale_offset", value);
    }
    #[func]
    fn set_scale_x_factor(&mut self, value: f32) {
        checked::set_float(&mut self.scale_x_factor, "CopyTransform2D", "scale_x_factor", value, -10000.0, 10000.0);
    }
    #[func]
    fn set_scale_y_factor(&mut self, value: f32) {
        checked::set_float(&mut self.scale_y_factor, "CopyTransform2D", "scale_y_factor", value, -10000.0, 10000.0);
    }
    #[func]
    fn set_scale_min(&mut self, value: Vector2) {
        checked::set_vector(&mut self.scale_min, "CopyTransform2D", "scale_min", value);
    }
    #[func]
    fn set_scale_max(&mut self, value: Vector2) {
        checked::set_vector(&mut self.scale_max, "CopyTransform2D", "scale_max", value);
    }
}
