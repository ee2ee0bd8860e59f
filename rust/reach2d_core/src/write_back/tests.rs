use core::f32::consts::{FRAC_PI_2, PI};

use super::*;
use crate::common::{Rng, assert_approx_eq};

/// A random chain of similarity transforms: uniform scale of any sign on each bone and on the parent.
fn mirrored_chain(rng: &mut Rng, n: usize, bones: &mut Vec<BonePose>) -> ChainPose<'static> {
    bones.clear();
    for _ in 0..n {
        let s = rng.range(0.5, 2.0);
        // One axis mirrored, both, or none.
        let scale = Vec2::new(s * rng.sign(), s * rng.sign());
        let position = Vec2::new(rng.range(5.0, 60.0), rng.range(-20.0, 20.0));
        bones.push(BonePose::new(position, rng.range(-PI, PI), scale, 0.0));
    }
    let ps = rng.range(0.5, 3.0);
    let parent = Affine2::from_scale_angle_translation(
        Vec2::new(ps * rng.sign(), ps * rng.sign()),
        rng.range(-PI, PI),
        Vec2::new(rng.range(-300.0, 300.0), rng.range(-300.0, 300.0)),
    );
    let tip_offset = Vec2::from_angle(rng.range(-PI, PI)) * rng.range(5.0, 40.0);
    let bones: &'static [BonePose] = Box::leak(bones.clone().into_boxed_slice());
    ChainPose { parent, bones, tip_offset }
}

#[test]
fn recovers_any_pose_exactly_under_mirroring() {
    let mut rng = Rng(7);
    let mut scratch = Vec::new();
    let mut worst = 0.0f32;
    for case in 0..500 {
        let n = 1 + case % 8;
        let pose = mirrored_chain(&mut rng, n, &mut scratch);
        // The goal: the same chain with other rotations.
        let goal_bones: Vec<BonePose> =
            pose.bones.iter().map(|b| BonePose { rotation: rng.range(-PI, PI), ..*b }).collect();
        let goal = ChainPose { bones: &goal_bones, ..pose };
        let mut goal_joints = vec![Vec2::ZERO; n + 1];
        goal.joints(&mut goal_joints);

        let mut out = vec![0.0; n];
        let effector = pose.write_back(&goal_joints, 1.0, &[], &mut out).expect("finite");
        // Every bone lands on its goal joint, so the written rotations are the goal's (mod TAU).
        let written: Vec<BonePose> =
            pose.bones.iter().zip(&out).map(|(b, &r)| BonePose { rotation: r, ..*b }).collect();
        let mut joints = vec![Vec2::ZERO; n + 1];
        ChainPose { bones: &written, ..pose }.joints(&mut joints);
        for (a, b) in joints.iter().zip(&goal_joints) {
            worst = worst.max(a.distance(*b));
        }
        assert!(effector.distance(goal_joints[n]) < 1e-2, "case {case}: effector {effector} vs {}", goal_joints[n]);
        for (r, g) in out.iter().zip(&goal_bones) {
            assert!(wrap_angle(r - g.rotation).abs() < 1e-3, "case {case}: rotation {r} vs {}", g.rotation);
        }
    }
    assert!(worst < 1e-2, "worst joint error {worst}");
}

#[test]
fn mirrored_middle_bone_lands_exactly() {
    // A mirrored middle bone (scale.x = -1), where writing global rotations goes wrong.
    let bones = [
        BonePose::new(Vec2::ZERO, 0.0, Vec2::ONE, 0.0),
        BonePose::new(Vec2::new(50.0, 0.0), 0.3, Vec2::new(-1.0, 1.0), 0.0),
        BonePose::new(Vec2::new(50.0, 0.0), -0.2, Vec2::ONE, 0.0),
    ];
    let pose = ChainPose { parent: Affine2::IDENTITY, bones: &bones, tip_offset: Vec2::new(40.0, 0.0) };
    let goal_bones = [
        BonePose { rotation: 0.5, ..bones[0] },
        BonePose { rotation: -0.4, ..bones[1] },
        BonePose { rotation: 0.9, ..bones[2] },
    ];
    let mut goal = [Vec2::ZERO; 4];
    ChainPose { bones: &goal_bones, ..pose }.joints(&mut goal);
    let mut out = [0.0; 3];
    let effector = pose.write_back(&goal, 1.0, &[], &mut out).unwrap();
    assert!(effector.distance(goal[3]) < 1e-3);
    assert!(wrap_angle(out[1] + 0.4).abs() < 1e-5);
}

