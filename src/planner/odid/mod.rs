//! Standley's optimal solver (AAAI 2010): A* with operator decomposition (OD)
//! and independence detection (ID), plus the standard joint-move A* it
//! improves on. An offline planner: it returns a minimum-cost plan, or reports
//! cleanly that a limit passed first.
//!
//! ```
//! use std::sync::Arc;
//! use throng::map::{Connectivity, Grid};
//! use throng::map::Instance;
//! use throng::planner::odid::{solve, Limits, OptimalAlgorithm};
//!
//! let grid = Arc::new(Grid::new(3, 2, vec![true; 6], Connectivity::Four));
//! let instance = Instance {
//!     starts: vec![grid.cell(0, 0), grid.cell(2, 0)],
//!     goals: vec![grid.cell(2, 0), grid.cell(0, 0)],
//!     grid,
//!     map_name: "doc".into(),
//! };
//! let out = solve(&instance, OptimalAlgorithm::OdId, &Limits::none()).unwrap();
//! assert!(out.is_solved());
//! assert_eq!(out.cost, Some(6));
//! ```

mod bans;
mod error;
mod frontier;
mod heuristic;
mod history;
mod independence;
mod joint_astar;
mod limits;
mod moves;
mod od;
mod outcome;
mod path_table;
mod problem;
mod split;
mod stats;

use std::time::Instant;

pub use error::OdidError;
pub use heuristic::{DistanceTable, UNREACHABLE};
pub use limits::{thread_cpu_time, Clock, Limits, Stop};
pub use moves::moves_conflict;
pub use outcome::{SolveOutcome, SolveStatus};
pub use path_table::PathTable;
pub use problem::{lower_bound, plan_cost, step_cost};
pub use stats::SearchStats;

use crate::map::{Cell, Instance};

use independence::{independence_detection, IdFailure, IdInput, IdMode, LowLevel};
use limits::Budget;
use problem::{GroupPlan, GroupProblem};
use split::SplitLimits;

/// Which optimal algorithm [`solve`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptimalAlgorithm {
    /// The standard admissible algorithm: joint moves of all units at once.
    AStarJoint,
    /// A* with operator decomposition on all units together.
    Od,
    /// OD inside simple independence detection (the seed's algorithm 1).
    OdSimpleId,
    /// OD inside full independence detection (the seed's algorithm 2): OD+ID.
    OdId,
    /// The joint A* inside full independence detection.
    AStarJointId,
    /// OD+ID where a merge first searches a constraint tree over the two
    /// merged groups, each replanned by OD (beyond the seed; see `split`).
    OdIdSplit,
}

impl OptimalAlgorithm {
    /// Every algorithm, in the order above.
    pub const ALL: [OptimalAlgorithm; 6] = [
        Self::AStarJoint,
        Self::Od,
        Self::OdSimpleId,
        Self::OdId,
        Self::AStarJointId,
        Self::OdIdSplit,
    ];

    /// The command-line name (`astar-joint`, `od`, `od-sid`, `odid`,
    /// `astar-joint-id`, `odid-split`).
    pub fn name(self) -> &'static str {
        match self {
            Self::AStarJoint => "astar-joint",
            Self::Od => "od",
            Self::OdSimpleId => "od-sid",
            Self::OdId => "odid",
            Self::AStarJointId => "astar-joint-id",
            Self::OdIdSplit => "odid-split",
        }
    }

    fn low_level(self) -> LowLevel {
        match self {
            Self::AStarJoint | Self::AStarJointId => joint_astar::search_joint,
            Self::Od | Self::OdSimpleId | Self::OdId | Self::OdIdSplit => od::search_od,
        }
    }

    fn id_mode(self) -> Option<IdMode> {
        match self {
            Self::AStarJoint | Self::Od => None,
            Self::OdSimpleId => Some(IdMode::Simple),
            Self::OdId | Self::AStarJointId | Self::OdIdSplit => Some(IdMode::Full),
        }
    }
}

