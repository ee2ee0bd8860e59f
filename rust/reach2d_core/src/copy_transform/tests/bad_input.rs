//! Degenerate and bad input: an error and nothing written, never NaN, never a panic.

use glam::{Affine2, Mat2, Vec2};

use super::fixtures::{frame, plain, pose};
use crate::copy_transform::{CopyError, CopySettings, CopySpace, Property, Remap, copy_transform, read_source};

fn all_channels(space: CopySpace) -> CopySettings {
    let mut s = CopySettings { space, ..CopySettings::default() };
    s.amounts.scale = 1.0;
    s
}

#[test]
fn a_collapsed_source_is_refused_in_every_space() {
    for scale in [Vec2::ZERO, Vec2::new(0.0, 1.0), Vec2::new(1.0, 1e-6), Vec2::new(1e-5, 1e-5)] {
        let source = Affine2::from_scale_angle_translation(scale, 0.3, Vec2::new(1.0, 2.0));
        for space in [CopySpace::Global, CopySpace::Local, CopySpace::Rest] {
            assert_eq!(
                read_source(space, source, Affine2::IDENTITY),
                Err(CopyError::SourceCollapsed),
                "{scale} {space:?}"
            );
        }
    }
}

#[test]
fn a_collapsed_rest_parent_or_bone_is_refused() {
    let ok = Affine2::IDENTITY;
    let flat = Affine2::from_mat2(Mat2::from_diagonal(Vec2::new(1.0, 0.0)));
    assert_eq!(read_source(CopySpace::Rest, ok, flat), Err(CopyError::RestCollapsed));
    let reading = read_source(CopySpace::Global, ok, ok).unwrap();
    let bone = frame(plain(Vec2::ZERO, 0.0), flat, ok);
    assert_eq!(copy_transform(&all_channels(CopySpace::Global), &reading, &bone), Err(CopyError::ParentCollapsed));
    let rest_reading = read_source(CopySpace::Rest, ok, ok).unwrap();
    let bone = frame(plain(Vec2::ZERO, 0.0), ok, flat);
    assert_eq!(copy_transform(&all_channels(CopySpace::Rest), &rest_reading, &bone), Err(CopyError::RestCollapsed));
    for scale in [Vec2::new(0.0, 1.0), Vec2::new(1.0, 0.0)] {
        let bone = frame(pose(Vec2::ZERO, 0.0, scale, 0.0), ok, ok);
        assert_eq!(copy_transform(&all_channels(CopySpace::Local), &reading, &bone), Err(CopyError::BoneCollapsed));
    }
}

#[test]
fn a_scale_that_would_collapse_the_bone_is_refused() {
    let reading = read_source(CopySpace::Local, Affine2::IDENTITY, Affine2::IDENTITY).unwrap();
    let bone = frame(plain(Vec2::ZERO, 0.0), Affine2::IDENTITY, Affine2::IDENTITY);
    for space in [CopySpace::Global, CopySpace::Local] {
        let mut s = all_channels(space);
        s.scale_offset = Vec2::new(-1.0, 0.0);
        let reading = read_source(space, Affine2::IDENTITY, Affine2::IDENTITY).unwrap();
        assert_eq!(copy_transform(&s, &reading, &bone), Err(CopyError::ScaleCollapses), "{space:?}");
    }
    // A remap that reads a rotation of 0 into the scale.
    let mut s = all_channels(CopySpace::Local);
    s.scale = [Remap { from: Property::Rotation, factor: 2.0, range: None }, Remap::same(Property::ScaleY)];
    assert_eq!(copy_transform(&s, &reading, &bone), Err(CopyError::ScaleCollapses));
}

#[test]
fn nan_or_infinite_input_is_refused() {
    let bad = [
        Affine2::from_translation(Vec2::new(f32::NAN, 0.0)),
        Affine2::from_mat2(Mat2::from_diagonal(Vec2::new(f32::INFINITY, 1.0))),
    ];
    for transform in bad {
        for space in [CopySpace::Global, CopySpace::Local, CopySpace::Rest] {
            assert_eq!(read_source(space, transform, Affine2::IDENTITY), Err(CopyError::NotFinite));
        }
        assert_eq!(read_source(CopySpace::Rest, Affine2::IDENTITY, transform), Err(CopyError::NotFinite));
        let reading = read_source(CopySpace::Global, Affine2::IDENTITY, Affine2::IDENTITY).unwrap();
        let bone = frame(plain(Vec2::ZERO, 0.0), transform, Affine2::IDENTITY);
        assert_eq!(copy_transform(&all_channels(CopySpace::Global), &reading, &bone), Err(CopyError::NotFinite));
    }
    let reading = read_source(CopySpace::Local, Affine2::IDENTITY, Affine2::IDENTITY).unwrap();
    let bone = frame(plain(Vec2::new(f32::NAN, 0.0), 0.0), Affine2::IDENTITY, Affine2::IDENTITY);
    assert_eq!(copy_transform(&all_channels(CopySpace::Local), &reading, &bone), Err(CopyError::NotFinite));
    // A factor that overflows: refused, not written as infinity.
    let mut s = all_channels(CopySpace::Local);
    s.position = [Remap { from: Property::X, factor: f32::MAX, range: None }, Remap::same(Property::Y)];
    let far =
        read_source(CopySpace::Local, Affine2::from_translation(Vec2::new(1e10, 0.0)), Affine2::IDENTITY).unwrap();
    let bone = frame(plain(Vec2::ZERO, 0.0), Affine2::IDENTITY, Affine2::IDENTITY);
    assert_eq!(copy_transform(&s, &far, &bone), Err(CopyError::NotFinite));
}
