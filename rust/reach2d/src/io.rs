//! The engine side of a node's bones: finding them (`chain`) and the tree watch that tells when their structure may have changed (`tree_watch`), reading and writing them
//! (`bones`), what the node wrote and what the user authored (`pose_memory`, `stretch`, and `written`: the one rule
//! that tells the node's own writes back from the engine), the canvas items above a chain (`ancestors`), and the
//! one place Godot and glam types meet (`convert`).

pub mod ancestors;
pub mod bones;
pub mod chain;
pub mod pose;
pub mod pose_memory;
pub mod stretch;
pub mod tree_watch;
pub mod written;
