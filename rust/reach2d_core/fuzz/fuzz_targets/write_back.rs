//! `write_back` on arbitrary bytes; the invariants live in `tests/fuzz_harness`.
#![no_main]

#[path = "../../tests/fuzz_harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::write_back(data);
});
