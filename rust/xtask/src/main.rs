//! Project automation for Reach2D, run as `cargo xtask <command>`.
//!
//! The commands are listed in [`USAGE`]. Modules: `build` (one platform's library into the addon), `platform`
//! (the platforms and their file names), `cross` (the tools a cross build fetches), `verify` (what a shipped
//! binary must look like), `cross_tests` (the solver tests and a load test under Wine and qemu), `package` (the
//! zip), `godot` (finding or fetching Godot), `godot_run` (running it), `godot_tests` (`test`), `bench`, `demo`,
//! `debian` (packages from Debian's archive without touching the host).

mod bench;
mod build;
mod cross;
mod cross_tests;
mod debian;
mod demo;
mod fuzz;
mod godot;
mod godot_run;
mod godot_tests;
mod package;
mod platform;
mod tally;
mod toolchain;
mod verify;
mod web_test;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// A failure that ends the command with a message and a non-zero exit code.
type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let outcome = match args.first().map(String::as_str) {
        Some("build") => build_command(&args[1..], flag("--release")),
        Some("test") if flag("--web") => web_test::test_web(flag("--threads")),
        Some("test") => godot_tests::test_all(flag("--godot-only"), !flag("--no-platforms"), flag("--arm64")),
        Some("platforms") => cross_tests::platforms(&args[1..]),
        Some("demo") => demo::demo(),
        Some("screenshots") => demo::screenshots(),
        Some("package") => package::package(),
        Some("bench") => bench::bench(flag("--quick")),
        Some("godot") => run_godot(&args[1..]),
        Some("fuzz") => fuzz::fuzz(&args[1..]),
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

/// The commands, as `cargo xtask` without a command prints them.
const USAGE: &str = "usage: cargo xtask <command>
  build [--release] [--target PLATFORM]
                      build the extension into addons/reach2d/bin/; PLATFORM is linux-x86_64, linux-arm64,
                      windows-x86_64, macos, or web (both web variants; web-nothreads or web-threads for one),
                      cross-compiled from Linux x86_64, fetching the tools it needs
  test [--godot-only] [--no-platforms] [--arm64]
                      fmt, clippy, Rust tests, every platform's build and checks (`platforms`), then the Godot
                      tests in tests/ (headless); REACH2D_TEST_FILTER=word runs only tests/test_*word*.gd;
                      --arm64: only the Godot tests, on the arm64 library in Debian's arm64 Godot under qemu
  test --web [--threads]
                      the web build in headless Chromium (no threads; --threads: the threads variant): the
                      extension built with sid's emscripten, exported with a Godot web template built from
                      Debian's source (cached in ~/.cache/reach2d/), served on 127.0.0.1;
                      REACH2D_WEB_WASM=FILE tests that side module instead of building one
  platforms [PLATFORM]
                      build every platform's (or PLATFORM's) release library, check each binary, load it in a
                      loader of its platform, and run the solver tests as a Windows program under Wine, an arm64
                      program under qemu and a wasm program under Node.js
  demo                build (release) and run the demo project: windowed, or headless without a display
  screenshots         render each demo scene to docs/screenshots/*.png (uses Xvfb; fails on a blank render)
  package             write dist/reach2d-<version>.zip: every platform's release library, each checked
  bench [--quick]     Reach2D's nodes vs Godot's built-in 2D IK, a GDScript solver and the engine I/O floor in one
                      headless Godot (release build, `bench` feature); --quick: a few chains, to prove it runs
  fuzz [TARGET|all] [SECONDS]  fuzz the solver crate (cargo-fuzz, nightly); 0 s replays the corpus
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

/// `build [--release] [--target PLATFORM]`.
fn build_command(args: &[String], release: bool) -> Result {
    let platforms = match args.iter().position(|a| a == "--target") {
        Some(i) => platform::Platform::parse(args.get(i + 1).ok_or("--target needs a platform")?)?,
        None => vec![build::host_platform()?],
    };
    for platform in platforms {
        build::build_for(platform, release)?;
    }
    Ok(())
}

fn run_godot(args: &[String]) -> Result {
    let args = args.strip_prefix(&["--".to_string()]).unwrap_or(args);
    let godot = godot::Godot::locate_or_fetch()?;
    let status = godot.command().args(args).status().map_err(|e| format!("cannot start Godot: {e}"))?;
    std::process::exit(status.code().unwrap_or(1));
}
