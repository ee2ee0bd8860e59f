//! Temporary: the rig's write-back as it was before its per-bone step moved into `write_back`'s
//! `solved_rotation` and `finish_rotation`, compared with the new one bit for bit on random poses (deleted with
//! the next commit).

use core::f32::consts::PI;

use glam::{Affine2, Mat2, Vec2};

use super::tree::DEGENERATE_SQ;
use super::{FabrikRig, RigPose};
use crate::angle::{AngleLimit, wrap_angle};
use crate::common::Rng;
use crate::write_back::{BonePose, lerp_angle, try_inverse};

fn old_write_back(
    rig: &mut FabrikRig,
    pose: &RigPose,
    points: &[Vec2],
    weight: f32,
    rotation_limits: &[Option<AngleLimit>],
    out: &mut [f32],
    ends: &mut [Vec2],
) -> bool {
    let (n, e) = (rig.parents.len(), rig.tips.len());
    if pose.bones.len() < n
        || pose.tip_offsets.len() < e
        || points.len() < n + e
        || out.len() < n
        || ends.len() < e
        || !weight.is_finite()
    {
        return false;
    }
    let weight = weight.clamp(0.0, 1.0);
    // Indexed: each bone reads its parent's transforms from the buffers it writes.
    #[allow(clippy::needless_range_loop)]
    for i in 0..n {
        let bone = &pose.bones[i];
        let (solved_parent, written_parent) =
            if i == 0 { (pose.parent, pose.parent) } else { (rig.solved[rig.parents[i]], rig.globals[rig.parents[i]]) };
        let limit = rotation_limits.get(i).copied().flatten();
        let clamp = |angle: f32| limit.map_or(angle, |l| l.clamp(wrap_angle(angle)));
        let axis_point = rig.axis_point(i);
        let local_axis =
            if axis_point < n { pose.bones[axis_point].position } else { pose.tip_offsets[axis_point - n] };
        let aim = bone.basis * local_axis;
        let v = try_inverse(solved_parent).map(|inverse| inverse.transform_point2(points[axis_point]) - bone.position);
        let solved = match v {
            Some(v) if v.length_squared() > DEGENERATE_SQ && aim.length_squared() > DEGENERATE_SQ => {
                v.to_angle() - aim.to_angle()
            }
            _ => bone.rotation,
        };
        let solved = if solved.is_finite() { clamp(solved) } else { bone.rotation };
        let from = if bone.rotation.abs() <= 1000.0 { bone.rotation } else { wrap_angle(bone.rotation) };
        let written = clamp(lerp_angle(from, solved, weight));
        if !written.is_finite() {
            return false;
        }
        out[i] = written;
        rig.solved[i] = solved_parent * bone.local_with(solved);
        rig.globals[i] = written_parent * bone.local_with(written);
    }
    for (k, (&tip, &offset)) in rig.tips.iter().zip(pose.tip_offsets).enumerate() {
        ends[k] = rig.globals[tip].transform_point2(offset);
        if !ends[k].is_finite() {
            return false;
        }
    }
    true
}

fn basis(rng: &mut Rng) -> Mat2 {
    let s = Vec2::new(rng.range(0.2, 3.0) * rng.sign(), rng.range(0.2, 3.0) * rng.sign());
    let s = if rng.below(30) == 0 { Vec2::ZERO } else { s };
    let skew = if rng.unit() < 0.5 { 0.0 } else { rng.range(-1.0, 1.0) };
    Mat2::from_angle(rng.range(-PI, PI))
        * Mat2::from_cols(Vec2::new(s.x, 0.0), Vec2::new(-s.y * skew.sin(), s.y * skew.cos()))
}

#[test]
fn the_extracted_per_bone_step_gives_the_old_bits() {
    let trees: [(&[usize], &[usize]); 3] = [
        (&crate::common::TWO_ARMS_PARENTS, &crate::common::TWO_ARMS_TIPS),
        (&[0, 0, 1, 2, 1, 4], &[3, 5]),
        (&[0, 0, 1], &[2]),
    ];
    let mut rng = Rng(31);
    let mut written = [0usize; 2];
    for case in 0..20_000 {
        let (parents, tips) = trees[case % 3];
        let mut rig = FabrikRig::new(parents, tips).unwrap();
        let (n, e) = (parents.len(), tips.len());
        let bones: Vec<BonePose> = (0..n)
            .map(|_| {
                let rotation =
                    [rng.range(-PI, PI), 1.0e30, f32::NAN, -2000.0][usize::from(rng.below(30) == 0) * rng.below(4)];
                BonePose {
                    position: Vec2::new(rng.range(-40.0, 40.0), rng.range(-40.0, 40.0)),
                    rotation,
                    basis: basis(&mut rng),
                }
            })
            .collect();
        let tip_offsets: Vec<Vec2> =
            (0..e).map(|_| Vec2::from_angle(rng.range(-PI, PI)) * rng.range(0.0, 30.0)).collect();
        let parent = Affine2::from_mat2_translation(
            basis(&mut rng),
            Vec2::new(rng.range(-300.0, 300.0), rng.range(-300.0, 300.0)),
        );
        let pose = RigPose { parent, bones: &bones, tip_offsets: &tip_offsets };
        let mut points = vec![Vec2::ZERO; n + e];
        if rng.unit() < 0.5 {
            let goal: Vec<BonePose> = bones.iter().map(|b| BonePose { rotation: rng.range(-PI, PI), ..*b }).collect();
            rig.pose_points(&RigPose { bones: &goal, ..pose }, &mut points);
        } else {
            for point in &mut points {
                *point = Vec2::new(rng.range(-300.0, 300.0), rng.range(-300.0, 300.0));
            }
            if rng.below(20) == 0 {
                points[rng.below(n + e)].x = f32::NAN;
            }
        }
        let weight = [1.0, 0.0, 0.5, rng.range(-0.5, 1.5), f32::NAN][rng.below(5)];
        let limits: Vec<Option<AngleLimit>> = (0..n * usize::from(rng.unit() < 0.5))
            .map(|_| {
                (rng.unit() < 0.6).then(|| {
                    let min = rng.range(-PI, PI);
                    AngleLimit { min, max: min + rng.range(0.0, 4.0) }
                })
            })
            .collect();
        let mut twin = rig.clone();
        let (mut out_old, mut out_new) = (vec![7.0; n], vec![7.0; n]);
        let (mut ends_old, mut ends_new) = (vec![Vec2::ONE; e], vec![Vec2::ONE; e]);
        let old = old_write_back(&mut twin, &pose, &points, weight, &limits, &mut out_old, &mut ends_old);
        let new = rig.write_back(&pose, &points, weight, &limits, &mut out_new, &mut ends_new);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let vbits = |v: &[Vec2]| v.iter().map(|p| (p.x.to_bits(), p.y.to_bits())).collect::<Vec<_>>();
        assert_eq!(old, new, "case {case}");
        assert_eq!(bits(&out_old), bits(&out_new), "case {case}");
        assert_eq!(vbits(&ends_old), vbits(&ends_new), "case {case}");
        written[usize::from(new)] += 1;
    }
    assert!(written[0] > 1000 && written[1] > 5000, "refused / written: {written:?}");
}
