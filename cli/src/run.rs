//! `throng run`: one simulation, a summary table, optional plan and JSON files.
//! Settings come from the command line, then a `--profile` TOML file, then
//! the defaults (the seed's scenario: a generated 32×32 map with 20%
//! obstacles, 100 units, WHCA*(16)).
//!
//! With `--large`, `--huge` or `--slow` the units are a mixed crowd of unit
//! kinds (bodies of 2×2 and 3×3 cells, slow one-cell units; see
//! [`super::mixed`]), and the summary adds how each kind fared.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Deserialize;

use throng::engine::{Budget, History, RunSummary, SimConfig, Simulation, UnitSpec};
use throng::io::{check_events_sized, read_events, Action};
use throng::map::{
    generate_map, random_instance, read_map, read_scenario, write_map, Connectivity, GeneratorSpec,
    Instance,
};
use throng::planner::odid::OptimalAlgorithm;
use throng::planner::PlannerKind;

use super::error::{write_file, CliError};
use super::mixed::{place_crowd, spawn_crowd, Crowd, CrowdSpec, MixedReport};

/// Options of `throng run`; every one may also be set in a profile file
/// (same names, snake_case). Flags given on the command line win.
#[derive(Args, Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RunArgs {
    /// TOML profile with any of these settings (flags override it).
    #[arg(long)]
    #[serde(skip)]
    pub profile: Option<PathBuf>,
    /// MovingAI `.map` file; without `--scen`, units get random distinct starts and goals on it.
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// MovingAI `.scen` file with the units' starts and goals.
    #[arg(long)]
    pub scen: Option<PathBuf>,
    /// Generate a map instead: `WIDTHxHEIGHT[:DENSITY]` [default: 32x32:0.2].
    #[arg(long)]
    pub generate: Option<String>,
    /// Number of units (first N rows of the scenario) [default: 100 generated, all rows of a scenario].
    #[arg(long = "units", visible_alias = "agents")]
    #[serde(alias = "agents")]
    pub units: Option<usize>,
    /// Planner: lra, ca, hca, whca; or an optimal solver: odid-split, odid, od, od-sid, astar-joint, astar-joint-id [default: whca].
    #[arg(long)]
    pub planner: Option<String>,
    /// WHCA* window in ticks [default: 16].
    #[arg(long)]
    pub window: Option<u32>,
    /// 4 or 8 [default: 4].
    #[arg(long)]
    pub connectivity: Option<u32>,
    /// Let diagonal moves pass blocked corners (8-connectivity only).
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub corner_cutting: Option<bool>,
    /// One-way lanes in one-cell-wide corridors: a move against a
    /// corridor's lane costs 2, so opposite flows take neighbouring
    /// corridors (for warehouse-like maps) [default: false].
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub lanes: Option<bool>,
    /// Seed for generated maps, units and planner noise [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Turn limit [default: 100].
    #[arg(long)]
    pub max_ticks: Option<u32>,
    /// Worker threads for the searches [default: all cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Pace the ticks as a game's frames: each tick begins this many
    /// milliseconds after the one before (the rest of the frame idle)
    /// [default: back to back]
    #[arg(long)]
    pub frame_ms: Option<f64>,
    /// Pin each worker thread to a core of its own, when the workers take every core [default: true]
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub pin_workers: Option<bool>,
    /// Check each tick's moves on a thread of its own while the next tick
    /// runs, instead of inside the tick (the summary still counts every
    /// tick) [default: false]
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub check_beside: Option<bool>,
    /// Wall-clock planning budget per tick, microseconds.
    #[arg(long)]
    pub budget_us: Option<u64>,
    /// Node-expansion budget per tick (deterministic).
    #[arg(long)]
    pub budget_nodes: Option<u64>,
    /// Write the executed trajectories here (mapf-visualizer layout).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the summary here as one JSON object.
    #[arg(long)]
    pub summary_json: Option<PathBuf>,
    /// Optimal solvers: give up after this many milliseconds ("not solved").
    #[arg(long)]
    pub time_limit_ms: Option<u64>,
    /// Optimal solvers: most nodes one search may store (bounds memory).
    #[arg(long)]
    pub node_limit: Option<u64>,
    /// Write the map here in MovingAI format (for `throng validate` of a generated map).
    #[arg(long)]
    pub save_map: Option<PathBuf>,
    /// Event script: spawns, despawns, orders and buildings while the run
    /// goes on (one per line: `TICK spawn UNIT X Y GX GY [size K] [pace P] [curves] [four_way] [priority P]`,
    /// `TICK despawn UNIT`, `TICK goal|push_goal UNIT GX GY`, `TICK stop UNIT`,
    /// `TICK block|unblock X0 Y0 X1 Y1`). Implies `--budgeted-start`.
    #[arg(long)]
    pub events: Option<PathBuf>,
    /// Write the cells every unit holds at the end of each tick here, as CSV
    /// `tick,unit,x,y,w,h`: the rectangle's top-left cell, width and height
    /// (its body; mid-way through a step of several ticks, the box the step
    /// sweeps). Unit: the event file's label; starting units 0, 1, ...
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Write one CSV row per tick here: tick, step and planning time (µs),
    /// searches, nodes, searches carried over, units moved.
    #[arg(long)]
    pub tick_times: Option<PathBuf>,
    /// Draw each tick's time (and the budget) as an SVG chart here.
    #[arg(long)]
    pub tick_chart: Option<PathBuf>,
    /// Plan the starting units within the ticks' budget instead of all at
    /// once before the first tick.
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub budgeted_start: Option<bool>,
    /// Most units alive at once [default: the starting units plus 1,024].
    #[arg(long)]
    pub max_units: Option<usize>,
    /// Spawn the units one by one into a world built empty, as a game
    /// does, instead of building the world with them [default: false].
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub spawned: Option<bool>,
    /// Ticks without progress after which a unit counts as stuck [default: 64].
    #[arg(long)]
    pub stuck_after: Option<u32>,
    /// Generated load: every N ticks, `--orders` units get a new random goal.
    #[arg(long)]
    pub orders_every: Option<u32>,
    /// Generated load: units given a new goal each time [default: 50].
    #[arg(long)]
    pub orders: Option<u32>,
    /// Generated load: every N ticks a building goes up (or the oldest comes down).
    #[arg(long)]
    pub buildings_every: Option<u32>,
    /// Generated load: side of the square buildings [default: 6].
    #[arg(long)]
    pub building_size: Option<u32>,
    /// Generated load: most buildings standing at once [default: 4].
    #[arg(long)]
    pub max_buildings: Option<u32>,
    /// Generated load: every N ticks, `--churn` units are despawned and as many spawned.
    #[arg(long)]
    pub churn_every: Option<u32>,
    /// Generated load: units replaced each time [default: 10].
    #[arg(long)]
    pub churn: Option<u32>,
    /// Generated load: no new orders in the last N ticks [default: a tenth of --max-ticks].
    #[arg(long)]
    pub quiet_ticks: Option<u32>,
    /// Mixed crowd: the share of the units (0 to 1) that are 2×2 bodies.
    /// Any of --large, --huge, --slow places a crowd of unit kinds (WHCA* only).
    #[arg(long, allow_negative_numbers = true)]
    pub large: Option<f64>,
    /// Mixed crowd: the share of the units that are 3×3 bodies.
    #[arg(long, allow_negative_numbers = true)]
    pub huge: Option<f64>,
    /// Mixed crowd: the share of the units that are one cell taking --pace ticks a cell.
    #[arg(long, allow_negative_numbers = true)]
    pub slow: Option<f64>,
    /// Mixed crowd: ticks a cell of the --slow units, 1 to 8 [default: 3].
    #[arg(long)]
    pub pace: Option<u32>,
    /// Mixed crowd: every unit with a footprint (--large, --huge, --slow) also
    /// turns on curves (on an 8-connected map).
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub curves: Option<bool>,
    /// Print nothing but errors.
    #[arg(long)]
    #[serde(skip)]
    pub quiet: bool,
}

