//! The measures of Silver's experiments and the engine's timings, computed
//! from the executed trajectories.

use crate::map::{Cell, Grid};

/// Everything a run reports; `--summary-json` writes it as one JSON object.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RunSummary {
    /// Planner name.
    pub planner: String,
    /// Units.
    pub units: usize,
    /// Units that reached their goal within the turn limit.
    pub reached: usize,
    /// `reached / units`.
    pub success_rate: f64,
    /// Units standing on their goal at the end.
    pub at_goal_at_end: usize,
    /// Sum over units of the tick after which each stays on its goal (the run's
    /// length for units that end elsewhere).
    pub soc: u64,
    /// Largest such tick.
    pub makespan: u64,
    /// Mean turns until a unit first reached its goal (units that reached it).
    pub mean_path_len: f64,
    /// Mean shortest-path length of the same units, ignoring the others.
    pub lower_bound_path_len: f64,
    /// Mean number of revisits of an already visited cell per unit.
    pub cycles_per_agent: f64,
    /// Rule violations found by the validator in the executed plan (must be 0).
    pub collisions: usize,
    /// Units whose goal is in another region than their start.
    pub unreachable: usize,
    /// Ticks run.
    pub ticks: u32,
    /// Worker threads.
    pub threads: usize,
    /// Time to plan every unit before the first tick, ms (0 when units are
    /// planned within the ticks' budget instead).
    pub init_ms: f64,
    /// Time the planner took to get ready when the simulation was created
    /// (distance tables shared by goals, landmarks of large maps), ms.
    pub setup_ms: f64,
    /// Time of all ticks (whole steps: calls applied, planning, moves,
    /// checks), ms.
    pub plan_ms_total: f64,
    /// Mean time per tick, ms.
    pub tick_ms_mean: f64,
    /// 99th percentile of a tick's time (the whole step), ms.
    pub tick_ms_p99: f64,
    /// 99.9th percentile of a tick's time, ms.
    pub tick_ms_p999: f64,
    /// Ticks by time: each entry the upper bound of its bin in ms (the last
    /// one infinite, written as -1) and how many ticks fell in it.
    pub tick_ms_histogram: Vec<(f64, u64)>,
    /// Worst time of a tick, ms.
    pub tick_ms_max: f64,
    /// Ticks that went over the wall-clock budget.
    pub budget_overruns: usize,
    /// Worst excess over the budget, ms.
    pub worst_overrun_ms: f64,
    /// Due searches moved to a later tick for lack of budget.
    pub carried_over: u64,
    /// Searches re-run because an earlier commit of their batch took their path.
    pub commit_conflicts: u64,
    /// Peak resident memory of the process, MiB (0 where unknown).
    pub peak_memory_mb: f64,
    /// Optimal solvers: whether an optimal plan was found within the limits.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub solved: Option<bool>,
    /// Optimal solvers: units in the largest independent group.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub largest_group: Option<usize>,
    /// Searches run, initial planning included.
    pub searches: u64,
    /// Of those, the searches run in map tiles (no serial commit).
    pub tiled_searches: u64,
    /// Searches that failed (unit kept its old plan).
    pub failed_searches: u64,
    /// Space-time nodes expanded.
    pub expanded: u64,
    /// True-distance nodes expanded.
    pub heuristic_expanded: u64,
    /// True-distance searches restarted because they grew too large.
    pub heuristic_restarts: u64,
    /// Promoted searches (Silver's unit priorities) and how many of their
    /// plans were kept.
    pub promotions: u64,
    /// See [`RunSummary::promotions`].
    pub promotions_kept: u64,
    /// Promotions undone because a unit in the way found no other plan.
    pub promotions_rolled_back: u64,
    /// Joint repairs of units stuck together tried, and how many were kept.
    pub repairs: u64,
    /// See [`RunSummary::repairs`].
    pub repairs_kept: u64,
    /// Ways cleared for stalled units with footprints tried, and how many
    /// were kept.
    pub way_clearings: u64,
    /// See [`RunSummary::way_clearings`].
    pub way_clearings_kept: u64,
    /// Stalled units given distances around the units on their way: bodies
    /// after a way clearing failed, one-cell units after joint repairs
    /// kept failing.
    pub detours: u64,
    /// Units with footprints pulled over for a stalled body that could
    /// neither have its way cleared nor walk around.
    pub pull_overs: u64,
    /// Shoves tried by one-cell units stuck for long (a step pushing a
    /// chain of standing units one cell each into a free cell), and how
    /// many moved.
    pub shoves: u64,
    /// See [`RunSummary::shoves`].
    pub shoves_kept: u64,
    /// Bodies' plans through one-cell units' reservations (a body has
    /// right of way over one-cell units of no higher priority), how many
    /// were kept by moving those units, and the units moved.
    pub right_of_way: u64,
    /// See [`RunSummary::right_of_way`].
    pub right_of_way_kept: u64,
    /// See [`RunSummary::right_of_way`].
    pub right_of_way_moved: u64,
    /// How many events of each kind (spawned, arrived, stuck, ...).
    pub events: std::collections::BTreeMap<String, u64>,
    /// Living units in each state at the end (moving, arrived, ...).
    pub states: std::collections::BTreeMap<String, u64>,
}

/// Percentile `p` (0..=100) of `values` by nearest rank.
pub fn percentile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

/// Revisits per unit in `trajectory` (tick-major, `n` units per tick): a cycle
/// is counted each time a unit moves onto a cell it stood on before.
pub fn count_cycles(grid: &Grid, trajectory: &[Cell], n: usize) -> u64 {
    if n == 0 {
        return 0;
    }
    let ticks = trajectory.len() / n;
    let mut seen = vec![u32::MAX; grid.cell_count()];
    let mut cycles = 0u64;
    for a in 0..n {
        let stamp = a as u32;
        let mut prev = None;
        for t in 0..ticks {
            let c = trajectory[t * n + a];
            if prev != Some(c) {
                if seen[c.index()] == stamp {
                    cycles += 1;
                }
                seen[c.index()] = stamp;
            }
            prev = Some(c);
        }
    }
    cycles
}

/// Sum of costs and makespan: for each unit the tick after which it stays on
/// its goal, or the last tick if it ends elsewhere.
pub fn soc_and_makespan(trajectory: &[Cell], goals: &[Cell]) -> (u64, u64) {
    let n = goals.len();
    if n == 0 {
        return (0, 0);
    }
    let ticks = trajectory.len() / n;
    let mut soc = 0u64;
    let mut makespan = 0u64;
    for (a, &goal) in goals.iter().enumerate() {
        let mut arrive = 0usize;
        for t in (0..ticks).rev() {
            if trajectory[t * n + a] != goal {
                arrive = t + 1;
                break;
            }
        }
        let cost = arrive.min(ticks.saturating_sub(1)) as u64;
        soc += cost;
        makespan = makespan.max(cost);
    }
    (soc, makespan)
}

/// Peak resident set size of this process in MiB, from `/proc/self/status`
/// (0 where that is not available).
pub fn peak_memory_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}
