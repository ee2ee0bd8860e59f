//! The write-back on arbitrary bytes: [`write_back`] (`ChainPose::{joints, segment_limits, write_back}`).

use core::f32::consts::PI;

use reach2d_core::write_back::{BonePose, ChainPose};
use reach2d_core::{AngleLimit, Vec2};

use super::input::{Bytes, debug};

/// `ChainPose::{joints, segment_limits, write_back}` on arbitrary bytes.
pub fn write_back(data: &[u8]) -> bool {
    let mut b = Bytes::new(data);
    let n = 1 + usize::from(b.u8() % 32);
    let similar = b.flag(); // every transform a similarity: then bones land exactly and keep their lengths
    let scale = |b: &mut Bytes| {
        if similar {
            let s = b.float(0.1, 4.0);
            Vec2::new(if b.flag() { -s } else { s }, if b.flag() { -s } else { s })
        } else {
            b.vec(-3.0, 3.0)
        }
    };
    let bones: Vec<BonePose> = (0..n)
        .map(|_| {
            let position = b.vec(-100.0, 100.0);
            let rotation = b.float(-PI, PI);
            let s = scale(&mut b);
            let skew = if similar { 0.0 } else { b.float(-1.5, 1.5) };
            BonePose::new(position, rotation, s, skew)
        })
        .collect();
    let parent_scale = scale(&mut b);
    let parent = glam::Affine2::from_scale_angle_translation(parent_scale, b.float(-PI, PI), b.vec(-1000.0, 1000.0));
    let tip_offset = b.vec(-100.0, 100.0);
    let pose = ChainPose { parent, bones: &bones, tip_offset };
    let mut current = vec![Vec2::ZERO; n + 1];
    pose.joints(&mut current);

    // The goal: the same chain with other rotations (reachable exactly), or arbitrary points.
    let from_pose = b.flag();
    let goal: Vec<Vec2> = if from_pose {
        let goal_bones: Vec<BonePose> =
            bones.iter().map(|bone| BonePose { rotation: b.float(-PI, PI), ..*bone }).collect();
        let mut goal = vec![Vec2::ZERO; n + 1];
        ChainPose { bones: &goal_bones, ..pose }.joints(&mut goal);
        goal
    } else {
        (0..=n).map(|_| b.vec(-2000.0, 2000.0)).collect()
    };
    let weight = if b.flag() { 1.0 } else { b.float(0.0, 1.0) };
    let rotation_limits: Vec<Option<AngleLimit>> =
        if b.flag() { (0..n).map(|_| b.limit()).collect() } else { Vec::new() };
    let valid_limits: Vec<Option<AngleLimit>> = rotation_limits.iter().map(|l| l.filter(|l| l.is_valid())).collect();

    debug(&(&pose, &goal, weight, &rotation_limits));
    let mut segment = vec![None; n];
    let root_direction = pose.segment_limits(&current, &valid_limits, &mut segment);
    assert!(root_direction.is_finite() || !parent.is_finite(), "root direction {root_direction}");

    let mut out = vec![0.0; n];
    let Some(effector) = pose.write_back(&goal, weight, &valid_limits, &mut out) else {
        return false;
    };
    assert!(effector.is_finite() && out.iter().all(|r| r.is_finite()), "non-finite write {effector} {out:?}");
    for (i, (r, l)) in out.iter().zip(&valid_limits).enumerate() {
        if let Some(l) = l {
            assert!(l.contains(*r, 1e-4), "bone {i}: rotation {r} outside {l:?}");
        }
    }
    // A hostile value anywhere in the pose voids the geometric checks below (but not the ones above).
    let sane = |v: Vec2| v.is_finite() && v.abs().max_element() <= 1.0e7;
    let scales_sane = bones.iter().map(|bone| bone.basis.x_axis).chain([parent.matrix2.x_axis]).all(|axis| {
        let s = axis.length();
        (0.1..=10.0).contains(&s)
    });
    if !(similar && scales_sane && current.iter().chain(&goal).all(|&p| sane(p))) {
        return true;
    }
    // Under similarities the written pose keeps every bone's length ...
    let written: Vec<BonePose> = bones.iter().zip(&out).map(|(bone, &r)| BonePose { rotation: r, ..*bone }).collect();
    let mut after = vec![Vec2::ZERO; n + 1];
    ChainPose { bones: &written, ..pose }.joints(&mut after);
    let eps = 1e-3 * (1.0 + current.iter().chain(&after).fold(0.0f32, |m, p| m.max(p.abs().max_element())));
    for i in 0..n {
        let (a, c) = (current[i].distance(current[i + 1]), after[i].distance(after[i + 1]));
        assert!((a - c).abs() <= eps, "bone {i}: length {a} became {c}");
    }
    // ... and at full weight, without limits, lands on a goal that is a pose of the same chain.
    if from_pose && weight == 1.0 && rotation_limits.is_empty() {
        assert!(after[n].distance(goal[n]) <= 64.0 * eps, "effector {} vs goal {}", after[n], goal[n]);
        assert!(effector.distance(after[n]) <= eps, "returned effector {effector} vs written {}", after[n]);
    }
    true
}
