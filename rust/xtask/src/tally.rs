//! Counting what passed and failed across every stage of `cargo xtask test`.

use crate::process::Result;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// Passed and failed checks, with a line for each failure.
#[derive(Default)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub failures: Vec<String>,
}

impl Tally {
    /// Records one check that is not a cargo test (a library check, a load test), printing its outcome.
    pub fn check(&mut self, label: &str, outcome: Result<String>) {
        match outcome {
            Ok(detail) => {
                self.passed += 1;
                println!("  ok     {label}: {detail}");
            }
            Err(problem) => {
                self.failed += 1;
                println!("  FAILED {label}: {problem}");
                self.failures.push(format!("{label}: {problem}"));
            }
        }
    }
}

/// The property tests' seed (proptest) unless `PROPTEST_RNG_SEED` is set: every run, on every platform, checks
/// the same cases, so a run fails for a change and not for the cases it happened to draw. New cases are drawn with
/// another seed: `PROPTEST_RNG_SEED=$RANDOM cargo xtask test` (CONTRIBUTING.md).
const PROPTEST_SEED: &str = "20261128";

/// Runs a `cargo test` command, echoing its output and adding up its `test result:` lines; `label` names its
/// failures.
pub fn run_cargo_test(cmd: &mut Command, label: &str, tally: &mut Tally) -> Result {
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        cmd.env("PROPTEST_RNG_SEED", PROPTEST_SEED);
    }
    let mut child = cmd.stdout(Stdio::piped()).spawn().map_err(|e| format!("cannot start cargo test: {e}"))?;
    let stdout = child.stdout.take().expect("piped stdout");
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| e.to_string())?;
        println!("{line}");
        if let Some(rest) = line.strip_prefix("test result: ") {
            tally.passed += count_before(rest, " passed");
            tally.failed += count_before(rest, " failed");
        }
        if let Some(name) = line.strip_prefix("test ").and_then(|l| l.strip_suffix(" ... FAILED")) {
            tally.failures.push(format!("{label}: {name}"));
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    if !status.success() && tally.failed == 0 {
        // A build failure or a crashed test binary: it counts, even though no result line says so.
        tally.failed += 1;
        tally.failures.push(format!("{label}: cargo test did not complete"));
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

#[cfg(test)]
mod tests;
