//! The node classes, one file each: its properties, its callbacks and its frame. What several classes share is
//! declared by `reach2d_macros` (help text from `shared_docs.md`, validated setters, shared methods) and done by
//! ordinary functions (`frame.rs`, `limits.rs`, `checked.rs`).

pub mod ccd_chain_2d;
pub mod character_weight_2d;
pub mod copy_transform_2d;
pub mod fabrik_chain_2d;
pub mod fabrik_rig_2d;
pub mod foot_grounder_2d;
pub mod leg_stepper_2d;
pub mod look_at_2d;
pub mod path_chain_2d;
pub mod ragdoll_2d;
pub mod reach2d;
pub mod reach2d_batcher;
pub mod spring_chain_2d;
pub mod two_bone_ik_2d;
