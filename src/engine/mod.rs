//! The live world and its tick loop: the game's calls, the units' states
//! and events, map edits, and the run's measures.

mod check_thread;
mod command;
mod events;
mod evict;
mod goal_trading;
mod group;
mod live;
mod metrics;
mod plan_repair;
mod recorder;
mod script_player;
mod simulation;
mod tick_stats;

pub use crate::world::{
    claims_of, Budget, Scheduler, SearchOutcome, SimError, WorkerScratch, World,
};
pub use command::UnitSpec;
pub use events::{Event, EventKind};
pub use metrics::{count_cycles, peak_memory_mb, percentile, soc_and_makespan, RunSummary};
pub use plan_repair::PlanCutter;
pub use script_player::ScriptPlayer;
pub use simulation::{
    History, SimConfig, Simulation, TickReport, MAX_BUDGET_US, MAX_THREADS, MAX_TICKS, MAX_WINDOW,
};
pub use tick_stats::TickStats;
