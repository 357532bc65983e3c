//! Search kernels with reusable scratch memory.

mod radix_heap;
mod spatial;

pub use spatial::{MoveCosts, SearchStatus, SpatialAStar};
