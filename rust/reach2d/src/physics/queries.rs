//! `SpringChain2D`'s colliders on the engine side: the queries `reach2d_core::collide_spring` asks for, answered by
//! the physics space the node lives in (its `World2D`). First one circle around the whole chain (`intersect_shape`,
//! one result): nothing there, no other query. The sweep is a ray along the end's centre
//! (`intersect_ray`: exact, and a centre that crosses a wall is what passing through it means); the radius is kept
//! by the overlap, a circle's `get_rest_info` (the deepest contact's point and normal). `cast_motion` would sweep
//! the circle itself, but finds its fraction by bisection (to 1/256 of the motion): neither exact nor mirror-exact,
//! and dearer. The query objects are made once and reused: per query only their positions change, so nothing is
//! allocated on the Rust side per frame (Godot itself returns each answer in a `Dictionary`).
//!
//! # The local narrow phase
//!
//! Each engine answer comes in a `Dictionary`, which costs about a microsecond per bone in contact. So the bounding
//! query asks for the shapes themselves (up to [`MAX_SHAPES`]: `rid`, `shape` index, `collider`), each is read once
//! through `PhysicsServer2D` (its shape, type, data and global transform) into a `reach2d_core::LocalWorld`, and
//! the chain's sweeps and overlaps are answered there: exact geometry, mirror-exact, no engine call. Whatever the
//! local world cannot hold sends the whole chain back to the engine queries for that step, so nothing is answered
//! worse than before: a bounding query that returns [`MAX_SHAPES`] shapes, a shape type it does not know
//! (`SeparationRayShape2D`, custom), a circle or capsule under a non-uniform scale or skew, a degenerate or
//! non-convex polygon, a one-way shape (the one-way rule is the engine's), and a collider that is not a
//! `CollisionObject2D` (a `TileMapLayer`'s tiles: whether a tile's polygon is one-way cannot be read per shape). A
//! single query that reaches outside the bounding circle (the local world holds only what that circle touched) is
//! also asked of the engine. Body or area is told by the collider's class (an `area_*` call on a body prints
//! errors). Disabled shapes are skipped. [`Reach2DDebug`](crate::debug::alloc) can force the engine path and counts
//! which path each step took, so the tests compare the two.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use godot::builtin::{GString, PackedVector2Array, Rid, Transform2D, VarDictionary, Variant, Vector2};
use godot::classes::physics_server_2d::{AreaParameter, BodyState, ShapeType};
use godot::classes::{
    Area2D, CircleShape2D, CollisionObject2D, Node2D, Object, PhysicsDirectSpaceState2D, PhysicsRayQueryParameters2D,
    PhysicsServer2D, PhysicsShapeQueryParameters2D,
};
use godot::obj::{Gd, NewGd, Singleton};
use godot::prelude::ToGodot;
use reach2d_core::ground::up_from_gravity;
use reach2d_core::{LocalWorld, SpringCollider, Vec2};

use crate::debug::bump;
use crate::engine::convert::{affine, vec2, vector2};

/// Most shapes the bounding query returns for the local narrow phase; a step that finds this many asks the engine.
pub const MAX_SHAPES: i32 = 32;

/// Testing switch: `true` answers every query with the engine's (set through `Reach2DDebug`).
static FORCE_ENGINE: AtomicBool = AtomicBool::new(false);
/// Steps answered by the local narrow phase, by the engine, and single queries sent to the engine from a local
/// step (outside the bounding circle). Counted for the tests (`Reach2DDebug`); a relaxed add per chain step.
static LOCAL_STEPS: AtomicU64 = AtomicU64::new(0);
static ENGINE_STEPS: AtomicU64 = AtomicU64::new(0);
static ENGINE_QUERIES: AtomicU64 = AtomicU64::new(0);
/// Shapes read into the local world.
static SHAPES_READ: AtomicU64 = AtomicU64::new(0);

/// Forces the engine queries (`true`) or lets the local narrow phase answer (`false`, the default). Testing only,
/// through `Reach2DDebug` (debug and bench builds).
#[cfg_attr(not(any(debug_assertions, feature = "bench")), allow(dead_code))]
pub fn force_engine_queries(on: bool) {
    FORCE_ENGINE.store(on, Ordering::Relaxed);
}

/// `[local steps, engine steps, engine queries from local steps, shapes read]` since the library was loaded.
#[cfg_attr(not(any(debug_assertions, feature = "bench")), allow(dead_code))]
pub fn query_counts() -> [u64; 4] {
    [&LOCAL_STEPS, &ENGINE_STEPS, &ENGINE_QUERIES, &SHAPES_READ].map(|c| c.load(Ordering::Relaxed))
}

