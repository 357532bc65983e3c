//! Conflict-based search (Sharon et al. 2012) for a merged ID group, tried
//! before OD: it plans each unit alone and only branches on the conflicts
//! that actually occur, which suits groups whose units interact in few
//! places. Each conflict splits the solutions in two (one unit or the other
//! may not make its move), so the cheapest conflict-free node is optimal.
//! Not in the seed: the `odid-cbs` algorithm; plain `odid` never uses it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::map::Cell;

use super::bans::{Ban, Bans};
use super::limits::{Budget, Stop};
use super::od::search_od;
use super::path_table::PathTable;
use super::problem::{moves_conflict, GroupPlan, GroupProblem};
use super::stats::SearchStats;

/// Constraint-tree nodes CBS may create before the group goes to OD.
pub(crate) const CBS_NODE_CAP: usize = 500;

/// Why CBS gave up.
pub(crate) enum CbsStop {
    /// A limit of the solve passed.
    Limit(Stop),
    /// The constraint tree outgrew [`CBS_NODE_CAP`].
    Cap,
}

/// A constraint-tree node: one new ban on one unit, and the resulting paths.
struct CtNode {
    parent: usize,
    ban: Option<(usize, Ban)>,
    paths: Vec<Vec<Cell>>,
    costs: Vec<u64>,
    cost: u64,
}

/// The first conflict between two units of the group, as the two bans that resolve it.
fn first_conflict(p: &GroupProblem, paths: &[Vec<Cell>]) -> Option<[(usize, Ban); 2]> {
    let ticks = paths.iter().map(Vec::len).max().unwrap_or(0);
    let at = |i: usize, t: usize| paths[i][t.min(paths[i].len() - 1)];
    for t in 0..ticks.saturating_sub(1) {
        for a in 0..paths.len() {
            let (af, at_) = (at(a, t), at(a, t + 1));
            for b in a + 1..paths.len() {
                let (bf, bt) = (at(b, t), at(b, t + 1));
                if !moves_conflict(p.grid, af, at_, bf, bt) {
                    continue;
                }
                let t = t as u32;
                if at_ == bt {
                    let ban = Ban {
                        t,
                        to: at_,
                        from: None,
                    };
                    return Some([(a, ban), (b, ban)]);
                }
                return Some([
                    (
                        a,
                        Ban {
                            t,
                            to: at_,
                            from: Some(af),
                        },
                    ),
                    (
                        b,
                        Ban {
                            t,
                            to: bt,
                            from: Some(bf),
                        },
                    ),
                ]);
            }
        }
    }
    None
}

/// The conflict avoidance table of the low-level searches: every path outside
/// the group, plus the current paths of the other group members (ids past the
/// outside table's), so each unit's path meets the fewest others.
struct Avoid {
    table: PathTable,
    base: usize,
}

impl Avoid {
    fn new(p: &GroupProblem) -> Self {
        let table = p
            .avoid
            .cloned()
            .unwrap_or_else(|| PathTable::new(p.grid, 0));
        let base = table.units();
        Self { table, base }
    }

    /// Loads the paths of every member but `unit`.
    fn load(&mut self, paths: &[Vec<Cell>], unit: usize) {
        for (j, path) in paths.iter().enumerate() {
            if j == unit {
                self.table.remove(self.base + j);
            } else {
                self.table.add(self.base + j, path);
            }
        }
    }
}

/// Plans unit `i` of the group alone under `bans`, within `cost_limit`.
fn plan_unit(
    p: &GroupProblem,
    i: usize,
    bans: &Bans,
    avoid: &PathTable,
    cost_limit: Option<u64>,
    budget: &Budget,
    stats: &mut SearchStats,
) -> Result<Option<GroupPlan>, Stop> {
    let single = GroupProblem {
        grid: p.grid,
        starts: vec![p.starts[i]],
        goals: vec![p.goals[i]],
        dist: vec![p.dist[i]],
        illegal: p.illegal,
        avoid: Some(avoid),
        cost_limit,
        bans: Some(bans),
    };
    search_od(&single, budget, stats)
}

