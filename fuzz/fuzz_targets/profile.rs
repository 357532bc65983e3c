//! Fuzz target: the profile reader (see `throng_cli::fuzz::profile`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    throng_cli::fuzz::profile(data);
});
