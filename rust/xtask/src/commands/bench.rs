//! `cargo xtask bench [--quick]`: Reach2D's nodes against Godot's built-in SkeletonModification2D solvers, a
//! GDScript solver and the engine I/O floor, in one headless Godot.
//!
//! The extension is the release build with the `bench` feature (the I/O floor class `Reach2DIoFloor` and the heap
//! allocation counter), placed in the slot the editor build of Godot loads. `--quick` runs the realistic workload
//! with a small number of chains only: `cargo xtask test` calls it to prove the bench runs.

use crate::commands::build::{host_platform, place};
use crate::godot_run::{run_logged, write_extension_list};
use crate::process::{Result, cargo, repo_root};
use crate::toolchain::cross::built_library;
use crate::toolchain::godot::Godot;
use std::time::Duration;

/// The scripts `bench` runs, in order: the realistic (game-like) workload, the fixed-iteration easy case, the
/// multi-effector rig against stacked chains, grounded feet against the plain legs, the path chain against the same
/// fit in GDScript, CopyTransform2D against the same copy written in GDScript, then stepping legs against the
/// plain legs, and Ragdoll2D against RigidBody2D and PinJoint2D nodes with a GDScript copy loop.
const FULL: [&str; 8] = [
    "bench_game.gd",
    "bench_nodes.gd",
    "bench_rig.gd",
    "bench_ground.gd",
    "bench_path.gd",
    "bench_copy.gd",
    "bench_stepper.gd",
    "bench_ragdoll.gd",
];

/// Runs the benchmarks; with `quick`, only the realistic workload with a few chains (a check that it runs, not a
/// measurement); with `only`, the scripts whose name contains that word (`--only copy`: bench_copy.gd); with
/// `spring_only`, only bench_nodes.gd's spring tables (SpringChain2D against the built-in Jiggle, with and without
/// colliders, local narrow phase and engine queries). Fails when a script fails: no success sentinel, an error in
/// the log, or a non-zero exit.
pub fn bench(quick: bool, only: Option<&str>, spring_only: bool) -> Result {
    let platform = host_platform()?;
    crate::process::run(cargo().args(["build", "-p", "reach2d", "--release", "--features", "bench"]))?;
    place(&built_library(platform, true), &platform.library_name(false))?;
    let root = repo_root();
    let project = root.join("tests");
    write_extension_list(&project)?;
    let godot = Godot::locate_or_fetch()?;
    let word = if spring_only { Some("bench_nodes") } else { only };
    let scripts: Vec<&str> = if quick {
        FULL[..1].to_vec()
    } else {
        FULL.iter().copied().filter(|script| word.is_none_or(|word| script.contains(word))).collect()
    };
    if scripts.is_empty() {
        return Err(format!("bench: no script matches {word:?}; the scripts: {FULL:?}"));
    }
    for script in scripts {
        let name = script.trim_end_matches(".gd");
        let log = root.join(format!("target/godot-{name}{}.log", if quick { "-quick" } else { "" }));
        let mut cmd = godot.command();
        cmd.args(["--headless", "--path"]).arg(&project).arg("-s").arg(format!("res://bench/{script}"));
        if script == "bench_ragdoll.gd" {
            // One physics tick per frame, frames back to back: the frame's wall time is its whole work.
            cmd.args(["--fixed-fps", "60"]);
        }
        if quick {
            // The phase timer too, so the quick run (part of `cargo xtask test`) fails if it stops seeing the work.
            cmd.args(["--", "--quick", "--phases"]);
        } else if spring_only {
            cmd.args(["--", "--spring-only"]);
        }
        let timeout = Duration::from_secs(if quick { 180 } else { 1800 });
        let outcome = run_logged(&mut cmd, &log, timeout)?;
        for line in
            outcome.output.lines().filter(|l| l.starts_with('|') || l.starts_with("Godot") || l.starts_with("#"))
        {
            println!("{line}");
        }
        if let Some(problem) = outcome.problem(timeout) {
            return Err(format!("bench/{script}: {problem} (log: {})", log.display()));
        }
    }
    Ok(())
}