impl RunArgs {
    /// The generated load these arguments ask for.
    pub fn load(&self) -> throng::io::Load {
        let ticks = self.max_ticks.unwrap_or(100);
        throng::io::Load {
            orders_every: self.orders_every.unwrap_or(0),
            orders: self.orders.unwrap_or(50),
            buildings_every: self.buildings_every.unwrap_or(0),
            building_size: self.building_size.unwrap_or(6),
            max_buildings: self.max_buildings.unwrap_or(4),
            churn_every: self.churn_every.unwrap_or(0),
            churn: self.churn.unwrap_or(10),
            quiet_ticks: self.quiet_ticks.unwrap_or(ticks / 10),
        }
    }
}

macro_rules! overlay {
    ($cli:expr, $file:expr, $($field:ident),*) => {
        RunArgs {
            profile: $cli.profile.clone(),
            quiet: $cli.quiet,
            $($field: $cli.$field.clone().or($file.$field.clone()),)*
        }
    };
}

impl RunArgs {
    /// These arguments with the unset ones taken from the `--profile` file.
    pub fn with_profile(&self) -> Result<RunArgs, CliError> {
        let Some(path) = &self.profile else {
            return Ok(self.clone());
        };
        let file = read_profile(path)?;
        Ok(overlay!(
            self,
            file,
            map,
            scen,
            generate,
            units,
            planner,
            window,
            connectivity,
            corner_cutting,
            lanes,
            seed,
            max_ticks,
            threads,
            pin_workers,
            check_beside,
            frame_ms,
            budget_us,
            budget_nodes,
            out,
            summary_json,
            save_map,
            time_limit_ms,
            node_limit,
            events,
            trace,
            tick_times,
            tick_chart,
            budgeted_start,
            max_units,
            spawned,
            stuck_after,
            orders_every,
            orders,
            buildings_every,
            building_size,
            max_buildings,
            churn_every,
            churn,
            quiet_ticks,
            large,
            huge,
            slow,
            pace,
            curves
        ))
    }
}

