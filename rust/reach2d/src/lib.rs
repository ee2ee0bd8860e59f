//! Reach2D: fast, exact 2D inverse kinematics nodes for Godot 4.
//!
//! This file only registers the library. Each node class lives in its own module; `chain` reads and writes
//! Bone2D chains, `convert` is the one place where Godot and glam types meet, and the solving itself is the
//! engine-free `reach2d_core` crate. See ARCHITECTURE.md.

use godot::prelude::*;

#[cfg(feature = "bench")]
mod bench_probe;
mod chain;
mod checked;
mod common;
mod convert;
#[cfg(any(debug_assertions, feature = "bench"))]
mod debug_alloc;
#[cfg(test)]
mod docs_check;
mod editor;
mod gizmo;
mod limits;
mod node_class;
mod pose;
mod problem;

mod ccd_chain_2d;
mod fabrik_chain_2d;
mod look_at_2d;
mod spring_chain_2d;
mod two_bone_ik_2d;

struct Reach2D;

#[gdextension]
unsafe impl ExtensionLibrary for Reach2D {}
