//! The README's Rust examples, run as doctests (compiled only for `cargo test --doc`).

/// The README, whose Rust code blocks rustdoc runs.
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
