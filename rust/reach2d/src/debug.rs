//! Debug and bench builds only: the counting allocator that proves a frame allocates nothing (`alloc`). It
//! imports nothing from the crate, so every layer may count; the class that reports the counts to Godot is
//! `nodes::debug_probe`.

pub mod alloc;
