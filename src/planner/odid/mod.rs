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
pub use outcome::{SolveOutcome, SolveStatus};
pub use path_table::PathTable;
pub use problem::{lower_bound, moves_conflict, plan_cost, step_cost};
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
