//! `SpringChain2D`'s colliders on the engine side: the queries `reach2d_core::collide_spring` asks for, answered by
//! the physics space the node lives in (its `World2D`). First one circle around the whole chain (`intersect_shape`,
//! one result): nothing there, no other query. The sweep is a ray along the end's centre
//! (`intersect_ray`: exact, and a centre that crosses a wall is what passing through it means); the radius is kept
//! by the overlap, a circle's `get_rest_info` (the deepest contact's point and normal). `cast_motion` would sweep
//! the circle itself, but finds its fraction by bisection (to 1/256 of the motion): neither exact nor mirror-exact,
//! and dearer. The query objects are made once and reused: per query only their positions change, so nothing is
//! allocated on the Rust side per frame (Godot itself returns each answer in a `Dictionary`).

use godot::builtin::{GString, Transform2D, Variant, Vector2};
use godot::classes::{
    CircleShape2D, Node2D, PhysicsDirectSpaceState2D, PhysicsRayQueryParameters2D, PhysicsShapeQueryParameters2D,
};
use godot::obj::{Gd, NewGd};
use godot::prelude::ToGodot;
use reach2d_core::{SpringCollider, Vec2};

use crate::io::convert::{vec2, vector2};

/// What the node asks to collide with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Filter {
    /// The physics layers (`collision_mask`).
    pub mask: u32,
    /// Collide with physics bodies (static, kinematic, rigid, character).
    pub bodies: bool,
    /// Collide with `Area2D`s.
    pub areas: bool,
}

/// The cached query objects. Made on the first step with colliders on.
pub struct WorldQueries {
    shape: Gd<CircleShape2D>,
    query: Gd<PhysicsShapeQueryParameters2D>,
    ray: Gd<PhysicsRayQueryParameters2D>,
    /// The chain's bounding circle, asked first.
    bounds_shape: Gd<CircleShape2D>,
    bounds: Gd<PhysicsShapeQueryParameters2D>,
    radius: f32,
    filter: Option<Filter>,
    point: Variant,
    position: Variant,
    normal: Variant,
}

impl WorldQueries {
    pub fn new() -> Self {
        let shape = CircleShape2D::new_gd();
        let mut query = PhysicsShapeQueryParameters2D::new_gd();
        query.set_shape(&shape);
        let bounds_shape = CircleShape2D::new_gd();
        let mut bounds = PhysicsShapeQueryParameters2D::new_gd();
        bounds.set_shape(&bounds_shape);
        Self {
            shape,
            query,
            ray: PhysicsRayQueryParameters2D::new_gd(),
            bounds_shape,
            bounds,
            radius: -1.0,
            filter: None,
            point: GString::from("point").to_variant(),
            position: GString::from("position").to_variant(),
            normal: GString::from("normal").to_variant(),
        }
    }

    /// The node's physics space with this filter, or `None` outside the tree (or without a world).
    pub fn in_space_of<'a>(&'a mut self, node: &Node2D, filter: Filter) -> Option<Space<'a>> {
        if !node.is_inside_tree() {
            return None;
        }
        let space = node.get_world_2d()?.get_direct_space_state()?;
        if self.filter != Some(filter) {
            self.query.set_collision_mask(filter.mask);
            self.query.set_collide_with_bodies(filter.bodies);
            self.query.set_collide_with_areas(filter.areas);
            self.ray.set_collision_mask(filter.mask);
            self.ray.set_collide_with_bodies(filter.bodies);
            self.ray.set_collide_with_areas(filter.areas);
            self.bounds.set_collision_mask(filter.mask);
            self.bounds.set_collide_with_bodies(filter.bodies);
            self.bounds.set_collide_with_areas(filter.areas);
            self.filter = Some(filter);
        }
        Some(Space { queries: self, space })
    }

    fn place(&mut self, at: Vec2, radius: f32) {
        if self.radius != radius {
            self.shape.set_radius(radius);
            self.radius = radius;
        }
        self.query.set_transform(Transform2D::from_angle_origin(0.0, vector2(at)));
    }
}

/// One step's queries in one physics space.
pub struct Space<'a> {
    queries: &'a mut WorldQueries,
    space: Gd<PhysicsDirectSpaceState2D>,
}

impl Space<'_> {
    /// A contact's point (under `point_key`) and normal, or `None` for an empty answer.
    fn contact(&self, info: &godot::builtin::VarDictionary, point_key: &Variant) -> Option<(Vec2, Vec2)> {
        let read = |key: &Variant| info.get(key).and_then(|v| v.try_to::<Vector2>().ok()).map(vec2);
        Some((read(point_key)?, read(&self.queries.normal)?))
    }
}

impl SpringCollider for Space<'_> {
    fn sweep(&mut self, from: Vec2, motion: Vec2, _radius: f32) -> Option<(Vec2, Vec2)> {
        if motion == Vec2::ZERO {
            return None;
        }
        self.queries.ray.set_from(vector2(from));
        self.queries.ray.set_to(vector2(from + motion));
        let hit = self.space.intersect_ray(&self.queries.ray);
        if hit.is_empty() { None } else { self.contact(&hit, &self.queries.position) }
    }

    fn anything_near(&mut self, centre: Vec2, radius: f32) -> bool {
        let queries = &mut *self.queries;
        queries.bounds_shape.set_radius(radius);
        queries.bounds.set_transform(Transform2D::from_angle_origin(0.0, vector2(centre)));
        !self.space.intersect_shape_ex(&queries.bounds).max_results(1).done().is_empty()
    }

    fn overlap(&mut self, at: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
        self.queries.place(at, radius);
        let rest = self.space.get_rest_info(&self.queries.query);
        if rest.is_empty() { None } else { self.contact(&rest, &self.queries.point) }
    }
}
