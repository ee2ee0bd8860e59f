//! The node classes, one file each, and the macros that declare their shared properties.

pub mod declare;
pub mod declare_class;

pub mod ccd_chain_2d;
pub mod fabrik_chain_2d;
pub mod fabrik_rig_2d;
pub mod foot_grounder_2d;
pub mod look_at_2d;
pub mod reach2d;
pub mod spring_chain_2d;
pub mod two_bone_ik_2d;
