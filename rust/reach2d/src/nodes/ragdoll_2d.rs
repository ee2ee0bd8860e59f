//! `Ragdoll2D`: a physics body per bone, built through `PhysicsServer2D`, that the bones follow (issue 40).
//!
//! `class.rs` the class, its properties and its methods; `callbacks.rs` its engine callbacks (one `INode2D` block);
//! `bodies.rs` the bodies, shapes and joints on the physics server; `build.rs` building them from the bones and
//! tearing them down; `state.rs` what it keeps between frames (the bones, their animated, written and physics
//! poses, the phase); `frame.rs` one physics tick and one process frame; `drive.rs` the limits and the active
//! ragdoll's pull, on the velocities; `gizmo.rs` the editor's drawing; `record.rs` the bake (the written pose keyed
//! into an `Animation`). The geometry is `reach2d_core::ragdoll`'s.

mod bodies;
mod build;
mod callbacks;
mod class;
mod drive;
mod frame;
mod gizmo;
mod record;
mod state;

pub use class::Ragdoll2D;