impl std::str::FromStr for OptimalAlgorithm {
    type Err = OdidError;

    fn from_str(s: &str) -> Result<Self, OdidError> {
        Self::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| OdidError::UnknownAlgorithm(s.to_string()))
    }
}

impl std::fmt::Display for OptimalAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Per-unit paths or why none, with the groups found.
type Attempt = (Result<Vec<Vec<Cell>>, IdFailure>, Vec<Vec<usize>>);

/// Checks that the instance is well formed and every goal is reachable.
fn check(instance: &Instance) -> Result<(), OdidError> {
    if instance.starts.len() != instance.goals.len() {
        return Err(OdidError::Mismatch {
            starts: instance.starts.len(),
            goals: instance.goals.len(),
        });
    }
    let grid = &instance.grid;
    for (unit, (&s, &g)) in instance.starts.iter().zip(&instance.goals).enumerate() {
        let on_map = |c: Cell| c.index() < grid.cell_count() && grid.is_passable(c);
        if !on_map(s) || !on_map(g) {
            return Err(OdidError::Blocked { unit });
        }
    }
    instance
        .check_distinct()
        .map_err(|(unit, message)| OdidError::NotDistinct { unit, message })?;
    if let Some(&unit) = instance.unreachable_units().first() {
        return Err(OdidError::Unreachable { unit });
    }
    Ok(())
}

/// Finds a minimum-cost plan for `instance` with `algorithm`, within `limits`.
///
/// Errors only for a malformed instance (shared starts or goals, blocked or
/// unreachable goals); a limit passing is a [`SolveOutcome`] with a status.
pub fn solve(
    instance: &Instance,
    algorithm: OptimalAlgorithm,
    limits: &Limits,
) -> Result<SolveOutcome, OdidError> {
    solve_with(instance, algorithm, limits, SplitLimits::DEFAULT)
}

/// [`solve`] with the constraint tree's limits of `odid-split` given (tests
/// set them to reach every branch of it on small instances).
pub(crate) fn solve_with(
    instance: &Instance,
    algorithm: OptimalAlgorithm,
    limits: &Limits,
    split: SplitLimits,
) -> Result<SolveOutcome, OdidError> {
    let started = Instant::now();
    check(instance)?;
    let budget = Budget::start(limits, started);
    let grid = &*instance.grid;
    let dist: Vec<DistanceTable> = instance
        .goals
        .iter()
        .map(|&g| DistanceTable::new(grid, g))
        .collect();
    let mut stats = SearchStats::default();
    let n = instance.len();
    let low = algorithm.low_level();
    let (result, groups): Attempt = match algorithm.id_mode() {
        None => {
            let problem = GroupProblem {
                grid,
                starts: instance.starts.clone(),
                goals: instance.goals.clone(),
                dist: dist.iter().collect(),
                illegal: None,
                avoid: None,
                cost_limit: None,
                floor: 0,
                merged: None,
                bans: None,
            };
            let r = match low(&problem, &budget, &mut stats) {
                Ok(Some(GroupPlan { paths, .. })) => Ok(paths),
                Ok(None) => Err(IdFailure::NoSolution),
                Err(stop) => Err(IdFailure::Stopped(stop)),
            };
            (r, vec![(0..n).collect()])
        }
        Some(mode) => {
            let input = IdInput {
                grid,
                starts: &instance.starts,
                goals: &instance.goals,
                dist: &dist,
                low,
                mode,
                split: (algorithm == OptimalAlgorithm::OdIdSplit).then_some(split),
            };
            match independence_detection(&input, &budget, &mut stats) {
                Ok(found) => {
                    let mut paths = vec![Vec::new(); n];
                    for g in &found {
                        for (i, &u) in g.units.iter().enumerate() {
                            paths[u] = g.plan.paths[i].clone();
                        }
                    }
                    let groups = found.into_iter().map(|g| g.units).collect();
                    (Ok(paths), groups)
                }
                Err((failure, groups)) => (Err(failure), groups),
            }
        }
    };
    let largest_group = groups.iter().map(Vec::len).max().unwrap_or(0);
    let (status, paths) = match result {
        Ok(mut paths) => {
            let ticks = paths.iter().map(Vec::len).max().unwrap_or(1);
            for (p, &g) in paths.iter_mut().zip(&instance.goals) {
                p.resize(ticks, g);
            }
            (SolveStatus::Solved, Some(paths))
        }
        Err(IdFailure::NoSolution) => (SolveStatus::NoSolution, None),
        Err(IdFailure::Stopped(Stop::Time)) => (SolveStatus::TimeLimit, None),
        Err(IdFailure::Stopped(Stop::Nodes)) => (SolveStatus::NodeLimit, None),
    };
    let cost = paths.as_ref().map(|p| plan_cost(p, &instance.goals));
    Ok(SolveOutcome {
        status,
        paths,
        cost,
        stats,
        groups,
        largest_group,
        elapsed: started.elapsed(),
        used: budget.used(),
    })
}

