//! The tools a build for another platform needs, fetched on first use without touching the host.

pub mod emscripten;
