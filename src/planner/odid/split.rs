//! Beyond the seed: a conflict-based search over the two parts of a merge,
//! tried before OD plans the merged group as one. It is Sharon et al.'s
//! MA-CBS with exactly two meta-units, the two groups ID merged, each
//! replanned optimally by OD under its bans.
//!
//! Why: OD on the merged group must exhaust the f level where both parts stay
//! at their own optimum (the merge-history bound) before it looks higher.
//! That level is the product of the two parts' optimal plans, millions of
//! nodes when none of them fit together. The constraint tree instead branches
//! only on the conflicts that actually occur between the two parts' plans.
//!
//! Exact: each conflict is split into two bans (one on each part), and every
//! plan without that conflict obeys one of them, so the open tree nodes cover
//! every plan of the merged group. A node costs the sum of its parts' optimal
//! costs under their bans, a lower bound on any plan that obeys them. The
//! cheapest conflict-free node is therefore optimal. If the tree outgrows its
//! budget, the cheapest open node's cost is still a lower bound, and OD on the
//! merged group starts from it.
//!
//! A part that is itself a merge is replanned the same way, recursively over
//! its own merge history, with the bans on its units passed down: replanning
//! it with OD would meet the same dense level. A part without bans keeps the
//! optimal plan ID found for it. ID's same-cost replan of a merged group
//! (around another group's illegal moves, within its own cost) goes the same
//! way: every search avoids the illegal moves, and the tree stops with no
//! plan once its cheapest open node costs more than the limit.
//!
//! Open nodes with equal cost go fewest conflicts first, and a child that
//! keeps its parent's cost with fewer conflicts replaces the parent's plans
//! instead of splitting (Boyarski et al.'s bypass).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::map::{Cell, Grid};

use super::bans::{Ban, Bans};
use super::heuristic::DistanceTable;
use super::history::History;
use super::limits::{Budget, Stop};
use super::moves::moves_conflict;
use super::od::search_od;
use super::path_table::PathTable;
use super::problem::{GroupPlan, GroupProblem};
use super::stats::SearchStats;

/// When a merge searches its constraint tree, and how far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SplitLimits {
    /// Merges of fewer units go straight to OD, which is cheap for them.
    pub min_units: usize,
    /// Tree nodes at most: a tree that grows past this is mostly stuck on a
    /// plateau of equal-cost nodes.
    pub max_nodes: usize,
    /// Low-level expansions one tree may spend, at least ...
    pub min_expansions: u64,
    /// ... or this many times the expansions that planned its parts.
    pub effort_factor: u64,
}

impl SplitLimits {
    /// The limits of `odid-split`, set on the failures of the standley experiment.
    pub const DEFAULT: SplitLimits = SplitLimits {
        min_units: 3,
        max_nodes: 64,
        min_expansions: 200_000,
        effort_factor: 8,
    };
}

/// The instance as the tree's searches see it.
pub(crate) struct SplitInput<'a> {
    pub grid: &'a Grid,
    pub starts: &'a [Cell],
    pub goals: &'a [Cell],
    pub dist: &'a [DistanceTable],
}

/// A ban on one unit, by unit id.
type UnitBan = (usize, Ban);

/// How a tree ended.
enum TreeEnd {
    /// An optimal plan of the merge under its bans.
    Solved(GroupPlan),
    /// The budget ran out (or nothing was left open): no plan of the merge
    /// under its bans costs less than this.
    Floor(u64),
    /// A part has no plan under its bans, so the merge has none either.
    Infeasible,
}

/// A tree node: the ban it adds to one part, and both parts' optimal plans
/// under all the bans on the way from the root.
struct Node {
    parent: usize,
    ban: Option<(usize, UnitBan)>,
    plans: [Rc<GroupPlan>; 2],
}

/// What [`plan_merge`] plans: a merged group's history, the moves it must
/// avoid and the costs it may have.
pub(crate) struct MergeTask<'a> {
    pub history: &'a History,
    /// Another group's paths, for ID's same-cost replan.
    pub illegal: Option<&'a PathTable>,
    /// No plan costs less.
    pub floor: u64,
    /// Only plans of at most this cost are wanted.
    pub cost_limit: Option<u64>,
}