#[test]
fn weight_blends_local_rotations_and_zero_keeps_the_input() {
    let bones =
        [BonePose::new(Vec2::ZERO, 0.2, Vec2::ONE, 0.0), BonePose::new(Vec2::new(10.0, 0.0), 0.0, Vec2::ONE, 0.0)];
    let pose = ChainPose { parent: Affine2::IDENTITY, bones: &bones, tip_offset: Vec2::new(10.0, 0.0) };
    let goal_bones = [BonePose { rotation: 1.2, ..bones[0] }, BonePose { rotation: -0.6, ..bones[1] }];
    let mut goal = [Vec2::ZERO; 3];
    ChainPose { bones: &goal_bones, ..pose }.joints(&mut goal);
    let mut out = [0.0; 2];
    pose.write_back(&goal, 0.0, &[], &mut out).unwrap();
    assert_eq!(out, [0.2, 0.0]);
    pose.write_back(&goal, 0.5, &[], &mut out).unwrap();
    assert!((out[0] - 0.7).abs() < 1e-5 && (out[1] + 0.3).abs() < 1e-5, "{out:?}");
}

#[test]
fn limits_clamp_solved_and_written_rotations() {
    let bones = [BonePose::new(Vec2::ZERO, 0.0, Vec2::ONE, 0.0)];
    let pose = ChainPose { parent: Affine2::IDENTITY, bones: &bones, tip_offset: Vec2::new(10.0, 0.0) };
    let goal = [Vec2::ZERO, Vec2::new(0.0, 10.0)]; // needs +PI/2
    let limits = [AngleLimit::new(-0.5, 0.5)];
    let mut out = [0.0; 1];
    let effector = pose.write_back(&goal, 1.0, &limits, &mut out).unwrap();
    assert!((out[0] - 0.5).abs() < 1e-6);
    assert!(effector.distance(Vec2::from_angle(0.5) * 10.0) < 1e-4);
}

#[test]
fn segment_limits_match_rotation_limits_under_mirroring() {
    // Rotating a bone within its rotation limit keeps its segment angle within the derived segment limit.
    let mut rng = Rng(99);
    let mut scratch = Vec::new();
    for _ in 0..200 {
        let pose = mirrored_chain(&mut rng, 3, &mut scratch);
        let limits: Vec<Option<AngleLimit>> =
            (0..3).map(|_| AngleLimit::new(rng.range(-2.0, 0.0), rng.range(0.0, 2.0))).collect();
        let mut joints = [Vec2::ZERO; 4];
        pose.joints(&mut joints);
        let mut seg = [None; 3];
        let root_direction = pose.segment_limits(&joints, &limits, &mut seg);
        for edge in [0, 1] {
            let moved: Vec<BonePose> = pose
                .bones
                .iter()
                .zip(&limits)
                .map(|(b, l)| BonePose { rotation: if edge == 0 { l.unwrap().min } else { l.unwrap().max }, ..*b })
                .collect();
            let mut q = [Vec2::ZERO; 4];
            ChainPose { bones: &moved, ..pose }.joints(&mut q);
            let mut reference = root_direction;
            for i in 0..3 {
                let segment = q[i + 1] - q[i];
                let limit = seg[i].unwrap();
                assert!(limit.contains(signed_angle(reference, segment), 1e-3), "bone {i}: {limit:?}");
                reference = segment;
            }
        }
    }
}

