//! The copied values turned into the bone's own: its local rotation, position and scale, each blended from the value
//! the bone had before the copy (its unwritten pose: the animation's, the scene's).

use core::f32::consts::PI;

use glam::{Affine2, Mat2, Vec2};

use crate::angle::wrap_angle;
use crate::copy_transform::remap::TransformValues;
use crate::copy_transform::settings::{CopyError, CopySettings, CopySpace};
use crate::copy_transform::source::{SourceReading, is_collapsed};
use crate::write_back::BonePose;

/// A node's local transform as the engine's four properties (Godot's `Node2D`):
/// `translate(position) · rotate(rotation) · basis`, the basis with columns `(scale.x, 0)` and
/// `(-scale.y·sin(skew), scale.y·cos(skew))`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LocalPose {
    /// px, in the parent's space.
    pub position: Vec2,
    /// Radians.
    pub rotation: f32,
    /// Scale on x and y (negative mirrors that axis).
    pub scale: Vec2,
    /// Radians.
    pub skew: f32,
}

impl LocalPose {
    /// The local transform these properties build.
    #[must_use]
    pub fn transform(&self) -> Affine2 {
        BonePose::new(self.position, self.rotation, self.scale, self.skew).local()
    }

    fn is_finite(&self) -> bool {
        self.position.is_finite() && self.rotation.is_finite() && self.scale.is_finite() && self.skew.is_finite()
    }
}

/// The bone as a copy finds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneFrame {
    /// Its properties before the copy: what each channel blends from and what an unwritten channel keeps.
    pub unwritten: LocalPose,
    /// Its parent's global transform: in [`CopySpace::Global`] the frame the copy is written through; in the local
    /// and rest spaces only its handedness counts (the sense the bone's rotation turns on screen), so identity will
    /// do where the rotation is not written.
    pub parent: Affine2,
    /// Its rest transform, local (used in [`CopySpace::Rest`]).
    pub rest: Affine2,
}

/// What a copy gives the bone: the values of the three properties (each channel with a zero amount keeps the
/// unwritten value, and the caller writes only the channels with an amount above 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Copied {
    /// Local rotation, radians, within half a turn of the unwritten one.
    pub rotation: f32,
    /// Local position, px.
    pub position: Vec2,
    /// Local scale.
    pub scale: Vec2,
    /// The angle left between the written rotation and the copied one, radians (an amount or the weight below 1, or
    /// the limit, leave some); 0 when the rotation is not copied.
    pub error: f32,
}

/// What the copy asks for in the space, before it is turned into the bone's local values.
struct Wanted {
    rotation: f32,
    position: Vec2,
    scale: Vec2,
}

impl Wanted {
    /// Each written property's remap of the source, with the channel's offset placed by the space.
    fn of(settings: &CopySettings, source: &SourceReading) -> Self {
        let values = &source.values;
        let global = settings.space == CopySpace::Global;
        let rotation_offset =
            if global { settings.rotation_offset * source.handedness } else { settings.rotation_offset };
        let position_offset = if global { source.basis * settings.position_offset } else { settings.position_offset };
        let [x, y] = settings.position;
        let [scale_x, scale_y] = settings.scale;
        Self {
            rotation: settings.rotation.apply(values, rotation_offset),
            position: Vec2::new(x.apply(values, position_offset.x), y.apply(values, position_offset.y)),
            scale: Vec2::new(
                scale_x.apply(values, settings.scale_offset.x),
                scale_y.apply(values, settings.scale_offset.y),
            ),
        }
    }
}

