//! Fuzz target: the scenario reader (see `throng_cli::fuzz::scenario`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    throng_cli::fuzz::scenario(data);
});
