//! The engine side of a chain: finding and watching its bones (`chain`), reading and writing them (`bones`), the
//! authored-pose memory (`authored`), the stretch's tip position (`stretch`), and the one place Godot and glam types
//! meet (`convert`).

pub mod ancestors;
pub mod authored;
pub mod bones;
pub mod chain;
pub mod convert;
pub mod stale_flags;
pub mod stretch;
