//! Copies on things that turn (issue 36): a wheel on a cart that turns with its own `scale.x = -1` (the local
//! rotation keeps its sense on screen across a flip between the source's parent and the bone's), and a rotation read
//! continuous across whole turns (a crank driving a piston).

use core::f32::consts::{PI, TAU};

use glam::{Affine2, Vec2};

use super::fixtures::{frame, global_after, plain};
use crate::common::assert_approx_eq;
use crate::copy_transform::{
    Amounts, CopySettings, CopySpace, LocalPose, Property, Remap, Turns, copy_transform, read_source,
};
use crate::wrap_angle;

const RADIUS: f32 = 16.0;

/// The README's wheel: the rotation from the cart's x, 1 / radius, in `space`; the position not written.
fn wheel_settings(space: CopySpace) -> CopySettings {
    CopySettings {
        space,
        rotation: Remap { from: Property::X, factor: 1.0 / RADIUS, range: None },
        amounts: Amounts { rotation: 1.0, position: 0.0, scale: 0.0 },
        ..CopySettings::default()
    }
}

/// The worst slip per frame (px) of a wheel copied in `space` on a cart under `level` (turned and scaled evenly, or
/// mirrored: the ground is the level's x axis) that drives 2 px a frame along it, turns with `scale.x = -1`, drives
/// back, turns again and drives on: the wheel's radius on screen times its turn on screen minus the ground its origin
/// covered along the way that rolls it clockwise (a positive angle with y down: rightward on a plain level).
fn worst_slip(space: CopySpace, level: Affine2) -> f32 {
    let clockwise = level.matrix2.x_axis.normalize() * level.matrix2.determinant().signum();
    let radius = RADIUS * level.matrix2.x_axis.length();
    let settings = wheel_settings(space);
    let wheel = plain(Vec2::new(24.0, 10.0), 0.4);
    let mut x = 0.0f32;
    let mut worst = 0.0f32;
    for (flip, direction, frames) in [(1.0, 1.0, 30), (-1.0, -1.0, 60), (1.0, 1.0, 40)] {
        // The turn itself (no driving) is not rolling: each leg measures from its own first frame.
        let mut last: Option<Affine2> = None;
        for _ in 0..=frames {
            let cart = Affine2::from_translation(Vec2::new(x, 0.0)) * Affine2::from_scale(Vec2::new(flip, 1.0));
            let transform = if space == CopySpace::Global { level * cart } else { cart };
            let reading =
                read_source(space, transform, Affine2::IDENTITY).unwrap().under_parent(level.matrix2.determinant());
            let bone = frame(wheel, level * cart, Affine2::IDENTITY);
            let now = global_after(&bone, &copy_transform(&settings, &reading, &bone).unwrap());
            if let Some(before) = last {
                let turn = wrap_angle(now.matrix2.x_axis.to_angle() - before.matrix2.x_axis.to_angle());
                worst = worst.max((radius * turn - (now.translation - before.translation).dot(clockwise)).abs());
            }
            last = Some(now);
            x += direction * 2.0;
        }
        x -= direction * 2.0;
    }
    worst
}

#[test]
fn the_readme_wheel_rolls_on_a_cart_that_turns_in_either_space_plain_and_mirrored() {
    let mirrored = Affine2::from_translation(Vec2::new(400.0, 0.0)) * Affine2::from_scale(Vec2::new(-1.0, 1.0));
    for space in [CopySpace::Local, CopySpace::Global] {
        for level in [Affine2::IDENTITY, mirrored] {
            let worst = worst_slip(space, level);
            assert!(worst < 1e-3, "{space:?}, level {level:?}: slip {worst} px a frame");
        }
    }
    // On a level turned into a slope and scaled, the local space reads the cart's x along it and still rolls the
    // wheel; the global space reads the canvas's x, which is not the ground there.
    let slope = Affine2::from_scale_angle_translation(Vec2::splat(1.5), -0.3, Vec2::new(100.0, 50.0));
    for level in [slope, slope * Affine2::from_scale(Vec2::new(-1.0, 1.0))] {
        let worst = worst_slip(CopySpace::Local, level);
        assert!(worst < 1e-3, "local on a slope: slip {worst} px a frame");
        let worst = worst_slip(CopySpace::Global, level);
        assert!(worst > 0.1, "global on a slope: slip {worst} px a frame");
    }
}

#[test]
fn a_local_or_rest_rotation_turns_over_a_flip_between_the_parents_and_not_over_one_above_both() {
    let source = Affine2::from_angle(0.7);
    let unwritten = LocalPose { scale: Vec2::ONE, ..LocalPose::default() };
    let flip = Affine2::from_scale(Vec2::new(-1.0, 1.0));
    for space in [CopySpace::Local, CopySpace::Rest] {
        let settings = CopySettings { space, rotation_offset: 0.2, ..CopySettings::default() };
        let reading = read_source(space, source, Affine2::IDENTITY).unwrap();
        // (the source's parent's determinant, the bone's parent): the same handedness keeps the numbers.
        for (source_parent, bone_parent, sense) in
            [(1.0, Affine2::IDENTITY, 1.0), (-1.0, flip, 1.0), (1.0, flip, -1.0), (-1.0, Affine2::IDENTITY, -1.0)]
        {
            let bone = frame(unwritten, bone_parent, Affine2::IDENTITY);
            let copied = copy_transform(&settings, &reading.under_parent(source_parent), &bone).unwrap();
            assert_approx_eq!(copied.rotation, sense * 0.9, 1e-6);
        }
    }
}

