//! Search kernels with reusable scratch memory.

mod space_time;
mod spatial;

pub use space_time::{Depth, SpaceTimeAStar, SpaceTimeQuery};
pub use spatial::SpatialAStar;
