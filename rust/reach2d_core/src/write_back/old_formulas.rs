//! Temporary: the chain's write-back as it was before its per-bone step moved into [`solved_rotation`] and
//! [`finish_rotation`], compared with the new one bit for bit on random poses (deleted with the next commit).

use core::f32::consts::PI;

use glam::{Affine2, Mat2, Vec2};

use super::*;
use crate::common::Rng;

fn old_write_back_stepped(
    pose: &ChainPose,
    joints: &[Vec2],
    weight: f32,
    rotation_limits: &[Option<AngleLimit>],
    mut step: Option<RotationStep<'_>>,
    out: &mut [f32],
) -> Option<Vec2> {
    if joints.len() <= pose.bones.len() || out.len() < pose.bones.len() || !weight.is_finite() {
        return None;
    }
    let weight = weight.clamp(0.0, 1.0);
    let mut solved_parent = pose.parent;
    let mut written_parent = pose.parent;
    for (i, (bone, slot)) in pose.bones.iter().zip(out.iter_mut()).enumerate() {
        let limit = rotation_limits.get(i).copied().flatten();
        let clamp = |angle: f32| limit.map_or(angle, |l| l.clamp(wrap_angle(angle)));
        let aim = bone.basis * pose.child_offset(i);
        // A singular parent (zero scale) defines no direction: the bone keeps its rotation.
        let v = try_inverse(solved_parent).map(|inverse| inverse.transform_point2(joints[i + 1]) - bone.position);
        let solved = match v {
            Some(v) if v.length_squared() > DEGENERATE_SQ && aim.length_squared() > DEGENERATE_SQ => {
                v.to_angle() - aim.to_angle()
            }
            _ => bone.rotation,
        };
        let solved = if solved.is_finite() { clamp(solved) } else { bone.rotation };
        let solved = match step.as_mut() {
            Some(step) => {
                let stepped = step.previous.get(i).map_or(solved, |&p| step_toward(p, solved, step.max_step, limit));
                if let Some(slot) = step.stepped.get_mut(i) {
                    *slot = stepped;
                }
                stepped
            }
            None => solved,
        };
        // A huge input rotation (e.g. 1e30) has no sub-turn precision left: blend from its wrapped angle.
        let from = if bone.rotation.abs() <= HUGE_ROTATION { bone.rotation } else { wrap_angle(bone.rotation) };
        let written = clamp(lerp_angle(from, solved, weight));
        if !written.is_finite() {
            return None;
        }
        *slot = written;
        solved_parent *= bone.local_with(solved);
        written_parent *= bone.local_with(written);
    }
    let effector = written_parent.transform_point2(pose.tip_offset);
    effector.is_finite().then_some(effector)
}

/// A random float from a plausible range, now and then a hostile one.
fn value(rng: &mut Rng, lo: f32, hi: f32) -> f32 {
    match rng.below(40) {
        0 => f32::NAN,
        1 => 0.0,
        2 => 1.0e30,
        3 => -2000.0,
        _ => rng.range(lo, hi),
    }
}

/// A random affine basis: rotation, scale of either sign (sometimes zero), skew.
fn basis(rng: &mut Rng) -> Mat2 {
    let s = Vec2::new(rng.range(0.2, 3.0) * rng.sign(), rng.range(0.2, 3.0) * rng.sign());
    let s = if rng.below(30) == 0 { Vec2::ZERO } else { s };
    let skew = if rng.unit() < 0.5 { 0.0 } else { rng.range(-1.0, 1.0) };
    Mat2::from_angle(rng.range(-PI, PI))
        * Mat2::from_cols(Vec2::new(s.x, 0.0), Vec2::new(-s.y * skew.sin(), s.y * skew.cos()))
}

#[test]
fn the_extracted_per_bone_step_gives_the_old_bits() {
    let mut rng = Rng(2024);
    let mut written = [0usize; 2];
    for case in 0..40_000 {
        let n = 1 + rng.below(8);
        let bones: Vec<BonePose> = (0..n)
            .map(|_| {
                let position = if rng.below(20) == 0 {
                    Vec2::ZERO
                } else {
                    Vec2::new(value(&mut rng, -60.0, 60.0), rng.range(-30.0, 30.0))
                };
                BonePose { position, rotation: value(&mut rng, -PI, PI), basis: basis(&mut rng) }
            })
            .collect();
        let parent = Affine2::from_mat2_translation(
            basis(&mut rng),
            Vec2::new(rng.range(-300.0, 300.0), rng.range(-300.0, 300.0)),
        );
        let tip_offset =
            if rng.below(20) == 0 { Vec2::ZERO } else { Vec2::from_angle(rng.range(-PI, PI)) * rng.range(1.0, 50.0) };
        let pose = ChainPose { parent, bones: &bones, tip_offset };
        let mut joints = vec![Vec2::ZERO; n + 1];
        if rng.unit() < 0.5 {
            let goal: Vec<BonePose> = bones.iter().map(|b| BonePose { rotation: rng.range(-PI, PI), ..*b }).collect();
            ChainPose { bones: &goal, ..pose }.joints(&mut joints);
        } else {
            for joint in &mut joints {
                *joint = Vec2::new(value(&mut rng, -400.0, 400.0), rng.range(-400.0, 400.0));
            }
        }
        if rng.below(10) == 0 {
            let i = rng.below(n);
            joints[i + 1] = joints[i]; // a joint on its bone's origin
        }
        let weight = [1.0, 0.0, 0.5, rng.range(-0.5, 1.5), f32::NAN][rng.below(5)];
        let limits: Vec<Option<AngleLimit>> = if rng.unit() < 0.5 {
            Vec::new()
        } else {
            (0..n)
                .map(|_| {
                    (rng.unit() < 0.6).then(|| {
                        let min = rng.range(-PI, PI);
                        AngleLimit { min, max: min + rng.range(0.0, 4.0) }
                    })
                })
                .collect()
        };
        let previous: Vec<f32> = (0..rng.below(n + 1) + usize::from(rng.unit() < 0.7) * n)
            .take(n)
            .map(|_| value(&mut rng, -PI, PI))
            .collect();
        let max_step = [f32::INFINITY, 0.0, rng.range(0.0, 1.0), -1.0, f32::NAN][rng.below(5)];
        let stepped = rng.unit() < 0.5;
        let (mut out_old, mut out_new) = (vec![7.0; n], vec![7.0; n]);
        let (mut stepped_old, mut stepped_new) = (vec![9.0; n], vec![9.0; n]);
        let step_old = stepped.then(|| RotationStep { previous: &previous, max_step, stepped: &mut stepped_old });
        let old = old_write_back_stepped(&pose, &joints, weight, &limits, step_old, &mut out_old);
        let step_new = stepped.then(|| RotationStep { previous: &previous, max_step, stepped: &mut stepped_new });
        let new = pose.write_back_stepped(&joints, weight, &limits, step_new, &mut out_new);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            old.map(|e| (e.x.to_bits(), e.y.to_bits())),
            new.map(|e| (e.x.to_bits(), e.y.to_bits())),
            "case {case}"
        );
        assert_eq!(bits(&out_old), bits(&out_new), "case {case}");
        assert_eq!(bits(&stepped_old), bits(&stepped_new), "case {case}");
        written[usize::from(new.is_some())] += 1;
    }
    assert!(written[0] > 1000 && written[1] > 10_000, "refused / written: {written:?}");
}
