//! Temporary: the formulas of `rust/reach2d/src/nodes/foot_grounder_2d.rs` (`max_step`, `world_up`,
//! `HipsOffset::write`, `Foot::turn`) and `io/bones.rs` (`Motion::new`) as they are at 9ed6aaa, copied verbatim but
//! for the engine calls, compared with the core's functions bit for bit on random input (deleted with the next
//! commit; the node then calls the core's).

use core::f32::consts::PI;

use glam::{Affine2, Mat2, Vec2};

use super::*;
use crate::common::Rng;

/// `foot_grounder_2d.rs`'s `max_step`.
fn grounder_max_step(speed: f32, delta: f64) -> f32 {
    if speed > 0.0 { (f64::from(speed) * delta.max(0.0)) as f32 } else { f32::INFINITY }
}

/// `bones.rs`'s `Motion::new(..).max_step`.
fn motion_max_step(speed: f32, delta: f64) -> f32 {
    if speed > 0.0 {
        let delta = if delta.is_finite() { delta.max(0.0) } else { 0.0 };
        (f64::from(speed) * delta) as f32
    } else {
        f32::INFINITY
    }
}

/// `world_up` after the engine call.
fn node_world_up(gravity: Vec2) -> Vec2 {
    let fallback = Vec2::new(0.0, -1.0);
    Some(gravity).and_then(|g| (-g).try_normalize()).unwrap_or(fallback)
}

/// `HipsOffset::write` up to `set_position`: the new position, or `None` for `HipsCollapsed`.
fn node_hips_position(global_basis: Mat2, local_basis: Mat2, authored: Vec2, global: Vec2) -> Option<Vec2> {
    let det = global_basis.determinant();
    if !(det.is_finite() && det.abs() > 1e-10) {
        return None;
    }
    let in_parent = local_basis * (global_basis.inverse() * global);
    let position = authored + in_parent;
    if !position.is_finite() {
        return None;
    }
    Some(position)
}

/// `Foot::turn` from reading the bone to `set_rotation`: the rotation written, or `None` (nothing written).
fn node_foot_turn(
    current: f32,
    local: Affine2,
    animated: f32,
    animated_tip: Affine2,
    tilt: f32,
    tip_now: Mat2,
) -> Option<f32> {
    let along = glam::Mat2::from_angle(-current) * local.matrix2 * Vec2::X;
    let animated_axis = animated_tip.matrix2 * (glam::Mat2::from_angle(animated) * along);
    let wanted_axis = rotate(animated_axis, tilt);
    if tip_now.determinant().abs() <= f32::EPSILON * tip_now.x_axis.length_squared().max(1e-30) {
        return None;
    }
    let in_tip = tip_now.inverse() * wanted_axis;
    let rotation = in_tip.to_angle() - along.to_angle();
    let rotation = animated + wrap_angle(rotation - animated);
    if rotation.is_finite() { Some(rotation) } else { None }
}

fn value(rng: &mut Rng, lo: f32, hi: f32) -> f32 {
    match rng.below(50) {
        0 => f32::NAN,
        1 => f32::INFINITY,
        2 => 0.0,
        3 => 1.0e30,
        4 => 1.0e-30,
        _ => rng.range(lo, hi),
    }
}

fn basis(rng: &mut Rng) -> Mat2 {
    let scale = Vec2::new(value(rng, 0.1, 3.0) * rng.sign(), rng.range(0.1, 3.0) * rng.sign());
    let skew = if rng.unit() < 0.5 { 0.0 } else { rng.range(-1.0, 1.0) };
    Mat2::from_angle(value(rng, -PI, PI))
        * Mat2::from_cols(Vec2::new(scale.x, 0.0), Vec2::new(-scale.y * skew.sin(), scale.y * skew.cos()))
}

fn bits(v: Option<f32>) -> Option<u32> {
    v.map(f32::to_bits)
}

fn vbits(v: Option<Vec2>) -> Option<(u32, u32)> {
    v.map(|v| (v.x.to_bits(), v.y.to_bits()))
}

#[test]
fn the_core_gives_the_node_formulas_bits() {
    let mut rng = Rng(77);
    let (mut turned, mut placed) = (0, 0);
    for case in 0..100_000 {
        let speed = value(&mut rng, -2.0, 20.0);
        let delta = f64::from(value(&mut rng, -0.1, 0.2));
        let finite = delta.is_finite() && speed != f32::INFINITY;
        if finite {
            assert_eq!(max_step(speed, delta).to_bits(), grounder_max_step(speed, delta).to_bits(), "case {case}");
            assert_eq!(max_step(speed, delta).to_bits(), motion_max_step(speed, delta).to_bits(), "case {case}");
        } else if speed != f32::INFINITY {
            // A frame of infinite or NaN time: Motion::new's rule (no motion), not the grounder's (no limit).
            assert_eq!(max_step(speed, delta).to_bits(), motion_max_step(speed, delta).to_bits(), "case {case}");
        }
        let gravity = Vec2::new(value(&mut rng, -1000.0, 1000.0), value(&mut rng, -1000.0, 1000.0));
        assert_eq!(vbits(Some(up_from_gravity(gravity))), vbits(Some(node_world_up(gravity))), "case {case}");

        let (global, local) = (basis(&mut rng), basis(&mut rng));
        let authored = Vec2::new(rng.range(-100.0, 100.0), rng.range(-100.0, 100.0));
        let offset = Vec2::new(value(&mut rng, -50.0, 50.0), rng.range(-50.0, 50.0));
        let core = offset_in_parent(global, local, offset).map(|p| authored + p).filter(|p| p.is_finite());
        let node = node_hips_position(global, local, authored, offset);
        assert_eq!(vbits(core), vbits(node), "case {case}");
        placed += usize::from(node.is_some());

        let current = value(&mut rng, -PI, PI);
        let foot_local = Affine2::from_mat2_translation(
            Mat2::from_angle(current) * basis(&mut rng),
            Vec2::new(rng.range(-20.0, 20.0), 0.0),
        );
        let animated = value(&mut rng, -10.0, 10.0);
        let animated_tip = Affine2::from_mat2_translation(basis(&mut rng), Vec2::new(rng.range(-300.0, 300.0), 0.0));
        let (tilt, tip_now) = (value(&mut rng, -0.6, 0.6), basis(&mut rng));
        let foot_basis = Mat2::from_angle(-current) * foot_local.matrix2;
        let core = foot_rotation(animated_tip, animated, foot_basis, tilt, tip_now);
        let node = node_foot_turn(current, foot_local, animated, animated_tip, tilt, tip_now);
        assert_eq!(bits(core), bits(node), "case {case}");
        turned += usize::from(node.is_some());
    }
    assert!(turned > 50_000 && placed > 50_000, "{turned} feet turned, {placed} hips placed");
}
