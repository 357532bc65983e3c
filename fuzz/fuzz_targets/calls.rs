//! Fuzz target: sequences of the game's calls on a live simulation, decoded
//! from the input bytes (decoder and checks in `tests/common/calls.rs`,
//! shared with the stable test `tests/calls_fuzz.rs`). Calls that meet the
//! engine faults known today are played around (`Faults::Avoid`); with
//! `CALLS_FAULTS=meet` in the environment they are played too.
#![no_main]

use std::sync::OnceLock;

#[path = "../../tests/common/calls.rs"]
mod calls;

fn faults() -> calls::Faults {
    static FAULTS: OnceLock<calls::Faults> = OnceLock::new();
    *FAULTS.get_or_init(|| match std::env::var("CALLS_FAULTS").as_deref() {
        Ok("meet") => calls::Faults::Meet,
        _ => calls::Faults::Avoid,
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    calls::run(data, faults());
});
