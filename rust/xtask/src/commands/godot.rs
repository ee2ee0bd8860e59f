//! `cargo xtask godot -- ARGS...`: the project's Godot (found or fetched, see `toolchain/godot.rs`) run with ARGS.
//!
//! Headless Godot loads an extension only when the project's `.godot/extension_list.cfg` names it, and a fresh
//! checkout has none: a soak or fuzz script run that way would find no Reach2D class and test nothing. So before
//! Godot starts, the repository's two projects (`tests/`, `godot_project/`) get their extension list, and a run
//! without a built library for this machine stops with what to run first.

use crate::commands::build::host_platform;
use crate::godot_run::write_extension_list;
use crate::process::{Result, repo_root};
use crate::toolchain::godot::Godot;

/// Runs Godot with `args` (after an optional `--`) and exits with its exit code.
pub fn run(args: &[String]) -> Result {
    let args = args.strip_prefix(&["--".to_string()]).unwrap_or(args);
    let root = repo_root();
    let library = root.join("addons/reach2d/bin").join(host_platform()?.library_name(false));
    if !library.is_file() {
        return Err(format!(
            "{} is missing, so Godot would run without Reach2D: run `cargo xtask build` first",
            library.strip_prefix(&root).unwrap_or(&library).display()
        ));
    }
    for project in ["tests", "godot_project"] {
        write_extension_list(&root.join(project))?;
    }
    let godot = Godot::locate_or_fetch()?;
    let status = godot.command().args(args).status().map_err(|e| format!("cannot start Godot: {e}"))?;
    std::process::exit(status.code().unwrap_or(1));
}
