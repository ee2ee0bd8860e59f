//! Vertices, edges, refused shapes, values that are not finite, a world boundary's transform.

use glam::{Affine2, Mat2, Vec2};

use super::fixtures::unit_square;
use crate::local_world::LocalWorld;

#[test]
fn a_ray_through_a_vertex_hits_it_with_the_corners_bisector() {
    let world = unit_square();
    let hit = world.ray(Vec2::new(-3.0, -3.0), Vec2::new(4.0, 4.0)).unwrap();
    assert_eq!(hit.point, Vec2::new(-1.0, -1.0));
    assert_eq!(hit.normal, Vec2::new(-1.0, -1.0).normalize());
    // Grazing the corner from the side: it touches at the corner.
    let graze = world.ray(Vec2::new(-3.0, 1.0), Vec2::new(4.0, -4.0)).unwrap();
    assert_eq!(graze.point, Vec2::new(-1.0, -1.0));
    // Along an edge's line, outside: misses; inside the line (on the surface): touches the corner.
    assert!(world.ray(Vec2::new(-3.0, -1.000_001), Vec2::new(6.0, 0.0)).is_none());
    let along = world.ray(Vec2::new(-3.0, -1.0), Vec2::new(6.0, 0.0)).unwrap();
    assert_eq!((along.point, along.normal), (Vec2::new(-1.0, -1.0), -Vec2::X));
    // From inside: skipped; starting on the surface moving in: a hit at 0.
    assert!(world.ray(Vec2::ZERO, Vec2::new(5.0, 0.0)).is_none());
    assert_eq!(world.ray(Vec2::new(1.0, 0.0), Vec2::new(-1.0, 0.0)).map(|h| h.fraction), Some(0.0));
}

#[test]
fn a_circle_centred_on_an_edge_or_a_vertex_is_pushed_along_its_normal() {
    let world = unit_square();
    let on_edge = world.overlap(Vec2::new(0.25, 1.0), 0.5).unwrap();
    assert_eq!((on_edge.point, on_edge.normal, on_edge.depth), (Vec2::new(0.25, 1.0), Vec2::Y, 0.5));
    let on_vertex = world.overlap(Vec2::new(1.0, -1.0), 0.5).unwrap();
    assert_eq!((on_vertex.point, on_vertex.normal), (Vec2::new(1.0, -1.0), Vec2::new(1.0, -1.0).normalize()));
    // Centre inside: the nearest face.
    let inside = world.overlap(Vec2::new(0.0, 0.75), 0.1).unwrap();
    assert_eq!((inside.point, inside.normal), (Vec2::new(0.0, 1.0), Vec2::Y));
    assert!((inside.depth - 0.35).abs() < 1e-6);
    // Just touching is no overlap.
    assert!(world.overlap(Vec2::new(0.0, 1.5), 0.5).is_none());
    // On a two-sided segment and on a capsule's axis: pushed up (-y), also in the mirror image.
    let mut segment = LocalWorld::default();
    assert!(segment.add_segment(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 1.0), Affine2::IDENTITY));
    assert!(segment.add_capsule(30.0, 3.0, Affine2::from_angle(1.2)));
    let o = segment.overlap(Vec2::ZERO, 4.0).unwrap();
    assert!(o.normal.y < 0.0 && (o.depth - 7.0).abs() < 1e-5, "{o:?}");
    let mut circle = LocalWorld::default();
    assert!(circle.add_circle(2.0, Affine2::from_translation(Vec2::new(3.0, 4.0))));
    let o = circle.overlap(Vec2::new(3.0, 4.0), 1.0).unwrap();
    assert_eq!((o.point, o.normal, o.depth), (Vec2::new(3.0, 2.0), Vec2::NEG_Y, 3.0));
}

