//! `cargo xtask test`: the layout rules (`layout.rs`), formatting, clippy, the Rust tests (the versions among them:
//! `release_check/tests.rs`), the class reference against the debug build (`reference.rs`), every Godot test file
//! (`tests/<area>/test_*.gd`, found by `test/discovery.rs`) in a real headless Godot, then every platform's build and
//! checks (`platforms.rs`).
//!
//! Each test file runs in its own Godot process (`tests/runner.gd` in script mode), so a hang or crash in one
//! file cannot hide the others. A GDScript error or a Rust panic inside a coroutine does not quit Godot, so a
//! file only passes when all of these hold: the process exits 0 before the timeout, the runner printed its
//! success sentinel, and the log shows no script error, panic or failed extension load. The quick benchmark
//! (`cargo xtask bench --quick`) runs after them, under the same checks.

mod discovery;

use crate::commands::build::build;
use crate::godot_run::{run_logged, write_extension_list};
use crate::platform::Platform;
use crate::process::{Result, cargo, repo_root};
use crate::tally::{Tally, run_cargo_test};
use crate::toolchain::godot::Godot;
use std::time::Duration;

const FILE_TIMEOUT: Duration = Duration::from_secs(180);

/// Runs everything `cargo xtask test` checks; with `godot_only`, just the Godot tests (for quick iteration);
/// without `platforms`, no cross builds (the `platforms` stage, which CI always runs).
///
/// `arm64`: the Godot tests only, against the arm64 library in Debian's arm64 Godot under qemu (Linux x86_64).
pub fn test_all(godot_only: bool, platforms: bool, arm64: bool) -> Result {
    let mut rust = Tally::default();
    let mut cross = Tally::default();
    let run_platforms = platforms && !godot_only && !arm64;
    if !godot_only && !arm64 {
        // The house rules first: a fraction of a second, and the clearest failures.
        crate::commands::layout::layout()?;
        crate::process::run(cargo().args(["fmt", "--all", "--", "--check"]))
            .map_err(|e| format!("{e}\nformatting differs: run `cargo fmt --all`"))?;
        crate::process::run(cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))?;
        run_cargo_test(cargo().args(["test", "--workspace", "--no-fail-fast"]), "rust", &mut rust)?;
    }

    // Godot before the platforms: the suite that covers the most, ahead of the stage that takes the longest.
    let mut gd = Tally::default();
    if arm64 {
        crate::commands::build::build_for(Platform::LinuxArm64, false)?;
        // Emulation makes everything several times slower, startup most of all.
        run_godot_tests(&mut gd, &Godot::arm64_under_qemu()?, FILE_TIMEOUT * 6)?;
    } else {
        build(false)?;
        if !godot_only {
            // The class reference against the library just built: a property or method added without
            // `cargo xtask reference` fails here (see `reference.rs`).
            gd.check("class reference (docs/reference/)", crate::commands::reference::check_pages());
        }
        let godot = Godot::locate_or_fetch()?;
        run_godot_tests(&mut gd, &godot, FILE_TIMEOUT)?;
        quick_bench(&mut gd, &godot, FILE_TIMEOUT)?;
        if run_platforms {
            crate::commands::platforms::run_stage(&mut cross, &Platform::ALL)?;
            // The web build in a browser, when a web template is cached (see `test_web.rs`).
            if let Some(outcome) = crate::commands::test_web::stage(&godot)? {
                cross.check("web-nothreads in Chromium (the shipped library in a Godot web export)", outcome);
            }
        }
    }

    println!();
    println!("Rust tests:  {} passed, {} failed", rust.passed, rust.failed);
    if run_platforms {
        println!("Platforms:   {} passed, {} failed", cross.passed, cross.failed);
    }
    println!("Godot tests: {} passed, {} failed", gd.passed, gd.failed);
    let all = [&rust, &cross, &gd];
    for failure in all.iter().flat_map(|t| &t.failures) {
        println!("  FAILED {failure}");
    }
    let passed: usize = all.iter().map(|t| t.passed).sum();
    let failed: usize = all.iter().map(|t| t.failed).sum();
    println!("{passed} passed, {failed} failed");
    if failed > 0 || passed == 0 { Err(format!("{failed} tests failed")) } else { Ok(()) }
}

/// The attack tests that must hold in release builds too, where godot-rust's safeguards are disengaged and a freed
/// object would be called through a dangling pointer (issues 19 and 29). File names: found in whichever area folder.
const RELEASE_ATTACKS: [&str; 4] =
    ["test_restructure.gd", "test_tree_watch.gd", "test_bad_input.gd", "test_bad_input_matrix.gd"];

