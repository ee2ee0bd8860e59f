//! What the code that builds a library and the code that checks it share (a module of its own, below `toolchain`,
//! `apple_files` and `verify`, so none of them imports another for it): Godot's entry point, and how an unreadable
//! file is reported.

use crate::process::Result;

/// Godot looks this symbol up in every GDExtension library (`entry_symbol` in `reach2d.gdextension`).
pub const ENTRY_SYMBOL: &str = "gdext_rust_init";

/// `Ok` when `exports` holds `entry`; otherwise why Godot cannot load the library.
pub fn require_entry(exports: &[String], entry: &str) -> Result {
    if exports.iter().any(|e| e == entry) {
        Ok(())
    } else {
        Err(format!("does not export {entry}, so Godot cannot load it ({} exports)", exports.len()))
    }
}

/// An unreadable library, as the checks report it.
pub fn parse_error(e: object::Error) -> String {
    format!("not a readable library: {e}")
}
