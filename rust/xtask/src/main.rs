//! Project automation for Reach2D, run as `cargo xtask <command>`.
//!
//! Commands:
//! - `build [--release]`: build the extension and place it where `addons/reach2d/reach2d.gdextension` points.
//! - `test`: formatting, clippy, the Rust tests, then the Godot integration tests in `tests/`, in a real headless Godot.
//! - `demo`: build, then run the demo project (windowed with a display, headless otherwise).
//! - `screenshots`: render each demo scene to `docs/screenshots/*.png` (Xvfb + Mesa, no GPU needed).
//! - `package`: write a release zip of the addon into `dist/`.
//! - `godot -- ARGS...`: run the project's Godot with ARGS (fetching it first if needed).

mod demo;
mod godot;
mod godot_tests;
mod package;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// A failure that ends the command with a message and a non-zero exit code.
type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("build") => build(args.iter().any(|a| a == "--release")).map(|_| ()),
        Some("test") => godot_tests::test_all(args.iter().any(|a| a == "--godot-only")),
        Some("demo") => demo::demo(),
        Some("screenshots") => demo::screenshots(),
        Some("package") => package::package(),
        Some("bench") => bench(),
        Some("godot") => run_godot(&args[1..]),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: error: {message}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: cargo xtask <command>
  build [--release]   build the extension into addons/reach2d/bin/
  test [--godot-only]  fmt, clippy, Rust tests, then the Godot tests in tests/ (headless);
                      REACH2D_TEST_FILTER=word runs only tests/test_*word*.gd
  demo                build (release) and run the demo project: windowed, or headless without a display
  screenshots         render each demo scene to docs/screenshots/*.png (uses Xvfb; fails on a blank render)
  package             write dist/reach2d-<version>.zip (release build)
  bench               Reach2D's nodes vs Godot's built-in 2D IK in one headless Godot (release build)
  godot -- ARGS...    run the project's Godot 4 with ARGS";

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

/// The addon's library file for this platform, as named in `reach2d.gdextension`.
pub fn addon_library_name(release: bool) -> String {
    let profile = if release { "release" } else { "debug" };
    match std::env::consts::OS {
        "windows" => format!("reach2d.windows.{profile}.x86_64.dll"),
        "macos" => format!("libreach2d.macos.{profile}.dylib"),
        _ => format!("libreach2d.linux.{profile}.{}.so", std::env::consts::ARCH),
    }
}

/// Builds the extension and copies it into `addons/reach2d/bin/`; returns the placed file.
///
/// Godot's editor (and the `godot` binaries the tests use) load the `debug` entry, so a release build is
/// placed under the release name; `package` ships both.
pub fn build(release: bool) -> Result<PathBuf> {
    let mut cmd = cargo();
    cmd.args(["build", "-p", "reach2d"]);
    if release {
        cmd.arg("--release");
    }
    run(&mut cmd)?;
    let root = repo_root();
    let built_name = match std::env::consts::OS {
        "windows" => "reach2d.dll",
        "macos" => "libreach2d.dylib",
        _ => "libreach2d.so",
    };
    let target_dir = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let built = target_dir.join(if release { "release" } else { "debug" }).join(built_name);
    let bin = root.join("addons/reach2d/bin");
    std::fs::create_dir_all(&bin).map_err(|e| format!("cannot create {}: {e}", bin.display()))?;
    let placed = bin.join(addon_library_name(release));
    // Copy to a temporary name and rename, so a running Godot never sees a half-written library.
    let tmp = bin.join(".incoming");
    std::fs::copy(&built, &tmp).map_err(|e| format!("cannot copy {}: {e}", built.display()))?;
    std::fs::rename(&tmp, &placed).map_err(|e| format!("cannot place {}: {e}", placed.display()))?;
    println!("xtask: placed {}", placed.strip_prefix(&root).unwrap_or(&placed).display());
    Ok(placed)
}

/// Times the nodes against Godot's built-in SkeletonModification2D solvers (tests/bench/bench_nodes.gd).
///
/// The editor build of Godot loads the `debug` library entry, so the release build is placed under that name
/// for the run; the next `cargo xtask build` or `test` puts the debug build back.
fn bench() -> Result {
    let release = build(true)?;
    let root = repo_root();
    let debug_slot = root.join("addons/reach2d/bin").join(addon_library_name(false));
    std::fs::copy(&release, &debug_slot).map_err(|e| format!("cannot place the release build: {e}"))?;
    let project = root.join("tests");
    godot_tests::write_extension_list(&project)?;
    let godot = godot::Godot::locate_or_fetch()?;
    let log = root.join("target/godot-bench.log");
    let outcome = godot::run_logged(
        godot.command().args(["--headless", "--path"]).arg(&project).args(["-s", "res://bench/bench_nodes.gd"]),
        &log,
        std::time::Duration::from_secs(900),
    )?;
    for line in outcome.output.lines().filter(|l| l.starts_with('|') || l.starts_with("Godot")) {
        println!("{line}");
    }
    if !outcome.success || !outcome.output.contains(godot_tests::DONE_SENTINEL) {
        return Err(format!("the benchmark did not finish (log: {})", log.display()));
    }
    Ok(())
}

fn run_godot(args: &[String]) -> Result {
    let args = args.strip_prefix(&["--".to_string()]).unwrap_or(args);
    let godot = godot::Godot::locate_or_fetch()?;
    let status = godot.command().args(args).status().map_err(|e| format!("cannot start Godot: {e}"))?;
    std::process::exit(status.code().unwrap_or(1));
}
