//! A local narrow phase: a handful of physics shapes copied out of a physics engine once per frame, and exact
//! queries against them ([`LocalWorld`]): the first hit of a ray and the deepest overlap of a circle. A caller asks
//! its engine once for the shapes near what it is about to query (in Godot: one `intersect_shape` with a bounding
//! circle), fills a `LocalWorld` with them and then answers many small queries here, without an engine call (and
//! without the `Dictionary` each engine answer comes in).
//!
//! # Shapes
//!
//! Each shape is added in its global placement (an affine transform, as a physics engine stores it):
//! - a **convex polygon** ([`LocalWorld::add_convex_polygon`], [`LocalWorld::add_rectangle`]): the vertices
//!   transformed by the full affine transform (any scale, skew or reflection), in either winding. Solid.
//! - a **rounded segment**: a circle ([`LocalWorld::add_circle`]) or a capsule ([`LocalWorld::add_capsule`]), only
//!   under a similarity transform (uniform scale, no skew; a reflection is fine): under any other a circle would be
//!   an ellipse, and the call refuses. Solid.
//! - **segments** ([`LocalWorld::add_segment`], [`LocalWorld::add_segments`], a concave polygon's segment soup):
//!   two-sided, no inside.
//! - a **half-plane** ([`LocalWorld::add_world_boundary`]): a world boundary, solid on the side its normal points
//!   away from.
//!
//! An `add_*` call that refuses (not finite, a degenerate or non-convex polygon, a circle under a non-uniform
//! scale) returns `false` and adds nothing: the caller then asks its engine instead.
//!
//! # Mirror-exact
//!
//! Every query is plain vector arithmetic: dot products, cross products, square roots, one division per
//! parameter; no angles. Reflecting the world and the query (`x → -x`: a transform `M·T` with `M` the reflection)
//! negates exactly the `x` of every intermediate value and leaves the rest bit for bit as it was, so the answer is
//! the exact mirror image. A polygon keeps its vertex order under a reflection (the winding flips, and with it the
//! sign that turns an edge into its outward normal); the closest point of a segment is computed symmetrically in
//! its two ends. What cannot be mirror-exact is a choice in a mirror-symmetric situation: a circle centred exactly
//! on a two-sided segment or a capsule's axis (either side is as deep: the side facing up, `-y`, is taken), or two
//! shapes, edges or vertices exactly equally near (the first is taken; two polygon edges that tie at a vertex give
//! the sum of their normals, which is symmetric).
//!
//! Never panics; a query with a value that is not finite answers `None`; an answer is always finite.

mod collider;
mod overlap;
mod ray;
mod shapes;
#[cfg(test)]
mod tests;

pub use overlap::Overlap;
pub use ray::RayHit;
pub use shapes::LocalWorld;
