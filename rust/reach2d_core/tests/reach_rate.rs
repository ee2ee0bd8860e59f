//! Reach rate on seeded random reachable targets, and the iteration distribution quoted in the
//! crate docs:
//!
//! `cargo test -p reach2d_core --release --test reach_rate -- --ignored --nocapture`

mod common;

use common::*;
use reach2d_core::{CcdSettings, ChainLimits, FabrikSettings, SolveReport, solve_ccd, solve_fabrik};

const SEED: u64 = 0x5EED_2D1C;
const TOLERANCE: f32 = 0.5;
const MAX_ITERATIONS: u32 = 64;

struct Stats {
    reached: usize,
    iterations: Vec<u32>,
}

fn run(cases: usize, solve: impl Fn(&mut Case) -> SolveReport) -> Stats {
    let mut rng = Rng(SEED);
    let mut stats = Stats { reached: 0, iterations: Vec::with_capacity(cases) };
    for _ in 0..cases {
        let mut case = random_case(&mut rng);
        let report = solve(&mut case);
        stats.reached += usize::from(report.reached);
        stats.iterations.push(report.iterations);
    }
    stats
}

fn fabrik(case: &mut Case) -> SolveReport {
    let s = FabrikSettings { max_iterations: MAX_ITERATIONS, tolerance: TOLERANCE };
    solve_fabrik(&mut case.joints, &case.lengths, case.target, &ChainLimits::NONE, &s).unwrap()
}

fn ccd(case: &mut Case) -> SolveReport {
    let s = CcdSettings { max_iterations: MAX_ITERATIONS, tolerance: TOLERANCE, ..CcdSettings::default() };
    solve_ccd(&mut case.joints, case.target, &ChainLimits::NONE, &s).unwrap()
}

/// 10,000 cases in release, 2,000 in debug (to keep `cargo test` fast).
fn case_count() -> usize {
    if cfg!(debug_assertions) { 2_000 } else { 10_000 }
}

/// Fails unless at least `(1000 - per_mille_missed) / 1000` of the targets were reached.
fn assert_rate(name: &str, stats: &Stats, per_mille_missed: usize) {
    let n = stats.iterations.len();
    let allowed = n * per_mille_missed / 1000;
    let missed = n - stats.reached;
    assert!(missed <= allowed, "{name}: missed {missed} of {n} reachable targets (allowed {allowed})");
}

#[test]
fn fabrik_reaches_reachable_targets() {
    let stats = run(case_count(), fabrik);
    // At least 99.9% (in debug: 2,000 cases allow at most 2 misses).
    assert_rate("FABRIK", &stats, 1);
}

#[test]
fn ccd_reaches_reachable_targets() {
    let stats = run(case_count(), ccd);
    // Plain CCD sweeps converge slowly (linearly, along arcs) on some curled chains; the
    // damped least-squares refinement they hand over to reaches them all (measured 100%).
    assert_rate("CCD", &stats, 1);
}

fn summary(name: &str, stats: &mut Stats) -> String {
    let n = stats.iterations.len();
    stats.iterations.sort_unstable();
    let mean = stats.iterations.iter().map(|&i| f64::from(i)).sum::<f64>() / n as f64;
    let p50 = stats.iterations[n / 2];
    let p99 = stats.iterations[(n * 99).div_ceil(100) - 1];
    let max = stats.iterations[n - 1];
    format!("| {name} | {n} | {:.2}% | {mean:.2} | {p50} | {p99} | {max} |", 100.0 * stats.reached as f64 / n as f64)
}

#[test]
#[ignore = "statistics for the docs; run in release with --nocapture"]
fn iteration_stats() {
    let mut f = run(10_000, fabrik);
    let mut c = run(10_000, ccd);
    println!("| solver | cases | reached | mean iterations | median | p99 | max |");
    println!("|---|---|---|---|---|---|---|");
    println!("{}", summary("FABRIK", &mut f));
    println!("{}", summary("CCD", &mut c));
}
