//! Queries to the 2D physics server that the ground and spring nodes ask: rays, shapes near a point, and the
//! local world they fill (`queries`).

pub mod ground;
pub mod queries;
