//! The tick loop, the world it steps, and the run's measures.

mod metrics;
mod simulation;
mod world;

pub use metrics::{count_cycles, percentile, soc_and_makespan, RunSummary};
pub use simulation::{SimConfig, Simulation};
pub use world::World;