/// Reads a TOML profile: the same settings as the command line.
pub fn read_profile(path: &Path) -> Result<RunArgs, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Other(format!("{}: cannot read profile: {e}", path.display())))?;
    parse_profile(&text, path)
}

/// Parses the text of a TOML profile; `path` is used in error messages.
pub fn parse_profile(text: &str, path: &Path) -> Result<RunArgs, CliError> {
    toml::from_str(text)
        .map_err(|e| CliError::Other(format!("{}: {}", path.display(), e.to_string().trim_end())))
}

/// Parses `4`/`8` into a connectivity.
pub fn parse_connectivity(n: u32) -> Result<Connectivity, CliError> {
    Connectivity::from_number(n)
        .ok_or_else(|| CliError::Usage(format!("--connectivity must be 4 or 8, not {n}")))
}

/// The instance's units spawned one by one, in order, into a world built
/// empty on its map (`--spawned`): the way a game fills its world. Room for
/// as many units as a world built with them (`--max-units`, else theirs
/// plus 1,024). Not with a mixed crowd (its bodies are spawned anyway) or
/// with `--out` (plan files are of fixed instances).
fn spawn_instance(
    instance: &Instance,
    config: SimConfig,
    args: &RunArgs,
) -> Result<Simulation, CliError> {
    if args.out.is_some() {
        return Err(CliError::Usage(
            "--spawned runs a live world: use --trace rather than --out".into(),
        ));
    }
    let config = SimConfig {
        max_units: args.max_units.unwrap_or(instance.len() + 1024),
        ..config
    };
    let mut sim = Simulation::with_map(instance.grid.clone(), config)?;
    for (&start, &goal) in instance.starts.iter().zip(&instance.goals) {
        sim.spawn(UnitSpec::new(start, goal))?;
    }
    sim.apply_commands();
    Ok(sim)
}

