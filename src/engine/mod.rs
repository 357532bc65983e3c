//! The live world and its tick loop: the game's calls, the units' states
//! and events, map edits, the job scheduler, and the run's measures.

mod error;
mod events;
mod evict;
mod group;
mod live;
mod metrics;
mod plan_repair;
mod scheduler;
mod script_player;
mod simulation;
mod tick_stats;
mod world;

pub use error::SimError;
pub use events::{Event, EventKind};
pub use metrics::{count_cycles, peak_memory_mb, percentile, soc_and_makespan, RunSummary};
pub use plan_repair::PlanCutter;
pub use scheduler::{Budget, Scheduler, SearchOutcome, WorkerScratch};
pub use script_player::ScriptPlayer;
pub use simulation::{
    History, SimConfig, Simulation, TickReport, UnitSpec, MAX_BUDGET_US, MAX_THREADS, MAX_TICKS,
    MAX_WINDOW,
};
pub use tick_stats::TickStats;
pub use world::{claims_of, World};
