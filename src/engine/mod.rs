//! The tick loop, the world it steps, and the run's measures.

mod metrics;
mod scheduler;
mod simulation;
mod world;

pub use metrics::{count_cycles, percentile, soc_and_makespan, RunSummary};
pub use scheduler::{Budget, Scheduler, SearchOutcome, WorkerScratch};
pub use simulation::{SimConfig, Simulation};
pub use world::World;
