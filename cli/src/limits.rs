//! The ranges `throng run` accepts, checked before anything is planned or
//! allocated. Every out-of-range value is a usage error (exit status 2) that
//! names the flag, the value and the range; a setting read from a profile
//! is named the same way, since profile keys are the flags' names.
//!
//! The ranges keep every run's memory and time proportional to what it
//! asks for, and [`check_memory`] bounds what the engine allocates up front
//! (reservation table, plan storage, executed trajectories, search scratch)
//! for the loaded map and units.

use std::ops::RangeInclusive;

use throng::engine::SimConfig;
use throng::map::{GeneratorSpec, Grid, Instance};
use throng::planner::PlannerKind;
use throng::reservation::ReservationTable;

use super::error::CliError;
use super::run::{parse_connectivity, RunArgs};

/// WHCA* and CO-WHCA* windows, in ticks. A window is how far ahead a unit
/// reserves before it replans, halfway through; Silver's experiments use 8
/// to 32, and beyond a few hundred ticks a window only plans moves that
/// will be replanned long before they happen. Memory grows with it (each
/// search thread keeps scratch for a window's nodes, about 36 KiB per tick
/// of window), so 1024 is the most a run may ask for. At least 2: a window
/// must cover the next move and the tick after it.
pub const WINDOW: RangeInclusive<u32> = 2..=1024;

/// Worker threads; 0 means one per core. Threads beyond the cores only add
/// scheduling and a copy of the search scratch each.
pub const THREADS: RangeInclusive<usize> = 0..=256;

/// Turn limit. Ten million ticks is days of game time at 30 ticks a second;
/// the executed trajectories grow with the ticks run, and the full-depth
/// planners (CA*, HCA*, CO-*) reserve up to the limit, so their memory
/// grows with it too (see [`check_memory`]). 0 runs no tick: the map,
/// the starting units and tick 0 of a trace are written all the same.
pub const MAX_TICKS: RangeInclusive<u32> = 0..=10_000_000;

/// Units. The largest crowd the project runs is 10,000; a million is far
/// beyond what any planner here moves in a tick, and well inside what a
/// reservation slot can name. 0 is a live world whose units all come from
/// an event script or a generated load.
pub const AGENTS: RangeInclusive<usize> = 0..=1_000_000;

/// Share of the units of one kind in a mixed crowd (`--large`, `--huge`,
/// `--slow`); together they are at most the whole crowd, the rest being
/// one-cell units.
pub const FRACTION: RangeInclusive<f64> = 0.0..=1.0;

/// Ticks a cell of the `--slow` units: the engine's range of paces (a
/// slower unit's step outlasts most windows).
pub const PACE: RangeInclusive<u32> = 1..=throng::units::MAX_PACE as u32;

/// Wall-clock planning budget per tick, microseconds: up to one minute. (The
/// budget is turned into a deadline; a huge one would overflow the clock.)
pub const BUDGET_US: RangeInclusive<u64> = 1..=60_000_000;

/// A game frame's length, milliseconds (`--frame-ms`): up to a minute.
pub const FRAME_MS: RangeInclusive<f64> = 0.001..=60_000.0;

/// Node-expansion budget per tick.
pub const BUDGET_NODES: RangeInclusive<u64> = 1..=1_000_000_000_000;

/// Optimal solvers' time limit, milliseconds: up to one day.
pub const TIME_LIMIT_MS: RangeInclusive<u64> = 1..=86_400_000;

/// Optimal solvers' node limit per search.
pub const NODE_LIMIT: RangeInclusive<u64> = 1..=1_000_000_000_000;

/// Most memory a run may allocate up front, as [`check_memory`] estimates it:
/// 4 GiB, thirty times what the 10,000-unit stress profile needs. Raise it
/// here for larger machines.
pub const MEMORY_BUDGET: u64 = 4 << 30;

/// Search scratch one worker keeps per tick of window (measured on WHCA*
/// runs: 256 ticks of window cost about 9 MiB a thread, 1024 about 37 MiB).
const SCRATCH_BYTES_PER_WINDOW_TICK: u64 = 40 << 10;

fn in_range<T>(flag: &str, value: Option<T>, range: &RangeInclusive<T>) -> Result<(), CliError>
where
    T: PartialOrd + std::fmt::Display,
{
    match value {
        Some(v) if !range.contains(&v) => Err(CliError::Usage(format!(
            "--{flag} {v} is out of range: expected {}..={}",
            range.start(),
            range.end()
        ))),
        _ => Ok(()),
    }
}

