//! Reading the source in a space: its five values, and in the global space the frame its offsets are placed in.

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
        },
        CopySpace::Local => SourceReading { values, handedness: 1.0, basis: Mat2::IDENTITY },
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
            SourceReading { values: change, handedness: 1.0, basis: Mat2::IDENTITY }
        }
    })
}
