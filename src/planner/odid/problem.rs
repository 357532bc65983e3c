//! The seed's problem: a group's joint moves and their cost. A tick costs
//! the number of units not waiting on their own goal; which moves may share
//! a tick is in `moves`.

use crate::map::{Cell, Grid};

use super::bans::Bans;
use super::heuristic::DistanceTable;
use super::path_table::PathTable;

/// Cost of one unit's move in one tick: zero only for waiting on its goal.
#[inline]
pub fn step_cost(from: Cell, to: Cell, goal: Cell) -> u32 {
    u32::from(!(from == goal && to == goal))
}

/// The seed's cost of a plan: `paths[i][t]` is unit `i` at tick `t`; a path
/// shorter than the longest is taken to wait on its last cell.
pub fn plan_cost(paths: &[Vec<Cell>], goals: &[Cell]) -> u64 {
    let ticks = paths.iter().map(Vec::len).max().unwrap_or(0);
    let mut cost = 0u64;
    for (path, &goal) in paths.iter().zip(goals) {
        for t in 1..ticks {
            let from = path[(t - 1).min(path.len() - 1)];
            let to = path[t.min(path.len() - 1)];
            cost += u64::from(step_cost(from, to, goal));
        }
    }
    cost
}

/// The sum of single-unit distances: the seed's heuristic and lower bound.
pub fn lower_bound(grid: &Grid, starts: &[Cell], goals: &[Cell]) -> u64 {
    starts
        .iter()
        .zip(goals)
        .map(|(&s, &g)| u64::from(DistanceTable::new(grid, g).get(s)))
        .sum()
}

/// One low-level search's task: a group of units, with the paths of the other
/// groups as hard (illegal move table) and soft (conflict avoidance) constraints.
pub(crate) struct GroupProblem<'a> {
    pub grid: &'a Grid,
    pub starts: Vec<Cell>,
    pub goals: Vec<Cell>,
    pub dist: Vec<&'a DistanceTable>,
    /// Moves the group must not conflict with.
    pub illegal: Option<&'a PathTable>,
    /// Moves whose conflicts break ties between equal-cost nodes.
    pub avoid: Option<&'a PathTable>,
    /// Only solutions of at most this cost are searched for.
    pub cost_limit: Option<u64>,
    /// A known lower bound on the optimal cost (0 if none): the cost limit of
    /// a same-cost replan, or the sum of the merged groups' optimal costs.
    pub floor: u64,
    /// For a merged group: the bound from its merge history.
    pub merged: Option<MergeBound>,
    /// Moves the units may not make (a conflict-based search's constraints).
    pub bans: Option<&'a Bans>,
}

/// One side of a merge: a unit of the group (by index) or an earlier merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    Unit(usize),
    Merge(usize),
}

/// A merge in a group's history: two parts and the optimal cost of their
/// union planned alone (0 while unknown, for the merge being searched).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MergeNode {
    pub parts: [Part; 2],
    pub cost: u32,
}

/// The admissible bound of a merged group, from the groups it was merged
/// from. Every earlier group was planned optimally alone, and the part of a
/// plan that moves a subgroup is a plan for that subgroup alone, so it costs at
/// least the subgroup's optimum. Bottom up, a merge's bound is
/// `max(bound(left) + bound(right), cost)`, and a unit's is its own `g + h`.
/// At the root this is at least `g + h` (the sum of the units'), never
/// decreases along a path (g + h does not), and never exceeds the cost of a
/// plan through the node: an admissible, consistent f.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct MergeBound {
    /// Children before parents; the root (the whole group) is last.
    pub merges: Vec<MergeNode>,
    /// For each unit, the merge it takes part in and the other side.
    unit_up: Vec<(usize, Part)>,
    /// For each merge but the root, the merge above it and the other side.
    merge_up: Vec<Option<(usize, Part)>>,
}

impl MergeBound {
    /// The bound of `merges` (children before parents, root last) over
    /// `units` units, each taking part in exactly one merge.
    pub fn new(merges: Vec<MergeNode>, units: usize) -> Self {
        let mut unit_up = vec![(usize::MAX, Part::Unit(usize::MAX)); units];
        let mut merge_up = vec![None; merges.len()];
        for (m, node) in merges.iter().enumerate() {
            for side in 0..2 {
                let other = node.parts[1 - side];
                match node.parts[side] {
                    Part::Unit(i) => unit_up[i] = (m, other),
                    Part::Merge(j) => merge_up[j] = Some((m, other)),
                }
            }
        }
        debug_assert!(unit_up.iter().all(|&(m, _)| m < merges.len()));
        Self {
            merges,
            unit_up,
            merge_up,
        }
    }

