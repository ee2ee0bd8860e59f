//! `cargo xtask test`: formatting, clippy, the Rust tests, then every `tests/test_*.gd` in a real headless Godot.
//!
//! Each test file runs in its own Godot process (`tests/runner.gd` in script mode), so a hang or crash in one
//! file cannot hide the others. A GDScript error or a Rust panic inside a coroutine does not quit Godot, so a
//! file only passes when all of these hold: the process exits 0 before the timeout, the runner printed its
//! success sentinel, and the log shows no script error, panic or failed extension load.

use crate::godot::{Godot, log_problem, run_logged};
use crate::{Result, build, cargo, repo_root};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// Printed by `tests/runner.gd` (and the demo runner) as its last line when every test in a file ran.
pub const DONE_SENTINEL: &str = "REACH2D_DONE";
const FILE_TIMEOUT: Duration = Duration::from_secs(180);

/// Lists the addon's `.gdextension` in `PROJECT/.godot/extension_list.cfg`.
///
/// Headless Godot loads only the extensions listed there when it runs a script or a scene, and writing the file
/// is more reliable than a headless `--import`.
pub fn write_extension_list(project: &Path) -> Result {
    let dir = project.join(".godot");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    std::fs::write(dir.join("extension_list.cfg"), "res://addons/reach2d/reach2d.gdextension\n")
        .map_err(|e| format!("cannot write the extension list: {e}"))
}

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    failures: Vec<String>,
}

/// Runs everything `cargo xtask test` checks; with `godot_only`, just the Godot tests (for quick iteration).
pub fn test_all(godot_only: bool) -> Result {
    let mut rust = Tally::default();
    if !godot_only {
        crate::run(cargo().args(["fmt", "--all", "--", "--check"]))
            .map_err(|e| format!("{e}\nformatting differs: run `cargo fmt --all`"))?;
        crate::run(cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))?;
        run_rust_tests(&mut rust)?;
    }

    build(false)?;
    let mut gd = Tally::default();
    run_godot_tests(&mut gd)?;

    println!();
    println!("Rust tests:  {} passed, {} failed", rust.passed, rust.failed);
    println!("Godot tests: {} passed, {} failed", gd.passed, gd.failed);
    for failure in rust.failures.iter().chain(&gd.failures) {
        println!("  FAILED {failure}");
    }
    let (passed, failed) = (rust.passed + gd.passed, rust.failed + gd.failed);
    println!("{passed} passed, {failed} failed");
    if failed > 0 || passed == 0 { Err(format!("{failed} tests failed")) } else { Ok(()) }
}

/// Runs `cargo test --workspace`, echoing its output and adding up its `test result:` lines.
fn run_rust_tests(tally: &mut Tally) -> Result {
    let mut child = cargo()
        .args(["test", "--workspace", "--no-fail-fast"])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start cargo test: {e}"))?;
    let stdout = child.stdout.take().expect("piped stdout");
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| e.to_string())?;
        println!("{line}");
        if let Some(rest) = line.strip_prefix("test result: ") {
            tally.passed += count_before(rest, " passed");
            tally.failed += count_before(rest, " failed");
        }
        if let Some(name) = line.strip_prefix("test ").and_then(|l| l.strip_suffix(" ... FAILED")) {
            tally.failures.push(format!("rust: {name}"));
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    if !status.success() && tally.failed == 0 {
        // A build failure or a crashed test binary: it counts, even though no result line says so.
        tally.failed += 1;
        tally.failures.push("rust: cargo test did not complete".into());
    }
    Ok(())
}

