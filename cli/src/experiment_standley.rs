//! `throng experiment standley`: the seed's experiment for the optimal solver.
//! Random 32×32 maps with 20% obstacles, 8-connected with corner cutting, unit
//! counts uniform in 2..=60, distinct random starts and goals, a time limit per
//! instance. Reports the share solved within the limit, the sorted runtime
//! curve (CSV and SVG), the largest independent group, and the solution cost
//! above the lower bound (and a baseline planner's, when one is supplied).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use plotters::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use throng::map::{generate_map, random_instance, Connectivity, GeneratorSpec, Instance};
use throng::planner::odid::{lower_bound, solve, Clock, Limits, OptimalAlgorithm, SolveOutcome};

/// Options of `throng experiment standley`.
#[derive(clap::Args, Debug, Clone)]
pub struct StandleyArgs {
    /// Instances to generate and solve (the seed ran 10,000).
    #[arg(long, default_value_t = 1000)]
    pub instances: usize,
    /// Seed of the maps and instances.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Wall-time limit per instance, in milliseconds (the seed: one second).
    #[arg(long, default_value_t = 1000)]
    pub time_limit_ms: u64,
    /// Nodes one low-level search may store (bounds memory).
    #[arg(long, default_value_t = 20_000_000)]
    pub node_limit: u64,
    /// Fewest units in an instance.
    #[arg(long, default_value_t = 2)]
    pub min_units: usize,
    /// Most units in an instance.
    #[arg(long, default_value_t = 60)]
    pub max_units: usize,
    /// Optimal algorithm: odid-split (OD+ID with a constraint tree over each
    /// merge's two parts), odid (the seed's OD+ID), od-sid, od,
    /// astar-joint-id or astar-joint.
    #[arg(long, default_value = "odid-split")]
    pub algorithm: String,
    /// Where the CSV, the summary and the chart go.
    #[arg(long, default_value = "results/standley")]
    pub out_dir: PathBuf,
    /// Clock of the time limit and the runtimes: `cpu` (the solving thread's
    /// CPU time, fair on a shared machine) or `wall`.
    #[arg(long, default_value = "cpu", value_parser = ["cpu", "wall"])]
    pub clock: String,
    /// No progress bar (for logs).
    #[arg(long)]
    pub quiet: bool,
    /// Solve only these instances of the `--instances` set (comma-separated
    /// indices, as in the CSV's `instance` column), e.g. to rerun failures.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<usize>,
}

/// A baseline planner for the comparison column (the seed compares HCA*):
/// given an instance, the seed's cost of its plan, or `None` if it failed.
pub type Baseline<'a> = &'a dyn Fn(&Instance) -> Option<u64>;

/// One instance's row in `standley.csv`.
#[derive(Clone, Debug, Serialize)]
struct Row {
    instance: usize,
    units: usize,
    status: &'static str,
    /// On the limit's clock.
    time_ms: f64,
    wall_ms: f64,
    cost: Option<u64>,
    lower_bound: u64,
    largest_group: usize,
    groups: usize,
    nodes_expanded: u64,
    peak_nodes: u64,
    baseline_cost: Option<u64>,
}

/// The figures printed and written to `summary.json`.
#[derive(Clone, Debug, Serialize)]
struct Summary {
    algorithm: String,
    instances: usize,
    seed: u64,
    time_limit_ms: u64,
    clock: String,
    solved: usize,
    solved_share_percent: f64,
    seed_paper_share_percent: f64,
    median_time_ms: f64,
    p90_time_ms_solved: f64,
    total_time_s: f64,
    largest_group_solved: usize,
    largest_group_any: usize,
    over_40_units_solved: usize,
    over_40_mean_cost_above_bound: Option<f64>,
    over_40_both_solved: usize,
    over_40_mean_baseline_above_bound: Option<f64>,
    over_40_mean_optimal_above_bound_both: Option<f64>,
}

/// Generates instance `i` of the experiment.
fn make_instance(args: &StandleyArgs, i: usize) -> Instance {
    let inst_seed = args.seed.wrapping_mul(0x9E37_79B9).wrapping_add(i as u64);
    let mut rng = ChaCha8Rng::seed_from_u64(inst_seed);
    let units = rng.gen_range(args.min_units..=args.max_units);
    let spec = GeneratorSpec {
        width: 32,
        height: 32,
        density: 0.2,
    };
    let grid = generate_map(spec, Connectivity::Eight, inst_seed).with_corner_cutting(true);
    random_instance(Arc::new(grid), units, inst_seed).expect("a 32x32 map holds 60 units")
}