/// Checks every setting of `throng run` (after the profile is merged in)
/// against its range: window, threads, turn limit, units, generated map
/// size, budgets and limits, connectivity.
pub fn check(args: &RunArgs) -> Result<(), CliError> {
    in_range("window", args.window, &WINDOW)?;
    in_range("threads", args.threads, &THREADS)?;
    in_range("max-ticks", args.max_ticks, &MAX_TICKS)?;
    in_range("units", args.units, &AGENTS)?;
    in_range("budget-us", args.budget_us, &BUDGET_US)?;
    in_range("frame-ms", args.frame_ms, &FRAME_MS)?;
    in_range("budget-nodes", args.budget_nodes, &BUDGET_NODES)?;
    in_range("time-limit-ms", args.time_limit_ms, &TIME_LIMIT_MS)?;
    in_range("node-limit", args.node_limit, &NODE_LIMIT)?;
    if let Some(n) = args.connectivity {
        parse_connectivity(n)?;
    }
    check_crowd(args)?;
    if let Some(text) = &args.generate {
        // The spec's own error gives the value and the allowed sizes
        // (at most `MAX_GENERATED_CELLS` cells) and densities.
        let spec: GeneratorSpec = text
            .parse()
            .map_err(|e| CliError::Usage(format!("--generate: {e}")))?;
        let cells = spec.width as u64 * spec.height as u64;
        if let Some(n) = args.units {
            if n as u64 > cells {
                return Err(CliError::Usage(format!(
                    "--units {n} is out of range: a {}x{} map has {cells} cells",
                    spec.width, spec.height
                )));
            }
        }
    }
    Ok(())
}

/// Checks the mixed crowd's settings: each share in 0..=1 and all of them
/// together at most 1, the pace in range, and `--pace` and `--curves` only
/// beside a share they apply to.
fn check_crowd(args: &RunArgs) -> Result<(), CliError> {
    let shares = [
        ("large", args.large),
        ("huge", args.huge),
        ("slow", args.slow),
    ];
    for (flag, share) in shares {
        if share.is_some_and(|f| !FRACTION.contains(&f)) {
            return Err(CliError::Usage(format!(
                "--{flag} {} is out of range: expected 0..=1, a share of the units",
                share.unwrap_or_default()
            )));
        }
    }
    let given: Vec<(&str, f64)> = shares
        .iter()
        .filter_map(|&(flag, share)| share.map(|f| (flag, f)))
        .collect();
    let sum: f64 = given.iter().map(|&(_, f)| f).sum();
    // A little slack for shares written as decimals (0.7 + 0.2 + 0.1).
    if sum > 1.0 + 1e-9 {
        let terms: Vec<String> = given
            .iter()
            .map(|(flag, f)| format!("--{flag} {f}"))
            .collect();
        return Err(CliError::Usage(format!(
            "{} add up to {sum}: the shares of the units with a kind must add up to at most 1",
            terms.join(" + ")
        )));
    }
    in_range("pace", args.pace, &PACE)?;
    if given.is_empty() {
        if args.pace.is_some() {
            return Err(CliError::Usage(
                "--pace is the pace of the --slow units: give --slow too".into(),
            ));
        }
        if args.curves == Some(true) {
            return Err(CliError::Usage(
                "--curves turns on curves for the --large, --huge and --slow units: give one of them too"
                    .into(),
            ));
        }
    }
    Ok(())
}

/// Bytes the engine allocates up front for `instance` under `config`, or as
/// the run goes at most: the reservation table, each unit's plan storage
/// (one cell per tick of horizon), the executed trajectories if a plan file
/// is written (one cell per unit and tick, if the run takes all its ticks)
/// and, for WHCA*, each
/// worker's search scratch. Saturating: never wraps.
pub fn estimated_bytes(config: &SimConfig, instance: &Instance) -> u64 {
    estimated_bytes_for(config, &instance.grid, instance.len(), instance.len() * 2)
}

