//! Where Reach2D meets Godot's types, below everything else: the one place Godot and glam types meet
//! (`convert`), whether the code runs in the editor (`editor`), and whether a node property's object is alive
//! (`slot`).

pub mod convert;
pub mod editor;
pub mod slot;
