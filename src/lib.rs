//! Throng: cooperative pathfinding for thousands of units on a grid.
//!
//! Layers, in the order data flows (see `DESIGN.md`): [`map`] (the static grid
//! and its files), [`agents`] (struct-of-arrays unit storage), [`distance`]
//! (true-distance heuristics), [`reservation`] (the space-time reservation
//! table), [`search`] (A* kernels), [`planner`] (LRA*, CA*, HCA*, WHCA*),
//! [`engine`] (the tick loop and metrics), [`validate`] and [`io`].

#![warn(missing_docs)]

pub mod io;
pub mod map;
pub mod planner;
pub mod search;
pub mod validate;
