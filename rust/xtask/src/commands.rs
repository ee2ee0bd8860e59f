//! One module per `cargo xtask` command (`test` and `platforms` run checks; the others build, ship or run).

pub mod animation;
pub mod bench;
pub mod build;
pub mod demo;
pub mod fuzz;
pub mod godot;
pub mod layout;
pub mod package;
pub mod platforms;
pub mod reference;
pub mod release;
pub mod test;
pub mod test_web;
