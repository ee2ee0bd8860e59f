//! Plane geometry every solver shares: directions that never divide by zero, and re-spacing a chain to its lengths.

use glam::Vec2;

/// Squared lengths at or below this are treated as zero (no direction).
pub(crate) const TINY_SQ: f32 = f32::MIN_POSITIVE;

/// Unit vector along `v`, or `fallback` when `v` has no usable direction.
#[inline]
pub(crate) fn unit_or(v: Vec2, fallback: Vec2) -> Vec2 {
    let d2 = v.length_squared();
    if d2 > TINY_SQ { v / d2.sqrt() } else { fallback }
}

/// `v` as a unit vector, or `fallback` when it has no direction (zero or not finite). Unlike
/// [`unit_or`] (and glam's `normalize_or`), it rescales first, so a direction whose squared
/// length underflows (1e-23) or overflows (1e30) still normalizes to unit length. Not for hot loops.
pub(crate) fn direction_or(v: Vec2, fallback: Vec2) -> Vec2 {
    let largest = v.abs().max_element();
    if largest > 0.0 && largest.is_finite() { unit_or(v / largest, fallback) } else { fallback }
}

/// Root-to-tip pass: keeps the root and places each joint at its bone's length along the direction to its current
/// position (FABRIK's forward pass). Returns the tip. `fallback` is the direction used when no previous segment has
/// one.
#[inline]
pub(crate) fn respace(joints: &mut [Vec2], lengths: &[f32], root: Vec2, fallback: Vec2) -> Vec2 {
    let Some((first, rest)) = joints.split_first_mut() else {
        return root;
    };
    *first = root;
    let mut prev = root;
    let mut last = fallback;
    for (j, &len) in rest.iter_mut().zip(lengths) {
        let delta = *j - prev;
        let d2 = delta.length_squared();
        let placed = if d2 > TINY_SQ {
            if len > 0.0 {
                last = delta;
            }
            prev + delta * (len / d2.sqrt())
        } else {
            prev + last.normalize_or(fallback) * len
        };
        *j = placed;
        prev = placed;
    }
    prev
}

/// Re-spaces `joints` to `lengths` root to tip along their own directions (the fallback for coincident joints
/// points toward `target`, else +X). Returns the tip.
pub(crate) fn conform_lengths(joints: &mut [Vec2], lengths: &[f32], target: Vec2) -> Vec2 {
    let root = joints[0];
    respace(joints, lengths, root, unit_or(target - root, Vec2::X))
}
