//! The core fuzz targets' bodies, shared by the `cargo fuzz` binaries in `rust/reach2d_core/fuzz/` and by
//! `tests/fuzz_replay.rs`, which replays the committed corpus (and seeded random inputs) as an ordinary test.
//!
//! Each function decodes arbitrary bytes into one solver call, then panics if an invariant breaks
//! (it returns whether the call accepted the input, so the replay can check the inputs are not all rejects):
//! no panic inside the solver, `Ok` exactly when the input is valid, outputs finite, inputs unchanged on
//! error, limits held, bone lengths kept. Floats are drawn mostly from a plausible range and, one time in
//! sixteen, from a table of hostile values (NaN, ±INF, ±1e30, ±`MAX_COORDINATE`, subnormals, raw bits).
// Each fuzz binary calls one body: the others, and the re-exports of them, go unused there.
#![allow(dead_code, unused_imports)]

// The one home of the test helpers (RNG, asserts), shared with the unit and property tests.
#[path = "../common/mod.rs"]
pub mod common;

mod chains;
mod closed_forms;
mod input;
mod write_back;

pub use chains::{ccd, fabrik};
pub use closed_forms::{look_at, two_bone};
pub use write_back::write_back;
