use super::*;
use crate::common::assert_approx_eq;

fn settings() -> GroundSettings {
    GroundSettings {
        up: Vec2::new(0.0, -1.0),
        ground_line: Vec2::new(0.0, 100.0),
        foot_height: 6.0,
        ray_above: 30.0,
        ray_below: 50.0,
        max_tilt: 0.4,
    }
}

fn mirror(v: Vec2) -> Vec2 {
    Vec2::new(-v.x, v.y)
}

#[test]
fn a_planted_foot_goes_to_the_ground_plus_its_height_and_a_swing_keeps_its_lift() {
    let s = settings();
    let hit = GroundHit { point: Vec2::new(10.0, 120.0), normal: Vec2::new(0.0, -1.0) };
    assert_eq!(s.planted(Vec2::new(10.0, 94.0), hit), Vec2::new(10.0, 114.0));
    // 10 px above its stance: 10 px above the real ground's stance.
    assert_eq!(s.planted(Vec2::new(10.0, 84.0), hit), Vec2::new(10.0, 104.0));
    // A sunk foot is not lifted.
    assert_eq!(s.lift(Vec2::new(10.0, 99.0)), 0.0);
    let ray = s.ray(Vec2::new(10.0, 84.0));
    assert_eq!(ray, FootRay { from: Vec2::new(10.0, 70.0), to: Vec2::new(10.0, 150.0) });
}

#[test]
fn tilt_is_held_within_the_limit_and_mirrors() {
    let s = settings();
    let steep = GroundHit { point: Vec2::ZERO, normal: Vec2::new(0.6, -0.8) };
    let gentle = GroundHit { point: Vec2::ZERO, normal: Vec2::from_angle(-1.4) };
    assert_approx_eq!(s.tilt(steep), 0.4, 1e-6);
    assert_approx_eq!(s.tilt(gentle), signed_angle(s.up, gentle.normal), 1e-6);
    let mirrored = GroundHit { point: Vec2::ZERO, normal: mirror(steep.normal) };
    assert_eq!(s.tilt(mirrored), -s.tilt(steep));
    let zero = GroundHit { point: Vec2::ZERO, normal: Vec2::ZERO };
    assert_eq!(s.tilt(zero), 0.0);
}

#[test]
fn steps_never_exceed_the_limit() {
    let to = Vec2::new(30.0, -40.0);
    assert_approx_eq!(step_offset(Vec2::ZERO, to, 5.0).length(), 5.0, 1e-5);
    assert_eq!(step_offset(Vec2::ZERO, to, f32::INFINITY), to);
    assert_eq!(step_offset(Vec2::NAN, to, 1.0), to);
    assert_eq!(step_offset(Vec2::ONE, to, -1.0), Vec2::ONE);
    assert_eq!(mirror(step_offset(Vec2::ZERO, to, 5.0)), step_offset(Vec2::ZERO, mirror(to), 5.0));
    assert_eq!(step_value(0.0, 3.0, 1.0), 1.0);
    assert_eq!(step_value(0.0, -3.0, 1.0), -1.0);
    assert_eq!(step_value(0.0, 0.5, 1.0), 0.5);
}

#[test]
fn the_hips_drop_so_each_leg_keeps_its_animated_extension_and_never_rise() {
    let up = Vec2::new(0.0, -1.0);
    let hip = Vec2::new(0.0, 0.0);
    let animated = Vec2::new(10.0, 75.0);
    // 12 px lower ground: 12 px of drop, exactly.
    assert_approx_eq!(reach_drop(hip, animated, animated + Vec2::new(0.0, 12.0), up), 12.0, 1e-4);
    // Higher ground: no drop.
    assert_eq!(reach_drop(hip, animated, animated - Vec2::new(0.0, 12.0), up), 0.0);
    // Farther to the side at the same height: a drop that keeps the distance.
    let goal = animated + Vec2::new(3.0, 0.0);
    let drop = reach_drop(hip, animated, goal, up);
    assert_approx_eq!((goal - (hip - up * drop)).length(), animated.length(), 1e-3);
    assert_eq!(reach_drop(hip, mirror(animated), mirror(goal), up), drop);
    // Out of reach to the side: the closest drop.
    assert_approx_eq!(reach_drop(hip, animated, Vec2::new(200.0, 40.0), up), 40.0, 1e-4);
    assert_eq!(hips_drop([3.0, 12.0, f32::NAN], 40.0), 12.0);
    assert_eq!(hips_drop([3.0, 12.0], 5.0), 5.0);
    assert_eq!(hips_drop([], 5.0), 0.0);
}
