use glam::{Affine2, Mat2, Vec2};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

use super::*;
use crate::common::assert_approx_eq;
use crate::ground::fixtures::screen_ground;

/// The screen's ground (y down, feet on y = 100), feet turning at most 0.6 rad.
fn settings() -> GroundSettings {
    screen_ground(0.6)
}

fn flat(x: f32, y: f32) -> GroundHit {
    GroundHit { point: Vec2::new(x, y), normal: Vec2::new(0.0, -1.0) }
}

/// The foot of the tests: ankle 6 px over the line, toe 16 px ahead on the line.
const ANKLE: Vec2 = Vec2::new(10.0, 94.0);
const TOE: Vec2 = Vec2::new(26.0, 100.0);

/// How far the toe of `placement` is above the surface of `hit`, px (negative: inside).
fn toe_clearance(s: &GroundSettings, placement: FootPlacement, hit: GroundHit) -> f32 {
    let toe = placement.goal + rotate(TOE - ANKLE, placement.tilt);
    (toe - s.toe_floor(ANKLE, TOE, hit)).dot(hit.normal)
}

#[test]
fn without_a_toe_it_is_the_one_ray_foot() {
    let s = settings();
    let heel = GroundHit { point: Vec2::new(10.0, 112.0), normal: Vec2::from_angle(-1.3) };
    let placed = s.place_foot(ANKLE, None, SoleHits { heel: Some(heel), toe: None });
    // Within rounding, not bit for bit: the optimized build differs here in the last bits.
    assert!(placed.grounded);
    assert!(placed.goal.distance(s.planted(ANKLE, heel)) <= 1e-4, "{placed:?}");
    assert_approx_eq!(placed.tilt, s.tilt(heel), 1e-6);
    // A toe whose ray found nothing: the same.
    assert_eq!(s.place_foot(ANKLE, Some(TOE), SoleHits { heel: Some(heel), toe: None }), placed);
    let nothing = s.place_foot(ANKLE, Some(TOE), SoleHits::default());
    assert_eq!(nothing, FootPlacement { goal: ANKLE, tilt: 0.0, grounded: false });
}

#[test]
fn flat_ground_under_both_is_the_one_ray_foot() {
    let s = settings();
    let hits = SoleHits { heel: Some(flat(10.0, 108.0)), toe: Some(flat(26.0, 108.0)) };
    let placed = s.place_foot(ANKLE, Some(TOE), hits);
    assert_approx_eq!(placed.goal, Vec2::new(10.0, 102.0), 1e-5);
    assert_eq!(placed.tilt, 0.0);
    assert_approx_eq!(toe_clearance(&s, placed, flat(26.0, 108.0)), 0.0, 1e-5);
}

#[test]
fn a_bump_under_the_toe_turns_the_foot_and_keeps_the_toe_out() {
    let s = settings();
    // Flat ground at y = 100 under the heel, a bump 4 px high under the toe (its top flat).
    let bump = flat(26.0, 96.0);
    let hits = SoleHits { heel: Some(flat(10.0, 100.0)), toe: Some(bump) };
    let one_ray = s.place_foot(ANKLE, None, hits);
    // One ray: the foot stays flat with its toe 4 px inside the bump.
    assert_approx_eq!(toe_clearance(&s, one_ray, bump), -4.0, 1e-5);
    let placed = s.place_foot(ANKLE, Some(TOE), hits);
    // The slope between the contacts: 4 px over 16 px, toe up (a negative angle on a y-down screen).
    assert_approx_eq!(placed.tilt, -(4.0f32 / 16.0).atan(), 1e-5);
    // The foot turned about its heel's contact: the turn lifted the toe onto the bump's top; the sole (16 px) is a
    // little shorter than the line between the contacts, so the whole foot came up 0.12 px more to clear it.
    let heel_point = placed.goal - rotate(s.up, placed.tilt) * 6.0;
    assert_approx_eq!(heel_point.x, 10.0, 1e-4);
    assert!(heel_point.y <= 100.0 && heel_point.y > 99.8, "the heel on (just over) its ground: {heel_point}");
    assert_approx_eq!(toe_clearance(&s, placed, bump), 0.0, 1e-4);
    // A steeper bump than max_tilt: turned as far as allowed, then the whole foot comes up.
    let high = flat(26.0, 88.0);
    let steep = s.place_foot(ANKLE, Some(TOE), SoleHits { heel: Some(flat(10.0, 100.0)), toe: Some(high) });
    assert_approx_eq!(steep.tilt, -0.6, 1e-6);
    assert_approx_eq!(toe_clearance(&s, steep, high), 0.0, 1e-4);
    assert!(steep.goal.y < 94.0, "lifted above the heel's ground: {}", steep.goal);
}