    /// The bound, given each unit's `g + h` in `unit_f`; `vals` receives
    /// every merge's bound (for [`MergeBound::eval_one`]).
    pub fn eval(&self, unit_f: &[u32], vals: &mut Vec<u32>) -> u32 {
        vals.clear();
        for m in &self.merges {
            let v = (self.part(m.parts[0], unit_f, vals) + self.part(m.parts[1], unit_f, vals))
                .max(m.cost);
            vals.push(v);
        }
        vals.last().copied().unwrap_or_else(|| unit_f.iter().sum())
    }

    /// The bound when unit `i`'s `g + h` becomes `fi` and the others keep
    /// theirs (`vals` from [`MergeBound::eval`] over `unit_f`): only the
    /// merges from that unit up to the root change.
    #[inline]
    pub fn eval_one(&self, unit_f: &[u32], vals: &[u32], i: usize, fi: u32) -> u32 {
        let (mut m, mut other) = self.unit_up[i];
        let mut cur = fi;
        loop {
            cur = (cur + self.part(other, unit_f, vals)).max(self.merges[m].cost);
            match self.merge_up[m] {
                Some((up, o)) => {
                    m = up;
                    other = o;
                }
                None => return cur,
            }
        }
    }

    #[inline]
    fn part(&self, p: Part, unit_f: &[u32], vals: &[u32]) -> u32 {
        match p {
            Part::Unit(i) => unit_f[i],
            Part::Merge(j) => vals[j],
        }
    }
}

impl GroupProblem<'_> {
    /// Number of units in the group.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// The tick from which time no longer tells states apart for duplicate
    /// detection: the illegal move table's last tick (past it, legality no longer
    /// changes) or the settle tick, whichever is later. The conflict avoidance
    /// table is left out: it only breaks ties, and keying states by its ticks
    /// would multiply the state space of every merged-group search.
    pub fn tick_clamp(&self) -> u32 {
        let tables = self.illegal.map_or(0, |tab| (tab.ticks() - 1) as u32);
        tables.max(self.settle_tick())
    }

    /// Whether unit `i`'s move from `from` at tick `t` to `to` at `t + 1` is
    /// allowed by the illegal move table and the bans.
    #[inline]
    pub fn allowed(&self, i: usize, t: u32, from: Cell, to: Cell) -> bool {
        self.illegal
            .is_none_or(|tab| tab.conflicts(self.grid, t, from, to) == 0)
            && self.bans.is_none_or(|b| b.allows(i, t, from, to))
    }

    /// Conflicts of a move with the conflict avoidance table.
    #[inline]
    pub fn avoid_conflicts(&self, t: u32, from: Cell, to: Cell) -> u32 {
        self.avoid
            .map_or(0, |tab| tab.conflicts(self.grid, t, from, to))
    }

    /// The first tick from which every unit may stay on its goal for good: after
    /// the last tick the illegal table puts another unit there, and after the
    /// last ban (which also ends the ticks that tell states apart).
    pub fn settle_tick(&self) -> u32 {
        let bans = self.bans.map_or(0, Bans::free_from);
        let Some(tab) = self.illegal else {
            return bans;
        };
        self.goals
            .iter()
            .filter_map(|&g| tab.last_occupied(g))
            .map(|t| t as u32 + 1)
            .max()
            .unwrap_or(0)
            .max(bans)
    }
}

/// A group's plan found by a low-level search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GroupPlan {
    /// `paths[i][t]`: unit `i` of the group at tick `t`; all the same length.
    pub paths: Vec<Vec<Cell>>,
    /// The seed's cost of these paths.
    pub cost: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    fn open(w: u32, h: u32) -> Grid {
        Grid::new(w, h, vec![true; (w * h) as usize], Connectivity::Eight).with_corner_cutting(true)
    }

    #[test]
    fn cost_counts_units_not_waiting_on_goal() {
        let g = open(3, 1);
        let goals = [g.cell(2, 0), g.cell(0, 0)];
        let paths = vec![
            vec![g.cell(1, 0), g.cell(2, 0), g.cell(2, 0)],
            vec![g.cell(0, 0), g.cell(0, 0), g.cell(0, 0)],
        ];
        assert_eq!(plan_cost(&paths, &goals), 1);
        // Leaving the goal and coming back costs both ticks.
        let paths = vec![vec![g.cell(2, 0), g.cell(1, 0), g.cell(2, 0)]];
        assert_eq!(plan_cost(&paths, &goals[..1]), 2);
    }
}