/// The bone's new local rotation, position and scale for `settings`, from the `source` as read and the `bone` as
/// found.
///
/// In the parent's frame the copy wants an x axis at some angle, a position and (except in the global space, where
/// it wants the axes' global lengths) a scale; each channel blends from the unwritten value by its amount times the
/// weight (the rotation the short way round), the rotation is held in the limit, and the rotation is written as the
/// `Node2D.rotation` that points the x axis there with the bone's written scale (a negative `scale.x` turns it by
/// half a turn). In the local and rest spaces the rotation keeps its sense on screen across a flip between the
/// source's parent and the bone's ([`SourceReading::parent_handedness`] against the handedness of `bone.parent`). In the global space the written scale makes the bone's global axes as long as wanted with the
/// rotation written, keeping the bone's own signs.
///
/// Fails, writing nothing, on a collapsed bone, parent (global space) or rest (rest space), a scale that would
/// collapse, or anything not finite. Never panics.
pub fn copy_transform(settings: &CopySettings, source: &SourceReading, bone: &BoneFrame) -> Result<Copied, CopyError> {
    let unwritten = bone.unwritten;
    if !(unwritten.is_finite() && bone.parent.is_finite() && bone.rest.is_finite()) {
        return Err(CopyError::NotFinite);
    }
    if is_collapsed(basis(unwritten.scale, unwritten.skew)) {
        return Err(CopyError::BoneCollapsed);
    }
    let amounts = settings.amounts;
    let weight = settings.weight;
    let wanted = Wanted::of(settings, source);
    // The x axis's angle and the position in the parent's frame; the scale as written (the global one waits for the
    // rotation).
    let (angle, position, local_scale) = match settings.space {
        CopySpace::Global => {
            if is_collapsed(bone.parent.matrix2) {
                return Err(CopyError::ParentCollapsed);
            }
            let inverse = bone.parent.inverse();
            let axis = inverse.matrix2 * Vec2::from_angle(wanted.rotation);
            (axis.to_angle(), inverse.transform_point2(wanted.position), None)
        }
        CopySpace::Local => (sense(source, bone) * wanted.rotation, wanted.position, Some(wanted.scale)),
        CopySpace::Rest => {
            if is_collapsed(bone.rest.matrix2) {
                return Err(CopyError::RestCollapsed);
            }
            let rest = TransformValues::of(bone.rest);
            let turn = sense(source, bone) * wanted.rotation;
            (rest.rotation + turn, rest.position + wanted.position, Some(rest.scale * wanted.scale))
        }
    };
    let mut scale = unwritten.scale;
    if amounts.scale > 0.0
        && let Some(local) = local_scale
    {
        // `(-sx, -sy)` turned by half a turn is the same transform: keep the sign of `scale.x` the bone has, so a
        // bone flipped by `scale.x = -1` stays written that way (and a blend never passes through zero for it).
        let local = if local.x * unwritten.scale.x < 0.0 { -local } else { local };
        scale = unwritten.scale.lerp(local, amounts.scale * weight);
    }
    let (rotation, error) = if amounts.rotation > 0.0 {
        // `Node2D`'s x axis is `rotate(rotation) · (scale.x, 0)`: a negative `scale.x` points it the other way.
        let target = angle - if scale.x < 0.0 { PI } else { 0.0 };
        let target = unwritten.rotation + wrap_angle(target - unwritten.rotation);
        let mut rotation = unwritten.rotation + (target - unwritten.rotation) * (amounts.rotation * weight);
        if let Some(limit) = settings.limit {
            rotation = unwritten.rotation + wrap_angle(limit.clamp(rotation) - unwritten.rotation);
        }
        (rotation, wrap_angle(target - rotation).abs())
    } else {
        (unwritten.rotation, 0.0)
    };
    if amounts.scale > 0.0 && local_scale.is_none() {
        let global = global_scale(bone.parent.matrix2, rotation, unwritten, wanted.scale);
        scale = unwritten.scale.lerp(global, amounts.scale * weight);
    }
    if amounts.scale > 0.0 && is_collapsed(basis(scale, unwritten.skew)) {
        return Err(CopyError::ScaleCollapses);
    }
    let position = if amounts.position > 0.0 {
        unwritten.position.lerp(position, amounts.position * weight)
    } else {
        unwritten.position
    };
    let copied = Copied { rotation, position, scale, error };
    let finite = copied.rotation.is_finite() && copied.position.is_finite() && copied.scale.is_finite();
    if finite && copied.error.is_finite() { Ok(copied) } else { Err(CopyError::NotFinite) }
}

/// `-1.0` when the source's parent and the bone's mirror differently on screen (a flip between them: the cart turned
/// by its own `scale.x = -1`, its wheel below it), else `1.0`. A local or rest rotation is written times this, so the
/// bone turns on screen the way the source's value turns in its parent's sense: the wheel still rolls the way the cart
/// drives. A flip above both changes neither sign (the mirror image stays exact); positions and scales are numbers
/// in each one's parent's frame and are not turned.
fn sense(source: &SourceReading, bone: &BoneFrame) -> f32 {
    let bone_parent = if bone.parent.matrix2.determinant() < 0.0 { -1.0 } else { 1.0 };
    source.parent_handedness * bone_parent
}

/// The local scale that gives a bone turned to `rotation` under a parent with global basis `parent` global axes of
/// the lengths `wanted` (their absolute values), keeping the signs of the `unwritten` scale (and its skew).
fn global_scale(parent: Mat2, rotation: f32, unwritten: LocalPose, wanted: Vec2) -> Vec2 {
    let turned = parent * Mat2::from_angle(rotation);
    let (sin, cos) = unwritten.skew.sin_cos();
    let x_length = (turned * Vec2::X).length();
    let y_length = (turned * Vec2::new(-sin, cos)).length();
    Vec2::new(
        unwritten.scale.x.signum() * wanted.x.abs() / x_length,
        unwritten.scale.y.signum() * wanted.y.abs() / y_length,
    )
}

/// The scale-and-skew basis of a [`LocalPose`].
fn basis(scale: Vec2, skew: f32) -> Mat2 {
    BonePose::new(Vec2::ZERO, 0.0, scale, skew).basis
}
