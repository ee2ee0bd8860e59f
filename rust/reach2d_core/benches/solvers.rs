//! Criterion benchmarks of the solver core.
//!
//! * `fabrik/N`, `ccd/N`: one full solve of an N-bone chain that needs all `ITERS` iterations
//!   (tolerance 0; asserted), throughput in bone-iterations, so `time / (N * ITERS)` is the
//!   cost per bone per iteration. Each sample restores the start pose first (a copy of N + 1
//!   points, included in the time). CCD runs damped (`max_angle_step = CCD_STEP`) so that all
//!   10 iterations are sweeps: undamped CCD hands over to the refinement once a sweep no longer
//!   halves the distance (and then reaches this target exactly in fewer iterations).
//! * `fabrik_limited/N`: the same with every bone limited to ±`LIMIT` rad around its parent:
//!   clamped FABRIK passes, then the damped least-squares refinement (and its restarts, since
//!   tolerance 0 is never met) for the rest of the 10 iterations.
//! * `latency_bound/N`: the same dependent chain of operations as FABRIK's inner loops (per
//!   joint: subtract, length = sqrt of a dot product, divide, multiply-add; a tip-to-root and a
//!   root-to-tip pass per iteration), without validation, fallbacks or the stopping rule.
//!   FABRIK's cost is reported as a ratio to it.
//! * `two_bone`: one closed-form two-bone solve.
//! * `pre_bend/N`: `pre_bend_toward_pole` on the same chain (the start pose a pole gives before a solve), with the
//!   same copy of the start pose; reported as a ratio to `fabrik/N`.
//! * `spring/N`: one 1/60 s step of an N-bone spring chain (4 substeps of 1/240 s) whose goal moves every step,
//!   with gravity; throughput in bone-substeps, so `time / (N * 4)` is the cost per bone per substep.
//!
//! Run: `cargo bench -p reach2d_core --bench solvers`, then
//! `python3 rust/reach2d_core/benches/summarize.py` for the table in BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use reach2d_core::{
    AngleLimit, CcdSettings, ChainLimits, FabrikSettings, SpringBone, SpringFrame, SpringGoal, SpringSettings, Vec2,
    pre_bend_toward_pole, solve_ccd, solve_fabrik, solve_two_bone, step_spring,
};

const SIZES: [usize; 5] = [2, 4, 8, 16, 64];
const ITERS: u32 = 10;
const LEN: f32 = 10.0;
/// Damping of the CCD bench (radians per bone per sweep).
const CCD_STEP: f32 = 0.02;
/// Half width of every bone's limit in `fabrik_limited`.
const LIMIT: f32 = 0.6;

/// A gently curled chain of `n` bones of length `LEN` and a target at 95% of its reach, which
/// FABRIK and CCD approach slowly, so that every iteration runs with tolerance 0.
fn setup(n: usize) -> (Vec<Vec2>, Vec<f32>, Vec2) {
    let lengths = vec![LEN; n];
    let bend = 2.0 / n as f32;
    let mut joints = vec![Vec2::ZERO];
    let mut p = Vec2::ZERO;
    for i in 0..n {
        p += Vec2::from_angle(bend * i as f32) * LEN;
        joints.push(p);
    }
    let target = Vec2::from_angle(-0.7) * (0.95 * LEN * n as f32);
    (joints, lengths, target)
}

/// The pole of `pre_bend`: beside the target, half as far out.
fn pole_for(target: Vec2) -> Vec2 {
    target.perp() * 0.5
}

/// The latency bound: FABRIK's dependent arithmetic and nothing else.
#[inline(never)]
fn latency_bound(joints: &mut [Vec2], lengths: &[f32], target: Vec2, iters: u32) -> Vec2 {
    let root = joints[0];
    let mut prev = root;
    for _ in 0..iters {
        let Some((tip, rest)) = joints.split_last_mut() else { break };
        *tip = target;
        let mut next = target;
        for (j, &l) in rest.iter_mut().rev().zip(lengths.iter().rev()) {
            let d = *j - next;
            next += d * (l / d.length());
            *j = next;
        }
        let Some((first, rest)) = joints.split_first_mut() else { break };
        *first = root;
        prev = root;
        for (j, &l) in rest.iter_mut().zip(lengths) {
            let d = *j - prev;
            prev += d * (l / d.length());
            *j = prev;
        }
    }
    prev
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1500))
        .noise_threshold(0.05)
}