/// Runs the experiment without a baseline column.
pub fn run(args: &StandleyArgs) -> Result<(), Box<dyn std::error::Error>> {
    run_with_baseline(args, None)
}

/// Runs the experiment; `baseline` (HCA* in the seed) fills the comparison column.
pub fn run_with_baseline(
    args: &StandleyArgs,
    baseline: Option<Baseline>,
) -> Result<(), Box<dyn std::error::Error>> {
    let algorithm: OptimalAlgorithm = args.algorithm.parse()?;
    if args.min_units < 1 || args.min_units > args.max_units {
        return Err(format!(
            "unit range {}..={} is empty",
            args.min_units, args.max_units
        )
        .into());
    }
    fs::create_dir_all(&args.out_dir)?;
    let limits = Limits {
        time: Some(Duration::from_millis(args.time_limit_ms)),
        nodes: Some(args.node_limit),
        clock: if args.clock == "wall" {
            Clock::Wall
        } else {
            Clock::ThreadCpu
        },
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(if args.only.is_empty() {
            args.instances
        } else {
            args.only.len()
        } as u64)
    };
    bar.set_style(ProgressStyle::with_template(
        "{bar:40} {pos}/{len} [{elapsed_precise}<{eta_precise}] {msg}",
    )?);
    let mut rows = Vec::with_capacity(args.instances);
    let mut solved = 0usize;
    for i in 0..args.instances {
        if !args.only.is_empty() && !args.only.contains(&i) {
            continue;
        }
        let inst = make_instance(args, i);
        let out: SolveOutcome = solve(&inst, algorithm, &limits)?;
        solved += usize::from(out.is_solved());
        rows.push(Row {
            instance: i,
            units: inst.len(),
            status: out.status.name(),
            time_ms: out.used.as_secs_f64() * 1e3,
            wall_ms: out.elapsed.as_secs_f64() * 1e3,
            cost: out.cost,
            lower_bound: lower_bound(&inst.grid, &inst.starts, &inst.goals),
            largest_group: out.largest_group,
            groups: out.groups.len(),
            nodes_expanded: out.stats.expanded,
            peak_nodes: out.stats.peak_nodes,
            baseline_cost: baseline.and_then(|b| b(&inst)),
        });
        bar.set_message(format!("solved {solved}/{}", i + 1));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let summary = summarize(args, algorithm, &rows);
    write_csv(&args.out_dir.join("standley.csv"), &rows)?;
    fs::write(
        args.out_dir.join("summary.json"),
        serde_json::to_string_pretty(&summary)?,
    )?;
    let chart = args.out_dir.join("runtime.svg");
    draw_chart(&chart, args, &rows)?;
    print_summary(&summary, baseline.is_some());
    println!(
        "wrote {}, summary.json and {}",
        args.out_dir.join("standley.csv").display(),
        chart.display()
    );
    Ok(())
}

fn summarize(args: &StandleyArgs, algorithm: OptimalAlgorithm, rows: &[Row]) -> Summary {
    let limit = args.time_limit_ms as f64;
    let solved: Vec<&Row> = rows
        .iter()
        .filter(|r| r.cost.is_some() && r.time_ms <= limit)
        .collect();
    let mut times: Vec<f64> = rows.iter().map(|r| r.time_ms).collect();
    times.sort_by(f64::total_cmp);
    let mut solved_times: Vec<f64> = solved.iter().map(|r| r.time_ms).collect();
    solved_times.sort_by(f64::total_cmp);
    let pick = |v: &[f64], q: f64| {
        if v.is_empty() {
            0.0
        } else {
            v[((v.len() - 1) as f64 * q).round() as usize]
        }
    };
    let mean = |v: Vec<f64>| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    let over: Vec<&&Row> = solved.iter().filter(|r| r.units > 40).collect();
    let both: Vec<&&Row> = over
        .iter()
        .copied()
        .filter(|r| r.baseline_cost.is_some())
        .collect();
    let above = |c: u64, r: &Row| c as f64 - r.lower_bound as f64;
    Summary {
        algorithm: algorithm.name().to_string(),
        instances: rows.len(),
        seed: args.seed,
        time_limit_ms: args.time_limit_ms,
        clock: args.clock.clone(),
        solved: solved.len(),
        solved_share_percent: 100.0 * solved.len() as f64 / rows.len().max(1) as f64,
        seed_paper_share_percent: 90.45,
        median_time_ms: pick(&times, 0.5),
        p90_time_ms_solved: pick(&solved_times, 0.9),
        total_time_s: times.iter().sum::<f64>() / 1e3,
        largest_group_solved: solved.iter().map(|r| r.largest_group).max().unwrap_or(0),
        largest_group_any: rows.iter().map(|r| r.largest_group).max().unwrap_or(0),
        over_40_units_solved: over.len(),
        over_40_mean_cost_above_bound: mean(
            over.iter().map(|r| above(r.cost.unwrap_or(0), r)).collect(),
        ),
        over_40_both_solved: both.len(),
        over_40_mean_baseline_above_bound: mean(
            both.iter()
                .map(|r| above(r.baseline_cost.unwrap_or(0), r))
                .collect(),
        ),
        over_40_mean_optimal_above_bound_both: mean(
            both.iter().map(|r| above(r.cost.unwrap_or(0), r)).collect(),
        ),
    }
}

fn write_csv(path: &Path, rows: &[Row]) -> std::io::Result<()> {
    let mut f = std::io::BufWriter::new(fs::File::create(path)?);
    writeln!(
        f,
        "instance,units,status,time_ms,wall_ms,cost,lower_bound,largest_group,groups,nodes_expanded,peak_nodes,baseline_cost"
    )?;
    let opt = |v: Option<u64>| v.map_or(String::new(), |c| c.to_string());
    for r in rows {
        writeln!(
            f,
            "{},{},{},{:.3},{:.3},{},{},{},{},{},{},{}",
            r.instance,
            r.units,
            r.status,
            r.time_ms,
            r.wall_ms,
            opt(r.cost),
            r.lower_bound,
            r.largest_group,
            r.groups,
            r.nodes_expanded,
            r.peak_nodes,
            opt(r.baseline_cost)
        )?;
    }
    f.flush()
}

/// The seed's figure 6: runtimes of the solved instances in ascending order,
/// against the share of all instances solved.
fn draw_chart(
    path: &Path,
    args: &StandleyArgs,
    rows: &[Row],
) -> Result<(), Box<dyn std::error::Error>> {
    let mut times: Vec<f64> = rows
        .iter()
        .filter(|r| r.cost.is_some() && r.time_ms <= args.time_limit_ms as f64)
        .map(|r| r.time_ms.max(1e-3))
        .collect();
    times.sort_by(f64::total_cmp);
    let n = rows.len().max(1) as f64;
    let limit = args.time_limit_ms as f64;
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "OD+ID ({}) on {} random 32x32 instances, 2-60 units: {:.2}% solved within {} ms",
                args.algorithm,
                rows.len(),
                100.0 * times.len() as f64 / n,
                args.time_limit_ms
            ),
            ("sans-serif", 18),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..100.0, (1e-2..limit.max(1.0)).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("instances solved (%)")
        .y_desc(format!("runtime (ms, {} clock, log scale)", args.clock))
        .draw()?;
    chart
        .draw_series(LineSeries::new(
            times
                .iter()
                .enumerate()
                .map(|(i, &t)| (100.0 * (i + 1) as f64 / n, t)),
            BLUE.stroke_width(2),
        ))?
        .label("this run")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE));
    chart
        .draw_series(LineSeries::new(
            [(90.45, 1e-2), (90.45, limit)],
            RED.stroke_width(1),
        ))?
        .label("seed: 90.45% within 1 s")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}

