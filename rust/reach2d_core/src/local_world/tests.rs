//! The local narrow phase, by subject.

mod as_collider;
mod brute_force;
mod fixtures;
mod mirror;
mod special_cases;
