//! Reach2D: fast, exact 2D inverse kinematics nodes for Godot 4.
//!
//! This file only registers the library. Each node class lives in its own file under `nodes/`; `io/` finds, reads
//! and writes Bone2D chains (`io/convert.rs` is the one place where Godot and glam types meet), and the solving itself
//! is the engine-free `reach2d_core` crate. See ARCHITECTURE.md.

use godot::prelude::*;

mod batch;
#[cfg(feature = "bench")]
mod bench_probe;
mod body_offset;
mod character_weight;
mod checked;
mod copy_choices;
mod copy_transform_state;
#[cfg(any(debug_assertions, feature = "bench"))]
mod debug_alloc;
#[cfg(test)]
mod docs_check;
mod drive;
mod editor;
mod frame;
mod gizmo;
mod grounder_state;
mod io;
mod legs;
mod limits;
mod node_property;
mod nodes;
mod path_chain_state;
mod pose;
mod prefetch;
mod problem;
mod rig_effectors;
mod rig_state;
mod setup;
mod slot;
mod spring_state;
mod stepper_state;
mod world_queries;

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
