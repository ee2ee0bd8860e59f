//! Where Reach2D meets Godot's types, below everything else: the one place Godot and glam types meet
//! (`convert`), whether the code runs in the editor (`editor`), whether a node property's object is alive
//! (`slot`), and the cache hints that ask for engine objects' memory before it is read (`prefetch`).

pub mod convert;
pub mod editor;
pub mod prefetch;
pub mod slot;
