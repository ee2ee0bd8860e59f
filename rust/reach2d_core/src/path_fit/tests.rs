//! The path fit, by subject: the polyline (places, tangents, meetings), the fit (run-in, ends, wrapping, limits,
//! bad input), mirror images, and property tests.

mod fit;
mod fixtures;
mod mirror;
mod polyline;
mod properties;
mod travel;