/// Finds an optimal plan for the group with CBS; `Ok(None)` when no plan
/// exists within the problem's cost limit.
pub(crate) fn search_cbs(
    p: &GroupProblem,
    budget: &Budget,
    stats: &mut SearchStats,
) -> Result<Option<GroupPlan>, CbsStop> {
    let k = p.len();
    let empty = Bans::default();
    let mut root = CtNode {
        parent: usize::MAX,
        ban: None,
        paths: Vec::with_capacity(k),
        costs: Vec::with_capacity(k),
        cost: 0,
    };
    let mut avoid = Avoid::new(p);
    for i in 0..k {
        for (j, path) in root.paths.iter().enumerate() {
            avoid.table.add(avoid.base + j, path);
        }
        match plan_unit(p, i, &empty, &avoid.table, None, budget, stats).map_err(CbsStop::Limit)? {
            Some(plan) => {
                root.cost += plan.cost;
                root.costs.push(plan.cost);
                root.paths
                    .push(plan.paths.into_iter().next().unwrap_or_default());
            }
            None => return Ok(None),
        }
    }
    if p.cost_limit.is_some_and(|l| root.cost > l) {
        return Ok(None);
    }
    let mut nodes = vec![root];
    let mut open = BinaryHeap::new();
    // Equal costs: newest node first, so the search dives.
    open.push(Reverse((nodes[0].cost, usize::MAX)));
    while let Some(Reverse((_, rank))) = open.pop() {
        let n = usize::MAX - rank;
        budget.check_time().map_err(CbsStop::Limit)?;
        let Some(split) = first_conflict(p, &nodes[n].paths) else {
            let node = &nodes[n];
            let ticks = node.paths.iter().map(Vec::len).max().unwrap_or(1);
            let paths = node
                .paths
                .iter()
                .zip(&p.goals)
                .map(|(path, &g)| {
                    let mut path = path.clone();
                    path.resize(ticks, g);
                    path
                })
                .collect();
            return Ok(Some(GroupPlan {
                paths,
                cost: node.cost,
            }));
        };
        for (unit, ban) in split {
            if nodes.len() >= CBS_NODE_CAP {
                return Err(CbsStop::Cap);
            }
            let mut bans = Bans::default();
            bans.add(ban);
            let mut cur = n;
            while cur != usize::MAX {
                if let Some((u, b)) = nodes[cur].ban {
                    if u == unit {
                        bans.add(b);
                    }
                }
                cur = nodes[cur].parent;
            }
            let parent = &nodes[n];
            let others = parent.cost - parent.costs[unit];
            let limit = p.cost_limit.map(|l| l.saturating_sub(others));
            avoid.load(&parent.paths, unit);
            let Some(plan) = plan_unit(p, unit, &bans, &avoid.table, limit, budget, stats)
                .map_err(CbsStop::Limit)?
            else {
                continue;
            };
            let mut paths = parent.paths.clone();
            let mut costs = parent.costs.clone();
            paths[unit] = plan.paths.into_iter().next().unwrap_or_default();
            costs[unit] = plan.cost;
            let cost = others + plan.cost;
            let id = nodes.len();
            nodes.push(CtNode {
                parent: n,
                ban: Some((unit, ban)),
                paths,
                costs,
                cost,
            });
            open.push(Reverse((cost, usize::MAX - id)));
        }
    }
    Ok(None)
}

/// The `odid-cbs` low level: CBS for groups of two or more, falling back to
/// OD when the constraint tree grows past [`CBS_NODE_CAP`].
pub(crate) fn search_cbs_then_od(
    p: &GroupProblem,
    budget: &Budget,
    stats: &mut SearchStats,
) -> Result<Option<GroupPlan>, Stop> {
    if p.len() < 2 {
        return search_od(p, budget, stats);
    }
    match search_cbs(p, budget, stats) {
        Ok(found) => Ok(found),
        Err(CbsStop::Limit(stop)) => Err(stop),
        Err(CbsStop::Cap) => search_od(p, budget, stats),
    }
}