/// The unit vector against the gravity of `node`'s physics space (`reach2d_core::ground::up_from_gravity`), read
/// once into `cache` (the gravity read is a physics-server call); `None` without a world.
pub fn world_up(node: &Node2D, cache: &mut Option<Vec2>) -> Option<Vec2> {
    let world = node.get_world_2d()?;
    Some(*cache.get_or_insert_with(|| {
        let space = world.get_space();
        let gravity = PhysicsServer2D::singleton().area_get_param(space, AreaParameter::GRAVITY_VECTOR);
        up_from_gravity(gravity.try_to::<Vector2>().map_or(Vec2::ZERO, vec2))
    }))
}

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
    /// The bounding circle's radius as last set (px).
    bounds_radius: f32,
    radius: f32,
    filter: Option<Filter>,
    point: Variant,
    position: Variant,
    normal: Variant,
    rid: Variant,
    shape_index: Variant,
    collider: Variant,
    /// The shapes near the chain this step, when the local narrow phase can answer for them.
    local: LocalWorld,
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
            bounds_radius: -1.0,
            radius: -1.0,
            filter: None,
            point: GString::from("point").to_variant(),
            position: GString::from("position").to_variant(),
            normal: GString::from("normal").to_variant(),
            rid: GString::from("rid").to_variant(),
            shape_index: GString::from("shape").to_variant(),
            collider: GString::from("collider").to_variant(),
            local: LocalWorld::with_capacity(MAX_SHAPES as usize, 512),
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
        Some(Space { queries: self, space, local: false })
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
    /// `true` when this step's shapes are all in `queries.local`.
    local: bool,
}

impl Space<'_> {
    /// A contact's point (under `point_key`) and normal, or `None` for an empty answer.
    fn contact(&self, info: &godot::builtin::VarDictionary, point_key: &Variant) -> Option<(Vec2, Vec2)> {
        let read = |key: &Variant| info.get(key).and_then(|v| v.try_to::<Vector2>().ok()).map(vec2);
        Some((read(point_key)?, read(&self.queries.normal)?))
    }
}

impl Space<'_> {
    fn engine_sweep(&mut self, from: Vec2, motion: Vec2) -> Option<(Vec2, Vec2)> {
        self.queries.ray.set_from(vector2(from));
        self.queries.ray.set_to(vector2(from + motion));
        let hit = self.space.intersect_ray(&self.queries.ray);
        if hit.is_empty() { None } else { self.contact(&hit, &self.queries.position) }
    }

    fn engine_overlap(&mut self, at: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
        self.queries.place(at, radius);
        let rest = self.space.get_rest_info(&self.queries.query);
        if rest.is_empty() { None } else { self.contact(&rest, &self.queries.point) }
    }

    /// Reads the shapes the bounding query found into the local world; `false` when one of them is beyond it.
    fn read_shapes(&mut self, found: &godot::builtin::Array<VarDictionary>, centre: Vec2, radius: f32) -> bool {
        let queries = &mut *self.queries;
        queries.local.clear();
        queries.local.set_bound(centre, radius);
        let server = PhysicsServer2D::singleton();
        bump(&SHAPES_READ, found.len() as u64);
        for result in found.iter_shared() {
            let rid = result.get(&queries.rid).and_then(|v| v.try_to::<Rid>().ok());
            let index = result.get(&queries.shape_index).and_then(|v| v.try_to::<i32>().ok());
            let collider = result.get(&queries.collider).and_then(|v| v.try_to::<Gd<Object>>().ok());
            let (Some(rid), Some(index), Some(collider)) = (rid, index, collider) else { return false };
            let Ok(owner) = collider.try_cast::<CollisionObject2D>() else { return false };
            let owner_id = owner.shape_find_owner(index);
            if owner.is_shape_owner_disabled(owner_id) {
                continue;
            }
            if owner.is_shape_owner_one_way_collision_enabled(owner_id) {
                return false;
            }
            let (shape, placement) = match owner.try_cast::<Area2D>() {
                Ok(_) => (
                    server.area_get_shape(rid, index),
                    server.area_get_transform(rid) * server.area_get_shape_transform(rid, index),
                ),
                Err(_) => {
                    let Ok(body) = server.body_get_state(rid, BodyState::TRANSFORM).try_to::<Transform2D>() else {
                        return false;
                    };
                    (server.body_get_shape(rid, index), body * server.body_get_shape_transform(rid, index))
                }
            };
            if !add_shape(&mut queries.local, &server, shape, placement) {
                return false;
            }
        }
        true
    }
}

