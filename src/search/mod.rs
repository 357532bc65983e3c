//! Search kernels with reusable scratch memory.

mod space_time;
mod spatial;

pub use space_time::{Depth, Overriding, SpaceTimeAStar, SpaceTimeQuery};
pub use spatial::{MoveCosts, SearchStatus, SpatialAStar};
