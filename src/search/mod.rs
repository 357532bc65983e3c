//! Search kernels with reusable scratch memory.

mod bucket_queue;
mod radix_heap;
mod space_time;
mod spatial;
mod window_queue;

pub use bucket_queue::BucketQueue;
pub use space_time::{Depth, DistanceOracle, Overriding, SpaceTimeAStar, SpaceTimeQuery};
pub use spatial::{MoveCosts, SearchStatus, SpatialAStar};
