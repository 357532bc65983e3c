//! `throng experiment bnaya`: Bnaya & Felner (2014)'s experiments.
//!
//! 1. Generated 32×32 four-connected grids with 20% obstacles; starts and
//!    goals drawn with the seed's density coefficient (biased towards crowded
//!    cells, [`crowded_instance`]); 10 to 70 units; WHCA*(8, 16, 32),
//!    CO-WHCA*, CO-WHCA*P, HCA*, CO-HCA* and CO-HCA*P. Measures: success rate (share
//!    of instances with every unit home, and share of units home), sum of
//!    costs, and planning time (initial planning plus every tick's).
//! 2. The seed's Table II: den520d (Dragon Age: Origins), 10 units, 20
//!    instances, twice: the first 10 rows of `den520d-random-1..20.scen`,
//!    and starts and goals drawn with the density coefficient (the seed's
//!    own selection method).
//!
//! Prints tables, writes `bnaya.csv`, `den520d.csv` and SVG charts.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use throng::engine::{History, RunSummary, SimConfig, Simulation};
use throng::map::{
    crowded_instance, generate_map, read_map, read_scenario, Connectivity, GeneratorSpec, Instance,
};
use throng::planner::{CoVariant, PlannerKind};

use super::error::{write_file, CliError};

/// Options of `throng experiment bnaya`.
#[derive(Args, Debug, Clone)]
pub struct BnayaArgs {
    /// Generated maps (instances) per unit count; the seed used 50.
    #[arg(long, default_value_t = 10)]
    pub maps: u64,
    /// Unit counts, comma-separated.
    #[arg(
        long,
        visible_alias = "agents",
        default_value = "10,20,30,40,50,60,70",
        value_delimiter = ','
    )]
    pub units: Vec<usize>,
    /// Map size and obstacle density.
    #[arg(long, default_value = "32x32:0.2")]
    pub generate: String,
    /// Proximity `r` of the density coefficient (cells within Chebyshev distance r).
    #[arg(long, default_value_t = 2)]
    pub radius: u32,
    /// Reservation window of the CO planners (W/2 each side of a conflict).
    #[arg(long, default_value_t = 16)]
    pub window: u32,
    /// Turn limit on the generated maps.
    #[arg(long, default_value_t = 256)]
    pub max_ticks: u32,
    /// First seed; instance `k` uses `seed + k`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The den520d map (its scenarios are looked for in `scen/` beside it).
    #[arg(long, default_value = "../shared/maps/movingai/den520d.map")]
    pub den_map: PathBuf,
    /// den520d instances (scenario files `den520d-random-1..N`).
    #[arg(long, default_value_t = 20)]
    pub den_instances: usize,
    /// Units per den520d instance.
    #[arg(long, default_value_t = 10)]
    pub den_agents: usize,
    /// Turn limit on den520d.
    #[arg(long, default_value_t = 1024)]
    pub den_max_ticks: u32,
    /// Skip the generated maps.
    #[arg(long)]
    pub skip_generated: bool,
    /// Skip den520d.
    #[arg(long)]
    pub skip_den: bool,
    /// Where the CSVs and SVG charts go.
    #[arg(long, default_value = "results/bnaya")]
    pub out_dir: PathBuf,
}

/// One planner's results on one set of instances.
#[derive(Clone, Debug, Default)]
pub struct BnayaPoint {
    /// Planner label.
    pub planner: String,
    /// Units per instance.
    pub units: usize,
    /// Instances run.
    pub instances: usize,
    /// Share of instances with every unit home.
    pub instance_success: f64,
    /// Share of units home.
    pub unit_success: f64,
    /// Mean sum of costs over all instances (a unit that never settles on its
    /// goal costs the whole run).
    pub soc: f64,
    /// Mean sum of costs over the instances every planner solved.
    pub soc_common: f64,
    /// Instances every planner solved.
    pub common: usize,
    /// Mean planning time per instance (initial + every tick), ms.
    pub time_ms: f64,
    /// Validator violations over all runs (must be 0).
    pub collisions: usize,
}

