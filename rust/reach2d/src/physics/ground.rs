//! The ground the two leg helpers (`FootGrounder2D`, `LegStepper2D`) stand feet on, their *Ground* group in one
//! place: what the rays hit ([`GroundFilter`]: `collision_mask`, `collide_with_bodies`, `collide_with_areas`), how
//! far they reach and how far a foot stays off the ground ([`GroundRays`]: `ray_above`, `ray_below`,
//! `foot_height`), the world's up, and the ray queries in one physics space ([`GroundQueries`], [`Ground`]). The
//! geometry of a foot on that ground is `reach2d_core::ground`'s and `reach2d_core::stepper`'s.

use godot::classes::Node2D;
use reach2d_core::ground::GroundHit;
use reach2d_core::{SpringCollider, Vec2};

use crate::physics::queries::{Filter, Space, WorldQueries, world_up};

/// How far (px) a foot lands short of a wall its landing was behind, beyond its `foot_height`.
const WALL_MARGIN: f32 = 2.0;

/// The *Ground* group's filter properties as a query filter: a mask outside the 32 layers (the setter keeps it in)
/// counts as all of them.
pub fn ground_filter(collision_mask: i64, collide_with_bodies: bool, collide_with_areas: bool) -> Filter {
    Filter {
        mask: u32::try_from(collision_mask).unwrap_or(u32::MAX),
        bodies: collide_with_bodies,
        areas: collide_with_areas,
    }
}

/// The *Ground* group's reach, global px: how far above and below its start a ray goes (`ray_above`, `ray_below`:
/// the highest step a foot climbs, the deepest it goes down) and how far a foot stays off the ground along its
/// normal (`foot_height`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroundRays {
    pub above: f32,
    pub below: f32,
    pub foot_height: f32,
}

/// What a helper keeps for its rays between frames: the query objects (made once) and the world's up (read once).
#[derive(Default)]
pub struct GroundQueries {
    queries: Option<WorldQueries>,
    up: Option<Vec2>,
}

impl GroundQueries {
    /// The unit vector against the gravity of `node`'s physics space (read once), or `None` without a world.
    pub fn world_up(&mut self, node: &Node2D) -> Option<Vec2> {
        world_up(node, &mut self.up)
    }

    /// The world's up as last read, if it was.
    pub fn known_up(&self) -> Option<Vec2> {
        self.up
    }

    /// `node`'s physics space with `filter`, for this frame's rays; `None` outside the tree or without a world.
    pub fn ground_of(&mut self, node: &Node2D, filter: Filter) -> Option<Ground<'_>> {
        let space = self.queries.get_or_insert_with(WorldQueries::new).in_space_of(node, filter)?;
        Some(Ground { space })
    }
}

/// One frame's ground rays in one physics space.
pub struct Ground<'a> {
    space: Space<'a>,
}

impl Ground<'_> {
    /// The first surface on the ray from `from` along `motion`: its point and unit normal, global px. `None` without
    /// one (or with a degenerate normal).
    pub fn hit(&mut self, from: Vec2, motion: Vec2) -> Option<GroundHit> {
        let (point, normal) = self.space.sweep(from, motion, 0.0)?;
        Some(GroundHit { point, normal: normal.try_normalize()? })
    }

    /// Where a foot whose home is `home` plants when it aims at `aim` (`LegStepper2D`): a ray along `-up` from
    /// `rays.above` over the aim to `rays.below` under it, on a surface whose normal is within `min_cos` of `up`,
    /// `rays.foot_height` off it along its normal. A wall between the home and the aim, at the rays' start height,
    /// pulls the aim back in front of it (a foot never steps into a wall). `None` without such ground.
    pub fn plant(&mut self, home: Vec2, aim: Vec2, up: Vec2, rays: GroundRays, min_cos: f32) -> Option<Vec2> {
        let lift = up * rays.above;
        let mut aim = aim;
        if let Some((wall, _)) = self.space.sweep(home + lift, aim - home, 0.0) {
            let back = (aim - home).normalize_or_zero() * (rays.foot_height + WALL_MARGIN);
            aim = wall - lift - back;
        }
        let hit = self.hit(aim + lift, -up * (rays.above + rays.below))?;
        let planted = hit.point + hit.normal * rays.foot_height;
        (hit.normal.dot(up) >= min_cos && planted.is_finite()).then_some(planted)
    }
}
