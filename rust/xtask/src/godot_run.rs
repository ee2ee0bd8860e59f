//! Running Godot: with a timeout and a log, the project's extension list, and the log checks every run shares.

use crate::process::Result;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Printed by `tests/runner.gd` (and the demo runner) as its last line when every test in a file ran.
pub const DONE_SENTINEL: &str = "REACH2D_DONE";

/// Lists the addon's `.gdextension` in `PROJECT/.godot/extension_list.cfg`.
///
/// Headless Godot loads only the extensions listed there when it runs a script or a scene, and writing the file
/// is more reliable than a headless `--import`.
pub fn write_extension_list(project: &Path) -> Result {
    let dir = project.join(".godot");
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    fs::write(dir.join("extension_list.cfg"), "res://addons/reach2d/reach2d.gdextension\n")
        .map_err(|e| format!("cannot write the extension list: {e}"))
}

/// What a Godot run printed and how it ended.
pub struct Run {
    /// stdout and stderr, interleaved as written.
    pub output: String,
    /// Exited with status 0 before the timeout.
    pub success: bool,
    /// Killed at the timeout.
    pub timed_out: bool,
}

impl Run {
    /// Why the run failed, if it did: killed at `timeout`, an error in the log (see [`log_problem`]), no
    /// [`DONE_SENTINEL`] (a script error or a crash stopped it), or a non-zero exit.
    pub fn problem(&self, timeout: Duration) -> Option<String> {
        if self.timed_out {
            Some(format!("timed out after {}s", timeout.as_secs()))
        } else if let Some(line) = log_problem(&self.output) {
            Some(format!("error in the log: {line}"))
        } else if !self.output.contains(DONE_SENTINEL) {
            Some("stopped before the end (no success sentinel): a script error or a crash".into())
        } else if !self.success {
            Some("Godot exited with an error".into())
        } else {
            None
        }
    }
}

/// Runs `cmd` with its output in `log`, killing it after `timeout`.
pub fn run_logged(cmd: &mut Command, log: &Path, timeout: Duration) -> Result<Run> {
    if let Some(dir) = log.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let file = fs::File::create(log).map_err(|e| format!("cannot write {}: {e}", log.display()))?;
    let file2 = file.try_clone().map_err(|e| e.to_string())?;
    let mut child =
        cmd.stdin(Stdio::null()).stdout(file).stderr(file2).spawn().map_err(|e| format!("cannot start Godot: {e}"))?;
    let start = Instant::now();
    let (success, timed_out) = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break (status.success(), false);
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break (false, true);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = String::from_utf8_lossy(&fs::read(log).unwrap_or_default()).into_owned();
    Ok(Run { output, success, timed_out })
}

/// The first line of a Godot log that shows a script error or a failed extension load, if any.
pub fn log_problem(output: &str) -> Option<&str> {
    const PROBLEMS: [&str; 6] = [
        "SCRIPT ERROR",
        "Error loading extension",
        "Can't open dynamic library",
        "[panic ",
        "panicked at",
        "Parse Error",
    ];
    output.lines().find(|line| PROBLEMS.iter().any(|p| line.contains(p)))
}