#[test]
fn the_slope_comes_from_the_two_contacts_not_their_normals() {
    let s = settings();
    // Two flat steps, the toe's 3 px lower: the foot tilts down the 3 px over 16 px (the contacts' normals both up).
    let hits = SoleHits { heel: Some(flat(10.0, 100.0)), toe: Some(flat(26.0, 103.0)) };
    let placed = s.place_foot(ANKLE, Some(TOE), hits);
    assert_approx_eq!(placed.tilt, (3.0f32 / 16.0).atan(), 1e-5);
    assert_approx_eq!(s.sole_normal(hits).unwrap(), Vec2::new(3.0, -16.0).normalize(), 1e-6);
    // A riser between them (contacts one above the other): the heel's normal.
    let riser = SoleHits { heel: Some(flat(10.0, 100.0)), toe: Some(flat(10.0, 80.0)) };
    assert_eq!(s.sole_normal(riser), Some(Vec2::new(0.0, -1.0)));
    let same = SoleHits { heel: Some(flat(10.0, 100.0)), toe: Some(flat(10.0, 100.0)) };
    assert_eq!(s.sole_normal(same), Some(Vec2::new(0.0, -1.0)));
    assert_eq!(s.sole_normal(SoleHits::default()), None);
}

#[test]
fn a_toe_alone_stands_on_its_ground_and_a_wall_holds_nothing() {
    let s = settings();
    // The heel over a gap: the foot goes down onto the toe's ground (8 px lower), turned to its normal (flat).
    let toe_ground = flat(26.0, 108.0);
    let placed = s.place_foot(ANKLE, Some(TOE), SoleHits { heel: None, toe: Some(toe_ground) });
    assert_eq!(placed.tilt, 0.0);
    assert_approx_eq!(toe_clearance(&s, placed, toe_ground), 0.0, 1e-5);
    assert!(placed.grounded);
    // A wall under the toe (normal across): it holds no toe; the heel is planted as with one ray.
    let wall = GroundHit { point: Vec2::new(26.0, 90.0), normal: Vec2::new(-1.0, 0.0) };
    let heel = flat(10.0, 100.0);
    let walled = s.place_foot(ANKLE, Some(TOE), SoleHits { heel: Some(heel), toe: Some(wall) });
    assert_approx_eq!(walled.goal, s.planted(ANKLE, heel), 1e-5);
}

#[test]
fn the_toe_keeps_the_height_the_animation_gave_it() {
    let s = settings();
    // The whole foot 10 px up in a swing: 10 px above the real ground, toe included.
    let (ankle, toe) = (ANKLE - Vec2::new(0.0, 10.0), TOE - Vec2::new(0.0, 10.0));
    assert_eq!(s.toe_height(toe), 10.0);
    let on_ground = SoleHits { heel: Some(flat(10.0, 104.0)), toe: Some(flat(26.0, 104.0)) };
    assert_approx_eq!(s.place_foot(ankle, Some(toe), on_ground).goal, Vec2::new(10.0, 88.0), 1e-5);
    // A toe the animation drew 2 px into the ground line: on flat ground the foot is the animation's, the toe as far
    // in.
    let sunk = TOE + Vec2::new(0.0, 2.0);
    assert_eq!(s.toe_height(sunk), -2.0);
    let on_line = SoleHits { heel: Some(flat(10.0, 100.0)), toe: Some(flat(26.0, 100.0)) };
    assert_approx_eq!(s.place_foot(ANKLE, Some(sunk), on_line).goal, ANKLE, 1e-5);
    // On an even slope the foot turns to (0.3 rad, within max_tilt): the whole foot turned rigidly, heel planted.
    let normal = Vec2::from_angle(-core::f32::consts::FRAC_PI_2 + 0.3);
    let along = normal.perp();
    let heel_point = Vec2::new(10.0, 100.0);
    let toe_point = heel_point + along * (16.0 / along.x);
    let heel_hit = GroundHit { point: heel_point, normal };
    let slope = SoleHits { heel: Some(heel_hit), toe: Some(GroundHit { point: toe_point, normal }) };
    let placed = s.place_foot(ANKLE, Some(sunk), slope);
    assert_approx_eq!(placed.tilt, 0.3, 1e-5);
    assert_approx_eq!(placed.goal, s.planted(ANKLE, heel_hit), 1e-4);
}

#[test]
fn the_toe_is_the_foot_bones_end_in_the_animated_pose() {
    let tip = Affine2::from_mat2_translation(Mat2::from_angle(0.5), Vec2::new(40.0, 90.0));
    let end = foot_end(tip, Vec2::new(0.0, 30.0), -0.3, Mat2::IDENTITY, Vec2::new(14.0, 0.0));
    let expected = tip.transform_point2(Vec2::new(0.0, 30.0) + Vec2::from_angle(-0.3) * 14.0);
    assert_approx_eq!(end, expected, 1e-4);
    // Mirrored (the tip reflected across x = 0): the mirrored toe, with the same local values.
    let reflect = Mat2::from_diagonal(Vec2::new(-1.0, 1.0));
    let mirrored_tip = Affine2::from_mat2_translation(reflect * tip.matrix2, reflect * tip.translation);
    let mirrored = foot_end(mirrored_tip, Vec2::new(0.0, 30.0), -0.3, Mat2::IDENTITY, Vec2::new(14.0, 0.0));
    assert_approx_eq!(mirrored, reflect * end, 1e-4);
}

// --- Properties ---------------------------------------------------------------------------------------------------