#[test]
fn turns_add_the_shortest_change_and_start_from_the_wrapped_reading() {
    let mut turns = Turns::default();
    assert_eq!(turns.unwrap(3.0), 3.0, "the first reading as it comes");
    assert_approx_eq!(turns.unwrap(-3.0), TAU - 3.0, 1e-6);
    assert_approx_eq!(turns.unwrap(-1.0), TAU - 1.0, 1e-6);
    assert_approx_eq!(turns.unwrap(1.0), TAU + 1.0, 1e-6);
    assert_approx_eq!(turns.unwrap(3.0), TAU + 3.0, 1e-6);
    // On past the next half turn, then back the short way.
    assert_approx_eq!(turns.unwrap(-3.0), 2.0 * TAU - 3.0, 1e-5);
    assert_approx_eq!(turns.unwrap(3.0), TAU + 3.0, 1e-5);
    assert!(turns.unwrap(f32::NAN).is_nan());
    // A NaN changed nothing.
    assert_approx_eq!(turns.unwrap(3.1), 3.1 + TAU, 1e-5);
    turns.reset();
    assert_eq!(turns.unwrap(-3.0), -3.0, "after a reset, the reading as it comes");
}

#[test]
fn a_crank_drives_a_piston_without_a_jump_over_several_turns_in_every_space() {
    const STROKE: f32 = 10.0;
    const STEP: f32 = 0.1;
    let rest = Affine2::from_angle(0.2);
    let piston = plain(Vec2::new(40.0, -6.0), 0.1);
    let steps = (0..188).map(|_| STEP).chain((0..94).map(|_| -STEP));
    for space in [CopySpace::Rest, CopySpace::Local, CopySpace::Global] {
        let settings = CopySettings {
            space,
            position: [Remap { from: Property::Rotation, factor: STROKE, range: None }, Remap::same(Property::Y)],
            amounts: Amounts { rotation: 0.0, position: 1.0, scale: 0.0 },
            ..CopySettings::default()
        };
        let bone = frame(piston, Affine2::IDENTITY, Affine2::from_translation(piston.position));
        let mut turns = Turns::default();
        let mut turned = 0.0f32;
        let mut last: Option<f32> = None;
        let mut worst = 0.0f32;
        for step in steps.clone() {
            turned += step;
            let crank = Affine2::from_angle(0.2 + turned);
            let reading = read_source(space, crank, rest).unwrap().unwrapped(&mut turns);
            let x = copy_transform(&settings, &reading, &bone).unwrap().position.x;
            if let Some(last) = last {
                worst = worst.max((x - last).abs());
            }
            last = Some(x);
        }
        assert!(worst < STROKE * STEP + 1e-3, "{space:?}: the piston jumped {worst} px in a frame");
        let start = if space == CopySpace::Rest { 0.0 } else { 0.2 };
        assert!((turned - 1.5 * TAU).abs() < 0.1 && turned > PI);
        assert_approx_eq!(turns.unwrap(wrap_angle(start + turned)), start + turned, 1e-3);
    }
}

#[test]
fn a_clamped_piston_holds_at_its_stroke_s_end_while_the_crank_winds_on() {
    // The README's piston with its stroke held in [-20, 20] px from its rest: wound 3.25 turns it stays at the end
    // (the wrapped reading, a quarter turn, would put it back at 15.7 px), wound back to a quarter turn it comes back.
    let rest = Affine2::IDENTITY;
    let settings = CopySettings {
        space: CopySpace::Rest,
        position: [
            Remap { from: Property::Rotation, factor: 10.0, range: Some((20.0, -20.0)) },
            Remap::same(Property::Y),
        ],
        amounts: Amounts { rotation: 0.0, position: 1.0, scale: 0.0 },
        ..CopySettings::default()
    };
    let piston = plain(Vec2::new(40.0, -6.0), 0.0);
    let bone = frame(piston, Affine2::IDENTITY, Affine2::from_translation(piston.position));
    let mut turns = Turns::default();
    let mut x_at = |turned: f32| {
        let reading = read_source(CopySpace::Rest, Affine2::from_angle(turned), rest).unwrap().unwrapped(&mut turns);
        copy_transform(&settings, &reading, &bone).unwrap().position
    };
    let steps = 260;
    let mut last = Vec2::ZERO;
    for i in 0..=steps {
        last = x_at(3.25 * TAU * i as f32 / steps as f32);
    }
    assert_approx_eq!(last, Vec2::new(60.0, -6.0), 1e-4);
    for i in (0..=steps).rev() {
        last = x_at(0.25 * TAU + 3.0 * TAU * i as f32 / steps as f32);
    }
    assert_approx_eq!(last, Vec2::new(40.0 + 5.0 * PI, -6.0), 1e-3);
}
