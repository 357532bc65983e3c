//! `throng footprints`: units of mixed sizes and paces (Silver's
//! reservation-table footprints) on a map, checked by the footprint validator.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;

use super::run::parse_connectivity;
use super::CliError;
use throng::footprint::{
    random_units, validate_footprints, Action, FootprintPlanner, PlannedAction, UnitShape,
};
use throng::map::{generate_map, read_map, GeneratorSpec};

/// Options of `throng footprints`.
#[derive(Args, Debug)]
pub struct FootprintArgs {
    /// MovingAI `.map` file (else a generated map).
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// Generated map, `WIDTHxHEIGHT[:DENSITY]`.
    #[arg(long, default_value = "48x48:0.1")]
    pub generate: String,
    /// Units, at seeded random starts and goals where their bodies fit.
    #[arg(long, default_value_t = 60)]
    pub units: usize,
    /// Share of units with a 2×2 body.
    #[arg(long, default_value_t = 0.25)]
    pub large: f64,
    /// Share of units taking 3 ticks a step.
    #[arg(long, default_value_t = 0.25)]
    pub slow: f64,
    /// Give every unit two curved quarter turns besides its steps.
    #[arg(long)]
    pub curves: bool,
    /// 4 or 8.
    #[arg(long, default_value_t = 4)]
    pub connectivity: u32,
    /// Window of the cooperative search, in ticks.
    #[arg(long, default_value_t = 16)]
    pub window: u32,
    /// Ticks to run at most.
    #[arg(long, default_value_t = 500)]
    pub max_ticks: u32,
    /// Seed of the map and the units.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs; prints a summary. Returns whether the validator found nothing.
pub fn run(args: &FootprintArgs) -> Result<bool, CliError> {
    super::limits::check_footprints(args)?;
    let conn = parse_connectivity(args.connectivity)?;
    for (name, share) in [("--large", args.large), ("--slow", args.slow)] {
        if !(0.0..=1.0).contains(&share) {
            return Err(CliError::Usage(format!(
                "{name} must lie in 0..=1, not {share}"
            )));
        }
    }
    let grid = Arc::new(match &args.map {
        Some(path) => read_map(path, conn)?,
        None => generate_map(args.generate.parse::<GeneratorSpec>()?, conn, args.seed),
    });
    // Evenly spread shares: unit i is picked when the running share passes
    // a whole number; the slow ones half a period later than the large
    // ones, so that with equal shares they are different units.
    let pick = |i: usize, share: f64, phase: f64| {
        ((i + 1) as f64 * share + phase).floor() > (i as f64 * share + phase).floor()
    };
    let shapes: Vec<UnitShape> = (0..args.units)
        .map(|i| UnitShape {
            size: if pick(i, args.large, 0.0) { 2 } else { 1 },
            ticks_per_move: if pick(i, args.slow, 0.5) { 3 } else { 1 },
        })
        .collect();
    let units = random_units(&grid, &shapes, args.seed);
    if units.len() < args.units {
        return Err(CliError::Usage(format!(
            "only {} of {} units fit on the map",
            units.len(),
            args.units
        )));
    }
    let curves = args.curves;
    let extra = move |s: UnitShape| {
        if curves {
            vec![
                Action::curve(s, &[(1, 0), (2, 1)]),
                Action::curve(s, &[(0, 1), (-1, 2)]),
            ]
        } else {
            Vec::new()
        }
    };
    let t0 = Instant::now();
    let mut planner = FootprintPlanner::new(grid.clone(), units, args.window, &extra)
        .map_err(|e| CliError::Other(e.to_string()))?;
    planner.run(args.max_ticks);
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let n = planner.units().len();
    let sets: Vec<_> = (0..n).map(|i| planner.action_set(i)).collect();
    let starts: Vec<_> = planner.units().iter().map(|u| u.start).collect();
    let logs: Vec<&[PlannedAction]> = (0..n).map(|i| planner.log(i)).collect();
    let violations = validate_footprints(&grid, &sets, &starts, &logs);
    let home = (0..n)
        .filter(|&i| planner.position(i) == planner.units()[i].goal)
        .count();
    let large = shapes.iter().filter(|s| s.size > 1).count();
    let slow = shapes.iter().filter(|s| s.ticks_per_move > 1).count();
    let both = shapes
        .iter()
        .filter(|s| s.size > 1 && s.ticks_per_move > 1)
        .count();
    println!(
        "footprints: {n} units ({large} 2x2, {slow} slow, {both} both{}), {}x{} map, window {}",
        if curves { ", curved turns" } else { "" },
        grid.width(),
        grid.height(),
        args.window
    );
    println!(
        "home {home}/{n} after {} ticks; searches {} ({} failed); {:.1} ms in all",
        planner.now(),
        planner.searches,
        planner.failed_searches,
        ms
    );
    println!("footprint violations: {}", violations.len());
    for v in violations.iter().take(5) {
        println!("  {v:?}");
    }
    Ok(violations.is_empty())
}
