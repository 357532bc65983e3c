//! Fuzz target: the plan reader (see `throng_cli::fuzz::plan`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    throng_cli::fuzz::plan(data);
});