/// Plans the merged group of `task`: an optimal plan over its units in
/// ascending order that avoids the illegal moves, or `None` if there is none
/// within the cost limit. `avoid` holds every path outside the group.
pub(crate) fn plan_merge(
    limits: SplitLimits,
    input: &SplitInput,
    task: &MergeTask,
    avoid: Option<&mut PathTable>,
    budget: &Budget,
    stats: &mut SearchStats,
) -> Result<Option<GroupPlan>, Stop> {
    let mut ctx = Ctx {
        limits,
        known: FxHashMap::default(),
        input,
        illegal: task.illegal,
        avoid,
        budget,
        stats,
    };
    ctx.plan_fresh(task.history, &[], task.floor, task.cost_limit)
}

struct Ctx<'a, 'b> {
    limits: SplitLimits,
    /// Moves every search must avoid (a same-cost replan's illegal table).
    illegal: Option<&'a PathTable>,
    /// Plans already found for a part (by its history node's address) under
    /// a set of bans (sorted): trees over different bans of the other part
    /// ask for them again.
    known: FxHashMap<(usize, Vec<UnitBan>), Option<Rc<GroupPlan>>>,
    input: &'a SplitInput<'a>,
    /// Paths outside the merge, and while a part is replanned, the other
    /// part's: ties break towards fewer conflicts between the parts.
    avoid: Option<&'b mut PathTable>,
    budget: &'a Budget,
    stats: &'b mut SearchStats,
}

impl Ctx<'_, '_> {
    /// An optimal plan of `h`'s units alone under `bans`, given that none
    /// costs less than `floor`.
    fn plan_node(
        &mut self,
        h: &History,
        bans: &[UnitBan],
        floor: u64,
    ) -> Result<Option<Rc<GroupPlan>>, Stop> {
        let mut sorted = bans.to_vec();
        sorted.sort_unstable();
        let key = (std::ptr::from_ref(h) as usize, sorted);
        if let Some(found) = self.known.get(&key) {
            return Ok(found.clone());
        }
        let found = self.plan_fresh(h, bans, floor, None)?.map(Rc::new);
        self.known.insert(key, found.clone());
        Ok(found)
    }

    /// [`Ctx::plan_node`] without looking up the plans already found, and
    /// only for plans of at most `limit`. A merge without bans keeps the
    /// optimal plan ID found for it, if that avoids the illegal moves.
    fn plan_fresh(
        &mut self,
        h: &History,
        bans: &[UnitBan],
        floor: u64,
        limit: Option<u64>,
    ) -> Result<Option<GroupPlan>, Stop> {
        let floor = floor.max(h.cost());
        if limit.is_some_and(|l| floor > l) {
            return Ok(None);
        }
        match h {
            History::Merge(_, _, Some(solved)) if bans.is_empty() && self.clear(&solved.plan) => {
                Ok(Some(solved.plan.clone()))
            }
            History::Merge(a, b, _) if h.units().len() >= self.limits.min_units => {
                match self.tree([a, b], bans, floor, limit)? {
                    TreeEnd::Solved(plan) => Ok(Some(plan)),
                    TreeEnd::Infeasible => Ok(None),
                    TreeEnd::Floor(f) => self.od(h, bans, f.max(floor), limit),
                }
            }
            _ => self.od(h, bans, floor, limit),
        }
    }

    /// Whether `plan` avoids the illegal moves, also while it waits on its
    /// goals after its last tick.
    fn clear(&self, plan: &GroupPlan) -> bool {
        let Some(tab) = self.illegal else {
            return true;
        };
        plan.paths.iter().all(|p| {
            let at = |t: usize| p[t.min(p.len() - 1)];
            (0..p.len().max(tab.ticks()))
                .all(|t| tab.conflicts(self.input.grid, t as u32, at(t), at(t + 1)) == 0)
        })
    }