#[test]
fn degenerate_input_keeps_rotations_and_never_gives_nan() {
    // A zero-scale parent: no direction is defined, so every bone keeps its rotation.
    let bones = [BonePose::new(Vec2::new(3.0, 0.0), 0.4, Vec2::ONE, 0.0)];
    let pose = ChainPose { parent: Affine2::from_scale(Vec2::ZERO), bones: &bones, tip_offset: Vec2::new(10.0, 0.0) };
    let mut out = [9.0; 1];
    let effector = pose.write_back(&[Vec2::ZERO, Vec2::new(5.0, 5.0)], 1.0, &[], &mut out);
    assert_eq!(out, [0.4]);
    assert!(effector.is_some_and(|e| e.is_finite()));
    // Too few joints or a NaN weight: nothing to write.
    assert!(pose.write_back(&[Vec2::ZERO], 1.0, &[], &mut out).is_none());
    assert!(pose.write_back(&[Vec2::ZERO, Vec2::ONE], f32::NAN, &[], &mut out).is_none());
}

#[test]
fn lerp_angle_matches_godot() {
    assert!((lerp_angle(0.0, 1.0, 0.5) - 0.5).abs() < 1e-6);
    // Across the seam: from 3.0 toward -3.0 goes through PI, not through 0.
    let mid = lerp_angle(3.0, -3.0, 0.5);
    assert!((wrap_angle(mid) - PI).abs() < 1e-3, "{mid}");
    assert_eq!(lerp_angle(0.3, 2.0, 0.0), 0.3);
}

#[test]
fn solved_rotation_puts_the_child_on_the_point_also_under_a_mirrored_parent() {
    let mut rng = Rng(5);
    let reflection = Affine2::from_scale(Vec2::new(-1.0, 1.0));
    for case in 0..500 {
        // A parent and a bone of uniform scale, each axis mirrored or not.
        let ps = rng.range(0.5, 3.0);
        let parent = Affine2::from_scale_angle_translation(
            Vec2::new(ps * rng.sign(), ps * rng.sign()),
            rng.range(-PI, PI),
            Vec2::new(rng.range(-300.0, 300.0), rng.range(-300.0, 300.0)),
        );
        let s = rng.range(0.5, 2.0);
        let position = Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
        let bone = BonePose::new(position, rng.range(-PI, PI), Vec2::new(s * rng.sign(), s * rng.sign()), 0.0);
        let child_offset = Vec2::from_angle(rng.range(-PI, PI)) * rng.range(5.0, 40.0);
        let wanted = rng.range(-PI, PI);
        let child_point = (parent * bone.local_with(wanted)).transform_point2(child_offset);
        let solved = solved_rotation(parent, &bone, child_point, child_offset);
        assert!(wrap_angle(solved - wanted).abs() < 1e-4, "case {case}: {solved} vs {wanted}");
        // The parent and the point reflected together: the same local rotation draws the reflected bone.
        let mirrored =
            solved_rotation(reflection * parent, &bone, reflection.transform_point2(child_point), child_offset);
        assert!(wrap_angle(mirrored - solved).abs() < 1e-5, "case {case}: mirrored {mirrored} vs {solved}");
    }
}

#[test]
fn solved_rotation_keeps_the_bone_rotation_where_no_direction_is_defined() {
    let bone = BonePose::new(Vec2::new(3.0, 1.0), 0.4, Vec2::ONE, 0.0);
    let (point, offset) = (Vec2::new(20.0, 5.0), Vec2::new(10.0, 0.0));
    assert_eq!(solved_rotation(Affine2::from_scale(Vec2::ZERO), &bone, point, offset), 0.4, "a singular parent");
    assert_eq!(solved_rotation(Affine2::IDENTITY, &bone, bone.position, offset), 0.4, "the point on the origin");
    assert_eq!(solved_rotation(Affine2::IDENTITY, &bone, point, Vec2::ZERO), 0.4, "no child offset");
    let collapsed = BonePose::new(bone.position, 0.4, Vec2::new(0.0, 1.0), 0.0);
    assert_eq!(solved_rotation(Affine2::IDENTITY, &collapsed, point, offset), 0.4, "a basis that collapses the offset");
    assert_eq!(solved_rotation(Affine2::IDENTITY, &bone, Vec2::NAN, offset), 0.4, "a point that is not finite");
    assert_approx_eq!(solved_rotation(Affine2::IDENTITY, &bone, Vec2::new(3.0, 11.0), offset), FRAC_PI_2, 1e-6);
}

