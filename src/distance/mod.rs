//! True-distance heuristics: Reverse Resumable A* per unit, and breadth-first
//! tables.

mod bfs;
mod cell_map;
mod goal_distances;
mod landmarks;
mod oracle;
mod rra;

pub use bfs::{bfs_distances, bfs_distances_into, goal_costs};
pub(crate) use cell_map::touch_pages;
pub use cell_map::{dense_fits, dense_maps_that_fit, CellMap, CellSlots};
pub use goal_distances::{
    reserve_unit_searches, unit_heuristics, unit_heuristics_in, Detour, Heuristic, UnitOracle,
    LANDMARKS,
};
pub use landmarks::Landmarks;
pub use oracle::{DistanceOracle, UNREACHABLE};
pub use rra::{ReverseResumableAStar, WALL_DISTANCE};
