//! `throng run`: one simulation, a summary table, optional plan and JSON files.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use crate::engine::{RunSummary, SimConfig, Simulation};
use crate::map::{
    generate_map, random_instance, read_map, read_scenario, Connectivity, GeneratorSpec, Instance,
};
use crate::planner::PlannerKind;

use super::error::{write_file, CliError};

/// Options of `throng run`. With none, runs the seed's scenario: a generated
/// 32×32 map with 20% obstacles, 100 units, WHCA*(16).
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// MovingAI `.map` file (needs `--scen`).
    #[arg(long, requires = "scen", conflicts_with = "generate")]
    pub map: Option<PathBuf>,
    /// MovingAI `.scen` file with the units' starts and goals.
    #[arg(long, requires = "map")]
    pub scen: Option<PathBuf>,
    /// Generate a map instead: `WIDTHxHEIGHT[:DENSITY]`, e.g. `32x32:0.2`.
    #[arg(long)]
    pub generate: Option<String>,
    /// Number of units (first N rows of the scenario).
    #[arg(long)]
    pub agents: Option<usize>,
    /// Planner: lra, ca, hca, whca, co-whca, co-whcap, co-hca, co-hcap,
    /// co-whca-offline or co-whcap-offline.
    #[arg(long, default_value = "whca")]
    pub planner: String,
    /// WHCA* window (CO-*: reservation window around each conflict) in ticks.
    #[arg(long, default_value_t = 16)]
    pub window: u32,
    /// 4 or 8.
    #[arg(long, default_value_t = 4)]
    pub connectivity: u32,
    /// Let diagonal moves pass blocked corners (8-connectivity only).
    #[arg(long)]
    pub corner_cutting: bool,
    /// Seed for generated maps, units and planner noise.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Turn limit.
    #[arg(long, default_value_t = 100)]
    pub max_ticks: u32,
    /// Write the executed trajectories here (mapf-visualizer layout).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the summary here as one JSON object.
    #[arg(long)]
    pub summary_json: Option<PathBuf>,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
}

impl Default for RunArgs {
    fn default() -> Self {
        RunArgs {
            map: None,
            scen: None,
            generate: None,
            agents: None,
            planner: "whca".into(),
            window: 16,
            connectivity: 4,
            corner_cutting: false,
            seed: 1,
            max_ticks: 100,
            out: None,
            summary_json: None,
            quiet: false,
        }
    }
}

/// Parses `4`/`8` into a connectivity.
pub fn parse_connectivity(n: u32) -> Result<Connectivity, CliError> {
    Connectivity::from_number(n)
        .ok_or_else(|| CliError::Usage(format!("--connectivity must be 4 or 8, not {n}")))
}

/// Loads or generates the instance the arguments describe.
pub fn load_instance(args: &RunArgs) -> Result<Instance, CliError> {
    let conn = parse_connectivity(args.connectivity)?;
    match (&args.map, &args.scen) {
        (Some(map), Some(scen)) => {
            let grid = Arc::new(read_map(map, conn)?.with_corner_cutting(args.corner_cutting));
            let scenario = read_scenario(scen)?;
            let name = map
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            Ok(Instance::from_scenario(
                grid,
                &scenario,
                args.agents,
                &name,
            )?)
        }
        (None, None) => {
            let spec: GeneratorSpec = args.generate.as_deref().unwrap_or("32x32:0.2").parse()?;
            let grid = Arc::new(
                generate_map(spec, conn, args.seed).with_corner_cutting(args.corner_cutting),
            );
            let mut inst = random_instance(grid, args.agents.unwrap_or(100), args.seed)?;
            inst.map_name = format!("generated-{}x{}-{}", spec.width, spec.height, args.seed);
            Ok(inst)
        }
        _ => Err(CliError::Usage("--map and --scen go together".into())),
    }
}

/// Runs the simulation the arguments describe and returns its summary.
pub fn run(args: &RunArgs) -> Result<RunSummary, CliError> {
    let planner = PlannerKind::parse(&args.planner, args.window).ok_or_else(|| {
        CliError::Usage(format!(
            "unknown planner `{}`; expected lra, ca, hca, whca, co-whca, co-whcap, co-hca, co-hcap, co-whca-offline or co-whcap-offline",
            args.planner
        ))
    })?;
    if args.window < 2 {
        return Err(CliError::Usage("--window must be at least 2".into()));
    }
    let instance = load_instance(args)?;
    for unit in instance.unreachable_units() {
        if !args.quiet {
            let (x, y) = instance.grid.xy(instance.goals[unit]);
            eprintln!("warning: unit {unit}: goal ({x},{y}) cannot be reached from its start; it counts as failed");
        }
    }
    let config = SimConfig {
        planner,
        max_ticks: args.max_ticks,
        seed: args.seed,
    };
    let mut sim = Simulation::new(&instance, config);
    let summary = sim.run();
    if let Some(path) = &args.out {
        write_file(path, sim.plan_file().to_text())?;
    }
    if let Some(path) = &args.summary_json {
        let json =
            serde_json::to_string_pretty(&summary).map_err(|e| CliError::Other(e.to_string()))?;
        write_file(path, json + "\n")?;
    }
    if !args.quiet {
        print_summary(&summary);
    }
    Ok(summary)
}

/// Prints the short summary table.
pub fn print_summary(s: &RunSummary) {
    println!("planner              {}", s.planner);
    println!(
        "units                {} ({} unreachable)",
        s.agents, s.unreachable
    );
    println!(
        "reached goal         {} ({:.1}%)",
        s.reached,
        100.0 * s.success_rate
    );
    println!("on goal at end       {}", s.at_goal_at_end);
    println!(
        "mean path length     {:.2} (lower bound {:.2})",
        s.mean_path_len, s.lower_bound_path_len
    );
    println!("cycles per unit      {:.2}", s.cycles_per_agent);
    println!("sum of costs         {}   makespan {}", s.soc, s.makespan);
    println!("collisions           {}", s.collisions);
    println!("ticks                {}   threads {}", s.ticks, s.threads);
    println!("initial planning     {:.3} ms", s.init_ms);
    println!(
        "tick planning        mean {:.3} ms   p99 {:.3} ms   max {:.3} ms   total {:.1} ms",
        s.tick_ms_mean, s.tick_ms_p99, s.tick_ms_max, s.plan_ms_total
    );
    println!(
        "searches             {} ({} failed), {} nodes expanded, {} heuristic nodes",
        s.searches, s.failed_searches, s.expanded, s.heuristic_expanded
    );
}
