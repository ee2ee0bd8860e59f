//! A reflected world answers with the reflected answers, bit for bit.

use glam::Vec2;

use super::fixtures::{add_kind, mirror, mirrored, random_world};
use crate::common::Rng;
use crate::local_world::LocalWorld;

#[test]
fn a_mirrored_world_gives_the_mirrored_answers_bit_for_bit() {
    let mut rng = Rng(3);
    let (mut rays, mut overlaps) = (0, 0);
    for case in 0..3000 {
        let (kind, data, t, world) = random_world(&mut rng, case);
        let mut image = LocalWorld::default();
        assert!(add_kind(&mut image, kind, &data, mirrored(t)));
        // Queries near the shape, some of them exactly on its vertices.
        let p = if rng.unit() < 0.2 {
            world.points[rng.below(world.points.len())]
        } else {
            t.translation + Vec2::new(rng.range(-60.0, 60.0), rng.range(-60.0, 60.0))
        };
        let motion = Vec2::new(rng.range(-80.0, 80.0), rng.range(-80.0, 80.0));
        let radius = rng.range(0.5, 25.0);
        let (a, b) = (world.ray(p, motion), image.ray(mirror(p), mirror(motion)));
        assert_eq!(
            a.map(|h| (h.fraction, mirror(h.point), mirror(h.normal))),
            b.map(|h| (h.fraction, h.point, h.normal)),
            "case {case} kind {kind}"
        );
        rays += usize::from(a.is_some());
        let (a, b) = (world.overlap(p, radius), image.overlap(mirror(p), radius));
        assert_eq!(
            a.map(|o| (o.depth, mirror(o.point), mirror(o.normal))),
            b.map(|o| (o.depth, o.point, o.normal)),
            "case {case} kind {kind}"
        );
        overlaps += usize::from(a.is_some());
    }
    assert!(rays > 300 && overlaps > 300, "{rays} hits, {overlaps} overlaps");
}