/// [`estimated_bytes`] for `units` units on `grid` whose reservations take
/// up to `claims_per_tick` table slots a tick (two per one-cell unit, more
/// for larger or slower ones: see [`throng::engine::claims_of`]).
pub fn estimated_bytes_for(
    config: &SimConfig,
    grid: &Grid,
    units: usize,
    claims_per_tick: usize,
) -> u64 {
    let units = units as u64;
    let horizon = config.planner.horizon(config.max_ticks);
    let cells = u32::try_from(grid.cell_count()).unwrap_or(u32::MAX);
    let table = ReservationTable::memory_for(cells, grid.width(), horizon, claims_per_tick);
    let cell = std::mem::size_of::<throng::map::Cell>() as u64;
    let plans = units.saturating_mul(horizon as u64).saturating_mul(cell);
    // Kept only for a plan file (`--out`).
    let trajectory = if config.history == throng::engine::History::Full {
        units
            .saturating_mul(config.max_ticks as u64 + 1)
            .saturating_mul(cell)
    } else {
        0
    };
    let scratch = match config.planner {
        PlannerKind::Whca { window } => {
            let workers = match config.threads {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                n => n,
            } as u64;
            workers
                .saturating_mul(window as u64)
                .saturating_mul(SCRATCH_BYTES_PER_WINDOW_TICK)
        }
        _ => 0,
    };
    table
        .saturating_add(plans)
        .saturating_add(trajectory)
        .saturating_add(scratch)
}

/// Checks the run's memory estimate ([`estimated_bytes`]) against
/// [`MEMORY_BUDGET`]; the error says which settings drive it.
pub fn check_memory(config: &SimConfig, instance: &Instance) -> Result<(), CliError> {
    check_memory_for(config, &instance.grid, instance.len(), instance.len() * 2)
}

/// [`check_memory`] for `units` units taking up to `claims_per_tick`
/// table slots a tick (see [`estimated_bytes_for`]).
pub fn check_memory_for(
    config: &SimConfig,
    grid: &Grid,
    units: usize,
    claims_per_tick: usize,
) -> Result<(), CliError> {
    let bytes = estimated_bytes_for(config, grid, units, claims_per_tick);
    if bytes <= MEMORY_BUDGET {
        return Ok(());
    }
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    Err(CliError::Usage(format!(
        "{} with {} units on a {}x{} map for --max-ticks {} would need about {:.1} GiB \
         (at most {:.0} GiB): lower --max-ticks, --units, --window or --threads",
        config.planner.label(),
        units,
        grid.width(),
        grid.height(),
        config.max_ticks,
        gib(bytes),
        gib(MEMORY_BUDGET),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> RunArgs {
        RunArgs::default()
    }

    #[test]
    fn defaults_pass_and_each_range_names_its_flag() {
        check(&args()).unwrap();
        let cases: [(RunArgs, &str); 6] = [
            (
                RunArgs {
                    window: Some(u32::MAX),
                    ..args()
                },
                "--window 4294967295 is out of range: expected 2..=1024",
            ),
            (
                RunArgs {
                    threads: Some(100_000),
                    ..args()
                },
                "--threads 100000 is out of range: expected 0..=256",
            ),
            (
                RunArgs {
                    max_ticks: Some(u32::MAX),
                    ..args()
                },
                "--max-ticks 4294967295 is out of range: expected 0..=10000000",
            ),
            (
                RunArgs {
                    budget_us: Some(u64::MAX),
                    ..args()
                },
                "--budget-us 18446744073709551615 is out of range",
            ),
            (
                RunArgs {
                    generate: Some("100000x100000".into()),
                    ..args()
                },
                "--generate: generator spec `100000x100000`: 100000x100000 is out of range",
            ),
            (
                RunArgs {
                    generate: Some("4x4".into()),
                    units: Some(17),
                    ..args()
                },
                "--units 17 is out of range: a 4x4 map has 16 cells",
            ),
        ];
        for (a, needle) in cases {
            let e = check(&a).unwrap_err().to_string();
            assert!(e.contains(needle), "expected `{needle}` in `{e}`");
        }
    }

    #[test]
    fn crowd_shares_are_each_a_fraction_and_together_at_most_one() {
        let crowd = |large, huge, slow| RunArgs {
            large,
            huge,
            slow,
            ..args()
        };
        check(&crowd(Some(0.7), Some(0.2), Some(0.1))).unwrap();
        check(&crowd(Some(1.0), None, Some(0.0))).unwrap();
        for (a, needle) in [
            (crowd(Some(1.01), None, None), "--large 1.01 is out of range: expected 0..=1"),
            (crowd(None, Some(f64::INFINITY), None), "--huge inf is out of range"),
            (
                crowd(Some(0.5), None, Some(0.6)),
                "--large 0.5 + --slow 0.6 add up to 1.1: the shares of the units with a kind must add up to at most 1",
            ),
        ] {
            let e = check(&a).unwrap_err().to_string();
            assert!(e.contains(needle), "expected `{needle}` in `{e}`");
        }
    }
}
