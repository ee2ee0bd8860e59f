//! The swing's arc and the landing aim.

use glam::Vec2;

use super::fixtures::UP;
use crate::common::assert_approx_eq;
use crate::stepper::{LEAD_REACH, StepSettings, landing_aim, swing_point};

#[test]
fn the_arc_runs_from_the_lift_to_the_landing_and_clears_the_higher_end_by_the_height() {
    let (from, to) = (Vec2::new(0.0, 0.0), Vec2::new(40.0, -20.0));
    assert_eq!(swing_point(from, to, UP, 10.0, 0.0), from);
    assert_approx_eq!(swing_point(from, to, UP, 10.0, 1.0), to, 1e-5);
    assert_eq!(swing_point(from, to, UP, 10.0, f32::NAN), to);
    assert_eq!(swing_point(from, to, UP, 10.0, 7.0), swing_point(from, to, UP, 10.0, 1.0));
    // Halfway through a climb of 20 px: 10 px above the higher end; stepping down, 10 px above the start.
    assert_approx_eq!(swing_point(from, to, UP, 10.0, 0.5).y, -30.0, 1e-4);
    assert_approx_eq!(swing_point(to, from, UP, 10.0, 0.5).y, -30.0, 1e-4);
    // Always between the ends across, never below the lower end along up.
    for k in 0..=100 {
        for (a, b) in [(from, to), (to, from)] {
            let p = swing_point(a, b, UP, 10.0, k as f32 / 100.0);
            assert!((-1e-4..=40.0 + 1e-4).contains(&p.x), "{p}");
            assert!(p.y <= 1e-4, "below the lower end: {p}");
        }
    }
}

#[test]
fn a_step_down_a_ledge_moves_across_before_it_drops_and_a_step_up_climbs_before_it_moves() {
    // The ledge's corner is at x = 9, y = 0: the step goes from (0, 0) on the ledge to (10, 48) below it (y down).
    let (top, bottom) = (Vec2::new(0.0, 0.0), Vec2::new(10.0, 48.0));
    for k in 0..=200 {
        let t = k as f32 / 200.0;
        let down = swing_point(top, bottom, UP, 16.0, t);
        assert!(down.x >= 9.0 || down.y <= 0.0, "stepping down, the foot cut the ledge at {down} (t {t})");
        let up = swing_point(bottom, top, UP, 16.0, t);
        assert!(up.x >= 9.0 || up.y <= 0.0, "stepping up, the foot cut the ledge at {up} (t {t})");
    }
}

#[test]
fn the_arc_eases_in_and_out() {
    let (from, to) = (Vec2::ZERO, Vec2::new(60.0, 0.0));
    let early = swing_point(from, to, UP, 0.0, 0.01).x;
    let middle = swing_point(from, to, UP, 0.0, 0.51).x - swing_point(from, to, UP, 0.0, 0.5).x;
    assert!(early < 0.02 && middle > 0.8, "starts slow ({early}), fastest in the middle ({middle})");
}

#[test]
fn degenerate_arcs_stay_finite() {
    let p = Vec2::new(3.0, 4.0);
    assert_eq!(swing_point(p, p, UP, 0.0, 0.5), p);
    assert_eq!(swing_point(p, p, UP, -5.0, 0.5), p);
    assert_eq!(swing_point(p, p, UP, f32::NAN, 0.5), p);
    let q = Vec2::new(9.0, 9.0);
    assert_eq!(swing_point(p, q, UP, f32::INFINITY, 0.5), swing_point(p, q, UP, 0.0, 0.5));
    assert_eq!(swing_point(p, Vec2::new(9.0, f32::MAX), UP, f32::MAX, 0.5), Vec2::new(9.0, f32::MAX));
    assert!(swing_point(p, Vec2::new(9.0, 9.0), Vec2::ZERO, 5.0, 0.3).is_finite());
}

#[test]
fn the_aim_is_the_home_moved_on_by_the_step_plus_the_lead_across_up() {
    let s = StepSettings { step_distance: 40.0, step_duration: 0.2, lead: 0.1, ..StepSettings::default() };
    let home = Vec2::new(100.0, 5.0);
    assert_eq!(landing_aim(home, Vec2::ZERO, UP, &s), home);
    assert_approx_eq!(landing_aim(home, Vec2::new(100.0, 0.0), UP, &s), Vec2::new(130.0, 5.0), 1e-4);
    // Velocity along up (a body bobbing, falling) does not move the aim.
    assert_approx_eq!(landing_aim(home, Vec2::new(100.0, -300.0), UP, &s), Vec2::new(130.0, 5.0), 1e-4);
    // The lead is held within LEAD_REACH steps; the travel over the step is not.
    let fast = landing_aim(home, Vec2::new(1000.0, 0.0), UP, &s);
    assert_approx_eq!(fast.x, 100.0 + 200.0 + LEAD_REACH * 40.0, 1e-3);
    assert_eq!(landing_aim(home, Vec2::NAN, UP, &s), home);
    assert_eq!(landing_aim(home, Vec2::new(f32::MAX, 0.0), UP, &StepSettings { step_duration: 1e10, ..s }), home);
}