/// The planners of the seed's figures, CO ones with window `w`.
pub fn bnaya_planners(w: u32) -> Vec<PlannerKind> {
    let co = |variant| PlannerKind::Co {
        window: w,
        variant,
        offline: variant.fixed_start(),
    };
    vec![
        PlannerKind::Whca { window: 8 },
        PlannerKind::Whca { window: 16 },
        PlannerKind::Whca { window: 32 },
        co(CoVariant::Whca),
        co(CoVariant::WhcaP),
        PlannerKind::Hca,
        co(CoVariant::Hca),
        co(CoVariant::HcaP),
    ]
}

/// Runs every planner on every instance and aggregates one point per planner.
fn measure_set(
    planners: &[PlannerKind],
    instances: &[Instance],
    max_ticks: u32,
    progress: &ProgressBar,
) -> Vec<BnayaPoint> {
    let runs: Vec<Vec<RunSummary>> = planners
        .iter()
        .map(|&planner| {
            instances
                .iter()
                .enumerate()
                .map(|(k, inst)| {
                    let s = Simulation::new(
                        inst,
                        SimConfig {
                            planner,
                            max_ticks,
                            seed: k as u64 + 1,
                            history: History::Full,
                            ..SimConfig::default()
                        },
                    )
                    .expect("generated instances are valid")
                    .run();
                    progress.inc(1);
                    s
                })
                .collect()
        })
        .collect();
    let solved = |s: &RunSummary| s.reached == s.units;
    let common: Vec<usize> = (0..instances.len())
        .filter(|&k| runs.iter().all(|r| solved(&r[k])))
        .collect();
    planners
        .iter()
        .zip(&runs)
        .map(|(planner, r)| {
            let m = r.len().max(1) as f64;
            BnayaPoint {
                planner: planner.label(),
                units: instances.first().map_or(0, Instance::len),
                instances: r.len(),
                instance_success: r.iter().filter(|s| solved(s)).count() as f64 / m,
                unit_success: r.iter().map(|s| s.success_rate).sum::<f64>() / m,
                soc: r.iter().map(|s| s.soc as f64).sum::<f64>() / m,
                soc_common: if common.is_empty() {
                    f64::NAN
                } else {
                    common.iter().map(|&k| r[k].soc as f64).sum::<f64>() / common.len() as f64
                },
                common: common.len(),
                time_ms: r.iter().map(|s| s.init_ms + s.plan_ms_total).sum::<f64>() / m,
                collisions: r.iter().map(|s| s.collisions).sum(),
            }
        })
        .collect()
}

/// The generated-map instances for `n` units.
fn generated_instances(args: &BnayaArgs, n: usize) -> Result<Vec<Instance>, CliError> {
    let spec: GeneratorSpec = args.generate.parse()?;
    (0..args.maps)
        .map(|m| {
            let seed = args.seed + m;
            let grid = Arc::new(generate_map(spec, Connectivity::Four, seed));
            let mut inst = crowded_instance(grid, n, args.radius, seed * 1000 + n as u64)?;
            inst.map_name = format!("generated-{}x{}-{seed}", spec.width, spec.height);
            Ok(inst)
        })
        .collect()
}

