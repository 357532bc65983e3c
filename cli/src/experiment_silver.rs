//! `throng experiment silver`: Silver (2005)'s experiment. Ten generated 32×32
//! maps with 20% obstacles; 10, 20, … 100 units with distinct random starts and
//! goals; LRA*, CA*, HCA*, WHCA*(8), WHCA*(16), WHCA*(32); 100 turns. Reports
//! the seed's five measures as tables, a CSV and one SVG chart per measure.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use throng::engine::{History, SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Connectivity, GeneratorSpec};
use throng::planner::PlannerKind;

use super::error::{write_file, CliError};

/// Options of `throng experiment silver`.
#[derive(Args, Debug, Clone)]
pub struct SilverArgs {
    /// Number of generated maps.
    #[arg(long, default_value_t = 10)]
    pub maps: u64,
    /// Unit counts, comma-separated.
    #[arg(
        long,
        visible_alias = "agents",
        default_value = "10,20,30,40,50,60,70,80,90,100",
        value_delimiter = ','
    )]
    pub units: Vec<usize>,
    /// Map size and obstacle density.
    #[arg(long, default_value = "32x32:0.2")]
    pub generate: String,
    /// Turn limit.
    #[arg(long, default_value_t = 100)]
    pub max_ticks: u32,
    /// First seed; map `k` uses `seed + k`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where the CSV and SVG charts go.
    #[arg(long, default_value = "results/silver")]
    pub out_dir: PathBuf,
    /// One-way lanes in one-cell-wide corridors (see `throng run --lanes`;
    /// not part of Silver's set-up).
    #[arg(long)]
    pub lanes: bool,
}

/// Means of the five measures over the maps, for one planner and unit count.
#[derive(Clone, Debug, Default)]
pub struct SilverPoint {
    /// Planner label.
    pub planner: String,
    /// Units.
    pub units: usize,
    /// Share of units home within the limit.
    pub success: f64,
    /// Mean turns to first reach the goal.
    pub path_len: f64,
    /// Mean shortest-path length of the same units.
    pub lower_bound: f64,
    /// Revisits per unit.
    pub cycles: f64,
    /// Initial planning, ms.
    pub init_ms: f64,
    /// Worst turn's planning, ms.
    pub max_tick_ms: f64,
    /// Mean turn's planning, ms.
    pub mean_tick_ms: f64,
    /// Violations found by the validator (must be 0).
    pub collisions: usize,
}

/// The planners of the seed's figures.
pub fn silver_planners() -> Vec<PlannerKind> {
    vec![
        PlannerKind::Lra,
        PlannerKind::Ca,
        PlannerKind::Hca,
        PlannerKind::Whca { window: 8 },
        PlannerKind::Whca { window: 16 },
        PlannerKind::Whca { window: 32 },
    ]
}

/// Runs the experiment and returns one point per planner and unit count.
pub fn measure(args: &SilverArgs, progress: &ProgressBar) -> Result<Vec<SilverPoint>, CliError> {
    let spec: GeneratorSpec = args.generate.parse()?;
    let planners = silver_planners();
    let mut points = Vec::new();
    for &planner in &planners {
        for &n in &args.units {
            let mut p = SilverPoint {
                planner: planner.label(),
                units: n,
                ..Default::default()
            };
            for m in 0..args.maps {
                let seed = args.seed + m;
                let grid =
                    Arc::new(generate_map(spec, Connectivity::Four, seed).with_lanes(args.lanes));
                let inst = random_instance(grid, n, seed * 1000 + n as u64)?;
                let mut sim = Simulation::new(
                    &inst,
                    SimConfig {
                        planner,
                        max_ticks: args.max_ticks,
                        seed,
                        history: History::Full,
                        ..SimConfig::default()
                    },
                )?;
                let s = sim.run();
                p.success += s.success_rate;
                p.path_len += s.mean_path_len;
                p.lower_bound += s.lower_bound_path_len;
                p.cycles += s.cycles_per_agent;
                p.init_ms += s.init_ms;
                p.max_tick_ms += s.tick_ms_max;
                p.mean_tick_ms += s.tick_ms_mean;
                p.collisions += s.collisions;
                progress.inc(1);
            }
            let k = args.maps.max(1) as f64;
            for v in [
                &mut p.success,
                &mut p.path_len,
                &mut p.lower_bound,
                &mut p.cycles,
                &mut p.init_ms,
                &mut p.max_tick_ms,
                &mut p.mean_tick_ms,
            ] {
                *v /= k;
            }
            points.push(p);
        }
    }
    Ok(points)
}

