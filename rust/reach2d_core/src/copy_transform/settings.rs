//! What a copy is told: the space it reads and writes in, each written property's remap and offset, how much of each
//! channel it applies, and why it refuses.

use core::fmt;

use glam::Vec2;

use crate::angle::AngleLimit;
use crate::copy_transform::remap::{Property, Remap};

/// Where the source's values are read and the bone's are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CopySpace {
    /// The canvas: the source's global transform; the bone's global transform is set through its parent's. A plain
    /// copy is exact under any mirroring (it copies matrices); a remapped value reads world numbers, which a flip
    /// changes (`x` becomes `-x`).
    #[default]
    Global,
    /// Each one's parent's space: the source's local transform becomes the bone's local values. A flip above both
    /// changes no number, so the mirrored character gets the mirror image whatever the remaps.
    Local,
    /// Each one's rest pose: the source's change from its rest transform is applied to the bone's rest transform
    /// (rotation added, position added, scale multiplied). Measured between matrices, so a flip baked into a rest
    /// (`scale.x = -1`) adds no half turn; a flip above both changes no number.
    Rest,
}

/// How much of each channel a copy applies, each in `[0, 1]`: 0 leaves the channel unwritten, 1 writes the copied
/// value, between blends from the bone's unwritten value (the animation's, the scene's).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Amounts {
    /// The rotation's amount.
    pub rotation: f32,
    /// The position's amount.
    pub position: f32,
    /// The scale's amount.
    pub scale: f32,
}

/// Everything one copy is told.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopySettings {
    /// Where the source is read and the bone written.
    pub space: CopySpace,
    /// Where the rotation comes from.
    pub rotation: Remap,
    /// Where the position's x and y come from.
    pub position: [Remap; 2],
    /// Where the scale's x and y come from.
    pub scale: [Remap; 2],
    /// Added to the rotation, radians. In the global space it turns the way the source is turned: a mirrored source
    /// (negative determinant) turns it the other way (Spine does the same), so a mirrored pair copies as mirror
    /// images.
    pub rotation_offset: f32,
    /// Added to the position, px. In the global space a point in the source's own frame (it turns, scales and
    /// mirrors with the source: a sword held off the hand); in the others in the parents' frame.
    pub position_offset: Vec2,
    /// Added to the scale.
    pub scale_offset: Vec2,
    /// How much of each channel is applied.
    pub amounts: Amounts,
    /// Multiplies every amount: the node's `weight`, in `[0, 1]`.
    pub weight: f32,
    /// Holds the written local rotation (radians) in an arc, after the blend.
    pub limit: Option<AngleLimit>,
}

impl Default for CopySettings {
    /// The plain copy of the rotation and the position in the global space, nothing offset, scale unwritten.
    fn default() -> Self {
        Self {
            space: CopySpace::Global,
            rotation: Remap::same(Property::Rotation),
            position: [Remap::same(Property::X), Remap::same(Property::Y)],
            scale: [Remap::same(Property::ScaleX), Remap::same(Property::ScaleY)],
            rotation_offset: 0.0,
            position_offset: Vec2::ZERO,
            scale_offset: Vec2::ZERO,
            amounts: Amounts { rotation: 1.0, position: 1.0, scale: 0.0 },
            weight: 1.0,
            limit: None,
        }
    }
}

/// Why a copy wrote nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyError {
    /// The source's basis is collapsed (a zero scale on an axis): it has no direction to copy.
    SourceCollapsed,
    /// A rest transform (the source's or the bone's) is collapsed, so no change from it can be measured or applied.
    RestCollapsed,
    /// The bone's parent's global basis is collapsed: no local value puts the bone anywhere.
    ParentCollapsed,
    /// The bone's own scale is zero on an axis: it has no direction to turn.
    BoneCollapsed,
    /// The scale to write is zero on an axis (an offset, a factor or a clamp gave 0): it would collapse the bone.
    ScaleCollapses,
    /// An input or a result is NaN or infinite.
    NotFinite,
}

impl fmt::Display for CopyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::SourceCollapsed => "the source has a zero scale",
            Self::RestCollapsed => "a rest transform has a zero scale",
            Self::ParentCollapsed => "the bone's parent has a zero scale",
            Self::BoneCollapsed => "the bone has a zero scale",
            Self::ScaleCollapses => "the scale to write is zero",
            Self::NotFinite => "a value is NaN or infinite",
        })
    }
}