    /// OD on all of `h`'s units under `bans`, from `floor`.
    fn od(
        &mut self,
        h: &History,
        bans: &[UnitBan],
        floor: u64,
        limit: Option<u64>,
    ) -> Result<Option<GroupPlan>, Stop> {
        let units = h.units();
        let mut own = Bans::new(units.len());
        for &(u, ban) in bans {
            own.add(units.binary_search(&u).expect("a ban on the group"), ban);
        }
        let inp = self.input;
        let problem = GroupProblem {
            grid: inp.grid,
            starts: units.iter().map(|&u| inp.starts[u]).collect(),
            goals: units.iter().map(|&u| inp.goals[u]).collect(),
            dist: units.iter().map(|&u| &inp.dist[u]).collect(),
            illegal: self.illegal,
            avoid: self.avoid.as_deref(),
            cost_limit: limit,
            floor,
            merged: h.bound(&units),
            bans: (!bans.is_empty()).then_some(&own),
        };
        search_od(&problem, self.budget, self.stats)
    }

    /// Plans part `h` under `bans` with `other`'s paths (over `other_units`)
    /// in the conflict avoidance table.
    fn replan_part(
        &mut self,
        h: &History,
        bans: &[UnitBan],
        floor: u64,
        other_units: &[usize],
        other: &GroupPlan,
    ) -> Result<Option<Rc<GroupPlan>>, Stop> {
        if let Some(tab) = self.avoid.as_deref_mut() {
            for (j, &u) in other_units.iter().enumerate() {
                tab.add(u, &other.paths[j]);
            }
        }
        let found = self.plan_node(h, bans, floor);
        if let Some(tab) = self.avoid.as_deref_mut() {
            for &u in other_units {
                tab.remove(u);
            }
        }
        found
    }

    /// The constraint tree over a merge's two `parts` under `bans`, given that
    /// no plan of the merge costs less than `floor`.
    fn tree(
        &mut self,
        parts: [&History; 2],
        bans: &[UnitBan],
        floor: u64,
        limit: Option<u64>,
    ) -> Result<TreeEnd, Stop> {
        let units = parts.map(History::units);
        let own: [Vec<UnitBan>; 2] = std::array::from_fn(|side| {
            bans.iter()
                .filter(|(u, _)| units[side].binary_search(u).is_ok())
                .copied()
                .collect()
        });
        let effort: u64 = parts
            .iter()
            .map(|p| match p {
                History::Merge(_, _, Some(s)) => s.effort,
                _ => 0,
            })
            .sum();
        let allowance = self
            .limits
            .min_expansions
            .max(self.limits.effort_factor * effort);
        let start = self.stats.expanded;
        let mut root = Vec::with_capacity(2);
        for side in 0..2 {
            match self.plan_node(parts[side], &own[side], 0)? {
                Some(plan) => root.push(plan),
                None => return Ok(TreeEnd::Infeasible),
            }
        }
        let root_plans = [root[0].clone(), root[1].clone()];
        let root_cost = root_plans[0].cost + root_plans[1].cost;
        let mut nodes = vec![Node {
            parent: usize::MAX,
            ban: None,
            plans: root_plans,
        }];
        let mut open = BinaryHeap::new();
        open.push(Reverse((root_cost, 0u32, 0usize)));
        while let Some(&Reverse((cost, _, n))) = open.peek() {
            if limit.is_some_and(|l| cost > l) {
                // Every open node, so every plan, costs more than the limit.
                return Ok(TreeEnd::Infeasible);
            }
            if self.stats.expanded - start > allowance || nodes.len() > self.limits.max_nodes {
                return Ok(TreeEnd::Floor(cost.max(floor)));
            }
            open.pop();
            let plans = [&*nodes[n].plans[0], &*nodes[n].plans[1]];
            let (before, split) = conflicts(self.input.grid, plans);
            let Some(split) = split else {
                return Ok(TreeEnd::Solved(join(&units, plans)));
            };
            let mut children = Vec::with_capacity(2);
            for (side, (i, ban)) in split.into_iter().enumerate() {
                let unit = units[side][i];
                let mut side_bans = own[side].clone();
                side_bans.extend(tree_bans(&nodes, n, side));
                side_bans.push((unit, ban));
                let other = nodes[n].plans[1 - side].clone();
                // Bans only remove plans: the part cannot get cheaper.
                let floor = nodes[n].plans[side].cost;
                let Some(plan) =
                    self.replan_part(parts[side], &side_bans, floor, &units[1 - side], &other)?
                else {
                    continue;
                };
                let mut child_plans = nodes[n].plans.clone();
                child_plans[side] = plan;
                let child_cost = child_plans[0].cost + child_plans[1].cost;
                let count = conflicts(self.input.grid, [&*child_plans[0], &*child_plans[1]]).0;
                if child_cost == cost && count < before {
                    // Bypass (Boyarski et al. 2015): the child's plan obeys
                    // the node's bans at the node's cost with fewer conflicts,
                    // so the node takes it instead of splitting.
                    nodes[n].plans = child_plans;
                    children.clear();
                    children.push((count, None));
                    break;
                }
                children.push((count, Some((side, (unit, ban), child_plans))));
            }
            for (count, child) in children {
                let Some((side, ban, plans)) = child else {
                    open.push(Reverse((cost, count, n)));
                    continue;
                };
                let child_cost = plans[0].cost + plans[1].cost;
                open.push(Reverse((child_cost, count, nodes.len())));
                nodes.push(Node {
                    parent: n,
                    ban: Some((side, ban)),
                    plans,
                });
            }
        }
        // Nothing left open: leave the verdict to OD on the whole merge.
        Ok(TreeEnd::Floor(floor))
    }
}