/// Loads or generates the map the (profile-merged) arguments describe, as an
/// instance with no units (a mixed crowd is placed on it and spawned).
pub fn load_map_only(args: &RunArgs) -> Result<Instance, CliError> {
    let conn = parse_connectivity(args.connectivity.unwrap_or(4))?;
    let cutting = args.corner_cutting.unwrap_or(false);
    let lanes = args.lanes.unwrap_or(false);
    let seed = args.seed.unwrap_or(1);
    let (grid, map_name) = match (&args.map, &args.scen, &args.generate) {
        (Some(map), None, None) => {
            let grid = read_map(map, conn)?
                .with_corner_cutting(cutting)
                .with_lanes(lanes);
            let name = map
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            (grid, name)
        }
        (None, None, generate) => {
            let spec: GeneratorSpec = generate.as_deref().unwrap_or("32x32:0.2").parse()?;
            let grid = generate_map(spec, conn, seed)
                .with_corner_cutting(cutting)
                .with_lanes(lanes);
            (
                grid,
                format!("generated-{}x{}-{}", spec.width, spec.height, seed),
            )
        }
        (_, Some(_), _) => {
            return Err(CliError::Usage(
                "--large, --huge and --slow place their own crowd: drop --scen".into(),
            ))
        }
        (Some(_), None, Some(_)) => {
            return Err(CliError::Usage(
                "--generate cannot be combined with --map/--scen".into(),
            ))
        }
    };
    Ok(Instance {
        grid: Arc::new(grid),
        starts: Vec::new(),
        goals: Vec::new(),
        map_name,
    })
}

/// Loads or generates the instance the (profile-merged) arguments describe.
pub fn load_instance(args: &RunArgs) -> Result<Instance, CliError> {
    let conn = parse_connectivity(args.connectivity.unwrap_or(4))?;
    let cutting = args.corner_cutting.unwrap_or(false);
    let lanes = args.lanes.unwrap_or(false);
    let seed = args.seed.unwrap_or(1);
    match (&args.map, &args.scen, &args.generate) {
        (Some(map), Some(scen), None) => {
            let grid = Arc::new(
                read_map(map, conn)?
                    .with_corner_cutting(cutting)
                    .with_lanes(lanes),
            );
            let scenario = read_scenario(scen)?;
            let name = map
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            Ok(Instance::from_scenario(grid, &scenario, args.units, &name)?)
        }
        (None, None, generate) => {
            let spec: GeneratorSpec = generate.as_deref().unwrap_or("32x32:0.2").parse()?;
            let grid = Arc::new(
                generate_map(spec, conn, seed)
                    .with_corner_cutting(cutting)
                    .with_lanes(lanes),
            );
            let mut inst = random_instance(grid, args.units.unwrap_or(100), seed)?;
            inst.map_name = format!("generated-{}x{}-{}", spec.width, spec.height, seed);
            Ok(inst)
        }
        (Some(map), None, None) => {
            // A map without a scenario: random distinct starts and goals on it.
            let grid = Arc::new(
                read_map(map, conn)?
                    .with_corner_cutting(cutting)
                    .with_lanes(lanes),
            );
            let mut inst = random_instance(grid, args.units.unwrap_or(100), seed)?;
            inst.map_name = map
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            Ok(inst)
        }
        (_, _, Some(_)) => Err(CliError::Usage(
            "--generate cannot be combined with --map/--scen".into(),
        )),
        _ => Err(CliError::Usage("--scen needs --map".into())),
    }
}

/// The simulation settings the arguments describe.
pub fn sim_config(args: &RunArgs) -> Result<SimConfig, CliError> {
    let window = args.window.unwrap_or(16);
    if window < 2 {
        return Err(CliError::Usage("--window must be at least 2".into()));
    }
    let name = args.planner.as_deref().unwrap_or("whca");
    let planner = PlannerKind::parse(name, window).ok_or_else(|| {
        CliError::Usage(format!(
            "unknown planner `{name}`; expected lra, ca, hca, whca or an optimal solver (odid-split, odid, od, od-sid, astar-joint, astar-joint-id)"
        ))
    })?;
    Ok(SimConfig {
        planner,
        max_ticks: args.max_ticks.unwrap_or(100),
        seed: args.seed.unwrap_or(1),
        threads: args.threads.unwrap_or(0),
        pin_workers: args.pin_workers.unwrap_or(true),
        budget: Budget {
            wall_us: args.budget_us,
            nodes: args.budget_nodes,
        },
        max_units: args.max_units.unwrap_or(0),
        stuck_after: args.stuck_after.unwrap_or(64),
        history: if args.out.is_some() {
            History::Full
        } else {
            History::Off
        },
        check_moves: true,
        check_beside: args.check_beside.unwrap_or(false),
        footprint_claims: SimConfig::default().footprint_claims,
    })
}

