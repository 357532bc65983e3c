//! Fuzz target: the event script reader (see `throng_cli::fuzz::events`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    throng_cli::fuzz::events(data);
});