/// The two parts' conflicts in their current plans: how many, and the first
/// one as the ban on each part (by index in the part) that resolves it.
fn conflicts(grid: &Grid, plans: [&GroupPlan; 2]) -> (u32, Option<[(usize, Ban); 2]>) {
    let ticks = plans.iter().flat_map(|p| &p.paths).map(Vec::len).max();
    let at = |p: &Vec<Cell>, t: usize| p[t.min(p.len() - 1)];
    let mut count = 0;
    let mut first = None;
    for t in 0..ticks.unwrap_or(0).saturating_sub(1) {
        for (a, pa) in plans[0].paths.iter().enumerate() {
            let (af, at_) = (at(pa, t), at(pa, t + 1));
            for (b, pb) in plans[1].paths.iter().enumerate() {
                let (bf, bt) = (at(pb, t), at(pb, t + 1));
                if !moves_conflict(grid, af, at_, bf, bt) {
                    continue;
                }
                count += 1;
                if first.is_none() {
                    let t = t as u32;
                    let vertex = at_ == bt;
                    let ban = |to, from| Ban {
                        t,
                        to,
                        from: (!vertex).then_some(from),
                    };
                    first = Some([(a, ban(at_, af)), (b, ban(bt, bf))]);
                }
            }
        }
    }
    (count, first)
}

/// The bans the tree added on part `side` on the way from the root to node `n`.
fn tree_bans(nodes: &[Node], mut n: usize, side: usize) -> Vec<UnitBan> {
    let mut bans = Vec::new();
    while n != usize::MAX {
        if let Some((s, ban)) = nodes[n].ban {
            if s == side {
                bans.push(ban);
            }
        }
        n = nodes[n].parent;
    }
    bans
}

/// The two parts' plans (over `units`) as one plan over their units in
/// ascending order, every path padded with its last cell to the longest.
fn join(units: &[Vec<usize>; 2], plans: [&GroupPlan; 2]) -> GroupPlan {
    let mut rows: Vec<(usize, &Vec<Cell>)> = Vec::new();
    for (us, plan) in units.iter().zip(plans) {
        rows.extend(us.iter().copied().zip(&plan.paths));
    }
    rows.sort_unstable_by_key(|&(u, _)| u);
    let ticks = rows.iter().map(|(_, p)| p.len()).max().unwrap_or(1);
    let paths = rows
        .into_iter()
        .map(|(_, p)| {
            let mut p = p.clone();
            let last = *p.last().expect("a path has a start");
            p.resize(ticks, last);
            p
        })
        .collect();
    GroupPlan {
        paths,
        cost: plans[0].cost + plans[1].cost,
    }
}
