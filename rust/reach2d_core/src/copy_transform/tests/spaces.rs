//! What each space means, on hand-built cases.

use core::f32::consts::{FRAC_PI_2, PI};

use glam::{Affine2, Vec2};

use super::fixtures::{angle_between, frame, global_after, plain, pose};
use crate::AngleLimit;
use crate::common::assert_approx_eq;
use crate::copy_transform::{
    Amounts, CopySettings, CopySpace, Property, Remap, TransformValues, copy_transform, read_source,
};

fn settings(space: CopySpace) -> CopySettings {
    CopySettings { space, ..CopySettings::default() }
}

#[test]
fn a_global_copy_puts_the_bone_on_the_source_under_any_parent() {
    // A parent turned, scaled unevenly and mirrored; the bone's own pose is irrelevant to the result.
    let parent = Affine2::from_scale_angle_translation(Vec2::new(-1.5, 0.7), 0.4, Vec2::new(30.0, -10.0));
    let bone = frame(plain(Vec2::new(3.0, 4.0), 1.0), parent, Affine2::IDENTITY);
    let source = Affine2::from_scale_angle_translation(Vec2::new(2.0, 2.0), -0.9, Vec2::new(100.0, 50.0));
    let reading = read_source(CopySpace::Global, source, Affine2::IDENTITY).unwrap();
    let copied = copy_transform(&settings(CopySpace::Global), &reading, &bone).unwrap();
    let global = global_after(&bone, &copied);
    assert_approx_eq!(global.translation, source.translation, 1e-4);
    assert!(angle_between(global.matrix2.x_axis, source.matrix2.x_axis) < 1e-5);
    assert_eq!(copied.error, 0.0);
}

#[test]
fn the_global_offsets_live_in_the_source_s_frame() {
    // A sword held 20 px along the hand and 5 px to its side, turned a quarter turn from it.
    let mut s = settings(CopySpace::Global);
    s.position_offset = Vec2::new(20.0, 5.0);
    s.rotation_offset = FRAC_PI_2;
    let bone = frame(plain(Vec2::ZERO, 0.0), Affine2::IDENTITY, Affine2::IDENTITY);
    for hand in [
        Affine2::from_scale_angle_translation(Vec2::ONE, 0.0, Vec2::new(10.0, 10.0)),
        Affine2::from_scale_angle_translation(Vec2::splat(2.0), 1.2, Vec2::new(-40.0, 7.0)),
    ] {
        let copied =
            copy_transform(&s, &read_source(CopySpace::Global, hand, Affine2::IDENTITY).unwrap(), &bone).unwrap();
        let global = global_after(&bone, &copied);
        assert_approx_eq!(global.translation, hand.transform_point2(Vec2::new(20.0, 5.0)), 1e-4);
        let wanted = Vec2::from_angle(FRAC_PI_2).rotate(hand.matrix2.x_axis);
        assert!(angle_between(global.matrix2.x_axis, wanted) < 1e-5);
    }
}

#[test]
fn a_global_rotation_offset_turns_the_other_way_for_a_mirrored_source() {
    let mut s = settings(CopySpace::Global);
    s.rotation_offset = 0.5;
    s.amounts.position = 0.0;
    let bone = frame(plain(Vec2::ZERO, 0.0), Affine2::IDENTITY, Affine2::IDENTITY);
    let mirrored = Affine2::from_scale(Vec2::new(-1.0, 1.0));
    let reading = read_source(CopySpace::Global, mirrored, Affine2::IDENTITY).unwrap();
    assert_eq!(reading.handedness, -1.0);
    let copied = copy_transform(&s, &reading, &bone).unwrap();
    // The source's x axis points to -x (angle PI); the offset turns it by -0.5.
    assert_approx_eq!(Vec2::from_angle(copied.rotation), Vec2::from_angle(PI - 0.5), 1e-6);
}

#[test]
fn a_local_copy_copies_the_numbers() {
    let mut s = settings(CopySpace::Local);
    s.amounts.scale = 1.0;
    s.rotation_offset = 0.25;
    s.position_offset = Vec2::new(1.0, -2.0);
    s.scale_offset = Vec2::new(0.5, 0.0);
    let bone = frame(plain(Vec2::new(7.0, 7.0), 2.0), Affine2::from_angle(1.0), Affine2::IDENTITY);
    let source = pose(Vec2::new(10.0, 20.0), 0.6, Vec2::new(1.5, 2.5), 0.0).transform();
    let copied = copy_transform(&s, &read_source(CopySpace::Local, source, Affine2::IDENTITY).unwrap(), &bone).unwrap();
    assert_approx_eq!(copied.rotation, 0.85, 1e-6);
    assert_approx_eq!(copied.position, Vec2::new(11.0, 18.0), 1e-5);
    assert_approx_eq!(copied.scale, Vec2::new(2.0, 2.5), 1e-6);
}

