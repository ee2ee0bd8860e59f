//! `cargo xtask fuzz [TARGET|all] [SECONDS]`: coverage-guided fuzzing of the solver crate (cargo-fuzz, libFuzzer).
//!
//! The targets live in `rust/reach2d_core/fuzz/` (outside the workspace, so the normal build never compiles
//! them) and share their invariants with `rust/reach2d_core/tests/fuzz_replay.rs`, which CI runs as an ordinary
//! test over the committed corpus. This command is for the long runs: it installs cargo-fuzz when missing (it
//! needs a nightly toolchain), fuzzes each target for SECONDS (default 60; 0 replays the corpus only), growing
//! `fuzz/corpus-work/<target>` (ignored by git), then merges what found new coverage into the committed
//! `fuzz/corpus/<target>`. A crash is saved under `fuzz/artifacts/<target>/`; move it into
//! `fuzz/regressions/<target>/` so the replay test keeps it.

use crate::process::{Result, repo_root, run};
use std::process::Command;

/// Every fuzz target, in the order `all` runs them.
pub const TARGETS: [&str; 5] = ["solve_fabrik", "solve_ccd", "solve_two_bone", "solve_look_at", "write_back"];

pub fn fuzz(args: &[String]) -> Result {
    let which = args.first().map_or("all", String::as_str);
    let seconds: u64 = match args.get(1) {
        Some(s) => s.parse().map_err(|_| format!("SECONDS must be a whole number, not {s:?}"))?,
        None => 60,
    };
    let targets: Vec<&str> = if which == "all" {
        TARGETS.to_vec()
    } else if TARGETS.contains(&which) {
        vec![which]
    } else {
        return Err(format!("unknown fuzz target {which:?}; one of {TARGETS:?} or all"));
    };
    ensure_cargo_fuzz()?;
    let crate_dir = repo_root().join("rust/reach2d_core");
    for target in targets {
        let corpus = format!("fuzz/corpus/{target}");
        let work = format!("fuzz/corpus-work/{target}");
        for dir in [&corpus, &work] {
            std::fs::create_dir_all(crate_dir.join(dir)).map_err(|e| format!("cannot create {dir}: {e}"))?;
        }
        let fuzz_run = || {
            let mut cmd = Command::new("cargo");
            cmd.current_dir(&crate_dir).args(["+nightly", "fuzz", "run", "-O", target]);
            cmd
        };
        if seconds == 0 {
            run(fuzz_run().args([&corpus, "--", "-runs=0"]))?;
            continue;
        }
        println!("xtask: fuzzing {target} for {seconds} s");
        let time = format!("-max_total_time={seconds}");
        run(fuzz_run().args([&work, &corpus, "--", &time, "-print_final_stats=1"]))?;
        // Keep only the inputs that add coverage to the committed corpus.
        run(fuzz_run().args([&corpus, &work, "--", "-merge=1"]))?;
    }
    Ok(())
}

/// Installs cargo-fuzz from crates.io when `cargo +nightly fuzz` is not there yet.
fn ensure_cargo_fuzz() -> Result {
    let present =
        Command::new("cargo").args(["+nightly", "fuzz", "--version"]).output().is_ok_and(|o| o.status.success());
    if present {
        return Ok(());
    }
    println!("xtask: installing cargo-fuzz (cargo install cargo-fuzz)");
    run(Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]))
        .map_err(|e| format!("{e}\ncargo-fuzz needs a nightly toolchain too: rustup toolchain install nightly"))
}