/// Adds one engine shape, placed by `placement`, to `world`; `false` for a shape it cannot hold.
fn add_shape(world: &mut LocalWorld, server: &Gd<PhysicsServer2D>, shape: Rid, placement: Transform2D) -> bool {
    let t = affine(placement);
    let data = server.shape_get_data(shape);
    let points = || data.try_to::<PackedVector2Array>().ok();
    match server.shape_get_type(shape) {
        ShapeType::RECTANGLE => data.try_to::<Vector2>().is_ok_and(|h| world.add_rectangle(vec2(h), t)),
        ShapeType::CIRCLE => data.try_to::<f32>().is_ok_and(|r| world.add_circle(r, t)),
        // (height, radius)
        ShapeType::CAPSULE => data.try_to::<Vector2>().is_ok_and(|d| world.add_capsule(d.x, d.y, t)),
        ShapeType::CONVEX_POLYGON => {
            points().is_some_and(|p| world.add_convex_polygon(p.as_slice().iter().map(|v| vec2(*v)), t))
        }
        ShapeType::CONCAVE_POLYGON => {
            points().is_some_and(|p| world.add_segments(p.as_slice().iter().map(|v| vec2(*v)), t))
        }
        // A Rect2: position a, size b.
        ShapeType::SEGMENT => {
            data.try_to::<godot::builtin::Rect2>().is_ok_and(|r| world.add_segment(vec2(r.position), vec2(r.size), t))
        }
        ShapeType::WORLD_BOUNDARY => data.try_to::<godot::builtin::VarArray>().is_ok_and(|a| {
            let normal = a.get(0).and_then(|v| v.try_to::<Vector2>().ok());
            let distance = a.get(1).and_then(|v| v.try_to::<f32>().ok());
            matches!((normal, distance), (Some(n), Some(d)) if world.add_world_boundary(vec2(n), d, t))
        }),
        _ => false,
    }
}

impl SpringCollider for Space<'_> {
    fn sweep(&mut self, from: Vec2, motion: Vec2, _radius: f32) -> Option<(Vec2, Vec2)> {
        if motion == Vec2::ZERO {
            return None;
        }
        let local = &self.queries.local;
        if self.local && local.covers(from, 0.0) && local.covers(from + motion, 0.0) {
            return local.ray(from, motion).map(|hit| (hit.point, hit.normal));
        }
        if self.local {
            bump(&ENGINE_QUERIES, 1);
        }
        self.engine_sweep(from, motion)
    }

    fn anything_near(&mut self, centre: Vec2, radius: f32) -> bool {
        let queries = &mut *self.queries;
        // A bounding circle somewhat larger than asked: a shape's radius changes only when the chain outgrows it or
        // shrinks well inside it (setting it re-sends the shape to the server), and the local world then also
        // covers an end that slides a little beyond the chain's box.
        if !(queries.bounds_radius >= radius && queries.bounds_radius <= radius * 1.25) {
            queries.bounds_radius = radius * 1.1;
            queries.bounds_shape.set_radius(queries.bounds_radius);
        }
        let radius = queries.bounds_radius;
        queries.bounds.set_transform(Transform2D::from_angle_origin(0.0, vector2(centre)));
        self.local = false;
        if FORCE_ENGINE.load(Ordering::Relaxed) {
            let near = !self.space.intersect_shape_ex(&queries.bounds).max_results(1).done().is_empty();
            if near {
                bump(&ENGINE_STEPS, 1);
            }
            return near;
        }
        let found = self.space.intersect_shape_ex(&queries.bounds).max_results(MAX_SHAPES).done();
        if found.is_empty() {
            return false;
        }
        self.local = found.len() < MAX_SHAPES as usize && self.read_shapes(&found, centre, radius);
        let counter = if self.local { &LOCAL_STEPS } else { &ENGINE_STEPS };
        bump(counter, 1);
        true
    }

    fn overlap(&mut self, at: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
        let local = &self.queries.local;
        if self.local && local.covers(at, radius) {
            return local.overlap(at, radius).map(|o| (o.point, o.normal));
        }
        if self.local {
            bump(&ENGINE_QUERIES, 1);
        }
        self.engine_overlap(at, radius)
    }
}