/// What [`plan_group_around`] keeps between calls, so that a planner
/// running many small joint searches allocates nothing once warm.
#[derive(Default)]
pub(crate) struct GroupMemory {
    dist: Vec<DistanceTable>,
    /// The problem's references to `dist`, kept empty between calls for
    /// their memory (see [`recycle`]).
    dist_refs: Vec<&'static DistanceTable>,
    starts: Vec<Cell>,
    goals: Vec<Cell>,
    queue: Vec<Cell>,
    od: od::OdMemory,
    /// The last plan found: per unit of the group (the first entries),
    /// its cell at each tick.
    pub paths: Vec<Vec<Cell>>,
}

/// The memory of an emptied vector of references, for references of
/// another lifetime: collecting a vector's own iterator into a vector of a
/// type of the same size reuses its buffer (the standard library does so
/// today without promising it; if it stopped, each repair would allocate
/// this one small vector again).
fn recycle<'a, 'b, T>(mut v: Vec<&'a T>) -> Vec<&'b T> {
    v.clear();
    v.into_iter().map(|_| -> &'b T { unreachable!() }).collect()
}

/// Plans one group of units jointly with OD on `grid`, from `starts` to
/// distinct `goals`, never conflicting with the paths in `around` (units
/// outside the group, as an illegal move table), storing at most
/// `max_nodes` nodes so that the work is bounded and the same on every
/// machine, and stopping at `deadline` if one is given (a tick's wall-clock
/// budget). Returns whether a plan was found (its paths, one cell per tick
/// and all the same length, are then in `memory.paths`), `Ok(false)` if
/// there is none, or the limit that stopped the search; and the nodes
/// expanded either way. A live planner's repair of a few units stuck
/// together (see WHCA*), not an offline solve: there is no independence
/// detection, the group is small.
pub(crate) fn plan_group_around(
    memory: &mut GroupMemory,
    grid: &crate::map::Grid,
    starts: &[Cell],
    goals: &[Cell],
    around: &PathTable,
    max_nodes: u64,
    deadline: Option<Instant>,
) -> (Result<bool, Stop>, u64) {
    if memory.dist.len() < goals.len() {
        memory.dist.resize_with(goals.len(), DistanceTable::empty);
    }
    for (table, &g) in memory.dist.iter_mut().zip(goals) {
        table.refill(grid, g, &mut memory.queue);
    }
    let mut dist = recycle(std::mem::take(&mut memory.dist_refs));
    dist.extend(&memory.dist[..goals.len()]);
    let mut starts_v = std::mem::take(&mut memory.starts);
    starts_v.clear();
    starts_v.extend_from_slice(starts);
    let mut goals_v = std::mem::take(&mut memory.goals);
    goals_v.clear();
    goals_v.extend_from_slice(goals);
    let problem = GroupProblem {
        grid,
        starts: starts_v,
        goals: goals_v,
        dist,
        illegal: Some(around),
        avoid: None,
        cost_limit: None,
        floor: 0,
        merged: None,
        bans: None,
    };
    let started = Instant::now();
    let limits = Limits {
        nodes: Some(max_nodes),
        time: deadline.map(|d| d.saturating_duration_since(started)),
        ..Limits::none()
    };
    let budget = Budget::start(&limits, started);
    let mut stats = SearchStats::default();
    let found = od::search_od_in(
        &problem,
        &budget,
        &mut stats,
        &mut memory.od,
        &mut memory.paths,
    );
    memory.starts = problem.starts;
    memory.goals = problem.goals;
    memory.dist_refs = recycle(problem.dist);
    (found.map(|cost| cost.is_some()), stats.expanded)
}

#[cfg(test)]
mod tests {
    //! OD+ID with and without the split merges: the same optimal costs.

    use std::sync::Arc;

    use super::*;
    use crate::map::{generate_map, random_instance, Connectivity, GeneratorSpec};
    use crate::validate::validate_steps;

    /// The cost of a solved outcome, after checking its plan.
    fn checked_cost(inst: &crate::map::Instance, out: &SolveOutcome) -> Option<u64> {
        if out.status == SolveStatus::NoSolution {
            return None;
        }
        assert!(out.is_solved(), "{:?}", out.status);
        let steps = out.steps(&inst.grid).expect("a plan");
        let starts: Vec<(u32, u32)> = inst.starts.iter().map(|&c| inst.grid.xy(c)).collect();
        let report = validate_steps(&inst.grid, &steps, &starts);
        assert!(report.is_valid(), "{}", report.summary());
        let paths = out.paths.as_ref().expect("paths");
        for (p, &g) in paths.iter().zip(&inst.goals) {
            assert_eq!(p.last(), Some(&g));
        }
        out.cost
    }

    #[test]
    fn merges_through_the_tree_keep_the_optimal_cost() {
        let from_two = SplitLimits {
            min_units: 2,
            ..SplitLimits::DEFAULT
        };
        // Every tree stops after its first split, so OD finishes each merge
        // from the tree's floor, under the bans of an enclosing tree too.
        let one_split = SplitLimits {
            max_nodes: 1,
            ..from_two
        };
        // No expansion allowance: a tree stops before its first split.
        let no_allowance = SplitLimits {
            min_expansions: 0,
            effort_factor: 0,
            ..from_two
        };
        let unbounded = SplitLimits {
            max_nodes: usize::MAX,
            min_expansions: u64::MAX,
            ..from_two
        };
        let configs = [
            SplitLimits::DEFAULT,
            from_two,
            one_split,
            no_allowance,
            unbounded,
        ];
        let (mut merged, mut big) = (0, 0);
        for seed in 0..120u64 {
            let side = 5 + (seed % 4) as u32;
            let eight = seed % 3 != 0;
            let spec = GeneratorSpec {
                width: side,
                height: side,
                density: 0.2,
            };
            let conn = if eight {
                Connectivity::Eight
            } else {
                Connectivity::Four
            };
            let grid = generate_map(spec, conn, seed).with_corner_cutting(eight);
            let units = 3 + (seed % 4) as usize;
            if grid.passable_count() < units + 4 {
                continue;
            }
            let Ok(inst) = random_instance(Arc::new(grid), units, seed) else {
                continue;
            };
            let limits = Limits::none();
            let reference = solve_with(&inst, OptimalAlgorithm::OdId, &limits, from_two)
                .expect("valid instance");
            let cost = checked_cost(&inst, &reference);
            for config in configs {
                let out = solve_with(&inst, OptimalAlgorithm::OdIdSplit, &limits, config)
                    .expect("valid instance");
                assert_eq!(checked_cost(&inst, &out), cost, "seed {seed}, {config:?}");
                merged += usize::from(out.largest_group >= 2);
                big += usize::from(out.largest_group >= 3);
            }
        }
        // The trees were reached, nested ones too.
        assert!(merged > 100 && big > 50, "{merged} {big}");
    }
}