/// Runs the simulation the arguments describe and returns its summary.
pub fn run(args: &RunArgs) -> Result<RunSummary, CliError> {
    let mut args = args.with_profile()?;
    super::limits::check(&args)?;
    let crowd_spec = CrowdSpec::from_args(&args);
    if crowd_spec.is_some() {
        check_mixed(&args)?;
    }
    if let Some(algorithm) = args
        .planner
        .as_deref()
        .and_then(|p| p.parse::<OptimalAlgorithm>().ok())
    {
        // Standley's rule: diagonal moves whatever the corner cells hold.
        if args.connectivity == Some(8) && args.corner_cutting.is_none() {
            args.corner_cutting = Some(true);
        }
        let instance = load_instance(&args)?;
        if let Some(path) = &args.save_map {
            write_file(path, write_map(&instance.grid))?;
        }
        return super::run_optimal::run_optimal(&args, algorithm, &instance);
    }
    let mut config = sim_config(&args)?;
    let (instance, crowd) = match &crowd_spec {
        Some(spec) => {
            let map = load_map_only(&args)?;
            let n = args.units.unwrap_or(100);
            let crowd = place_crowd(&map.grid, n, spec, config.seed)?;
            (crowd.instance(map), Some(crowd))
        }
        None => (load_instance(&args)?, None),
    };
    // Units at the start: the instance's, or the whole crowd (whose
    // one-cell units are the instance's).
    let starting = crowd.as_ref().map_or(instance.len(), |c| c.units.len());
    // Table room for the units larger or slower than a cell: the crowd's,
    // then the most a script has alive at once, over the default headroom.
    config.footprint_claims += crowd.as_ref().map_or(0, Crowd::footprint_claims);
    if crowd.is_some() && args.max_units.is_none() {
        config.max_units = starting + 1024;
    }
    let default_claims = SimConfig::default().footprint_claims;
    let claims = |config: &SimConfig| starting * 2 + config.footprint_claims - default_claims;
    super::limits::check_memory_for(&config, &instance.grid, starting, claims(&config))?;
    for unit in instance.unreachable_units() {
        if !args.quiet {
            let (x, y) = instance.grid.xy(instance.goals[unit]);
            eprintln!("warning: unit {unit}: goal ({x},{y}) cannot be reached from its start; it counts as failed");
        }
    }
    if let Some(path) = &args.save_map {
        write_file(path, write_map(&instance.grid))?;
    }
    let mut script = match &args.events {
        Some(path) => Some(read_events(path)?),
        None => None,
    };
    let load = args.load();
    if load.is_active() {
        let generated = load.events(&instance.grid, starting, config.max_ticks, config.seed);
        let events = script.get_or_insert_with(Vec::new);
        events.extend(generated);
        events.sort_by_key(|e| e.tick);
    }
    if let Some(events) = &script {
        let path = args
            .events
            .clone()
            .unwrap_or_else(|| "generated load".into());
        let sizes = match &crowd {
            Some(c) => c.sizes(),
            None => vec![1; instance.len()],
        };
        check_events_sized(&path, events, &instance.grid, &sizes)?;
    }
    if script.is_some() && args.out.is_some() {
        return Err(CliError::Usage(
            "--out writes fixed-instance plans; with --events use --trace".into(),
        ));
    }
    let scripted = script.as_deref().map_or(0, script_claims);
    if scripted > 0 {
        config.footprint_claims += scripted;
        super::limits::check_memory_for(&config, &instance.grid, starting, claims(&config))?;
    }
    let budgeted = args.budgeted_start.unwrap_or(script.is_some());
    let mut sim = if args.spawned.unwrap_or(false) {
        spawn_instance(&instance, config, &args)?
    } else {
        Simulation::new(&instance, config)?
    };
    let crowd_ids = match &crowd {
        Some(c) => spawn_crowd(&mut sim, c)?,
        None => Vec::new(),
    };
    let bar = (!args.quiet && std::io::stdout().is_terminal()).then(|| {
        let bar = ProgressBar::new(config.max_ticks as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} tick {pos}/{len} {elapsed_precise} {msg}")
                .expect("valid template"),
        );
        bar
    });
    let mut driver = super::live::Driver::new(&args, script.unwrap_or_default())?;
    if let Some(c) = &crowd {
        driver.watch_arrivals(&crowd_ids, c);
    }
    driver.start(&mut sim)?;
    if !budgeted {
        sim.initialize();
    }
    let frame = args
        .frame_ms
        .map(|ms| std::time::Duration::from_secs_f64(ms / 1e3));
    while sim.ticks() < config.max_ticks && !(sim.all_home() && driver.done()) {
        let began = std::time::Instant::now();
        driver.before_step(&mut sim)?;
        sim.step();
        driver.after_step(&mut sim)?;
        if let Some(rest) = frame.and_then(|f| f.checked_sub(began.elapsed())) {
            // The rest of the frame, as a game spends it: the workers idle.
            std::thread::sleep(rest);
        }
        if let Some(bar) = &bar {
            bar.set_position(sim.ticks() as u64);
        }
    }
    driver.finish()?;
    driver.close_orders(&sim);
    if let Some(path) = &args.tick_chart {
        let mut lines = vec![("tick (µs)".to_string(), driver.tick_points())];
        if let Some(us) = config.budget.wall_us {
            let end = sim.ticks().max(1) as f64;
            lines.push(("budget".into(), vec![(0.0, us as f64), (end, us as f64)]));
        }
        super::chart::lines_chart(path, "tick time (µs)", "tick", &lines, false)?;
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    sim.finish_checks();
    let summary = sim.summary();
    if let Some(path) = &args.out {
        write_file(path, sim.plan_file().to_text())?;
    }
    let live = driver.report();
    let mixed = crowd
        .as_ref()
        .map(|c| MixedReport::new(&sim, c, &crowd_ids, &driver.arrivals(&crowd_ids)));
    if let Some(path) = &args.summary_json {
        let mut json =
            serde_json::to_value(&summary).map_err(|e| CliError::Other(e.to_string()))?;
        if let (Some(obj), Some(live)) = (json.as_object_mut(), &live) {
            let extra = serde_json::to_value(live).map_err(|e| CliError::Other(e.to_string()))?;
            if let Some(extra) = extra.as_object() {
                obj.extend(extra.clone());
            }
        }
        if let (Some(obj), Some(mixed)) = (json.as_object_mut(), &mixed) {
            let value = serde_json::to_value(mixed).map_err(|e| CliError::Other(e.to_string()))?;
            obj.insert("mixed".into(), value);
        }
        let text =
            serde_json::to_string_pretty(&json).map_err(|e| CliError::Other(e.to_string()))?;
        write_file(path, text + "\n")?;
    }
    if !args.quiet {
        print_summary(&summary);
        if let Some(live) = &live {
            live.print();
        }
        if let Some(mixed) = &mixed {
            mixed.print();
        }
    }
    Ok(summary)
}

