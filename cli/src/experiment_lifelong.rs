//! `throng experiment lifelong`: lifelong multi-unit pathfinding, as in
//! the League of Robot Runners and Li et al.'s RHCR (2021): every unit
//! always has a next task. Units start on random cells with a queue of
//! random goals; each time one arrives, a new random goal joins its queue.
//! Reports the throughput (tasks done per tick) and the planning time per
//! tick and per five ticks (RHCR's replanning period).

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use throng::engine::{Budget, EventKind, SimConfig, Simulation};
use throng::map::{random_instance, read_map, Cell};
use throng::planner::PlannerKind;

use super::error::CliError;
use super::run::parse_connectivity;

/// Options of `throng experiment lifelong`.
#[derive(Args, Debug, Clone)]
pub struct LifelongArgs {
    /// MovingAI `.map` file (a warehouse, typically).
    #[arg(long)]
    pub map: PathBuf,
    /// Units.
    #[arg(long, default_value_t = 1000)]
    pub units: usize,
    /// Ticks to run.
    #[arg(long, default_value_t = 1000)]
    pub ticks: u32,
    /// Goals each unit has queued ahead of the one it is on.
    #[arg(long, default_value_t = 2)]
    pub queue: usize,
    /// WHCA* window.
    #[arg(long, default_value_t = 16)]
    pub window: u32,
    /// Worker threads (0: all cores).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Wall-clock planning budget per tick, microseconds (none: plan every due unit).
    #[arg(long)]
    pub budget_us: Option<u64>,
    /// 4 or 8.
    #[arg(long, default_value_t = 4)]
    pub connectivity: u32,
    /// One-way lanes in one-cell-wide corridors (see `throng run --lanes`).
    #[arg(long)]
    pub lanes: bool,
    /// Seed of the starts and tasks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the result here as one JSON object.
    #[arg(long)]
    pub summary_json: Option<PathBuf>,
}

/// What a lifelong run measured.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct LifelongResult {
    /// Units.
    pub units: usize,
    /// Ticks run.
    pub ticks: u32,
    /// Tasks completed.
    pub tasks_done: u64,
    /// Tasks per tick.
    pub throughput: f64,
    /// Mean and 99th-percentile tick, ms.
    pub tick_ms_mean: f64,
    /// See [`LifelongResult::tick_ms_mean`].
    pub tick_ms_p99: f64,
    /// Planning time per five ticks (mean), ms.
    pub ms_per_5_ticks: f64,
    /// Units stuck at the end.
    pub stuck_at_end: u64,
    /// Validator violations (must be 0).
    pub collisions: usize,
}

/// Runs the experiment and prints its result.
pub fn run(args: &LifelongArgs) -> Result<LifelongResult, CliError> {
    let conn = parse_connectivity(args.connectivity)?;
    let grid = Arc::new(read_map(&args.map, conn)?.with_lanes(args.lanes));
    let inst = random_instance(grid.clone(), args.units, args.seed)?;
    let config = SimConfig {
        planner: PlannerKind::Whca {
            window: args.window,
        },
        threads: args.threads,
        budget: Budget {
            wall_us: args.budget_us,
            nodes: None,
        },
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&inst, config)?;
    let open: Vec<Cell> = (0..grid.cell_count() as u32)
        .map(Cell)
        .filter(|&c| grid.is_passable(c) && grid.reachable(c, inst.starts[0]))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed ^ 0x7A5C);
    let ids: Vec<_> = sim.units().collect();
    for &id in &ids {
        for _ in 0..args.queue {
            sim.push_goal(id, open[rng.gen_range(0..open.len())])?;
        }
    }
    sim.initialize();
    let mut done = 0u64;
    while sim.ticks() < args.ticks {
        sim.step();
        let arrived: Vec<_> = sim
            .drain_events()
            .filter(|e| matches!(e.kind, EventKind::Arrived(_)))
            .map(|e| e.unit)
            .collect();
        done += arrived.len() as u64;
        for id in arrived {
            sim.push_goal(id, open[rng.gen_range(0..open.len())])?;
        }
    }
    let s = sim.summary();
    let r = LifelongResult {
        units: args.units,
        ticks: sim.ticks(),
        tasks_done: done,
        throughput: done as f64 / sim.ticks().max(1) as f64,
        tick_ms_mean: s.tick_ms_mean,
        tick_ms_p99: s.tick_ms_p99,
        ms_per_5_ticks: 5.0 * s.tick_ms_mean,
        stuck_at_end: s.states.get("stuck").copied().unwrap_or(0),
        collisions: s.collisions,
    };
    if let Some(path) = &args.summary_json {
        let text = serde_json::to_string_pretty(&r).map_err(|e| CliError::Other(e.to_string()))?;
        super::error::write_file(path, text + "\n")?;
    }
    println!(
        "lifelong: {} units, {} ticks: {} tasks ({:.2} a tick); tick mean {:.3} ms, p99 {:.3} ms; {:.2} ms per 5 ticks; {} stuck at the end; {} collisions",
        r.units, r.ticks, r.tasks_done, r.throughput, r.tick_ms_mean, r.tick_ms_p99, r.ms_per_5_ticks, r.stuck_at_end, r.collisions
    );
    Ok(r)
}
