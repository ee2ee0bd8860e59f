//! Godot's entry point, which every verifier checks for (its own file, so the verifiers of each format can use it
//! without importing the module that calls them).

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
