use glam::{Affine2, Mat2};
use reach2d_core::Vec2;
use reach2d_core::write_back::BonePose;

use super::ReadPose;

fn pose() -> ReadPose {
    let bone =
        BonePose { position: Vec2::new(10.0, -3.0), rotation: 0.4, basis: Mat2::from_diagonal(Vec2::new(-1.0, 2.0)) };
    ReadPose {
        parent: Affine2::from_angle_translation(0.3, Vec2::new(5.0, 6.0)),
        bones: vec![bone; 3],
        tip_offset: Vec2::X,
    }
}

#[test]
fn a_pose_is_finite_when_every_number_is() {
    assert!(pose().is_finite());
    // Huge but finite numbers: their sum would overflow, each zeroed first does not.
    let mut huge = pose();
    huge.bones.iter_mut().for_each(|b| b.position = Vec2::splat(f32::MAX));
    huge.parent.translation = Vec2::splat(-f32::MAX);
    assert!(huge.is_finite());
}

#[test]
fn one_number_that_is_not_finite_anywhere_makes_the_pose_not_finite() {
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let changes: [fn(&mut ReadPose, f32); 7] = [
            |p, v| p.parent.matrix2.x_axis.y = v,
            |p, v| p.parent.matrix2.y_axis.x = v,
            |p, v| p.parent.translation.x = v,
            |p, v| p.tip_offset.y = v,
            |p, v| p.bones[2].position.y = v,
            |p, v| p.bones[1].rotation = v,
            |p, v| p.bones[0].basis.y_axis.y = v,
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut p = pose();
            change(&mut p, bad);
            assert!(!p.is_finite(), "change {i} to {bad}");
        }
    }
}
