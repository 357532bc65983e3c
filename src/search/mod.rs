//! Search kernels with reusable scratch memory.

mod node_index;
mod space_time;
mod spatial;

pub(crate) use node_index::NodeIndex;
pub use space_time::{Depth, Overriding, SpaceTimeAStar, SpaceTimeQuery};
pub use spatial::{MoveCosts, SearchStatus, SpatialAStar};
