//! Independence detection: plan each unit alone, and only search jointly for
//! groups whose paths actually conflict.
//!
//! Simple ID (the seed's algorithm 1) merges the two groups of the first
//! conflict and replans the merged group. Full ID (algorithm 2) first tries to
//! find another plan of the same cost for one group that avoids the other
//! group's moves (illegal move table), then for the other group, and merges
//! only when both fail or when the two groups have conflicted before. Every
//! search breaks ties towards the fewest conflicts with all other current
//! paths (conflict avoidance table).
//!
//! Beyond the seed: of all current conflicts, the one between the groups that
//! were cheapest to plan is resolved first, and the cheaper group is replanned
//! first; a merged group's search is bounded below by its merge history (every
//! group it came from was planned optimally alone); and a same-cost replan is
//! floored at that cost. None of this changes the optimal cost found.
//!
//! With `odid-split`, a merge and a same-cost replan of a merged group go
//! through [`plan_merge`] (a constraint tree over the group's two parts)
//! instead of OD on the whole group.

use std::rc::Rc;

use rustc_hash::FxHashSet;

use crate::map::{Cell, Grid};

use super::heuristic::DistanceTable;
use super::history::{History, Solved};
use super::limits::{Budget, Stop};
use super::moves::moves_conflict;
use super::path_table::PathTable;
use super::problem::{GroupPlan, GroupProblem, MergeBound};
use super::split::{plan_merge, MergeTask, SplitInput, SplitLimits};
use super::stats::SearchStats;

/// A low-level optimal search: OD or the joint A*.
pub(crate) type LowLevel =
    fn(&GroupProblem, &Budget, &mut SearchStats) -> Result<Option<GroupPlan>, Stop>;

/// Which independence detection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IdMode {
    /// The seed's algorithm 1.
    Simple,
    /// The seed's algorithm 2.
    Full,
}

/// A set of units planned together.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    id: u64,
    /// Unit ids, ascending.
    pub units: Vec<usize>,
    pub plan: GroupPlan,
    /// Expansions of the search that found the group's optimal cost.
    effort: u64,
    /// How the group was merged, with the optimal cost of every group on the way.
    history: History,
}

/// How an ID run ended without a plan.
#[derive(Clone, Debug)]
pub(crate) enum IdFailure {
    /// A limit passed.
    Stopped(Stop),
    /// A merged group has no plan at all.
    NoSolution,
}

/// The instance as ID sees it.
pub(crate) struct IdInput<'a> {
    pub grid: &'a Grid,
    pub starts: &'a [Cell],
    pub goals: &'a [Cell],
    pub dist: &'a [DistanceTable],
    pub low: LowLevel,
    pub mode: IdMode,
    /// Whether a merge first searches the constraint tree over its two parts
    /// ([`plan_merge`], OD only) before planning the merged group as one.
    pub split: Option<SplitLimits>,
}

impl IdInput<'_> {
    /// The instance as [`plan_merge`] sees it.
    fn split_input(&self) -> SplitInput<'_> {
        SplitInput {
            grid: self.grid,
            starts: self.starts,
            goals: self.goals,
            dist: self.dist,
        }
    }
}

/// Runs ID. On success returns the final groups; on failure the groups found
/// so far (as unit lists) and why.
pub(crate) fn independence_detection(
    input: &IdInput,
    budget: &Budget,
    stats: &mut SearchStats,
) -> Result<Vec<Group>, (IdFailure, Vec<Vec<usize>>)> {
    let mut state = IdState {
        input,
        budget,
        stats,
        groups: Vec::new(),
        avoid: (input.mode == IdMode::Full).then(|| PathTable::new(input.grid, input.starts.len())),
        next_id: 0,
        merging: None,
    };
    match state.run() {
        Ok(()) => Ok(state.groups),
        Err(f) => {
            let mut found: Vec<Vec<usize>> = state.groups.iter().map(|g| g.units.clone()).collect();
            found.extend(state.merging.take());
            let planned: usize = found.iter().map(Vec::len).sum();
            if planned < input.starts.len() {
                // Stopped while planning singletons: the rest are still alone.
                let seen: FxHashSet<usize> = found.iter().flatten().copied().collect();
                found.extend(
                    (0..input.starts.len())
                        .filter(|u| !seen.contains(u))
                        .map(|u| vec![u]),
                );
            }
            Err((f, found))
        }
    }
}

