//! The plane geometry of a contact: sliding on a bone's circle, the velocity a contact leaves.

use glam::Vec2;

use crate::spring_contact::*;

#[test]
fn sliding_on_a_circle_stays_on_it_and_on_the_free_side() {
    let floor = Contact::new(Vec2::new(0.0, 50.0), -Vec2::Y).unwrap();
    let centre = Vec2::ZERO;
    // Wanted straight down through the floor at y = 50, bone 80 long: it ends where the circle meets the floor,
    // on the side it came from.
    let wanted = Vec2::new(-1.0, 80.0).normalize() * 80.0;
    let slid = slide_on_circle(centre, 80.0, wanted, None, &[Some(floor)]).unwrap();
    assert!((slid.length() - 80.0).abs() < 1e-3 && (slid.y - 50.0).abs() < 1e-3 && slid.x < 0.0, "{slid}");
    assert_eq!(slide_on_circle(centre, 80.0, Vec2::new(0.0, -80.0), None, &[Some(floor)]), Some(Vec2::new(0.0, -80.0)));
    // The whole circle below a ceiling: no answer.
    assert_eq!(slide_on_circle(Vec2::new(0.0, 200.0), 80.0, Vec2::new(0.0, 280.0), None, &[Some(floor)]), None);
    assert!(Contact::new(Vec2::ZERO, Vec2::new(f32::NAN, 1.0)).is_none());
    assert!(Contact::new(Vec2::ZERO, Vec2::ZERO).is_none());
    assert!(Contact::new(Vec2::new(f32::INFINITY, 0.0), Vec2::Y).is_none());
}

#[test]
fn a_bone_swinging_into_a_surface_stops_on_the_side_it_came_from() {
    // A bone of 80 px from the origin, a floor whose free side is y < 40. The bone swings from pointing right
    // (free) to pointing a little left of straight down: the crossing nearest to where it wants to go is the
    // left one, on the far side of the floor's patch it would sweep through; it must stop at the right one.
    let floor = Contact::new(Vec2::new(0.0, 40.0), Vec2::new(0.0, -1.0)).unwrap();
    let came_from = Vec2::new(80.0, 0.0);
    let wanted = Vec2::from_angle(std::f32::consts::FRAC_PI_2 + 0.2) * 80.0;
    let stop = slide_on_circle(Vec2::ZERO, 80.0, wanted, Some(came_from), &[Some(floor)]).unwrap();
    assert!(stop.x > 0.0 && (stop.y - 40.0).abs() < 1e-3, "stopped at {stop}");
    // Without where it came from, the nearest crossing.
    let nearest = slide_on_circle(Vec2::ZERO, 80.0, wanted, None, &[Some(floor)]).unwrap();
    assert!(nearest.x < 0.0, "nearest {nearest}");
    // Mirrored: the mirrored answer, bit for bit.
    let m = |v: Vec2| Vec2::new(-v.x, v.y);
    let mirrored = slide_on_circle(Vec2::ZERO, 80.0, m(wanted), Some(m(came_from)), &[Some(floor)]).unwrap();
    assert_eq!(mirrored, m(stop));
}

#[test]
fn a_contact_never_speeds_a_bone_up() {
    for i in 0..64 {
        let direction = Vec2::from_angle(i as f32 * 0.1);
        let normal = Vec2::from_angle(i as f32 * 0.37 + 1.0);
        for velocity in [-5.0, -0.5, 0.0, 0.5, 5.0] {
            let after = slide_velocity(velocity, direction, normal);
            assert!(after.abs() <= velocity.abs() && after * velocity >= 0.0);
            // Mirrored: the same magnitude, the mirrored sign.
            let m = |v: Vec2| Vec2::new(-v.x, v.y);
            assert_eq!(slide_velocity(-velocity, m(direction), m(normal)), -after);
        }
    }
}
