//! The atomics the reservation table uses, from one place, so a model checker
//! (loom) can be swapped in under a cfg without touching the table's code.

pub use std::sync::atomic::{AtomicU64, Ordering};
