//! The node classes Godot sees. A node is a file `nodes/<class>.rs` (its properties, its methods, its engine
//! callbacks and its frame) and, when it keeps more, a folder `nodes/<class>/` beside it (its run-time state, its
//! setup check). What several classes share is here too: `legs` (what the two leg helpers, `FootGrounder2D` and
//! `LegStepper2D`, do with the chains they drive). Nothing outside this folder imports a node class.

pub mod ccd_chain_2d;
pub mod chain;
pub mod character_weight_2d;
pub mod copy_transform_2d;
pub mod fabrik_chain_2d;
pub mod fabrik_rig_2d;
pub mod foot_grounder_2d;
pub mod leg_stepper_2d;
pub mod legs;
pub mod look_at_2d;
pub mod path_chain_2d;
pub mod ragdoll_2d;
pub mod reach2d;
pub mod reach2d_batcher;
pub mod spring_chain_2d;
pub mod two_bone_ik_2d;

#[cfg(feature = "bench")]
mod bench_probe;
#[cfg(any(debug_assertions, feature = "bench"))]
mod debug_probe;
#[cfg(test)]
mod docs_check;
