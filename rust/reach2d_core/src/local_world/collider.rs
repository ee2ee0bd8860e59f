//! The local world as the spring's collider ([`SpringCollider`]): a sweep is the ray of the end's centre (the caller
//! moves the contact line out by the end's radius), an overlap is the world's own.

use glam::Vec2;

use super::shapes::LocalWorld;
use crate::spring_contact::SpringCollider;

impl SpringCollider for LocalWorld {
    fn sweep(&mut self, from: Vec2, motion: Vec2, _radius: f32) -> Option<(Vec2, Vec2)> {
        self.ray(from, motion).map(|hit| (hit.point, hit.normal))
    }

    fn overlap(&mut self, at: Vec2, radius: f32) -> Option<(Vec2, Vec2)> {
        LocalWorld::overlap(self, at, radius).map(|o| (o.point, o.normal))
    }

    fn anything_near(&mut self, _centre: Vec2, _radius: f32) -> bool {
        !self.is_empty()
    }
}