struct IdState<'a, 'b> {
    input: &'a IdInput<'a>,
    budget: &'a Budget,
    stats: &'b mut SearchStats,
    groups: Vec<Group>,
    /// Every current path (full ID only).
    avoid: Option<PathTable>,
    next_id: u64,
    /// The merged group being planned, so a stop mid-plan still reports it.
    merging: Option<Vec<usize>>,
}

impl IdState<'_, '_> {
    fn run(&mut self) -> Result<(), IdFailure> {
        for u in 0..self.input.starts.len() {
            let before = self.stats.expanded;
            let plan = self
                .plan(&[u], None, None, 0, None)?
                .ok_or(IdFailure::NoSolution)?;
            let effort = self.stats.expanded - before;
            self.add_group(vec![u], plan, effort, History::Unit(u));
        }
        let mut conflicted: FxHashSet<(u64, u64)> = FxHashSet::default();
        while let Some((a, b)) = self.next_conflict() {
            self.budget.check_time().map_err(IdFailure::Stopped)?;
            let pair = (
                self.groups[a].id.min(self.groups[b].id),
                self.groups[a].id.max(self.groups[b].id),
            );
            // The group that was cheaper to plan is replanned first.
            let (x, y) = if self.groups[a].effort <= self.groups[b].effort {
                (a, b)
            } else {
                (b, a)
            };
            let resolved = self.input.mode == IdMode::Full
                && conflicted.insert(pair)
                && (self.replan_around(x, y)? || self.replan_around(y, x)?);
            if !resolved {
                self.merge(a, b)?;
            }
        }
        Ok(())
    }

