//! What every command shares: the error type, the repository root, and running a child process.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A failure that ends the command with a message and a non-zero exit code.
pub type Result<T = ()> = std::result::Result<T, String>;

/// The repository root (the workspace folder that holds `Cargo.toml`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// Runs a command to completion, failing with its name when it fails.
pub fn run(cmd: &mut Command) -> Result {
    let status = cmd.status().map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{cmd:?} failed ({status})")) }
}

/// A `cargo` command run from the repository root.
pub fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(repo_root());
    cmd
}