#[test]
fn degenerate_and_odd_shapes_are_refused_and_add_nothing() {
    let mut world = LocalWorld::default();
    let t = Affine2::IDENTITY;
    assert!(!world.add_convex_polygon([Vec2::ZERO, Vec2::X], t), "two vertices");
    assert!(!world.add_convex_polygon([Vec2::ZERO, Vec2::X, Vec2::X * 2.0], t), "collinear");
    assert!(!world.add_convex_polygon([Vec2::ZERO, Vec2::X, Vec2::X, Vec2::Y], t), "a repeated vertex");
    assert!(!world.add_convex_polygon([Vec2::ZERO, Vec2::new(f32::NAN, 0.0), Vec2::Y], t), "NaN");
    let dart = [Vec2::ZERO, Vec2::new(4.0, 2.0), Vec2::new(0.0, 4.0), Vec2::new(1.0, 2.0)];
    assert!(!world.add_convex_polygon(dart, t), "not convex");
    assert!(!world.add_rectangle(Vec2::ONE, Affine2::from_scale(Vec2::new(1.0, 0.0))), "collapsed");
    let stretched = Affine2::from_scale(Vec2::new(2.0, 1.0));
    assert!(!world.add_circle(1.0, stretched) && !world.add_capsule(4.0, 1.0, stretched), "an ellipse");
    let skewed = Affine2::from_mat2(Mat2::from_cols(Vec2::X, Vec2::new(0.3, 1.0)));
    assert!(!world.add_circle(1.0, skewed));
    assert!(!world.add_circle(f32::NAN, t) && !world.add_circle(-1.0, t));
    assert!(!world.add_segments([Vec2::ZERO, Vec2::X, Vec2::Y], t), "an odd point");
    assert!(!world.add_world_boundary(Vec2::ZERO, 1.0, t), "no normal");
    assert!(!world.add_world_boundary(Vec2::Y, 1.0, Affine2::from_scale(Vec2::ZERO)));
    assert!(world.is_empty() && world.points.is_empty() && world.normals.is_empty());
    // A reflected uniform scale is a similarity.
    assert!(world.add_circle(1.0, Affine2::from_scale(Vec2::new(-2.0, 2.0))));
    assert_eq!(world.overlap(Vec2::new(0.0, 2.5), 1.0).map(|o| o.point), Some(Vec2::new(0.0, 2.0)));
}

#[test]
fn values_that_are_not_finite_answer_nothing() {
    let mut world = unit_square();
    assert!(world.add_circle(1.0, Affine2::from_translation(Vec2::new(5.0, 0.0))));
    assert!(world.add_world_boundary(Vec2::NEG_Y, -10.0, Affine2::IDENTITY));
    assert!(world.add_segments([Vec2::ZERO, Vec2::X], Affine2::IDENTITY));
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert!(world.ray(Vec2::new(bad, 0.0), Vec2::X).is_none());
        assert!(world.ray(Vec2::new(-3.0, 0.0), Vec2::new(1.0, bad)).is_none());
        assert!(world.overlap(Vec2::new(0.0, bad), 1.0).is_none());
        assert!(world.overlap(Vec2::ZERO, bad).is_none());
    }
    assert!(world.ray(Vec2::new(-3.0, 0.0), Vec2::ZERO).is_none());
    // Huge but finite: finite answers or none.
    for p in [Vec2::splat(1e30), Vec2::new(-1e38, 3e38)] {
        if let Some(o) = world.overlap(p, 1e38) {
            assert!(o.point.is_finite() && o.normal.is_finite() && o.depth.is_finite());
        }
        if let Some(h) = world.ray(p, -p) {
            assert!(h.point.is_finite() && h.normal.is_finite());
        }
    }
}

#[test]
fn a_world_boundary_follows_its_transform() {
    // Godot's floor: normal up (-y), 0 from the origin; a body at y = 100 rotated a quarter turn and mirrored.
    let mut world = LocalWorld::default();
    assert!(world.add_world_boundary(Vec2::NEG_Y, 0.0, Affine2::from_translation(Vec2::new(0.0, 100.0))));
    let o = world.overlap(Vec2::new(3.0, 98.0), 5.0).unwrap();
    assert_eq!((o.point, o.normal, o.depth), (Vec2::new(3.0, 100.0), Vec2::NEG_Y, 3.0));
    let hit = world.ray(Vec2::new(0.0, 50.0), Vec2::new(10.0, 100.0)).unwrap();
    assert_eq!((hit.fraction, hit.point), (0.5, Vec2::new(5.0, 100.0)));
    assert!(world.ray(Vec2::new(0.0, 150.0), Vec2::new(0.0, -100.0)).is_none(), "from inside");
    let mut turned = LocalWorld::default();
    let t = Affine2::from_mat2_translation(Mat2::from_cols(Vec2::new(0.0, 2.0), Vec2::new(2.0, 0.0)), Vec2::X * 10.0);
    assert!(turned.add_world_boundary(Vec2::NEG_Y, 1.0, t));
    // Local -y is global -x (the second column reflected), the line 2 px from the origin: x = 8.
    let o = turned.overlap(Vec2::new(9.0, 0.0), 2.0).unwrap();
    assert_eq!((o.point, o.normal), (Vec2::new(8.0, 0.0), Vec2::NEG_X));
}
