//! The local world as the spring's collider.

use glam::{Affine2, Vec2};

use crate::local_world::LocalWorld;

#[test]
fn a_spring_in_a_local_world_rests_on_a_box_like_in_any_world() {
    use crate::{
        ChainLimits, SpringBone, SpringEnds, SpringFrame, SpringGoal, SpringSettings, collide_spring, step_spring,
    };
    let mut world = LocalWorld::with_capacity(4, 16);
    assert!(world.add_rectangle(Vec2::new(400.0, 20.0), Affine2::from_translation(Vec2::new(0.0, 120.0))));
    let settings =
        SpringSettings { stiffness: 5.0, damping: 2.0, gravity: Vec2::new(0.0, 980.0), ..SpringSettings::default() };
    let (mut frame, mut bones) = (SpringFrame::default(), vec![SpringBone::default(); 3]);
    let mut out = vec![Vec2::ZERO; 4];
    let mut previous: Option<Vec<Vec2>> = None;
    for step in 0..300 {
        let root = Vec2::new(60.0 * (step as f32 / 40.0).sin(), 40.0);
        let joints: Vec<Vec2> = (0..4).map(|i| root + Vec2::from_angle(0.3) * 40.0 * i as f32).collect();
        let goal = SpringGoal { joints: &joints, limits: ChainLimits::NONE, scales: &[] };
        step_spring(&mut frame, &mut bones, &goal, &settings, 1.0 / 60.0, &mut out).unwrap();
        let ends = SpringEnds { radii: &[5.0; 3], previous: previous.as_deref() };
        collide_spring(&frame, &mut bones, &goal, &settings, ends, &mut out, &mut world);
        for p in &out[1..] {
            assert!(p.y <= 100.0 - 5.0 + 1e-3, "step {step}: {p}");
        }
        previous = Some(out.clone());
    }
    assert!((out[3].y - 95.0).abs() < 0.5, "resting: {}", out[3]);
}
