//! Property tests (proptest): any finite input gives either a refusal or finite values, each rotation within half a
//! turn of the unwritten one and a channel with a zero amount unchanged; a full plain global copy puts the bone's x
//! axis along the source's, turned by the offset, and its origin on the offset point; the remap holds its range.

use core::f32::consts::PI;

use glam::{Affine2, Vec2};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

use super::fixtures::{angle_between, frame, global_after, pose};
use crate::copy_transform::{
    Amounts, CopySettings, CopySpace, LocalPose, Property, Remap, copy_transform, read_source, remap,
};

fn coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![4 => -1000.0f32..1000.0, 1 => Just(0.0f32), 1 => -1e6f32..1e6]
}

fn scale() -> impl Strategy<Value = f32> {
    prop_oneof![4 => 0.05f32..5.0, 1 => -5.0f32..-0.05, 1 => Just(0.0f32), 1 => -1e-4f32..1e-4]
}

fn local_pose() -> impl Strategy<Value = LocalPose> {
    (coordinate(), coordinate(), -10.0f32..10.0, scale(), scale(), -1.2f32..1.2)
        .prop_map(|(x, y, rotation, sx, sy, skew)| pose(Vec2::new(x, y), rotation, Vec2::new(sx, sy), skew))
}

fn transform() -> impl Strategy<Value = Affine2> {
    local_pose().prop_map(|p| p.transform())
}

/// A pose whose scales are at most 100 times apart (in a flatter one f32 cannot keep a direction to 2e-3 rad
/// through the parent's matrix and back).
fn sane_pose() -> impl Strategy<Value = LocalPose> {
    let scale = || prop_oneof![0.05f32..5.0, -5.0f32..-0.05];
    (coordinate(), coordinate(), -10.0f32..10.0, scale(), scale(), -1.2f32..1.2)
        .prop_map(|(x, y, rotation, sx, sy, skew)| pose(Vec2::new(x, y), rotation, Vec2::new(sx, sy), skew))
}

fn property() -> impl Strategy<Value = Property> {
    prop_oneof![
        Just(Property::Rotation),
        Just(Property::X),
        Just(Property::Y),
        Just(Property::ScaleX),
        Just(Property::ScaleY)
    ]
}

fn remap_of() -> impl Strategy<Value = Remap> {
    (property(), -100.0f32..100.0, prop::option::of((-500.0f32..500.0, -500.0f32..500.0)))
        .prop_map(|(from, factor, range)| Remap { from, factor, range })
}

fn space() -> impl Strategy<Value = CopySpace> {
    prop_oneof![Just(CopySpace::Global), Just(CopySpace::Local), Just(CopySpace::Rest)]
}

fn amount() -> impl Strategy<Value = f32> {
    prop_oneof![Just(0.0f32), Just(1.0f32), 0.0f32..=1.0]
}

fn settings() -> impl Strategy<Value = CopySettings> {
    (
        space(),
        (remap_of(), remap_of(), remap_of(), remap_of(), remap_of()),
        (-PI..PI, coordinate(), coordinate(), -2.0f32..2.0, -2.0f32..2.0),
        (amount(), amount(), amount(), amount()),
    )
        .prop_map(|(space, (r, x, y, sx, sy), (ro, ox, oy, sox, soy), (ar, ap, as_, weight))| CopySettings {
            space,
            rotation: r,
            position: [x, y],
            scale: [sx, sy],
            rotation_offset: ro,
            position_offset: Vec2::new(ox, oy),
            scale_offset: Vec2::new(sox, soy),
            amounts: Amounts { rotation: ar, position: ap, scale: as_ },
            weight,
            limit: None,
        })
}

proptest! {
    // The seeds of past failures beside this file (proptest's default for a file under src/ is a tree of its own).
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::with_cases(2048)
    })]

    #[test]
    fn any_finite_input_is_refused_or_gives_finite_values(
        settings in settings(),
        source in transform(),
        source_rest in transform(),
        unwritten in local_pose(),
        parent in transform(),
        rest in transform(),
    ) {
        let Ok(reading) = read_source(settings.space, source, source_rest) else { return Ok(()) };
        let bone = frame(unwritten, parent, rest);
        let Ok(copied) = copy_transform(&settings, &reading, &bone) else { return Ok(()) };
        prop_assert!(copied.rotation.is_finite() && copied.position.is_finite() && copied.scale.is_finite());
        prop_assert!(copied.error.is_finite() && copied.error >= 0.0 && copied.error <= PI + 1e-3);
        prop_assert!((copied.rotation - unwritten.rotation).abs() <= PI + 1e-3);
        if settings.amounts.rotation == 0.0 {
            prop_assert_eq!(copied.rotation, unwritten.rotation);
        }
        if settings.amounts.position == 0.0 {
            prop_assert_eq!(copied.position, unwritten.position);
        }
        if settings.amounts.scale == 0.0 {
            prop_assert_eq!(copied.scale, unwritten.scale);
        }
    }

    #[test]
    fn a_full_plain_global_copy_lands_on_the_source(
        source in transform(),
        parent in sane_pose().prop_map(|p| p.transform()),
        unwritten in sane_pose(),
        rotation_offset in -PI..PI,
        offset in (-50.0f32..50.0, -50.0f32..50.0),
    ) {
        let settings = CopySettings {
            rotation_offset,
            position_offset: Vec2::new(offset.0, offset.1),
            ..CopySettings::default()
        };
        let Ok(reading) = read_source(CopySpace::Global, source, Affine2::IDENTITY) else { return Ok(()) };
        let bone = frame(unwritten, parent, Affine2::IDENTITY);
        let Ok(copied) = copy_transform(&settings, &reading, &bone) else { return Ok(()) };
        let global = global_after(&bone, &copied);
        let handedness = source.matrix2.determinant().signum();
        let wanted = Vec2::from_angle(rotation_offset * handedness).rotate(source.matrix2.x_axis);
        prop_assert!(angle_between(global.matrix2.x_axis, wanted) < 2e-3, "{:?} vs {:?}", global.matrix2.x_axis, wanted);
        let point = source.transform_point2(settings.position_offset);
        let reach = 1.0 + point.abs().max_element() + parent.translation.abs().max_element();
        prop_assert!(global.translation.distance(point) <= 1e-4 * reach, "{} vs {}", global.translation, point);
        prop_assert_eq!(copied.error, 0.0);
    }

    #[test]
    fn a_clamped_remap_stays_in_its_range_and_grows_with_its_value(
        a in -1e4f32..1e4, b in -1e4f32..1e4, factor in 0.0f32..100.0, offset in -100.0f32..100.0,
        lo in -1e3f32..1e3, hi in -1e3f32..1e3,
    ) {
        let (small, large) = (a.min(b), a.max(b));
        let v1 = remap(small, factor, offset, Some((lo, hi)));
        let v2 = remap(large, factor, offset, Some((lo, hi)));
        prop_assert!(v1 >= lo.min(hi) && v1 <= lo.max(hi));
        prop_assert!(v2 >= v1);
    }
}
