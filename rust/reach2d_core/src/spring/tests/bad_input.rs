//! Bad input changes nothing; a long frame or a huge impulse stays finite.

use glam::Vec2;

use super::fixtures::{DOWN, Sim, goal, pose};
use crate::angle::ChainLimits;
use crate::error::SolveError;
use crate::spring::step::MAX_RELATIVE_SPEED;
use crate::spring::{SpringBone, SpringError, SpringGoal, SpringScale, SpringSettings, step_spring};

#[test]
fn bad_input_changes_nothing() {
    let mut joints = Vec::new();
    pose(Vec2::ZERO, &[10.0, 10.0], &[0.0, 0.5], &mut joints);
    let settings = SpringSettings { gravity: DOWN, ..SpringSettings::default() };
    let mut sim = Sim::new(2);
    sim.step(&goal(&joints), &settings, 1.0 / 60.0);
    let (frame, bones, out) = (sim.frame, sim.bones.clone(), sim.out.clone());
    let mut nan = joints.clone();
    nan[1].x = f32::NAN;
    let bad_settings = [
        SpringSettings { stiffness: -1.0, ..settings },
        SpringSettings { damping: f32::NAN, ..settings },
        SpringSettings { gravity: Vec2::new(f32::INFINITY, 0.0), ..settings },
        SpringSettings { max_angle_step: 0.0, ..settings },
    ];
    let s = &mut sim;
    let mut attempt = |g: &SpringGoal, st: &SpringSettings, d: f32| {
        assert!(step_spring(&mut s.frame, &mut s.bones, g, st, d, &mut s.out).is_err());
    };
    attempt(&goal(&nan), &settings, 0.1);
    attempt(&goal(&joints[..2]), &settings, 0.1);
    attempt(&goal(&joints), &settings, f32::NAN);
    attempt(
        &SpringGoal { limits: ChainLimits { root_direction: Vec2::ZERO, per_bone: &[] }, ..goal(&joints) },
        &settings,
        0.1,
    );
    attempt(&SpringGoal { scales: &[SpringScale::default()], ..goal(&joints) }, &settings, 0.1);
    attempt(
        &SpringGoal { scales: &[SpringScale { stiffness: -1.0, damping: 1.0 }; 2], ..goal(&joints) },
        &settings,
        0.1,
    );
    for st in &bad_settings {
        attempt(&goal(&joints), st, 0.1);
    }
    assert_eq!((sim.frame, &sim.bones, &sim.out), (frame, &bones, &out));
    let mut empty: [SpringBone; 0] = [];
    assert_eq!(
        step_spring(&mut sim.frame, &mut empty, &goal(&joints[..1]), &settings, 0.1, &mut [Vec2::ZERO]),
        Err(SpringError::Chain(SolveError::EmptyChain))
    );
    assert!(SpringError::InvalidSettings.to_string().contains("stiffness"));
}

#[test]
fn a_long_frame_simulates_at_most_max_delta_and_stays_finite() {
    let mut joints = Vec::new();
    pose(Vec2::ZERO, &[10.0, 10.0], &[0.0, 0.0], &mut joints);
    let settings =
        SpringSettings { stiffness: 1e7, damping: 0.0, gravity: Vec2::new(0.0, 1e9), ..SpringSettings::default() };
    let mut sim = Sim::new(2);
    sim.step(&goal(&joints), &settings, 1.0 / 60.0);
    let report = sim.step(&goal(&joints), &settings, 100.0);
    assert_eq!(report.substeps, 60);
    assert!(sim.out.iter().all(|p| p.is_finite()));
    // A teleport-sized jump of the root in one short frame: huge impulse, still finite.
    joints.iter_mut().for_each(|p| *p += Vec2::new(1e9, -1e9));
    sim.step(&goal(&joints), &settings, 1e-6);
    assert!(sim.out.iter().all(|p| p.is_finite()) && sim.bones.iter().all(|b| b.velocity.abs() <= MAX_RELATIVE_SPEED));
}
