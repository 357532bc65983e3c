//! Search kernels with reusable scratch memory.

mod spatial;

pub use spatial::{MoveCosts, SearchStatus, SpatialAStar};