/// Refuses settings a mixed crowd cannot run with: a planner other than
/// WHCA* (the only one that plans bodies and paces), a plan file (it holds
/// one cell per unit and tick), and generated orders or churn (they pick
/// one-cell goals and spawns).
fn check_mixed(args: &RunArgs) -> Result<(), CliError> {
    let planner = args.planner.as_deref().unwrap_or("whca");
    if planner != "whca" {
        return Err(CliError::Usage(format!(
            "--large, --huge and --slow need the WHCA* planner (--planner whca), not `{planner}`: \
             it is the one that plans bodies and paces"
        )));
    }
    if args.out.is_some() {
        return Err(CliError::Usage(
            "--out writes one cell per unit and tick; with --large, --huge or --slow use --trace"
                .into(),
        ));
    }
    if args.spawned == Some(true) {
        return Err(CliError::Usage(
            "--spawned: a mixed crowd (--large, --huge, --slow) is spawned already".into(),
        ));
    }
    for (flag, every) in [
        ("orders-every", args.orders_every),
        ("churn-every", args.churn_every),
    ] {
        if every.is_some_and(|n| n > 0) {
            return Err(CliError::Usage(format!(
                "--{flag} draws one-cell goals and spawns: not with --large, --huge or --slow \
                 (give the orders in an --events script)"
            )));
        }
    }
    Ok(())
}

