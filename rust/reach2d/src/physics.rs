//! Queries to the 2D physics server: rays, shapes near a point, and the local world they fill (`queries`, the
//! spring's colliders and the helpers' rays), and the ground the two leg helpers stand feet on (`ground`).

pub mod ground;
pub mod queries;
