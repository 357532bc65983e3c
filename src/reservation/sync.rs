//! The atomics the reservation table uses, from one place, so the model
//! checker loom is swapped in under `--cfg loom` without touching the
//! table's code (`.ci/loom` runs `tests/loom_table.rs` that way).

#[cfg(loom)]
pub use loom::sync::atomic::{AtomicU64, Ordering};
#[cfg(not(loom))]
pub use std::sync::atomic::{AtomicU64, Ordering};