#[test]
fn a_wheel_turns_with_its_cart_s_x_and_a_piston_follows_a_crank_in_range() {
    // The wheel: rotation = x / radius + a start angle.
    let radius = 16.0;
    let mut s = settings(CopySpace::Local);
    s.amounts.position = 0.0;
    s.rotation = Remap { from: Property::X, factor: 1.0 / radius, range: None };
    s.rotation_offset = 0.3;
    let bone = frame(plain(Vec2::ZERO, 0.0), Affine2::IDENTITY, Affine2::IDENTITY);
    for x in [-300.0, 0.0, 125.0, 1000.0] {
        let cart = Affine2::from_translation(Vec2::new(x, 40.0));
        let copied =
            copy_transform(&s, &read_source(CopySpace::Local, cart, Affine2::IDENTITY).unwrap(), &bone).unwrap();
        assert_approx_eq!(Vec2::from_angle(copied.rotation), Vec2::from_angle(x / radius + 0.3), 1e-5);
    }
    // The piston: x = 30 px per radian of the crank, held in [-20, 20].
    let mut s = settings(CopySpace::Local);
    s.amounts.rotation = 0.0;
    s.position =
        [Remap { from: Property::Rotation, factor: 30.0, range: Some((20.0, -20.0)) }, Remap::same(Property::Y)];
    for (crank, x) in [(0.5, 15.0), (-0.5, -15.0), (1.0, 20.0), (-2.0, -20.0)] {
        let copied = copy_transform(
            &s,
            &read_source(CopySpace::Local, Affine2::from_angle(crank), Affine2::IDENTITY).unwrap(),
            &bone,
        )
        .unwrap();
        assert_approx_eq!(copied.position.x, x, 1e-4);
        assert_eq!(copied.position.y, 0.0);
    }
}

#[test]
fn a_rest_copy_applies_the_source_s_change_to_the_bone_s_rest() {
    let mut s = settings(CopySpace::Rest);
    s.amounts.scale = 1.0;
    let source_rest = pose(Vec2::new(5.0, 0.0), 0.2, Vec2::ONE, 0.0).transform();
    let source = pose(Vec2::new(8.0, -1.0), 0.7, Vec2::new(2.0, 1.0), 0.0).transform();
    let bone_rest = pose(Vec2::new(-3.0, 4.0), 1.0, Vec2::new(1.0, 3.0), 0.0).transform();
    let bone = frame(plain(Vec2::ZERO, 0.0), Affine2::IDENTITY, bone_rest);
    let copied = copy_transform(&s, &read_source(CopySpace::Rest, source, source_rest).unwrap(), &bone).unwrap();
    assert_approx_eq!(copied.rotation, 1.5, 1e-5);
    assert_approx_eq!(copied.position, Vec2::new(0.0, 3.0), 1e-5);
    assert_approx_eq!(copied.scale, Vec2::new(2.0, 3.0), 1e-5);
    // The source at rest: the bone at rest.
    let at_rest = copy_transform(&s, &read_source(CopySpace::Rest, source_rest, source_rest).unwrap(), &bone).unwrap();
    let rest = TransformValues::of(bone_rest);
    assert_approx_eq!(at_rest.rotation, rest.rotation, 1e-6);
    assert_approx_eq!(at_rest.position, rest.position, 1e-5);
    assert_approx_eq!(at_rest.scale, rest.scale, 1e-6);
}

#[test]
fn under_a_flip_rest_means_a_change_between_matrices() {
    // A source bone flipped by its own scale.x = -1 in its rest and now: turned by +0.4 it reads +0.4, not a half
    // turn more, and its scale reads unchanged.
    let rest = pose(Vec2::ZERO, 0.1, Vec2::new(-1.0, 1.0), 0.0).transform();
    let now = pose(Vec2::ZERO, 0.5, Vec2::new(-1.0, 1.0), 0.0).transform();
    let reading = read_source(CopySpace::Rest, now, rest).unwrap();
    assert_approx_eq!(reading.values.rotation, 0.4, 1e-6);
    assert_approx_eq!(reading.values.scale, Vec2::ONE, 1e-6);
    // A bone flipped the same way in its rest and its pose follows it: its rotation property moves by the same 0.4
    // from its rest's, and its scale stays written as it was (scale.x = -1).
    let mut s = settings(CopySpace::Rest);
    s.amounts.scale = 1.0;
    let bone = frame(pose(Vec2::ZERO, 0.1, Vec2::new(-1.0, 1.0), 0.0), Affine2::IDENTITY, rest);
    let copied = copy_transform(&s, &reading, &bone).unwrap();
    assert_approx_eq!(copied.rotation, 0.5, 1e-5);
    assert_approx_eq!(copied.scale, Vec2::new(-1.0, 1.0), 1e-5);
    let global = global_after(&bone, &copied).matrix2;
    assert!(angle_between(global.x_axis, now.matrix2.x_axis) < 1e-5, "the bone points where the source does");
}