    fn add_group(&mut self, units: Vec<usize>, plan: GroupPlan, effort: u64, history: History) {
        if let Some(tab) = &mut self.avoid {
            for (i, &u) in units.iter().enumerate() {
                tab.add(u, &plan.paths[i]);
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        self.groups.push(Group {
            id,
            units,
            plan,
            effort,
            history,
        });
    }

    fn forget_paths(&mut self, units: &[usize]) {
        if let Some(tab) = &mut self.avoid {
            for &u in units {
                tab.remove(u);
            }
        }
    }

    /// Runs the low-level search for `units` with the conflict avoidance table
    /// (full ID), and optionally an illegal move table and a cost limit.
    fn plan(
        &mut self,
        units: &[usize],
        illegal: Option<&PathTable>,
        cost_limit: Option<u64>,
        floor: u64,
        merged: Option<MergeBound>,
    ) -> Result<Option<GroupPlan>, IdFailure> {
        let inp = self.input;
        let problem = GroupProblem {
            grid: inp.grid,
            starts: units.iter().map(|&u| inp.starts[u]).collect(),
            goals: units.iter().map(|&u| inp.goals[u]).collect(),
            dist: units.iter().map(|&u| &inp.dist[u]).collect(),
            illegal,
            avoid: self.avoid.as_ref(),
            cost_limit,
            floor,
            merged,
            bans: None,
        };
        (inp.low)(&problem, self.budget, self.stats).map_err(IdFailure::Stopped)
    }

    /// Tries a plan of the same cost for group `x` that avoids group `y`'s moves.
    fn replan_around(&mut self, x: usize, y: usize) -> Result<bool, IdFailure> {
        let mut illegal = PathTable::new(self.input.grid, self.input.starts.len());
        for (i, &u) in self.groups[y].units.iter().enumerate() {
            illegal.add(u, &self.groups[y].plan.paths[i]);
        }
        let units = self.groups[x].units.clone();
        self.forget_paths(&units);
        let cost = self.groups[x].plan.cost;
        // The merge-history bound still holds under the illegal move table.
        let merged = self.groups[x].history.bound(&units);
        let found = match (self.input.split, &self.groups[x].history) {
            (Some(limits), History::Merge(..)) => {
                let task = MergeTask {
                    history: &self.groups[x].history,
                    illegal: Some(&illegal),
                    floor: cost,
                    cost_limit: Some(cost),
                };
                Self::plan_split(
                    self.input,
                    self.avoid.as_mut(),
                    self.budget,
                    self.stats,
                    limits,
                    &task,
                )?
            }
            _ => self.plan(&units, Some(&illegal), Some(cost), cost, merged)?,
        };
        let ok = found.is_some();
        if let Some(plan) = found {
            debug_assert_eq!(plan.cost, self.groups[x].plan.cost);
            self.groups[x].plan = plan;
        }
        if let Some(tab) = &mut self.avoid {
            for (i, &u) in units.iter().enumerate() {
                tab.add(u, &self.groups[x].plan.paths[i]);
            }
        }
        Ok(ok)
    }

    /// Plans a merged group through the constraint tree over its two parts
    /// (`odid-split`). Takes the state's fields, not the state, so `task`
    /// may borrow its groups.
    fn plan_split(
        input: &IdInput<'_>,
        avoid: Option<&mut PathTable>,
        budget: &Budget,
        stats: &mut SearchStats,
        limits: SplitLimits,
        task: &MergeTask<'_>,
    ) -> Result<Option<GroupPlan>, IdFailure> {
        plan_merge(limits, &input.split_input(), task, avoid, budget, stats)
            .map_err(IdFailure::Stopped)
    }

    /// Merges groups `a` and `b` and plans the new group without a cost limit.
    fn merge(&mut self, a: usize, b: usize) -> Result<(), IdFailure> {
        let (hi, lo) = (a.max(b), a.min(b));
        let gh = self.groups.swap_remove(hi);
        let gl = self.groups.swap_remove(lo);
        let mut units: Vec<usize> = gl.units.iter().chain(&gh.units).copied().collect();
        units.sort_unstable();
        self.forget_paths(&units);
        self.merging = Some(units.clone());
        let before = self.stats.expanded;
        // Every group on the way to this one was planned optimally alone; a
        // merged part keeps its current plan, which is optimal too.
        let part = |g: Group| match g.history {
            History::Merge(a, b, _) => History::Merge(
                a,
                b,
                Some(Rc::new(Solved {
                    plan: g.plan,
                    effort: g.effort,
                })),
            ),
            unit => unit,
        };
        let history = History::Merge(Box::new(part(gl)), Box::new(part(gh)), None);
        let plan = if let Some(limits) = self.input.split {
            let task = MergeTask {
                history: &history,
                illegal: None,
                floor: 0,
                cost_limit: None,
            };
            Self::plan_split(
                self.input,
                self.avoid.as_mut(),
                self.budget,
                self.stats,
                limits,
                &task,
            )?
        } else {
            self.plan(&units, None, None, 0, history.bound(&units))?
        }
        .ok_or(IdFailure::NoSolution)?;
        let effort = self.stats.expanded - before;
        self.merging = None;
        let History::Merge(a, b, _) = history else {
            unreachable!("built as a merge above")
        };
        let history = History::Merge(
            a,
            b,
            Some(Rc::new(Solved {
                plan: plan.clone(),
                effort,
            })),
        );
        self.add_group(units, plan, effort, history);
        Ok(())
    }

    /// Simulates all paths and returns the two groups to resolve next: of all
    /// conflicting pairs, the one whose searches took the fewest expansions
    /// together (the earliest conflict among equals). Cheap conflicts go
    /// first, and their replans, steered by the conflict avoidance table, often
    /// remove the conflicts of the expensive groups before those are touched.
    fn next_conflict(&self) -> Option<(usize, usize)> {
        let grid = self.input.grid;
        let mut rows: Vec<(usize, &Vec<Cell>)> = Vec::new();
        for (gi, g) in self.groups.iter().enumerate() {
            rows.extend(g.plan.paths.iter().map(|p| (gi, p)));
        }
        let ticks = rows.iter().map(|(_, p)| p.len()).max().unwrap_or(0);
        let at = |p: &Vec<Cell>, t: usize| p[t.min(p.len() - 1)];
        let mut best: Option<(u64, (usize, usize))> = None;
        for t in 0..ticks.saturating_sub(1) {
            for (x, &(gx, px)) in rows.iter().enumerate() {
                let (xf, xt) = (at(px, t), at(px, t + 1));
                for &(gy, py) in &rows[x + 1..] {
                    let effort = self.groups[gx].effort + self.groups[gy].effort;
                    if gy != gx
                        && best.is_none_or(|(e, _)| effort < e)
                        && moves_conflict(grid, xf, xt, at(py, t), at(py, t + 1))
                    {
                        best = Some((effort, (gx, gy)));
                    }
                }
            }
        }
        best.map(|(_, pair)| pair)
    }
}