/// The number just before `label` in a line like `ok. 12 passed; 0 failed; ...`.
fn count_before(text: &str, label: &str) -> usize {
    text.split(';')
        .find_map(|part| part.trim().strip_suffix(label.trim()).map(|n| n.trim().rsplit(' ').next().unwrap_or("")))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn run_godot_tests(tally: &mut Tally) -> Result {
    let root = repo_root();
    let project = root.join("tests");
    write_extension_list(&project)?;
    let godot = Godot::locate_or_fetch()?;
    println!("xtask: Godot {}", godot.version().unwrap_or_default());
    let filter = std::env::var("REACH2D_TEST_FILTER").unwrap_or_default();

    let mut files: Vec<String> = std::fs::read_dir(&project)
        .map_err(|e| format!("cannot read {}: {e}", project.display()))?
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.starts_with("test_") && n.ends_with(".gd") && n.contains(&filter))
        .collect();
    files.sort();
    if files.is_empty() && filter.is_empty() {
        return Err("no tests/test_*.gd files found".into());
    }
    for file in &files {
        let mut cmd = godot.command();
        cmd.args(["--headless", "--path"]).arg(&project).args(["-s", "res://runner.gd", "--"]).arg(file);
        run_test_process(file, &mut cmd, tally)?;
    }
    // Editor-only behaviour (preview, saving never stores the IK pose) needs a real editor: the plugin in
    // tests/addons/reach2d_editor_test runs it when the editor starts with REACH2D_EDITOR_TEST=1.
    if "editor".contains(&filter) || filter.is_empty() {
        let mut cmd = godot.command();
        cmd.env("REACH2D_EDITOR_TEST", "1").args(["--headless", "--editor", "--path"]).arg(&project);
        run_test_process("editor (save round trip)", &mut cmd, tally)?;
    }
    // The demo project checks its own scenes (same output protocol): every IK effector tracks its target.
    let demo = root.join("godot_project");
    if demo.join("demo_runner.gd").exists() && ("demo".contains(&filter) || filter.is_empty()) {
        write_extension_list(&demo)?;
        let mut cmd = godot.command();
        cmd.args(["--headless", "--path"]).arg(&demo).args(["-s", "res://demo_runner.gd", "--", "--check"]);
        run_test_process("demo scenes", &mut cmd, tally)?;
    }
    Ok(())
}

/// Runs one Godot test process and adds what it reported to `tally`; a hang, crash or script error counts as a
/// failure of its own.
fn run_test_process(label: &str, cmd: &mut std::process::Command, tally: &mut Tally) -> Result {
    let name: String = label.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    let log = repo_root().join("target/godot-tests").join(format!("{name}.log"));
    let run = run_logged(cmd, &log, FILE_TIMEOUT)?;
    let (mut passed, mut failed) = (0, 0);
    for line in run.output.lines() {
        if let Some(name) = line.strip_prefix("TEST PASS ") {
            passed += 1;
            println!("  ok     {name}");
        } else if let Some(rest) = line.strip_prefix("TEST FAIL ") {
            failed += 1;
            println!("  FAILED {rest}");
            tally.failures.push(format!("godot: {rest}"));
        }
    }
    let problem = if run.timed_out {
        Some(format!("timed out after {}s", FILE_TIMEOUT.as_secs()))
    } else if let Some(line) = log_problem(&run.output) {
        Some(format!("error in the log: {line}"))
    } else if !run.output.contains(DONE_SENTINEL) {
        Some("stopped before the end (no success sentinel): a script error or a crash".into())
    } else if !run.success {
        Some("Godot exited with an error".into())
    } else {
        None
    };
    if let Some(problem) = problem {
        failed += 1;
        let tail: Vec<&str> = run.output.lines().rev().take(25).collect();
        println!("  FAILED {label}: {problem}; last lines of {}:", log.display());
        for line in tail.iter().rev() {
            println!("    | {line}");
        }
        tally.failures.push(format!("godot: {label}: {problem}"));
    }
    println!("xtask: {label}: {passed} passed, {failed} failed");
    tally.passed += passed;
    tally.failed += failed;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::count_before;

    #[test]
    fn counts_cargo_test_result_lines() {
        let line = "ok. 12 passed; 3 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s";
        assert_eq!(count_before(line, " passed"), 12);
        assert_eq!(count_before(line, " failed"), 3);
        assert_eq!(count_before("FAILED. 0 passed; 1 failed;", " passed"), 0);
    }
}
