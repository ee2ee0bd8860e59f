//! Mirrored inputs: a character flipped with a negative scale above the source and the bone is a reflection of both
//! their global transforms; a plain global copy must then write the very same local values (the bone's global pose
//! is the mirror image), for any reflection.

use core::f32::consts::PI;

use glam::{Affine2, Vec2};

use super::fixtures::{frame, global_after, pose, reflection};
use crate::common::{Rng, assert_approx_eq};
use crate::copy_transform::{Amounts, CopySettings, CopySpace, copy_transform, read_source};
use crate::wrap_angle;

fn random_affine(rng: &mut Rng) -> Affine2 {
    let scale = Vec2::new(rng.range(0.3, 3.0) * rng.sign(), rng.range(0.3, 3.0) * rng.sign());
    pose(Vec2::new(rng.range(-500.0, 500.0), rng.range(-500.0, 500.0)), rng.range(-PI, PI), scale, rng.range(-0.5, 0.5))
        .transform()
}

fn random_settings(rng: &mut Rng) -> CopySettings {
    CopySettings {
        space: CopySpace::Global,
        rotation_offset: rng.range(-PI, PI),
        position_offset: Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0)),
        scale_offset: Vec2::new(rng.range(-0.2, 0.5), rng.range(-0.2, 0.5)),
        amounts: Amounts { rotation: rng.range(0.0, 1.0), position: rng.range(0.0, 1.0), scale: rng.range(0.0, 1.0) },
        weight: rng.range(0.0, 1.0),
        ..CopySettings::default()
    }
}

#[test]
fn a_plain_global_copy_under_any_reflection_writes_the_same_local_values() {
    let mut rng = Rng(32);
    let mut worst_rotation = 0.0f32;
    let mut worst_position = 0.0f32;
    for case in 0..2000 {
        let settings = if case % 4 == 0 {
            CopySettings { amounts: Amounts { rotation: 1.0, position: 1.0, scale: 1.0 }, ..random_settings(&mut rng) }
        } else {
            random_settings(&mut rng)
        };
        let source = random_affine(&mut rng);
        let parent = random_affine(&mut rng);
        let unwritten = pose(
            Vec2::new(rng.range(-30.0, 30.0), rng.range(-30.0, 30.0)),
            rng.range(-PI, PI),
            Vec2::new(rng.range(0.5, 2.0) * rng.sign(), rng.range(0.5, 2.0) * rng.sign()),
            rng.range(-0.3, 0.3),
        );
        let mirror = reflection(rng.range(-PI, PI), Vec2::new(rng.range(-300.0, 300.0), rng.range(-300.0, 300.0)));
        let bone = frame(unwritten, parent, Affine2::IDENTITY);
        let flipped = frame(unwritten, mirror * parent, Affine2::IDENTITY);
        let plain =
            copy_transform(&settings, &read_source(CopySpace::Global, source, Affine2::IDENTITY).unwrap(), &bone)
                .unwrap();
        let mirrored = copy_transform(
            &settings,
            &read_source(CopySpace::Global, mirror * source, Affine2::IDENTITY).unwrap(),
            &flipped,
        )
        .unwrap();
        worst_rotation = worst_rotation.max(wrap_angle(mirrored.rotation - plain.rotation).abs());
        worst_position = worst_position.max(mirrored.position.distance(plain.position));
        assert_approx_eq!(mirrored.scale, plain.scale, 1e-4);
        // The global pose is the mirror image.
        let a = mirror * global_after(&bone, &plain);
        let b = global_after(&flipped, &mirrored);
        assert!(a.translation.distance(b.translation) < 0.01, "case {case}: {a:?} vs {b:?}");
    }
    assert!(worst_rotation < 1e-4, "worst rotation difference {worst_rotation}");
    assert!(worst_position < 5e-3, "worst position difference {worst_position}");
}

#[test]
fn the_mirrored_sword_is_the_mirror_image_of_the_sword() {
    // A hand under a character flipped with scale.x = -1 about x = 200, the sword's bone under the same character.
    let settings =
        CopySettings { position_offset: Vec2::new(24.0, -6.0), rotation_offset: 0.35, ..CopySettings::default() };
    let character = Affine2::from_translation(Vec2::new(200.0, 300.0));
    let flip = Affine2::from_scale(Vec2::new(-1.0, 1.0));
    let hand_local = pose(Vec2::new(40.0, -20.0), 0.8, Vec2::ONE, 0.0).transform();
    let parent_local = pose(Vec2::new(-10.0, 5.0), -0.4, Vec2::ONE, 0.0).transform();
    let unwritten = pose(Vec2::new(3.0, 1.0), 0.1, Vec2::ONE, 0.0);
    let mut results = vec![];
    for root in [character, character * flip] {
        let bone = frame(unwritten, root * parent_local, Affine2::IDENTITY);
        let reading = read_source(CopySpace::Global, root * hand_local, Affine2::IDENTITY).unwrap();
        results.push((bone, copy_transform(&settings, &reading, &bone).unwrap()));
    }
    let (plain_bone, plain) = results[0];
    let (flipped_bone, flipped) = results[1];
    assert_approx_eq!(flipped.rotation, plain.rotation, 1e-5);
    assert_approx_eq!(flipped.position, plain.position, 1e-4);
    let mirror = reflection(PI / 2.0, Vec2::new(200.0, 0.0));
    let a = mirror * global_after(&plain_bone, &plain);
    let b = global_after(&flipped_bone, &flipped);
    assert!(a.translation.distance(b.translation) < 1e-3);
    assert!(a.matrix2.x_axis.distance(b.matrix2.x_axis) < 1e-5);
}
