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

pub mod agents;
pub mod cli;
pub mod distance;
pub mod engine;
pub mod io;
pub mod map;
pub mod motion;
pub mod planner;
pub mod profiling;
pub mod reservation;
pub mod search;
pub mod validate;
