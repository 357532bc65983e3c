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
pub mod distance;
pub mod engine;
pub mod footprint;
pub mod io;
pub mod map;
pub mod motion;
pub mod planner;
pub mod profiling;
pub mod reservation;
pub mod search;
pub mod validate;

/// The names a game embedding Throng needs most.
pub mod prelude {
    pub use crate::agents::{AgentId, Agents, UnitId, UnitState};
    pub use crate::engine::{
        Budget, Event, EventKind, History, RunSummary, SimConfig, SimError, Simulation, UnitSpec,
        World,
    };
    pub use crate::map::{
        generate_map, random_instance, read_map, read_scenario, Cell, Connectivity, Grid, Instance,
        Rect,
    };
    pub use crate::planner::{Planner, PlannerKind};
    pub use crate::validate::{validate_plan, validate_steps};
}

// The README's Rust examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
