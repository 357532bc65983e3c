//! What a solve returns, solved or not.

use std::time::Duration;

use crate::io::PlanFile;
use crate::map::{Cell, Grid, Instance};

use super::stats::SearchStats;

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveStatus {
    /// An optimal plan was found.
    Solved,
    /// The wall-time limit passed first.
    TimeLimit,
    /// A search needed more nodes than the node limit.
    NodeLimit,
    /// The search space was exhausted: no plan exists.
    NoSolution,
}

impl SolveStatus {
    /// A short lowercase name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Solved => "solved",
            Self::TimeLimit => "time-limit",
            Self::NodeLimit => "node-limit",
            Self::NoSolution => "no-solution",
        }
    }
}

/// The result of [`solve`](super::solve).
#[derive(Clone, Debug)]
pub struct SolveOutcome {
    /// How the solve ended.
    pub status: SolveStatus,
    /// `paths[i][t]`: unit `i` at tick `t`, all padded to one length with the
    /// goal; `None` unless solved.
    pub paths: Option<Vec<Vec<Cell>>>,
    /// The seed's cost (sum over ticks of units not waiting on their goal).
    pub cost: Option<u64>,
    /// Search work.
    pub stats: SearchStats,
    /// The independent groups (final if solved, found so far if not); one group
    /// of every unit for the algorithms without ID.
    pub groups: Vec<Vec<usize>>,
    /// Size of the largest group.
    pub largest_group: usize,
    /// Wall time of the solve.
    pub elapsed: Duration,
    /// Time on the limit's clock (thread CPU time under [`Clock::ThreadCpu`](super::Clock)).
    pub used: Duration,
}

impl SolveOutcome {
    /// Whether a plan was found.
    pub fn is_solved(&self) -> bool {
        self.status == SolveStatus::Solved
    }

    /// The plan as rows of `(x, y)` per tick, the validator's and plan file's layout.
    pub fn steps(&self, grid: &Grid) -> Option<Vec<Vec<(u32, u32)>>> {
        let paths = self.paths.as_ref()?;
        let ticks = paths.first().map_or(0, Vec::len);
        Some(
            (0..ticks)
                .map(|t| paths.iter().map(|p| grid.xy(p[t])).collect())
                .collect(),
        )
    }

    /// The plan in the mapf-visualizer layout, with `soc` the seed's cost;
    /// `None` unless solved.
    pub fn to_plan_file(&self, instance: &Instance, solver: &str) -> Option<PlanFile> {
        let grid = &instance.grid;
        let paths = self.paths.as_ref()?;
        let makespan = paths
            .iter()
            .zip(&instance.goals)
            .map(|(p, g)| p.iter().rposition(|c| c != g).map_or(0, |i| i + 1))
            .max()
            .unwrap_or(0);
        Some(PlanFile {
            map_file: instance.map_name.clone(),
            solver: solver.to_string(),
            solved: true,
            soc: self.cost?,
            makespan: makespan as u64,
            comp_time_ms: self.elapsed.as_secs_f64() * 1e3,
            starts: instance.starts.iter().map(|&c| grid.xy(c)).collect(),
            goals: instance.goals.iter().map(|&c| grid.xy(c)).collect(),
            steps: self.steps(grid)?,
        })
    }
}