/// `cargo xtask bench --quick` as one more Godot test (REACH2D_TEST_FILTER=bench runs only it): proves the benchmark
/// runs to its end without an error; its timings mean nothing here. It builds the release library with the `bench`
/// feature (release safeguards, plus the `Reach2DDebug` class the attack tests read), so the attack tests run on it
/// too ([`RELEASE_ATTACKS`]); the debug build is put back afterwards.
fn quick_bench(tally: &mut Tally, godot: &Godot, timeout: Duration) -> Result {
    let filter = std::env::var("REACH2D_TEST_FILTER").unwrap_or_default();
    if !("bench".contains(&filter) || filter.is_empty()) {
        return Ok(());
    }
    match crate::commands::bench::bench(true, None, false) {
        Ok(()) => {
            println!("  ok     bench --quick");
            tally.passed += 1;
        }
        Err(e) => {
            println!("  FAILED bench --quick: {e}");
            tally.failed += 1;
            tally.failures.push(format!("godot: bench --quick: {e}"));
        }
    }
    // The release library is in the debug slot now: the attacks against it.
    let project = repo_root().join("tests");
    let files = discovery::find_test_files(&project, "")?;
    for name in RELEASE_ATTACKS {
        let file = discovery::by_name(&files, name)?;
        let mut cmd = godot.command();
        cmd.args(["--headless", "--path"]).arg(&project).args(["-s", "res://runner.gd", "--"]).arg(&file.path);
        run_test_process(&format!("release {}", file.path), &mut cmd, timeout, tally)?;
    }
    build(false).map(drop)
}

fn run_godot_tests(tally: &mut Tally, godot: &Godot, timeout: Duration) -> Result {
    let root = repo_root();
    let project = root.join("tests");
    write_extension_list(&project)?;
    println!("xtask: Godot {}", godot.version().unwrap_or_default());
    let filter = std::env::var("REACH2D_TEST_FILTER").unwrap_or_default();

    let files = discovery::find_test_files(&project, &filter)?;
    if files.is_empty() && filter.is_empty() {
        return Err("no tests/**/test_*.gd files found".into());
    }
    for file in &files {
        let mut cmd = godot.command();
        cmd.args(["--headless", "--path"]).arg(&project).args(["-s", "res://runner.gd", "--"]).arg(&file.path);
        // Labelled by its path from tests/ (`chains/test_chains.gd`), so its log
        // (target/godot-tests/chains_test_chains_gd.log) is unique as paths are.
        run_test_process(&file.path, &mut cmd, timeout, tally)?;
    }
    // Editor-only behaviour (preview, saving never stores the IK pose) needs a real editor: the plugin in
    // tests/addons/reach2d_editor_test runs it when the editor starts with REACH2D_EDITOR_TEST=1.
    if "editor".contains(&filter) || filter.is_empty() {
        let mut cmd = godot.command();
        cmd.env("REACH2D_EDITOR_TEST", "1").args(["--headless", "--editor", "--path"]).arg(&project);
        run_test_process("editor (save round trip)", &mut cmd, timeout, tally)?;
        // The extension's hot reload (`reloadable = true`): the nodes of an open scene survive and keep solving.
        let mut cmd = godot.command();
        cmd.env("REACH2D_EDITOR_TEST", "hot_reload").args(["--headless", "--editor", "--path"]).arg(&project);
        run_test_process("editor (hot reload)", &mut cmd, timeout, tally)?;
    }
    // The demo project checks its own scenes (same output protocol): every IK effector tracks its target.
    let demo = root.join("godot_project");
    if demo.join("demo_runner.gd").exists() && ("demo".contains(&filter) || filter.is_empty()) {
        write_extension_list(&demo)?;
        let mut cmd = godot.command();
        cmd.args(["--headless", "--path"]).arg(&demo).args(["-s", "res://demo_runner.gd", "--", "--check"]);
        run_test_process("demo scenes", &mut cmd, timeout, tally)?;
    }
    Ok(())
}

/// Runs one Godot test process and adds what it reported to `tally`; a hang, crash or script error counts as a
/// failure of its own.
fn run_test_process(label: &str, cmd: &mut std::process::Command, timeout: Duration, tally: &mut Tally) -> Result {
    let name: String = label.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    let log = repo_root().join("target/godot-tests").join(format!("{name}.log"));
    let run = run_logged(cmd, &log, timeout)?;
    let (mut passed, mut failed) = (0, 0);
    // The release library's run of a test file says so in front of each name.
    let tag = if label.starts_with("release ") { "release: " } else { "" };
    for line in run.output.lines() {
        if let Some(name) = line.strip_prefix("TEST PASS ") {
            passed += 1;
            println!("  ok     {tag}{name}");
        } else if let Some(rest) = line.strip_prefix("TEST FAIL ") {
            failed += 1;
            println!("  FAILED {tag}{rest}");
            tally.failures.push(format!("godot: {tag}{rest}"));
        }
    }
    if let Some(problem) = run.problem(timeout) {
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
