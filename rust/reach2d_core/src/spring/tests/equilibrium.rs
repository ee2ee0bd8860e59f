//! A chain at rest stays at rest, settles where gravity and its springs balance, and loses energy without input.

use glam::Vec2;

use super::fixtures::{DOWN, Sim, directions, goal, pose};
use crate::angle::{signed_angle, wrap_angle};
use crate::spring::{SpringSettings, spring_energy};

#[test]
fn a_chain_at_rest_without_gravity_stays_at_rest() {
    let mut joints = Vec::new();
    pose(Vec2::new(100.0, 50.0), &[30.0, 0.0, 20.0, 25.0], &[0.4, 0.3, -1.2, 2.5], &mut joints);
    let settings = SpringSettings { stiffness: 500.0, damping: 3.0, ..SpringSettings::default() };
    let mut sim = Sim::new(4);
    for delta in [1.0 / 60.0, 1.0 / 15.0, 1.0 / 240.0, 0.5, 0.0] {
        let report = sim.step(&goal(&joints), &settings, delta);
        assert_eq!(report.deviation, 0.0);
        for (a, b) in sim.out.iter().zip(&joints) {
            assert!(a.distance(*b) < 1e-4, "{a} vs {b}");
        }
        assert!(sim.bones.iter().all(|b| b.velocity == 0.0));
    }
}

/// Each bone's equilibrium in the cascade: `k·x = (u × g) / L`, solved by bisection, root to tip.
fn hanging_directions(lengths: &[f32], rest: &[f32], k: f32, g: Vec2) -> Vec<Vec2> {
    let mut parent = 0.0f32;
    let mut out = Vec::new();
    for (&l, &r) in lengths.iter().zip(rest) {
        // f(x) = k·x − (u(parent + r + x) × g) / L; the equilibrium with |x| < PI nearest the gravity side.
        let f = |x: f32| k * x - Vec2::from_angle(parent + r + x).perp_dot(g) / l;
        let toward = wrap_angle(g.to_angle() - (parent + r));
        let (mut lo, mut hi) = if toward >= 0.0 { (0.0, toward) } else { (toward, 0.0) };
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if (f(lo) <= 0.0) == (f(mid) <= 0.0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let x = 0.5 * (lo + hi);
        parent += r + x;
        out.push(Vec2::from_angle(parent));
    }
    out
}

#[test]
fn settles_at_the_analytic_hanging_direction() {
    let lengths = [40.0, 30.0, 20.0];
    let rest = [0.0, 0.3, -0.2];
    let mut joints = Vec::new();
    pose(Vec2::ZERO, &lengths, &rest, &mut joints);
    for k in [0.0, 20.0, 60.0] {
        let settings = SpringSettings { stiffness: k, damping: 5.0, gravity: DOWN, ..SpringSettings::default() };
        let mut sim = Sim::new(3);
        for _ in 0..(60 * 15) {
            sim.step(&goal(&joints), &settings, 1.0 / 60.0);
        }
        let expected = hanging_directions(&lengths, &rest, k, DOWN);
        for (got, want) in directions(&sim.out).iter().zip(&expected) {
            let error = signed_angle(*want, *got).abs();
            assert!(error < 1e-3, "k {k}: {got} vs {want} ({error} rad)");
        }
        if k == 0.0 {
            assert!(expected.iter().all(|d| d.distance(Vec2::Y) < 1e-4));
        }
    }
}

#[test]
fn energy_decays_without_input() {
    let lengths = [30.0, 25.0, 20.0, 15.0, 10.0];
    let mut joints = Vec::new();
    pose(Vec2::new(5.0, 5.0), &lengths, &[0.2, 0.1, -0.3, 0.4, 0.0], &mut joints);
    // Damping ratios c / (2·sqrt(k)) from 0.07 (very bouncy) to 0.5, and a free chain.
    for (k, c) in [(200.0, 12.0), (50.0, 1.0), (3000.0, 2.0), (3000.0, 55.0), (0.0, 4.0)] {
        let settings = SpringSettings { stiffness: k, damping: c, ..SpringSettings::default() };
        let mut sim = Sim::new(5);
        sim.step(&goal(&joints), &settings, 0.0);
        for (i, bone) in sim.bones.iter_mut().enumerate() {
            bone.angle = wrap_angle(bone.angle + 0.8 * (i as f32 - 2.0));
            bone.velocity = 3.0 - i as f32;
        }
        let initial = spring_energy(&sim.bones, &settings, &[]);
        // It never grows, step after step, and is (nearly) gone after 20 s even with the least damping.
        let mut energy = initial;
        for frame in 0..1200 {
            sim.step(&goal(&joints), &settings, 1.0 / 60.0);
            let next = spring_energy(&sim.bones, &settings, &[]);
            assert!(next <= energy * (1.0 + 1e-5) + 1e-9, "k {k} c {c}: frame {frame}: {energy} -> {next}");
            energy = next;
        }
        // k = 0: no spring energy, and the free chain keeps any relative angle; only its motion dies out.
        assert!(energy < 1e-6 * initial, "k {k} c {c}: energy {initial} -> {energy}");
    }
}