#[test]
fn finish_rotation_clamps_steps_and_blends() {
    let limit = AngleLimit::new(-0.5, 0.5);
    let full = finish_rotation(0.2, 1.5, 1.0, limit, None);
    assert_eq!((full.solved, full.written), (0.5, 0.5), "the solved rotation clamped, written at full weight");
    // A read rotation outside the limit: the blend toward the solved one is clamped again.
    assert_eq!(finish_rotation(1.5, 0.0, 0.5, limit, None).written, 0.5, "the blend clamped");
    assert_eq!(finish_rotation(0.2, 1.2, 0.0, None, None).written, 0.2, "weight 0 writes what was read");
    assert_approx_eq!(finish_rotation(0.2, 1.2, 0.5, None, None).written, 0.7, 1e-6);
    // Across the seam: from 3.0 halfway toward -3.0 goes through PI, not through 0.
    assert_approx_eq!(wrap_angle(finish_rotation(3.0, -3.0, 0.5, None, None).written).abs(), PI, 1e-3);
    assert_eq!(
        finish_rotation(0.2, 1.2, 7.0, None, None),
        finish_rotation(0.2, 1.2, 1.0, None, None),
        "weight clamped"
    );
    // The step: at most max_step from the previous rotation, before the weight.
    let stepped = finish_rotation(0.0, 1.0, 0.5, None, Some(BoneStep { previous: 0.0, max_step: 0.25 }));
    assert_approx_eq!(stepped.solved, 0.25, 1e-6);
    assert_approx_eq!(stepped.written, 0.125, 1e-6);
    // Along the allowed arc: from 2.4 toward -2.4 within (-2.5, 2.5) turns back through 0, not across PI.
    let wide = AngleLimit::new(-2.5, 2.5);
    let arc = finish_rotation(2.4, -2.4, 1.0, wide, Some(BoneStep { previous: 2.4, max_step: 0.5 }));
    assert_approx_eq!(arc.solved, 1.9, 1e-6);
    // A solved rotation that is not finite counts as the read one; a huge read one blends from its wrapped angle.
    let kept = finish_rotation(0.3, f32::NAN, 1.0, limit, None);
    assert_eq!(kept.solved, 0.3, "not clamped");
    assert_approx_eq!(kept.written, 0.3, 1e-6);
    assert_eq!(finish_rotation(1.0e30, 0.1, 0.0, None, None).written, wrap_angle(1.0e30));
    assert!(finish_rotation(0.3, 0.4, f32::NAN, None, None).written.is_nan());
}

#[test]
fn finish_rotation_of_mirrored_angles_is_the_mirrored_rotation() {
    // A reflection negates every rotation and turns a limit (min, max) into (-max, -min).
    let mut rng = Rng(12);
    for case in 0..2000 {
        let (read, solved, previous) = (rng.range(-PI, PI), rng.range(-4.0, 4.0), rng.range(-PI, PI));
        let weight = rng.range(0.0, 1.0);
        let limit = (rng.unit() < 0.7).then(|| {
            let min = rng.range(-PI, PI);
            AngleLimit { min, max: min + rng.range(0.0, 5.0) }
        });
        let step = (rng.unit() < 0.5).then(|| BoneStep { previous, max_step: rng.range(0.0, 1.0) });
        let mirrored_limit = limit.map(|l| AngleLimit { min: -l.max, max: -l.min });
        let mirrored_step = step.map(|s| BoneStep { previous: -s.previous, ..s });
        let a = finish_rotation(read, solved, weight, limit, step);
        let b = finish_rotation(-read, -solved, weight, mirrored_limit, mirrored_step);
        assert!(wrap_angle(a.solved + b.solved).abs() < 1e-4, "case {case}: {a:?} vs {b:?}");
        assert!(wrap_angle(a.written + b.written).abs() < 1e-4, "case {case}: {a:?} vs {b:?}");
    }
}
