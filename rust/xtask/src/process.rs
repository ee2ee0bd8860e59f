//! What every command shares: the error type, the repository root, running a child process, and writing and
//! copying files with errors that name the file.

use std::fs;
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

/// Runs `cmd`, returning its stdout; fails with its stderr.
pub fn output(cmd: &mut Command) -> Result<String> {
    let out = cmd.output().map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Writes `text` to `path`.
pub fn write_file(path: &Path, text: &str) -> Result {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Copies the folder `from` into `to` (created), following symbolic links.
pub fn copy_dir(from: &Path, to: &Path) -> Result {
    fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    for entry in fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?.flatten() {
        let path = entry.path();
        let dest = to.join(entry.file_name());
        if path.is_dir() {
            copy_dir(&path, &dest)?;
        } else {
            fs::copy(&path, &dest).map_err(|e| format!("cannot copy {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// Whether this runs under CI (`CI` set and not `false` or `0`, as `.ci/run` and CI services set it): a cold
/// machine whose build folders are deleted as soon as they have served.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}