/// The den520d instances: first `den_agents` rows of each scenario, and as
/// many drawn with the density coefficient.
fn den_instances(args: &BnayaArgs) -> Result<(Vec<Instance>, Vec<Instance>), CliError> {
    let grid = Arc::new(read_map(&args.den_map, Connectivity::Four)?);
    let dir = args.den_map.parent().unwrap_or(Path::new(".")).join("scen");
    let stem = args
        .den_map
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let scen = (1..=args.den_instances)
        .map(|k| {
            let scen = read_scenario(&dir.join(format!("{stem}-random-{k}.scen")))?;
            Ok(Instance::from_scenario(
                grid.clone(),
                &scen,
                Some(args.den_agents),
                &format!("{stem}.map"),
            )?)
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    let crowded = (1..=args.den_instances as u64)
        .map(|k| {
            let mut inst =
                crowded_instance(grid.clone(), args.den_agents, args.radius, args.seed + k)?;
            inst.map_name = format!("{stem}.map");
            Ok(inst)
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    Ok((scen, crowded))
}

type Measure = (&'static str, &'static str, fn(&BnayaPoint) -> f64);

const MEASURES: [Measure; 4] = [
    ("success", "Instances solved (%)", |p| {
        100.0 * p.instance_success
    }),
    ("unit_success", "Units home (%)", |p| 100.0 * p.unit_success),
    ("soc", "Sum of costs (all instances)", |p| p.soc),
    ("time_ms", "Planning time per instance (ms)", |p| p.time_ms),
];

/// The generated-map measures as text tables, one row per unit count.
pub fn tables(points: &[BnayaPoint], planners: &[String], units: &[usize]) -> String {
    let mut out = String::new();
    let measures: [Measure; 5] = [
        MEASURES[0],
        MEASURES[1],
        MEASURES[2],
        (
            "soc_common",
            "Sum of costs (instances every planner solved; count in last column)",
            |p| p.soc_common,
        ),
        MEASURES[3],
    ];
    for (key, title, f) in measures {
        let _ = writeln!(out, "\n{title}");
        let _ = write!(out, "{:>6}", "units");
        for p in planners {
            let _ = write!(out, " {p:>14}");
        }
        if key == "soc_common" {
            let _ = write!(out, " {:>6}", "common");
        }
        out.push('\n');
        for &n in units {
            let _ = write!(out, "{n:>6}");
            let row: Vec<&BnayaPoint> = planners
                .iter()
                .filter_map(|p| points.iter().find(|q| &q.planner == p && q.units == n))
                .collect();
            for q in &row {
                let _ = write!(out, " {:>14.2}", f(q));
            }
            if key == "soc_common" {
                let _ = write!(out, " {:>6}", row.first().map_or(0, |q| q.common));
            }
            out.push('\n');
        }
    }
    out
}

/// The den520d results beside the seed's Table II.
pub fn den_table(title: &str, points: &[BnayaPoint]) -> String {
    let (units, instances) = points.first().map_or((0, 0), |p| (p.units, p.instances));
    let mut out = format!(
        "\n{title}, {units} units, {instances} instances (seed's Table II, 10 units, 20 instances: success / cost / time: CO-WHCA* 1 / 767 / 31, CO-WHCA*P 1 / 744 / 2,854, WHCA* 0.85 / 785 / 1,082)\n"
    );
    let _ = writeln!(
        out,
        "{:>18} {:>9} {:>9} {:>10} {:>12} {:>12}",
        "planner", "solved", "units", "cost", "cost(common)", "time ms"
    );
    for p in points {
        let _ = writeln!(
            out,
            "{:>18} {:>9.2} {:>9.3} {:>10.1} {:>12.1} {:>12.2}",
            p.planner, p.instance_success, p.unit_success, p.soc, p.soc_common, p.time_ms
        );
    }
    out
}

fn csv(points: &[BnayaPoint]) -> String {
    let mut s = String::from("planner,units,instances,instance_success,unit_success,soc,soc_common,common_instances,time_ms,collisions\n");
    for p in points {
        let _ = writeln!(
            s,
            "{},{},{},{:.4},{:.4},{:.2},{:.2},{},{:.4},{}",
            p.planner,
            p.units,
            p.instances,
            p.instance_success,
            p.unit_success,
            p.soc,
            p.soc_common,
            p.common,
            p.time_ms,
            p.collisions
        );
    }
    s
}

fn chart(
    path: &Path,
    title: &str,
    points: &[BnayaPoint],
    planners: &[String],
    units: &[usize],
    f: fn(&BnayaPoint) -> f64,
    log: bool,
) -> Result<(), CliError> {
    let lines: Vec<(String, Vec<(f64, f64)>)> = planners
        .iter()
        .map(|label| {
            let pts = units
                .iter()
                .filter_map(|&n| {
                    points
                        .iter()
                        .find(|p| &p.planner == label && p.units == n)
                        .map(|p| (n as f64, f(p)))
                })
                .collect();
            (label.clone(), pts)
        })
        .collect();
    super::chart::planner_lines(path, title, &lines, log)
}

/// The experiment's results.
#[derive(Clone, Debug, Default)]
pub struct BnayaResults {
    /// Generated maps: one point per planner and unit count.
    pub generated: Vec<BnayaPoint>,
    /// den520d, scenario rows: one point per planner.
    pub den520d: Vec<BnayaPoint>,
    /// den520d, density-biased starts and goals: one point per planner.
    pub den520d_crowded: Vec<BnayaPoint>,
}

/// Runs the experiment, prints the tables, writes CSVs and SVG charts.
pub fn run(args: &BnayaArgs) -> Result<BnayaResults, CliError> {
    let planners = bnaya_planners(args.window);
    let labels: Vec<String> = planners.iter().map(|p| p.label()).collect();
    let den_planners = vec![
        PlannerKind::Co {
            window: args.window,
            variant: CoVariant::Whca,
            offline: false,
        },
        PlannerKind::Co {
            window: args.window,
            variant: CoVariant::WhcaP,
            offline: false,
        },
        PlannerKind::Whca { window: 8 },
        PlannerKind::Whca { window: 16 },
        PlannerKind::Whca { window: 32 },
    ];
    let mut total = 0u64;
    if !args.skip_generated {
        total += planners.len() as u64 * args.units.len() as u64 * args.maps;
    }
    if !args.skip_den {
        total += 2 * den_planners.len() as u64 * args.den_instances as u64;
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} runs {elapsed_precise}")
            .expect("valid template"),
    );
    let mut results = BnayaResults::default();
    if !args.skip_generated {
        for &n in &args.units {
            let instances = generated_instances(args, n)?;
            results
                .generated
                .extend(measure_set(&planners, &instances, args.max_ticks, &bar));
        }
    }
    if !args.skip_den {
        let (scen, crowded) = den_instances(args)?;
        results.den520d = measure_set(&den_planners, &scen, args.den_max_ticks, &bar);
        results.den520d_crowded = measure_set(&den_planners, &crowded, args.den_max_ticks, &bar);
    }
    bar.finish_and_clear();
    if !args.skip_generated {
        println!("{}", tables(&results.generated, &labels, &args.units));
        write_file(&args.out_dir.join("bnaya.csv"), csv(&results.generated))?;
        for (key, title, f) in MEASURES {
            chart(
                &args.out_dir.join(format!("{key}.svg")),
                title,
                &results.generated,
                &labels,
                &args.units,
                f,
                key == "time_ms",
            )?;
        }
    }
    if !args.skip_den {
        println!("{}", den_table("den520d, scenario rows", &results.den520d));
        println!(
            "{}",
            den_table("den520d, density-biased", &results.den520d_crowded)
        );
        write_file(&args.out_dir.join("den520d.csv"), csv(&results.den520d))?;
        write_file(
            &args.out_dir.join("den520d_crowded.csv"),
            csv(&results.den520d_crowded),
        )?;
    }
    let collisions: usize = results
        .generated
        .iter()
        .chain(&results.den520d)
        .chain(&results.den520d_crowded)
        .map(|p| p.collisions)
        .sum();
    println!(
        "validator violations over all runs: {collisions}; wrote CSVs and charts to {}",
        args.out_dir.display()
    );
    Ok(results)
}