/// One benchmark group over `SIZES`: for each size N, `prepare(N, target)` (untimed) makes what `solve` needs besides
/// the chain of `setup`, then every sample restores the start pose (timed) and runs `solve` on it. With
/// `iterations`, the throughput is in bone-iterations (`N * iterations`).
fn restarting_group<P, R>(
    c: &mut Criterion,
    name: &str,
    iterations: Option<u32>,
    prepare: impl Fn(usize, Vec2) -> P,
    mut solve: impl FnMut(&mut [Vec2], &[f32], Vec2, &P) -> R,
) {
    let mut group = c.benchmark_group(name);
    for &n in &SIZES {
        let (start, lengths, target) = setup(n);
        let prepared = prepare(n, target);
        let mut joints = start.clone();
        if let Some(iterations) = iterations {
            group.throughput(Throughput::Elements(n as u64 * u64::from(iterations)));
        }
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                joints.copy_from_slice(&start);
                solve(&mut joints, &lengths, target, &prepared)
            })
        });
    }
    group.finish();
}

fn chains(c: &mut Criterion) {
    let fabrik_settings = FabrikSettings { max_iterations: ITERS, tolerance: 0.0 };
    let ccd_settings = CcdSettings { max_iterations: ITERS, tolerance: 0.0, max_angle_step: CCD_STEP };
    let per_bone = [AngleLimit::new(-LIMIT, LIMIT); 64];
    let limited = |n: usize| ChainLimits { root_direction: Vec2::X, per_bone: &per_bone[..n] };
    for &n in &SIZES {
        let (start, lengths, target) = setup(n);
        let mut joints = start.clone();
        let report = solve_fabrik(&mut joints, &lengths, target, &ChainLimits::NONE, &fabrik_settings).unwrap();
        assert_eq!(report.iterations, ITERS, "FABRIK N={n} must use every iteration: {report:?}");
        let mut joints = start.clone();
        let report = solve_ccd(&mut joints, target, &ChainLimits::NONE, &ccd_settings).unwrap();
        assert_eq!(report.iterations, ITERS, "CCD N={n} must use every sweep: {report:?}");
        let mut joints = start.clone();
        let report = solve_fabrik(&mut joints, &lengths, target, &limited(n), &fabrik_settings).unwrap();
        assert_eq!(report.iterations, ITERS, "limited FABRIK N={n} must use every iteration: {report:?}");
        let mut joints = start.clone();
        assert!(pre_bend_toward_pole(&mut joints, &lengths, pole_for(target), target), "N={n} has a side to bend to");
    }

    let no_limits = |_: usize, _: Vec2| ChainLimits::NONE;
    restarting_group(c, "fabrik", Some(ITERS), no_limits, |joints, lengths, target, limits| {
        solve_fabrik(black_box(joints), lengths, black_box(target), limits, &fabrik_settings)
    });
    restarting_group(
        c,
        "fabrik_limited",
        Some(ITERS),
        |n, _| limited(n),
        |joints, lengths, target, limits| {
            solve_fabrik(black_box(joints), lengths, black_box(target), limits, &fabrik_settings)
        },
    );
    restarting_group(
        c,
        "pre_bend",
        None,
        |_, target| pole_for(target),
        |joints, lengths, target, &pole| {
            pre_bend_toward_pole(black_box(joints), lengths, black_box(pole), black_box(target))
        },
    );
    restarting_group(
        c,
        "latency_bound",
        Some(ITERS),
        |_, _| (),
        |joints, lengths, target, ()| latency_bound(black_box(joints), lengths, black_box(target), ITERS),
    );
    restarting_group(c, "ccd", Some(ITERS), no_limits, |joints, _, target, limits| {
        solve_ccd(black_box(joints), black_box(target), limits, &ccd_settings)
    });

    let mut group = c.benchmark_group("spring");
    let settings = SpringSettings { gravity: Vec2::new(0.0, 980.0), ..SpringSettings::default() };
    for &n in &SIZES {
        let (start, _, _) = setup(n);
        let mut goal = start.clone();
        let mut out = start.clone();
        let mut frame = SpringFrame::default();
        let mut bones = vec![SpringBone::default(); n];
        let mut step = 0u32;
        group.throughput(Throughput::Elements(n as u64 * 4));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                // The body sways: every joint of the goal moves with the root.
                step = step.wrapping_add(1);
                let offset = Vec2::new((step as f32 * 0.05).sin() * 20.0, 0.0);
                for (g, s) in goal.iter_mut().zip(&start) {
                    *g = *s + offset;
                }
                let limits = ChainLimits { root_direction: Vec2::X, per_bone: &[] };
                let goal = SpringGoal { joints: &goal, limits, scales: &[] };
                step_spring(&mut frame, &mut bones, &goal, &settings, black_box(1.0 / 60.0), black_box(&mut out))
            })
        });
    }
    group.finish();

    c.bench_function("two_bone", |b| {
        b.iter(|| {
            solve_two_bone(
                black_box(Vec2::new(1.0, 2.0)),
                black_box(30.0),
                black_box(40.0),
                black_box(Vec2::new(40.0, 20.0)),
                black_box(1.0),
                black_box(0.5),
            )
        })
    });
}

#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group! { name = benches; config = config(); targets = chains }
}
criterion_main!(group::benches);
