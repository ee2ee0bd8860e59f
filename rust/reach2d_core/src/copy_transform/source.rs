//! Reading the source in a space: its five values, and in the global space the frame its offsets are placed in; in
//! the local and rest spaces the sense its parent turns in on screen; its rotation made continuous across turns.

use core::f32::consts::{PI, TAU};

use glam::{Affine2, Mat2};

use crate::angle::wrap_angle;
use crate::copy_transform::remap::TransformValues;
use crate::copy_transform::settings::{CopyError, CopySpace};

/// Scale (relative to the other axis) at or below which a basis counts as collapsed: an engine that turns a zero
/// scale into 1e-5 (Godot) gives collapsed bases this flat.
const COLLAPSED_SCALE: f32 = 1.5e-5;

/// The source as one copy reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SourceReading {
    /// Its five values in the copy's space: in [`CopySpace::Global`] the global ones with the scale as the axes'
    /// lengths (both positive: the bone keeps its own handedness), in [`CopySpace::Local`] the local ones (the scale's
    /// y negative for a mirroring transform), in [`CopySpace::Rest`] the change from the rest transform (rotation
    /// and position differences, the scale's ratio).
    pub values: TransformValues,
    /// `-1.0` when the source's global transform mirrors (global space only), else `1.0`: the global rotation
    /// offset turns this way.
    pub handedness: f32,
    /// The source's global basis (global space only, else identity): the frame the position offset is placed in.
    pub basis: Mat2,
    /// `-1.0` when the source's parent mirrors on screen (the sign of its global determinant; local and rest spaces,
    /// set by [`SourceReading::under_parent`]), else `1.0`: the sense the source's rotation is read in. A bone whose
    /// parent mirrors the other way (a cart turned by its own `scale.x = -1` over its wheel) gets the rotation in
    /// that same sense on screen.
    pub parent_handedness: f32,
}

impl SourceReading {
    /// This reading (local or rest space) of a source whose parent's global transform has a determinant of the sign
    /// of `parent_determinant` (negative: it mirrors on screen). Ignored in the global space, where directions are
    /// copied on screen anyway.
    #[must_use]
    pub fn under_parent(self, parent_determinant: f32) -> Self {
        Self { parent_handedness: if parent_determinant < 0.0 { -1.0 } else { 1.0 }, ..self }
    }

    /// This reading with its rotation made continuous by `turns` (see [`Turns`]): a rotation read for a remap then
    /// drives the remapped value smoothly across whole turns.
    #[must_use]
    pub fn unwrapped(mut self, turns: &mut Turns) -> Self {
        self.values.rotation = turns.unwrap(self.values.rotation);
        self
    }
}

/// The whole turns a source's rotation has made since it was first read, so that the rotation a copy reads is
/// continuous: the engine takes a transform apart into an angle in `(-PI, PI]`, and a remap of that angle (a piston
/// at 10 px per radian of a crank) would jump by a whole turn's worth (62.8 px) each time the source passes the half
/// turn. Each reading adds the shortest change since the last one, as whole turns counted beside the wrapped value
/// (no rounding accumulates over frames); the first reading, and the first after [`Turns::reset`], is the wrapped
/// value itself. Plain data, no allocation; two sources read the same wrapped values get the same continuous ones
/// (a character flipped above a local or rest copy changes no number, so the unwrapping mirrors too).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Turns {
    /// The last wrapped reading, `None` before the first.
    last: Option<f32>,
    /// Whole turns counted so far, counter-clockwise positive.
    turns: i32,
}

impl Turns {
    /// `wrapped` (radians, within half a turn of zero) made continuous with the readings before it. A value that is
    /// not finite passes through and changes nothing (the copy refuses it).
    pub fn unwrap(&mut self, wrapped: f32) -> f32 {
        if !wrapped.is_finite() {
            return wrapped;
        }
        if let Some(last) = self.last {
            let change = wrapped - last;
            if change > PI {
                self.turns = self.turns.saturating_sub(1);
            } else if change < -PI {
                self.turns = self.turns.saturating_add(1);
            }
        }
        self.last = Some(wrapped);
        wrapped + self.turns as f32 * TAU
    }

    /// Forgets the turns: the next reading is taken as it comes (a teleport, a new source, the node enabled again).
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

/// `true` when `m` is flat on an axis (a zero scale, as the engine stores it) or not finite.
#[must_use]
pub fn is_collapsed(m: Mat2) -> bool {
    let longest = m.x_axis.length().max(m.y_axis.length());
    !(longest > COLLAPSED_SCALE && m.determinant().abs() > COLLAPSED_SCALE * longest * longest)
}

/// Reads the source for a copy in `space`: `transform` is its global transform in [`CopySpace::Global`], else its
/// local one; `rest` its rest transform (local, used only in [`CopySpace::Rest`]).
///
/// Fails on a transform that is not finite or is collapsed, and in the rest space on a collapsed rest. Never panics.
pub fn read_source(space: CopySpace, transform: Affine2, rest: Affine2) -> Result<SourceReading, CopyError> {
    if !(transform.matrix2.is_finite() && transform.translation.is_finite()) {
        return Err(CopyError::NotFinite);
    }
    if is_collapsed(transform.matrix2) {
        return Err(CopyError::SourceCollapsed);
    }
    let values = TransformValues::of(transform);
    Ok(match space {
        CopySpace::Global => SourceReading {
            values: TransformValues { scale: values.scale.abs(), ..values },
            handedness: values.scale.y.signum(),
            basis: transform.matrix2,
            parent_handedness: 1.0,
        },
        CopySpace::Local => SourceReading { values, handedness: 1.0, basis: Mat2::IDENTITY, parent_handedness: 1.0 },
        CopySpace::Rest => {
            if !(rest.matrix2.is_finite() && rest.translation.is_finite()) {
                return Err(CopyError::NotFinite);
            }
            if is_collapsed(rest.matrix2) {
                return Err(CopyError::RestCollapsed);
            }
            let at_rest = TransformValues::of(rest);
            let change = TransformValues {
                rotation: wrap_angle(values.rotation - at_rest.rotation),
                position: values.position - at_rest.position,
                scale: values.scale / at_rest.scale,
            };
            SourceReading { values: change, handedness: 1.0, basis: Mat2::IDENTITY, parent_handedness: 1.0 }
        }
    })
}
