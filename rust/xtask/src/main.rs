//! Project automation for Reach2D, run as `cargo xtask <command>`.
//!
//! This file only reads the command line; the commands are listed in [`USAGE`]. The rooms:
//! - `commands/`: one module per command (`build`, `test`, `test_web`, `layout`, `platforms`, `package`,
//!   `release`, `reference`, `bench`, `demo`, `fuzz`, `godot`);
//! - `toolchain/`: what the commands fetch from outside (`debian`: a confined apt; `cross`: the cross builds'
//!   std source, linkers and zig; `emscripten`: the web build's; `emscripten_sid` and `web_template`: the
//!   browser test's web export template; `godot`: finding or fetching Godot; `android` and `bionic_symbols`: the
//!   Android sysroot made here; `ios`: the iOS `.xcframework`);
//! - shared support: `process` (the error type, the repository root, running a child), `platform` (the shipped
//!   platforms and their file names), `library` (Godot's entry point, an unreadable library's error),
//!   `apple_files` (Apple's library files read without Apple's tools), `verify` (what a shipped binary must look
//!   like; it reads the toolchain's promises, so only commands use it), `godot_run` (running Godot
//!   with a timeout, a log and a sentinel), `tally` (pass/fail counts), `class_docs` (class docs XML to Markdown),
//!   `release_check` (versions, release notes, the Asset Library's fields and zip layout, SHA-256).

mod apple_files;
mod class_docs;
mod commands;
mod godot_run;
mod library;
mod platform;
mod process;
mod release_check;
mod tally;
mod toolchain;
mod verify;

use commands::{
    animation, bench, build, demo, fuzz, godot, layout, package, platforms, reference, release, test, test_web,
};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let outcome = match args.first().map(String::as_str) {
        Some("build") => build::build_command(&args[1..], flag("--release")),
        Some("test") if flag("--web") => test_web::test_web(flag("--threads")),
        Some("test") => test::test_all(flag("--godot-only"), !flag("--no-platforms"), flag("--arm64")),
        Some("layout") => layout::layout(),
        Some("platforms") => platforms::platforms(&args[1..]),
        Some("demo") => demo::demo(),
        Some("screenshots") if flag("--animated") => animation::animation(),
        Some("screenshots") => demo::screenshots(),
        Some("package") => package::package().map(drop),
        Some("reference") => reference::reference(flag("--check")),
        Some("release") => {
            let tag = args.iter().position(|a| a == "--tag").and_then(|i| args.get(i + 1));
            release::release(tag.map(String::as_str), flag("--skip-build"))
        }
        Some("bench") => {
            let only = args.iter().position(|a| a == "--only").and_then(|i| args.get(i + 1));
            bench::bench(flag("--quick"), only.map(String::as_str), flag("--spring-only"))
        }
        Some("godot") => godot::run(&args[1..]),
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
                      windows-x86_64, macos, web (both web variants; web-nothreads or web-threads for one),
                      android (both ABIs; android-arm64 or android-x86_64 for one) or ios (an .xcframework),
                      cross-compiled from Linux x86_64, fetching the tools it needs
  test [--godot-only] [--no-platforms] [--arm64]
                      layout, fmt, clippy, Rust tests, every platform's build and checks (`platforms`), then the
                      Godot tests in tests/ (headless); REACH2D_TEST_FILTER=word runs only tests/*/test_*word*.gd;
                      --arm64: only the Godot tests, on the arm64 library in Debian's arm64 Godot under qemu
  test --web [--threads]
                      the shipped web build in headless Chromium: exported with a Godot web template built from
                      Debian's source of the tests' Godot (cached in ~/.cache/reach2d/), served on 127.0.0.1;
                      REACH2D_WEB_WASM=FILE tests that side module instead
  layout              the house rules for every .rs file under rust/ (also the first stage of `test`): at most 350
                      lines of code, tests in files of their own, no cycles between a crate's files
  platforms [PLATFORM]
                      build every platform's (or PLATFORM's) release library, check each binary, load it in a
                      loader of its platform where one runs here (not macOS, Android, iOS: checked statically),
                      and run the solver tests as a Windows program under Wine, an arm64 program under qemu and a
                      wasm program under Node.js
  demo                build (release) and run the demo project: windowed, or headless without a display
  screenshots [--animated]
                      render each demo scene to docs/screenshots/*.png (uses Xvfb; fails on a blank render);
                      --animated: the moving demos (spider, snake, tail) as docs/screenshots/demo.gif
  package             write dist/reach2d-<version>.zip: every platform's release library, each checked
  reference [--check]  write docs/reference/<Class>.md for every class the extension registers, from the class
                      docs Godot's --doctool --gdextension-docs dumps (what the editor's help shows); --check: write
                      nothing, fail when a page is stale (a stage of `test`)
  release [--tag vX.Y.Z] [--skip-build]
                      check that Cargo.toml, plugin.cfg, CHANGELOG.md and dist-meta/asset_library.cfg agree on the
                      version, `package`, check the zip as the Asset Library takes it, write dist/SHA256SUMS and
                      dist/RELEASE_NOTES.md (the CHANGELOG's section); --skip-build: a zip without libraries, to try it
  bench [--quick] [--only WORD] [--spring-only]
                      Reach2D's nodes vs Godot's built-in 2D IK, a GDScript solver and the engine I/O floor in one
                      headless Godot (release build, `bench` feature); --quick: a few chains, to prove it runs;
                      --only WORD: the tests/bench/bench_*WORD*.gd scripts only; --spring-only: the spring tables
  fuzz [TARGET|all] [SECONDS]  fuzz the solver crate (cargo-fuzz, nightly); 0 s replays the corpus
  godot -- ARGS...    run the project's Godot 4 with ARGS";
