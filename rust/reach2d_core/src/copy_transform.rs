//! A bone that follows another node: its rotation, position and scale copied from a source, each with its own amount
//! and offset, in one of three spaces, any of them remapped from another of the source's properties.
//!
//! # Model
//!
//! The source is read as five values in the copy's [`CopySpace`] ([`read_source`]): its rotation (the angle of its x
//! axis), its position's x and y, its scale's x and y. Each written property `p` of the bone takes
//!
//! ```text
//! wanted_p = clamp(factor_p × source[from_p] + offset_p)        (a Remap; by default from_p = p, factor 1, no clamp)
//! ```
//!
//! and the wanted values become the bone's local ones ([`copy_transform`]): in the global space through the bone's
//! parent's global transform, in the local space as they are, in the rest space applied to the bone's rest
//! transform. Each channel (rotation, position, scale) then blends from the bone's unwritten value by its amount times
//! the weight, and a channel with a zero amount is not written at all. This is Spine 4.3's transform constraint (per
//! channel mixes and offsets, world or local, additive to the rest, remappable properties with clamps) and Godot
//! 4.5's `CopyTransformModifier3D` / `ConvertTransformModifier3D` (copy by amount, relative to the rest pose, a
//! property converted into another over a range).
//!
//! # Where the handedness enters
//!
//! A plain copy in the global space copies directions and points: the bone's x axis is set along the source's (turned
//! by the rotation offset, which turns the other way for a mirrored source, as Spine's does), its origin on the point
//! at the position offset in the source's own frame, its axes' global lengths to the source's; the bone's local values
//! come through its parent's matrix. So reflecting the source and the bone's parent together (a character flipped
//! with `scale.x = -1` above both) leaves every local value the same: the exact mirror image, for any reflection. The
//! local and rest spaces read and write numbers in each one's parent's frame, which a flip above both does not change,
//! so there even remaps mirror. A remap in the global space reads world numbers (`x` becomes `-x` under a flip): use
//! the local or rest space for a remap on a character that flips.
//!
//! A flip *between* the source and the bone (the source's parent and the bone's mirror differently on screen: a cart
//! turned by its own `scale.x = -1`, its wheel below it) would turn a local or rest rotation the other way on screen:
//! the wheel, remapped from the cart's x, would spin backwards as the turned cart drives back. So there the rotation
//! is written times the product of the two parents' handedness ([`SourceReading::parent_handedness`] and the sign of
//! [`BoneFrame::parent`]'s determinant) and keeps its sense on screen; a flip above both changes neither sign.
//! Positions and scales stay numbers in each one's parent's frame.
//!
//! The source's rotation is read continuous across turns ([`Turns`]): a remap of the wrapped angle would jump by a
//! whole turn's worth each time the source passes the half turn.
//!
//! Every value is measured from matrices the way the engine takes a transform apart ([`TransformValues::of`]), so a
//! node flipped by its own `scale.x = -1` reads as turned by half a turn with its y scale negative, and the rest space
//! compares like with like (a flip baked into a rest adds no half turn).

mod bone;
mod remap;
mod settings;
mod source;
#[cfg(test)]
mod tests;

pub use bone::{BoneFrame, Copied, LocalPose, copy_transform};
pub use remap::{Property, Remap, TransformValues, remap};
pub use settings::{Amounts, CopyError, CopySettings, CopySpace};
pub use source::{SourceReading, Turns, is_collapsed, read_source};
