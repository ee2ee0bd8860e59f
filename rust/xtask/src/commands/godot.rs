//! `cargo xtask godot -- ARGS...`: the project's Godot (found or fetched, see `toolchain/godot.rs`) run with ARGS.

use crate::process::Result;
use crate::toolchain::godot::Godot;

/// Runs Godot with `args` (after an optional `--`) and exits with its exit code.
pub fn run(args: &[String]) -> Result {
    let args = args.strip_prefix(&["--".to_string()]).unwrap_or(args);
    let godot = Godot::locate_or_fetch()?;
    let status = godot.command().args(args).status().map_err(|e| format!("cannot start Godot: {e}"))?;
    std::process::exit(status.code().unwrap_or(1));
}
