//! True-distance heuristics: Reverse Resumable A* per unit, and breadth-first
//! tables.

mod bfs;
mod rra;

pub use bfs::bfs_distances;
pub use rra::{ReverseResumableAStar, UNREACHABLE};
