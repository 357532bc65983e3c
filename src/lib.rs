//! Throng: cooperative pathfinding for thousands of units on a grid.
//!
//! Layers, in the order data flows (see `DESIGN.md`): [`map`] (the static grid
//! and its files), [`agents`] (struct-of-arrays unit storage), [`distance`]
//! (true-distance heuristics), [`reservation`] (the space-time reservation
//! table), [`search`] (A* kernels), [`planner`] (LRA*, CA*, HCA*, WHCA*),
//! [`engine`] (the tick loop and metrics), [`validate`] and [`io`]; beside
//! them [`motion`] (Pinter's realistic motion: smoothing, turning radius,
//! Directional A*, hybrid search, display smoothing of executed trajectories).

#![warn(missing_docs)]

/// `throng path`. On merge this file joins the `cli` module as `cli::path`;
/// until then it is reached through this path attribute.
#[path = "cli/path.rs"]
pub mod cli_path;
pub mod io;
pub mod map;
pub mod motion;
pub mod search;
pub mod validate;