/// The most reservation-table room (claims per tick, see
/// [`throng::engine::claims_of`]) the units larger or slower than a cell
/// that a script spawns hold at once. A tick's spawns are counted before
/// its despawns free their room, as the engine counts them.
pub fn script_claims(events: &[throng::io::ScriptedEvent]) -> usize {
    let mut alive: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let (mut now, mut peak) = (0usize, 0usize);
    for tick in events.chunk_by(|a, b| a.tick == b.tick) {
        for e in tick {
            if let Action::Spawn { unit, kind, .. } = &e.action {
                if !kind.is_cell() {
                    let c = throng::engine::claims_of(*kind);
                    now += c;
                    if let Some(old) = alive.insert(unit, c) {
                        now -= old;
                    }
                }
            }
        }
        peak = peak.max(now);
        for e in tick {
            if let Action::Despawn { unit } = &e.action {
                now -= alive.remove(unit.as_str()).unwrap_or(0);
            }
        }
    }
    peak
}

/// Prints the short summary table.
pub fn print_summary(s: &RunSummary) {
    println!("planner              {}", s.planner);
    println!(
        "units                {} ({} unreachable)",
        s.units, s.unreachable
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
    if s.cycles_per_agent > 0.0 {
        println!("cycles per unit      {:.2}", s.cycles_per_agent);
    }
    println!("sum of costs         {}   makespan {}", s.soc, s.makespan);
    println!("collisions           {}", s.collisions);
    println!("ticks                {}   threads {}", s.ticks, s.threads);
    println!(
        "initial planning     {:.3} ms   (set-up {:.1} ms)",
        s.init_ms, s.setup_ms
    );
    println!(
        "tick time            mean {:.3} ms   p99 {:.3} ms   p99.9 {:.3} ms   max {:.3} ms   total {:.1} ms",
        s.tick_ms_mean, s.tick_ms_p99, s.tick_ms_p999, s.tick_ms_max, s.plan_ms_total
    );
    println!(
        "budget               {} overruns (worst +{:.3} ms), {} searches carried over",
        s.budget_overruns, s.worst_overrun_ms, s.carried_over
    );
    println!(
        "searches             {} ({} in tiles, {} failed, {} re-run after a commit conflict), {} nodes, {} heuristic nodes ({} restarts)",
        s.searches, s.tiled_searches, s.failed_searches, s.commit_conflicts, s.expanded, s.heuristic_expanded, s.heuristic_restarts
    );
    if s.promotions > 0 {
        println!(
            "promotions           {} ({} moved units out of the way, {} rolled back)",
            s.promotions, s.promotions_kept, s.promotions_rolled_back
        );
    }
    if s.repairs > 0 {
        println!(
            "joint repairs        {} ({} committed)",
            s.repairs, s.repairs_kept
        );
    }
    if s.way_clearings > 0 {
        println!(
            "ways cleared         {} ({} kept), {} pulled over",
            s.way_clearings, s.way_clearings_kept, s.pull_overs
        );
    }
    if s.detours > 0 {
        println!("detours              {}", s.detours);
    }
    if s.shoves > 0 {
        println!(
            "shoves               {} ({} moved)",
            s.shoves, s.shoves_kept
        );
    }
    if s.right_of_way > 0 {
        println!(
            "right of way         {} bodies' plans through one-cell units ({} kept, {} units moved)",
            s.right_of_way, s.right_of_way_kept, s.right_of_way_moved
        );
    }
    println!("peak memory          {:.1} MiB", s.peak_memory_mb);
}
