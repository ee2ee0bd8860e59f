//! Chains against walls and floors: resting, thrown, mirrored, in a corner, and never gaining energy.

use glam::Vec2;

use super::sim::{Sim, straight};
use super::worlds::{Boxes, floor_world};
use crate::angle::ChainLimits;
use crate::spring::{SpringGoal, SpringSettings, spring_energy, step_spring};
use crate::spring_contact::*;

#[test]
fn a_tail_hanging_over_a_floor_rests_on_it_and_still_swings() {
    let lengths = [40.0, 40.0, 40.0];
    let settings =
        SpringSettings { stiffness: 5.0, damping: 2.0, gravity: Vec2::new(0.0, 980.0), ..SpringSettings::default() };
    let radius = 6.0;
    let mut world = floor_world();
    let mut sim = Sim::new(3);
    let mut xs = Vec::new();
    for frame in 0..600 {
        let t = frame as f32 / 60.0;
        // The root 60 px above the floor, swaying right and left; the tail would hang 60 px into the floor.
        let root = Vec2::new(80.0 * (1.5 * t).sin(), 40.0);
        sim.step(&straight(root, &lengths, 0.3), &settings, 1.0 / 60.0, radius, &mut world);
        for p in &sim.out[1..] {
            assert!(p.y <= 100.0 - radius + 1e-3, "frame {frame}: an end at {p} is inside the floor");
            assert!(p.is_finite());
        }
        xs.push(sim.out[3].x);
    }
    // Resting on the floor: the tip is within a hair of it, and it still follows the sway.
    assert!((sim.out[3].y - (100.0 - radius)).abs() < 0.5, "tip at {}", sim.out[3]);
    let (lo, hi) = xs[300..].iter().fold((f32::MAX, f32::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    assert!(hi - lo > 100.0, "the tip swept {lo}..{hi}");
}

#[test]
fn a_tail_thrown_at_a_thin_wall_does_not_pass() {
    let lengths = [50.0, 50.0, 50.0, 50.0];
    // A 1 px wall at x = 120, 400 px high; the root spins the tail into it at up to 60 rad/s, at 30 and 10 fps.
    for delta in [1.0 / 30.0, 0.1] {
        let mut world = Boxes(vec![(Vec2::new(120.0, -200.0), Vec2::new(121.0, 200.0))]);
        let settings = SpringSettings { stiffness: 3000.0, damping: 1.0, ..SpringSettings::default() };
        let mut sim = Sim::new(4);
        let mut contacts = 0;
        for frame in 0..120 {
            let angle = core::f32::consts::PI - (frame as f32 * delta * 6.0).min(3.0) * (frame as f32 * delta * 20.0);
            let last = sim.out.clone();
            contacts += sim.step(&straight(Vec2::ZERO, &lengths, angle), &settings, delta, 4.0, &mut world);
            for p in &sim.out {
                assert!(
                    p.x <= 120.0 - 4.0 + 1e-3,
                    "delta {delta} frame {frame}: {p} passed the wall; {:?} prev {:?}",
                    sim.out,
                    last
                );
            }
        }
        // Enough contacts to have tested something: how many depends on the platform's sin and cos (15 at
        // 30 fps on x86_64, 10 as wasm under Node.js), the wall holds on every one.
        assert!(contacts >= 5, "delta {delta}: {contacts} contacts");
    }
}

#[test]
fn a_mirrored_chain_in_a_mirrored_world_is_the_mirror_image() {
    let lengths = [30.0, 35.0, 25.0, 20.0];
    let settings =
        SpringSettings { stiffness: 40.0, damping: 1.5, gravity: Vec2::new(150.0, 980.0), ..SpringSettings::default() };
    let mirrored_settings = SpringSettings { gravity: Vec2::new(-150.0, 980.0), ..settings };
    let m = |v: Vec2| Vec2::new(-v.x, v.y);
    let mut world = Boxes(vec![
        (Vec2::new(-300.0, 90.0), Vec2::new(300.0, 120.0)),
        (Vec2::new(60.0, -100.0), Vec2::new(64.0, 90.0)),
    ]);
    let mut mirrored_world = world.mirrored();
    let (mut a, mut b) = (Sim::new(4), Sim::new(4));
    let (mut worst, mut contacts) = (0.0f32, 0);
    for frame in 0..400 {
        let t = frame as f32 / 60.0;
        let root = Vec2::new(70.0 * (1.7 * t).sin() + 10.0, 20.0 * (2.3 * t).cos());
        let joints = straight(root, &lengths, 0.4 + 0.5 * (3.0 * t).sin());
        let mirrored: Vec<Vec2> = joints.iter().map(|&p| m(p)).collect();
        contacts += a.step(&joints, &settings, 1.0 / 60.0, 5.0, &mut world);
        let goal = SpringGoal {
            joints: &mirrored,
            limits: ChainLimits { root_direction: -Vec2::X, per_bone: &[] },
            scales: &[],
        };
        step_spring(&mut b.frame, &mut b.bones, &goal, &mirrored_settings, 1.0 / 60.0, &mut b.out).unwrap();
        let previous = b.primed.then_some(&b.previous[..]);
        collide_spring(
            &b.frame,
            &mut b.bones,
            &goal,
            &mirrored_settings,
            SpringEnds { radii: &[5.0; 4], previous },
            &mut b.out,
            &mut mirrored_world,
        );
        b.previous.copy_from_slice(&b.out);
        b.primed = true;
        for (p, q) in a.out.iter().zip(&b.out) {
            worst = worst.max(m(*p).distance(*q));
        }
    }
    assert!(contacts > 50, "{contacts} contacts");
    // Not bit for bit: the mirrored chain's angles round differently (1e-5 px a step), and a sliding contact
    // carries that on (measured 0.0015 px).
    assert!(worst < 0.01, "worst mirrored joint difference {worst} px");
}

#[test]
fn an_end_pushed_out_of_a_wall_into_a_floor_ends_clear_of_both() {
    // A corner: a floor (y > 100) and a 10 px wall (50 < x < 60) standing on it. A one-bone chain from
    // (30, 60) whose goal lies inside the wall (a teleport, or a turn that mirrors a tail into it): the wall's
    // nearest free line is its left face, and on the bone's circle the point there nearest the goal is in the
    // floor. The end must finish clear of both.
    let settings = SpringSettings { stiffness: 400.0, damping: 5.0, ..SpringSettings::default() };
    let radius = 5.0;
    let mut world = Boxes(vec![
        (Vec2::new(-300.0, 100.0), Vec2::new(300.0, 140.0)),
        (Vec2::new(50.0, -100.0), Vec2::new(60.0, 100.0)),
    ]);
    let root = Vec2::new(30.0, 60.0);
    let into_wall = (Vec2::new(55.0, 92.0) - root).to_angle();
    let mut sim = Sim::new(1);
    let touched = sim.step(&straight(root, &[40.0], into_wall), &settings, 1.0 / 60.0, radius, &mut world);
    assert!(touched > 0, "the end started in the wall");
    let end = sim.out[1];
    for &(lo, hi) in &world.0 {
        let gap = (lo - end).max(end - hi).max(Vec2::ZERO).length();
        assert!(gap >= radius - 1e-3, "the end at {end} is {gap} px from a box");
    }
    assert!((end.distance(root) - 40.0).abs() < 1e-3, "the bone keeps its length");
}

#[test]
fn contacts_never_add_energy() {
    let lengths = [40.0, 30.0, 20.0];
    // No gravity: the spring alone swings the chain into a wall to its right, again and again.
    let settings = SpringSettings { stiffness: 300.0, damping: 0.5, ..SpringSettings::default() };
    let mut world = Boxes(vec![(Vec2::new(70.0, -300.0), Vec2::new(90.0, 300.0))]);
    let mut sim = Sim::new(3);
    let joints = straight(Vec2::ZERO, &lengths, core::f32::consts::FRAC_PI_2);
    sim.step(&joints, &settings, 0.0, 5.0, &mut world);
    for (i, bone) in sim.bones.iter_mut().enumerate() {
        bone.velocity = -12.0 + 3.0 * i as f32;
    }
    let initial = spring_energy(&sim.bones, &settings, &[]);
    let mut energy = initial;
    let mut contacts = 0;
    for frame in 0..600 {
        contacts += sim.step(&joints, &settings, 1.0 / 60.0, 5.0, &mut world);
        let next = spring_energy(&sim.bones, &settings, &[]);
        // The wall bends a bone against its parent's swing: that parent's motion becomes spring energy over the
        // next frames (measured: 101 -> 112 after the first touch), never above what the chain had before it.
        assert!(next <= initial * (1.0 + 1e-4), "frame {frame}: {energy} -> {next}, initially {initial}");
        energy = next;
    }
    assert!(contacts > 0 && energy < 1e-3 * initial, "{contacts} contacts, energy {initial} -> {energy}");
}
