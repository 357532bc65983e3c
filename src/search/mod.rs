//! Search kernels with reusable scratch memory.

mod radix_heap;
mod space_time;
mod spatial;

pub use space_time::{Depth, DistanceOracle, SpaceTimeAStar, SpaceTimeQuery};
pub use spatial::{MoveCosts, SearchStatus, SpatialAStar};
