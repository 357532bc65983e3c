//! Throng: cooperative pathfinding for thousands of units on a grid.
//!
//! Layers, each using only those before it (`docs/architecture.md`):
//! [`map`] (the static grid and its files), [`queue`] (the searches'
//! priority queues), [`units`] (struct-of-arrays unit storage and kinds),
//! [`io`] (plan and event files), [`validate`], [`distance`] (true-distance
//! heuristics), [`reservation`] (the space-time reservation table),
//! [`search`] (A* kernels), [`footprint`] (bodies larger or slower than a
//! cell), [`world`] (the state planners share and the job scheduler),
//! [`planner`] (LRA*, CA*, HCA*, WHCA*, the conflict-oriented family, OD+ID)
//! and beside it [`motion`] (Pinter's realistic motion), and [`engine`] (the
//! live `Simulation`).

#![warn(missing_docs)]

pub mod distance;
pub mod engine;
pub mod footprint;
pub mod io;
pub mod map;
pub mod motion;
pub mod planner;
pub mod profiling;
pub mod queue;
pub mod reservation;
pub mod search;
pub mod units;
pub mod validate;
pub mod world;

/// The names a game embedding Throng needs most.
pub mod prelude {
    pub use crate::engine::{
        Budget, Event, EventKind, History, RunSummary, SimConfig, SimError, Simulation, UnitSpec,
        World,
    };
    pub use crate::map::{
        generate_map, random_instance, read_map, read_scenario, Cell, Connectivity, Grid, Instance,
        Rect,
    };
    pub use crate::planner::{Planner, PlannerKind};
    pub use crate::units::{Slot, UnitId, UnitState, Units};
    pub use crate::validate::{validate_plan, validate_steps};
}

// The README's Rust examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
