//! The remap: one written property taken from any property of the source, times a factor plus an offset, optionally
//! clamped (Spine 4.3's remappable transform constraint, Godot's `ConvertTransformModifier3D`).

use glam::{Affine2, Vec2};

/// One of the five values a copy reads from its source and writes to its bone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Property {
    /// The angle of the node's x axis, radians, counter-clockwise from the space's x axis.
    #[default]
    Rotation,
    /// The x coordinate of the node's origin, px.
    X,
    /// The y coordinate of the node's origin, px.
    Y,
    /// The length of the node's x axis (its scale on x), unitless.
    ScaleX,
    /// The length of the node's y axis (its scale on y), unitless; negative for a mirrored node in the spaces that
    /// keep the handedness in the numbers (see [`TransformValues::of`]).
    ScaleY,
}

/// A node's transform taken apart as the engine takes a 2D transform apart (Godot's `Transform2D.get_rotation`,
/// `get_origin`, `get_scale`): the five values a [`Property`] names.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TransformValues {
    /// The angle of the x axis, radians in `(-PI, PI]`.
    pub rotation: f32,
    /// The origin, px.
    pub position: Vec2,
    /// The x axis's length and the y axis's length; the y one negative when the transform mirrors (a negative
    /// determinant), so `rotate(rotation) · (scale.x, 0)` is the x axis and the handedness is kept.
    pub scale: Vec2,
}

impl TransformValues {
    /// The five values of `transform`. A collapsed basis gives a zero scale and an arbitrary rotation: check it
    /// first ([`is_collapsed`](super::is_collapsed)). Never panics.
    #[must_use]
    pub fn of(transform: Affine2) -> Self {
        let m = transform.matrix2;
        let handedness = if m.determinant() < 0.0 { -1.0 } else { 1.0 };
        Self {
            rotation: m.x_axis.y.atan2(m.x_axis.x),
            position: transform.translation,
            scale: Vec2::new(m.x_axis.length(), handedness * m.y_axis.length()),
        }
    }

    /// The value `property` names.
    #[must_use]
    pub fn get(&self, property: Property) -> f32 {
        match property {
            Property::Rotation => self.rotation,
            Property::X => self.position.x,
            Property::Y => self.position.y,
            Property::ScaleX => self.scale.x,
            Property::ScaleY => self.scale.y,
        }
    }
}

/// Where one written property takes its value from: `factor × source[from] + offset`, then held between the two
/// ends of `range` when there is one. The offset is the channel's ([`CopySettings`](super::CopySettings)), because
/// in the global space where it applies depends on the source's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Remap {
    /// The source's value this property takes.
    pub from: Property,
    /// What the source's value is multiplied by (radians per pixel for a rotation taken from a position, and so on).
    pub factor: f32,
    /// The two ends the result is held between, in either order; `None`: not clamped.
    pub range: Option<(f32, f32)>,
}

impl Remap {
    /// The plain copy of `property`: the source's own value of it, times 1, not clamped.
    #[must_use]
    pub const fn same(property: Property) -> Self {
        Self { from: property, factor: 1.0, range: None }
    }

    /// `true` for the plain copy of `property` (see [`Remap::same`]).
    #[must_use]
    pub fn is_same(&self, property: Property) -> bool {
        *self == Self::same(property)
    }

    /// This remap of `source`'s values with `offset` added: [`remap`].
    #[must_use]
    pub fn apply(&self, source: &TransformValues, offset: f32) -> f32 {
        remap(source.get(self.from), self.factor, offset, self.range)
    }
}

/// `value × factor + offset`, held between the two ends of `range` (either order) when there is one.
///
/// Never panics: a NaN end counts as the other end, and a NaN value, factor or offset gives NaN (never a clamped
/// number) for the caller to refuse.
#[must_use]
pub fn remap(value: f32, factor: f32, offset: f32, range: Option<(f32, f32)>) -> f32 {
    let v = value * factor + offset;
    match range {
        // `max` then `min`, not `f32::clamp`, which panics on crossed or NaN ends; `f32::max` would also turn a NaN
        // value into the end, hence the guard.
        Some((a, b)) if !v.is_nan() => v.max(a.min(b)).min(a.max(b)),
        _ => v,
    }
}
