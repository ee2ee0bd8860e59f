//! Reach2D: fast, exact 2D inverse kinematics nodes for Godot 4.
//!
//! This file only registers the library. The layers, each importing only those below it:
//! - `nodes/`: the classes Godot sees, one file each (and a folder beside it for what the node keeps);
//! - `batch/`: many nodes solved in one native pass;
//! - `runtime/`: running one node (update modes, reporting, setup checks, limits, checked setters);
//! - `io/`: finding, reading and writing Bone2D chains; `physics/`: the physics server's queries;
//! - `problem`: what a node reports; `engine/`: where Godot's types meet glam's (`engine/convert.rs`), the editor
//!   check, live objects; `debug/`: the allocation counter of debug and bench builds, the bench's phase timer.
//!
//! The solving itself is the engine-free `reach2d_core` crate. See ARCHITECTURE.md.

use godot::prelude::*;

mod batch;
mod debug;
mod engine;
mod io;
mod nodes;
mod physics;
mod problem;
mod runtime;

/// The library Godot loads (the class of static functions for scripts is `nodes::reach2d::Reach2D`).
struct Reach2DExtension;

#[gdextension]
unsafe impl ExtensionLibrary for Reach2DExtension {
    fn on_stage_deinit(stage: InitStage) {
        if stage == InitStage::Scene {
            // The tree watch's callables are this library's code: disconnect them before it unloads.
            io::tree_watch::disconnect();
        }
    }
}