/// A contact: a point near the foot and a normal within 1.2 rad of up (y down).
fn contact() -> impl Strategy<Value = GroundHit> {
    (-40.0f32..60.0, 60.0f32..140.0, -1.2f32..1.2).prop_map(|(x, y, angle)| GroundHit {
        point: Vec2::new(x, y),
        normal: Vec2::from_angle(-core::f32::consts::FRAC_PI_2 + angle),
    })
}

#[derive(Clone, Copy, Debug)]
struct Case {
    ankle: Vec2,
    toe: Vec2,
    heel_hit: Option<GroundHit>,
    toe_hit: Option<GroundHit>,
    max_tilt: f32,
    up_angle: f32,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (-20.0f32..40.0, 70.0f32..100.0),
        (-30.0f32..30.0, -15.0f32..15.0),
        prop::option::weighted(0.9, contact()),
        prop::option::weighted(0.9, contact()),
        0.0f32..core::f32::consts::FRAC_PI_2,
        -0.3f32..0.3,
    )
        .prop_map(|(ankle, reach, heel_hit, toe_hit, max_tilt, up_angle)| {
            let ankle = Vec2::new(ankle.0, ankle.1);
            Case { ankle, toe: ankle + Vec2::new(reach.0, reach.1), heel_hit, toe_hit, max_tilt, up_angle }
        })
}

fn settings_of(case: &Case) -> GroundSettings {
    GroundSettings {
        up: Vec2::from_angle(-core::f32::consts::FRAC_PI_2 + case.up_angle),
        max_tilt: case.max_tilt,
        ..settings()
    }
}

fn reflect(v: Vec2) -> Vec2 {
    Vec2::new(-v.x, v.y)
}

fn reflect_hit(hit: GroundHit) -> GroundHit {
    GroundHit { point: reflect(hit.point), normal: reflect(hit.normal) }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    /// Finite, within max_tilt, the heel never below its ground, the toe never inside its contact's surface (when
    /// that surface can hold it), and the reflected input gives the reflected output with the tilt negated.
    #[test]
    fn the_foot_stays_above_both_contacts_and_mirrors(c in case()) {
        let s = settings_of(&c);
        let hits = SoleHits { heel: c.heel_hit, toe: c.toe_hit };
        let placed = s.place_foot(c.ankle, Some(c.toe), hits);
        prop_assert!(placed.goal.is_finite() && placed.tilt.is_finite());
        prop_assert!(placed.tilt.abs() <= c.max_tilt + 1e-6);
        prop_assert_eq!(placed.grounded, c.heel_hit.is_some() || c.toe_hit.is_some());
        let toe_holds = c.toe_hit.is_some_and(|toe| s.up.dot(toe.normal) > 0.05);
        if let Some(heel) = c.heel_hit {
            // The heel's sole point (foot_height under the ankle along the turned foot's up, or along the ground's
            // normal for a heel alone) is not below the heel's ground.
            let under = if toe_holds { rotate(s.up, placed.tilt) } else { heel.normal };
            let sole = placed.goal - under * s.foot_height;
            let clearance = (sole - heel.point).dot(heel.normal);
            prop_assert!(clearance >= -1e-3, "the heel went {} px below its ground", -clearance);
        }
        if let Some(toe) = c.toe_hit.filter(|_| toe_holds) {
            let turned = placed.goal + rotate(c.toe - c.ankle, placed.tilt);
            let clearance = (turned - s.toe_floor(c.ankle, c.toe, toe)).dot(toe.normal);
            prop_assert!(clearance >= -1e-3, "the toe is {} px inside its ground", -clearance);
        }
        let mirrored_settings =
            GroundSettings { up: reflect(s.up), ground_line: reflect(s.ground_line), ..s };
        let mirrored_hits = SoleHits { heel: c.heel_hit.map(reflect_hit), toe: c.toe_hit.map(reflect_hit) };
        let mirrored = mirrored_settings.place_foot(reflect(c.ankle), Some(reflect(c.toe)), mirrored_hits);
        prop_assert!((mirrored.goal - reflect(placed.goal)).length() <= 1e-3, "{:?} vs {:?}", mirrored, placed);
        prop_assert!((mirrored.tilt + placed.tilt).abs() <= 1e-5);
    }

    /// The goal for any tilt (a speed limit's step toward the wanted one) keeps that turned toe above its floor too.
    #[test]
    fn a_partly_turned_foot_keeps_its_toe_out(c in case(), part in -1.0f32..1.0) {
        let s = settings_of(&c);
        let hits = SoleHits { heel: c.heel_hit, toe: c.toe_hit };
        let tilt = part * c.max_tilt;
        let goal = s.foot_goal(c.ankle, Some(c.toe), hits, tilt);
        prop_assert!(goal.is_finite());
        if let Some(toe) = c.toe_hit.filter(|toe| s.up.dot(toe.normal) > 0.05) {
            let clearance = (goal + rotate(c.toe - c.ankle, tilt) - s.toe_floor(c.ankle, c.toe, toe)).dot(toe.normal);
            prop_assert!(clearance >= -1e-3, "the toe is {} px inside its ground", -clearance);
        }
    }
}