type Measure = (&'static str, &'static str, fn(&SilverPoint) -> f64);

const MEASURES: [Measure; 5] = [
    ("success", "Units reaching their destination (%)", |p| {
        100.0 * p.success
    }),
    ("path_length", "Mean path length (turns)", |p| p.path_len),
    ("cycles", "Cycles per unit", |p| p.cycles),
    ("init_ms", "Initial planning, all units (ms)", |p| p.init_ms),
    ("max_tick_ms", "Worst turn's planning (ms)", |p| {
        p.max_tick_ms
    }),
];

/// The five measures as text tables, one row per unit count.
pub fn tables(points: &[SilverPoint], units: &[usize]) -> String {
    let planners: Vec<String> = silver_planners().iter().map(|p| p.label()).collect();
    let mut out = String::new();
    for (key, title, f) in MEASURES {
        let _ = writeln!(out, "\n{title}");
        let _ = write!(out, "{:>6}", "units");
        for p in &planners {
            let _ = write!(out, " {p:>10}");
        }
        if key == "path_length" {
            let _ = write!(out, " {:>10}", "bound");
        }
        out.push('\n');
        for &n in units {
            let _ = write!(out, "{n:>6}");
            for p in &planners {
                let v = points
                    .iter()
                    .find(|q| &q.planner == p && q.units == n)
                    .map_or(f64::NAN, f);
                let _ = write!(out, " {v:>10.3}");
            }
            if key == "path_length" {
                let lb = points
                    .iter()
                    .filter(|q| q.units == n)
                    .map(|q| q.lower_bound)
                    .fold(0.0, f64::max);
                let _ = write!(out, " {lb:>10.2}");
            }
            out.push('\n');
        }
    }
    out
}

fn csv(points: &[SilverPoint]) -> String {
    let mut s = String::from("planner,units,success_rate,mean_path_len,lower_bound_path_len,cycles_per_agent,init_ms,max_tick_ms,mean_tick_ms,collisions\n");
    for p in points {
        let _ = writeln!(
            s,
            "{},{},{:.4},{:.3},{:.3},{:.4},{:.4},{:.4},{:.4},{}",
            p.planner,
            p.units,
            p.success,
            p.path_len,
            p.lower_bound,
            p.cycles,
            p.init_ms,
            p.max_tick_ms,
            p.mean_tick_ms,
            p.collisions
        );
    }
    s
}

fn chart(
    path: &Path,
    title: &str,
    points: &[SilverPoint],
    units: &[usize],
    f: fn(&SilverPoint) -> f64,
) -> Result<(), CliError> {
    let lines: Vec<(String, Vec<(f64, f64)>)> = silver_planners()
        .iter()
        .map(|planner| {
            let label = planner.label();
            let pts = units
                .iter()
                .filter_map(|&n| {
                    points
                        .iter()
                        .find(|p| p.planner == label && p.units == n)
                        .map(|p| (n as f64, f(p)))
                })
                .collect();
            (label, pts)
        })
        .collect();
    super::chart::planner_lines(path, title, &lines, false)
}

/// Runs the experiment, prints the tables, writes CSV and SVG charts.
pub fn run(args: &SilverArgs) -> Result<Vec<SilverPoint>, CliError> {
    let total = silver_planners().len() as u64 * args.units.len() as u64 * args.maps;
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} runs {elapsed_precise}")
            .expect("valid template"),
    );
    let points = measure(args, &bar)?;
    bar.finish_and_clear();
    println!("{}", tables(&points, &args.units));
    write_file(&args.out_dir.join("silver.csv"), csv(&points))?;
    for (key, title, f) in MEASURES {
        chart(
            &args.out_dir.join(format!("{key}.svg")),
            title,
            &points,
            &args.units,
            f,
        )?;
    }
    println!(
        "wrote {}/silver.csv and five SVG charts",
        args.out_dir.display()
    );
    Ok(points)
}