fn print_summary(s: &Summary, with_baseline: bool) {
    println!(
        "{}: {}/{} instances solved within {} ms ({} clock): {:.2}% (seed paper: {:.2}%)",
        s.algorithm,
        s.solved,
        s.instances,
        s.time_limit_ms,
        s.clock,
        s.solved_share_percent,
        s.seed_paper_share_percent
    );
    println!(
        "runtime: median {:.2} ms over all, 90th percentile {:.2} ms over solved; total {:.1} s",
        s.median_time_ms, s.p90_time_ms_solved, s.total_time_s
    );
    println!(
        "largest independent group: {} in a solved instance, {} in any",
        s.largest_group_solved, s.largest_group_any
    );
    if let Some(m) = s.over_40_mean_cost_above_bound {
        println!(
            "over 40 units: {} solved, optimal cost {:.2} above the lower bound on average (seed: 4.4)",
            s.over_40_units_solved, m
        );
    }
    if with_baseline {
        match (s.over_40_mean_baseline_above_bound, s.over_40_mean_optimal_above_bound_both) {
            (Some(b), Some(o)) => println!(
                "over 40 units, solved by both: {}; baseline {:.2} above the bound, optimal {:.2} (seed: HCA* 12.8, OD+ID 4.4)",
                s.over_40_both_solved, b, o
            ),
            _ => println!("over 40 units: no instance solved by both"),
        }
    }
}