#[test]
fn amounts_and_weight_blend_from_the_unwritten_pose_and_a_zero_amount_writes_nothing() {
    let mut s = settings(CopySpace::Local);
    s.amounts = Amounts { rotation: 0.5, position: 0.25, scale: 0.0 };
    s.weight = 0.8;
    let unwritten = pose(Vec2::new(10.0, 0.0), 0.2, Vec2::new(1.0, 2.0), 0.1);
    let bone = frame(unwritten, Affine2::IDENTITY, Affine2::IDENTITY);
    let source = pose(Vec2::new(20.0, 10.0), 1.2, Vec2::new(3.0, 3.0), 0.0).transform();
    let copied = copy_transform(&s, &read_source(CopySpace::Local, source, Affine2::IDENTITY).unwrap(), &bone).unwrap();
    assert_approx_eq!(copied.rotation, 0.2 + 1.0 * 0.4, 1e-6);
    assert_approx_eq!(copied.position, Vec2::new(12.0, 2.0), 1e-5);
    assert_eq!(copied.scale, unwritten.scale);
    assert_approx_eq!(copied.error, 0.6, 1e-6);
}

#[test]
fn a_rotation_turns_the_short_way_and_stays_within_half_a_turn_of_the_unwritten_one() {
    let mut s = settings(CopySpace::Local);
    s.amounts.rotation = 0.5;
    // The unwritten rotation wound up by two turns; the source just past the half turn the other way.
    let bone = frame(plain(Vec2::ZERO, 3.0 + 4.0 * PI), Affine2::IDENTITY, Affine2::IDENTITY);
    let source = Affine2::from_angle(-3.0);
    let copied = copy_transform(&s, &read_source(CopySpace::Local, source, Affine2::IDENTITY).unwrap(), &bone).unwrap();
    let short = crate::wrap_angle(-3.0 - 3.0);
    assert_approx_eq!(copied.rotation, 3.0 + 4.0 * PI + 0.5 * short, 1e-5);
}

#[test]
fn a_limit_holds_the_written_rotation_and_the_error_says_how_far_off() {
    let mut s = settings(CopySpace::Local);
    s.limit = AngleLimit::new(-0.5, 0.5);
    let bone = frame(plain(Vec2::ZERO, 0.0), Affine2::IDENTITY, Affine2::IDENTITY);
    let copied = copy_transform(
        &s,
        &read_source(CopySpace::Local, Affine2::from_angle(1.25), Affine2::IDENTITY).unwrap(),
        &bone,
    )
    .unwrap();
    assert_approx_eq!(copied.rotation, 0.5, 1e-6);
    assert_approx_eq!(copied.error, 0.75, 1e-6);
}

#[test]
fn a_global_scale_copy_gives_the_bone_the_source_s_global_axes() {
    let mut s = settings(CopySpace::Global);
    s.amounts.scale = 1.0;
    // A parent scaled unevenly: the local scale differs from the global one.
    let parent = Affine2::from_scale_angle_translation(Vec2::new(2.0, 0.5), 0.3, Vec2::ZERO);
    let bone = frame(pose(Vec2::ZERO, 0.0, Vec2::new(1.0, -1.0), 0.2), parent, Affine2::IDENTITY);
    let source = Affine2::from_scale_angle_translation(Vec2::new(1.5, 0.75), 1.1, Vec2::new(9.0, 9.0));
    let copied =
        copy_transform(&s, &read_source(CopySpace::Global, source, Affine2::IDENTITY).unwrap(), &bone).unwrap();
    let global = global_after(&bone, &copied).matrix2;
    assert_approx_eq!(global.x_axis.length(), 1.5, 1e-5);
    assert_approx_eq!(global.y_axis.length(), 0.75, 1e-5);
    assert!(copied.scale.y < 0.0, "the bone keeps its own signs");
    assert!(angle_between(global.x_axis, source.matrix2.x_axis) < 1e-5);
}
