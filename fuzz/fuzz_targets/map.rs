//! Fuzz target: the map reader (see `throng_cli::fuzz::map`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    throng_cli::fuzz::map(data);
});
