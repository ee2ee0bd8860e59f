//! The core fuzz targets as ordinary tests: every committed corpus input and crash reproducer
//! (`fuzz/corpus/<target>/`, `fuzz/regressions/<target>/`), then seeded random byte strings. No cargo-fuzz or
//! nightly needed, so CI checks the fuzzers' invariants in a few seconds; `cargo xtask fuzz` runs the real fuzzer.
//!
//! To read one failing input: `REACH2D_FUZZ_ONLY=<part of its file name> REACH2D_FUZZ_DEBUG=1 cargo test -p
//! reach2d_core --test fuzz_replay <target>` prints the decoded input.

mod fuzz_harness;

use std::path::Path;

use fuzz_harness::common::Rng;

const RANDOM_INPUTS: usize = 3000;

/// Replays every file of the target's corpus and regressions, then `RANDOM_INPUTS` seeded inputs.
/// Returns how many inputs ran.
fn replay(target: &str, body: fn(&[u8]) -> bool) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut ran = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else { continue };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        let only = std::env::var("REACH2D_FUZZ_ONLY").unwrap_or_default();
        for path in paths.into_iter().filter(|p| p.to_string_lossy().contains(&only)) {
            let data = std::fs::read(&path).expect("readable corpus file");
            let outcome = std::panic::catch_unwind(|| body(&data));
            assert!(outcome.is_ok(), "{target}: {} fails (rerun: cargo xtask fuzz {target} 0)", path.display());
            ran += 1;
        }
    }
    // Seeded bytes (the tests' one RNG), lengths 0..512: cheap extra coverage beyond the saved corpus.
    let mut rng = Rng(0x5EED_u64 ^ target.len() as u64);
    let mut next = || rng.next_u64();
    let mut accepted = 0;
    for case in 0..RANDOM_INPUTS {
        let len = (next() % 512) as usize;
        let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let outcome = std::panic::catch_unwind(|| body(&data));
        if outcome.is_err() {
            let path = std::env::temp_dir().join(format!("reach2d-{target}-{case}.bin"));
            let _ = std::fs::write(&path, &data);
            panic!("{target}: seeded input {case} fails; saved as {} (REACH2D_FUZZ_DEBUG=1 prints it)", path.display());
        }
        accepted += usize::from(outcome.unwrap_or(false));
    }
    // Hostile values are one float in sixteen: most random inputs must still reach the solver's real work.
    assert!(accepted * 10 >= RANDOM_INPUTS, "{target}: only {accepted} of {RANDOM_INPUTS} seeded inputs accepted");
    ran + RANDOM_INPUTS
}

#[test]
fn solve_fabrik_corpus() {
    assert!(replay("solve_fabrik", fuzz_harness::fabrik) >= RANDOM_INPUTS);
}

#[test]
fn solve_ccd_corpus() {
    assert!(replay("solve_ccd", fuzz_harness::ccd) >= RANDOM_INPUTS);
}

#[test]
fn solve_two_bone_corpus() {
    assert!(replay("solve_two_bone", fuzz_harness::two_bone) >= RANDOM_INPUTS);
}

#[test]
fn solve_look_at_corpus() {
    assert!(replay("solve_look_at", fuzz_harness::look_at) >= RANDOM_INPUTS);
}

#[test]
fn write_back_corpus() {
    assert!(replay("write_back", fuzz_harness::write_back) >= RANDOM_INPUTS);
}
