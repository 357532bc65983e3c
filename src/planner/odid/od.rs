//! A* with operator decomposition (OD): one unit's move is assigned per
//! operator, in a fixed unit order, so the branching factor is 9 instead of
//! 9^k. A new move is checked only against moves already assigned in the node
//! (units may step into cells of units not yet assigned). Standard nodes are
//! keyed by positions; intermediate nodes by post-move positions plus the
//! assigned moves that still constrain the unassigned units — the seed's rule
//! for treating intermediate nodes like its figure 5's (A) and (B) as duplicates.
//!
//! Nodes are expanded partially (Yoshizumi et al.'s PEA*): an expansion stores
//! only the children whose f equals the f the node was queued at, and puts the
//! node back at its next child f. Children above the final f level are then
//! never stored, which is where most of OD's memory went.
//!
//! Beyond the seed, f may be raised by two admissible bounds that ID knows:
//! a floor (a same-cost replan cannot cost less than the group's optimum) and,
//! for a merged group, its merge-history bound ([`MergeBound`]). Both keep
//! f consistent, so the search stays exact A*.

use std::cmp::Ordering;

use crate::map::{Cell, Grid};

use super::frontier::{standard_key, Frontier, Meta};
use super::heuristic::UNREACHABLE;
use super::limits::{Budget, Stop};
use super::moves::{diagonal_corners, moves_conflict};
#[cfg(doc)]
use super::problem::MergeBound;
use super::problem::{step_cost, GroupPlan, GroupProblem};
use super::stats::SearchStats;

/// Expansions between two clock checks.
pub(crate) const CLOCK_EVERY: u64 = 256;

/// Finds an optimal plan for the group with OD, or `None` when no plan exists
/// within the problem's cost limit.
pub(crate) fn search_od(
    p: &GroupProblem,
    budget: &Budget,
    stats: &mut SearchStats,
) -> Result<Option<GroupPlan>, Stop> {
    let mut memory = OdMemory::default();
    let mut paths = Vec::new();
    let found = search_od_in(p, budget, stats, &mut memory, &mut paths)?;
    paths.truncate(p.len());
    Ok(found.map(|cost| GroupPlan { paths, cost }))
}

/// What an OD search keeps between runs, so that a planner running many
/// small searches (WHCA*'s joint repairs) allocates nothing once warm.
#[derive(Default)]
pub(crate) struct OdMemory {
    frontier: Option<Frontier>,
    unit_f: Vec<u32>,
    scratch: Vec<u32>,
    key: Vec<u32>,
    pre: Vec<Cell>,
    post: Vec<Cell>,
    nodes: Vec<u32>,
}

/// [`search_od`] reusing `memory`: writes the plan's paths (one per unit,
/// all the same length) into the first entries of `paths` and returns its
/// cost, or `None` when no plan exists within the problem's cost limit.
pub(crate) fn search_od_in(
    p: &GroupProblem,
    budget: &Budget,
    stats: &mut SearchStats,
    memory: &mut OdMemory,
    paths: &mut Vec<Vec<Cell>>,
) -> Result<Option<u64>, Stop> {
    let mut fr = memory
        .frontier
        .take()
        .unwrap_or_else(|| Frontier::new(p.len()));
    fr.reset(p.len());
    let result = run(p, budget, &mut fr, memory, paths);
    stats.record(fr.expanded, fr.stored());
    memory.frontier = Some(fr);
    result
}

fn run(
    p: &GroupProblem,
    budget: &Budget,
    fr: &mut Frontier,
    memory: &mut OdMemory,
    paths: &mut Vec<Vec<Cell>>,
) -> Result<Option<u64>, Stop> {
    let k = p.len();
    let horizon = p.tick_clamp();
    let settle = p.settle_tick();
    let mut h0 = 0u32;
    for (i, &s) in p.starts.iter().enumerate() {
        let d = p.dist[i].get(s);
        if d == UNREACHABLE {
            return Ok(None);
        }
        h0 += d;
    }
    if p.cost_limit.is_some_and(|l| u64::from(h0) > l) {
        return Ok(None);
    }
    fr.set_floor(u32::try_from(p.floor).unwrap_or(u32::MAX));
    // A merged group carries each unit's g + h, for its merge-history bound.
    let merged = p.merged.as_ref();
    let OdMemory {
        unit_f,
        scratch,
        key,
        pre,
        post,
        nodes,
        ..
    } = memory;
    unit_f.clear();
    scratch.clear();
    if merged.is_some() {
        fr.set_unit_words(k);
        unit_f.extend((0..k).map(|i| p.dist[i].get(p.starts[i])));
    }
    standard_key(key, 0, &p.starts);
    let mut root = Meta::new(0, h0, 0, 0, 0, u32::MAX);
    if let Some(mb) = merged {
        root = root.with_f(mb.eval(unit_f, scratch));
    }
    fr.push_with(key, &p.starts, &p.starts, root, unit_f);
    pre.clear();
    pre.resize(k, Cell(0));
    post.clear();
    post.resize(k, Cell(0));
    let mut buf = [Cell(0); 8];
    while let Some((n, f_now)) = fr.pop_with_f() {
        if fr.expanded % CLOCK_EVERY == 0 {
            budget.check_time()?;
        }
        budget.check_nodes(fr.stored())?;
        let m = fr.meta(n);
        pre.copy_from_slice(fr.pre(n));
        post.copy_from_slice(fr.post(n));
        unit_f.copy_from_slice(fr.unit_words(n));
        if let Some(mb) = merged {
            mb.eval(unit_f, scratch);
        }
        if m.next == 0 && m.t >= settle && *post == p.goals {
            fr.paths_into(n, nodes, paths);
            return Ok(Some(u64::from(m.g)));
        }
        let i = m.next as usize;
        let from = pre[i];
        let goal = p.goals[i];
        let count = p.grid.neighbors(from, &mut buf);
        let moves = std::iter::once(from).chain(buf[..count].iter().copied());
        // Partial expansion: only children at the f the node was queued at are
        // stored now; the node goes back on the open list at the next child f.
        let mut f_next = u32::MAX;
        for to in moves {
            if !p.allowed(i, m.t, from, to) {
                continue;
            }
            if (0..i).any(|j| moves_conflict(p.grid, from, to, pre[j], post[j])) {
                continue;
            }
            let d = p.dist[i].get(to);
            if d == UNREACHABLE {
                continue;
            }
            let step = step_cost(from, to, goal);
            let g = m.g + step;
            let h = m.h - p.dist[i].get(from) + d;
            let mut child = Meta::new(g, h, 0, m.t, (i + 1) as u16, n);
            let mut child_f = 0;
            if let Some(mb) = merged {
                child_f = unit_f[i] + step + d - p.dist[i].get(from);
                child = child.with_f(mb.eval_one(unit_f, scratch, i, child_f));
            }
            if i + 1 == k {
                child.t += 1;
                child.next = 0;
            }
            if p.cost_limit.is_some_and(|l| u64::from(child.f) > l) {
                continue;
            }
            let f = fr.queue_f(&child);
            // Children below f_now were stored at an earlier expansion.
            match f.cmp(&f_now) {
                Ordering::Less => continue,
                Ordering::Greater => {
                    f_next = f_next.min(f);
                    continue;
                }
                Ordering::Equal => {}
            }
            child.conflicts = m.conflicts + p.avoid_conflicts(m.t, from, to);
            post[i] = to;
            let own_f = unit_f.get(i).copied();
            if merged.is_some() {
                unit_f[i] = child_f;
            }
            if i + 1 == k {
                standard_key(key, child.t.min(horizon), post);
                fr.push_with(key, post, post, child, unit_f);
            } else {
                intermediate_key(key, p.grid, m.t.min(horizon), i + 1, pre, post);
                fr.push_with(key, pre, post, child, unit_f);
            }
            post[i] = from;
            if let Some(v) = own_f {
                unit_f[i] = v;
            }
        }
        if f_next != u32::MAX {
            fr.requeue(n, f_next);
        }
    }
    Ok(None)
}

/// Key of an intermediate node with units `..next` assigned: post-move
/// positions, and for each assigned unit its pre-move cell only when that cell
/// can still restrict an unassigned unit (a swap back into it, or a crossing
/// of its diagonal); otherwise its move constrains exactly as a wait would.
fn intermediate_key(
    key: &mut Vec<u32>,
    grid: &Grid,
    tick_key: u32,
    next: usize,
    pre: &[Cell],
    post: &[Cell],
) {
    key.clear();
    key.push(tick_key);
    key.push(next as u32);
    key.extend(post.iter().map(|c| c.0));
    let unassigned = &pre[next..];
    for j in 0..next {
        let matters = unassigned.contains(&post[j])
            || diagonal_corners(grid, pre[j], post[j])
                .is_some_and(|(a, b)| unassigned.contains(&a) || unassigned.contains(&b));
        key.push(if matters { pre[j].0 } else { post[j].0 });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;
    use crate::planner::odid::heuristic::DistanceTable;
    use crate::planner::odid::path_table::PathTable;
    use crate::planner::odid::problem::{MergeBound, MergeNode, Part};

    fn single<'a>(
        grid: &'a Grid,
        start: Cell,
        dist: &'a DistanceTable,
        goal: Cell,
        illegal: &'a PathTable,
        cost_limit: Option<u64>,
    ) -> GroupProblem<'a> {
        GroupProblem {
            grid,
            starts: vec![start],
            goals: vec![goal],
            dist: vec![dist],
            illegal: Some(illegal),
            avoid: None,
            cost_limit,
            floor: 0,
            merged: None,
            bans: None,
        }
    }

    #[test]
    fn same_cost_replan_respects_the_illegal_table_and_the_limit() {
        let g = Grid::new(3, 3, vec![true; 9], Connectivity::Four);
        let c = |x, y| g.cell(x, y);
        let mut other = PathTable::new(&g, 2);
        other.add(1, &[c(1, 0), c(1, 1), c(1, 2)]);
        let dist = DistanceTable::new(&g, c(2, 1));
        let budget = Budget::start(
            &crate::planner::odid::Limits::none(),
            std::time::Instant::now(),
        );
        let mut stats = SearchStats::default();
        // The only 2-move path crosses (1, 1) when the other unit is there.
        let p = single(&g, c(0, 1), &dist, c(2, 1), &other, Some(2));
        assert_eq!(search_od(&p, &budget, &mut stats), Ok(None));
        let p = single(&g, c(0, 1), &dist, c(2, 1), &other, Some(3));
        let plan = search_od(&p, &budget, &mut stats).unwrap().unwrap();
        assert_eq!(plan.cost, 3);
        let path = &plan.paths[0];
        for t in 0..path.len() - 1 {
            assert_eq!(
                other.conflicts(&g, t as u32, path[t], path[t + 1]),
                0,
                "tick {t}"
            );
        }
    }

    #[test]
    fn a_unit_steps_off_its_goal_for_a_passing_unit() {
        let g = Grid::new(3, 2, vec![true; 6], Connectivity::Four);
        let c = |x, y| g.cell(x, y);
        let mut other = PathTable::new(&g, 2);
        other.add(1, &[c(0, 0), c(1, 0), c(2, 0), c(2, 1)]);
        let dist = DistanceTable::new(&g, c(2, 0));
        let budget = Budget::start(
            &crate::planner::odid::Limits::none(),
            std::time::Instant::now(),
        );
        let mut stats = SearchStats::default();
        let p = single(&g, c(2, 0), &dist, c(2, 0), &other, None);
        let plan = search_od(&p, &budget, &mut stats).unwrap().unwrap();
        // Staying would be hit at tick 2. The cheapest detour: (2,1), (1,1),
        // (1,0), then back behind the passing unit at tick 4 (a swap through
        // (2,1) and every three-tick loop are illegal).
        assert_eq!(plan.cost, 4);
        assert_ne!(plan.paths[0][2], c(2, 0));
        assert_eq!(*plan.paths[0].last().unwrap(), c(2, 0));
    }

    #[test]
    fn a_ban_on_the_goal_keeps_the_unit_off_it_at_that_tick() {
        use crate::planner::odid::bans::{Ban, Bans};
        let g = Grid::new(3, 1, vec![true; 3], Connectivity::Four);
        let c = |x| g.cell(x, 0);
        let dist = DistanceTable::new(&g, c(2));
        let budget = Budget::start(
            &crate::planner::odid::Limits::none(),
            std::time::Instant::now(),
        );
        let mut stats = SearchStats::default();
        let mut bans = Bans::new(1);
        // Not on the goal at tick 3: reached at tick 2, it must leave again.
        bans.add(
            0,
            Ban {
                t: 2,
                to: c(2),
                from: None,
            },
        );
        let mut p = group(&g, vec![c(0)], vec![c(2)], vec![&dist]);
        p.bans = Some(&bans);
        let plan = search_od(&p, &budget, &mut stats).unwrap().unwrap();
        assert_eq!(plan.cost, 4);
        assert_ne!(plan.paths[0][3], c(2));
        assert_eq!(plan.paths[0].last(), Some(&c(2)));
        // An edge ban only forbids that one move.
        let mut bans = Bans::new(1);
        bans.add(
            0,
            Ban {
                t: 0,
                to: c(1),
                from: Some(c(0)),
            },
        );
        p.bans = Some(&bans);
        let plan = search_od(&p, &budget, &mut stats).unwrap().unwrap();
        assert_eq!(plan.cost, 3);
        assert_eq!(plan.paths[0][1], c(0));
    }

    fn group<'a>(
        grid: &'a Grid,
        starts: Vec<Cell>,
        goals: Vec<Cell>,
        dist: Vec<&'a DistanceTable>,
    ) -> GroupProblem<'a> {
        GroupProblem {
            grid,
            starts,
            goals,
            dist,
            illegal: None,
            avoid: None,
            cost_limit: None,
            floor: 0,
            merged: None,
            bans: None,
        }
    }

    #[test]
    fn split_bound_keeps_the_optimal_cost_and_skips_levels() {
        // A corridor with one side pocket: units 0 and 1 swap ends, unit 2
        // crosses the middle column; each pair must make way for the other.
        let rows = ["#.###", ".....", "#.###"];
        let g = Grid::from_rows(&rows, Connectivity::Eight).with_corner_cutting(true);
        let c = |x, y| g.cell(x, y);
        let starts = vec![c(0, 1), c(4, 1), c(1, 0)];
        let goals = vec![c(4, 1), c(0, 1), c(1, 2)];
        let dist: Vec<DistanceTable> = goals.iter().map(|&t| DistanceTable::new(&g, t)).collect();
        let budget = Budget::start(
            &crate::planner::odid::Limits::none(),
            std::time::Instant::now(),
        );
        let solve = |p: &GroupProblem| {
            let mut stats = SearchStats::default();
            let plan = search_od(p, &budget, &mut stats).unwrap().unwrap();
            (plan.cost, stats.expanded)
        };
        let part = |units: &[usize]| {
            solve(&group(
                &g,
                units.iter().map(|&u| starts[u]).collect(),
                units.iter().map(|&u| goals[u]).collect(),
                units.iter().map(|&u| &dist[u]).collect(),
            ))
            .0
        };
        let (cost_a, cost_b) = (part(&[0, 1]), part(&[2]));
        let plain = group(&g, starts.clone(), goals.clone(), dist.iter().collect());
        let (cost, expanded) = solve(&plain);
        let mut split = group(&g, starts.clone(), goals.clone(), dist.iter().collect());
        // Units 0 and 1 merged (cost_a), then merged with unit 2 (cost_b alone).
        assert_eq!(cost_b, 2);
        split.merged = Some(MergeBound::new(
            vec![
                MergeNode {
                    parts: [Part::Unit(0), Part::Unit(1)],
                    cost: cost_a as u32,
                },
                MergeNode {
                    parts: [Part::Merge(0), Part::Unit(2)],
                    cost: 0,
                },
            ],
            3,
        ));
        let (split_cost, split_expanded) = solve(&split);
        assert!(cost_a + cost_b > 4 + 4 + 1, "the pair interacts");
        assert_eq!(split_cost, cost);
        // The bound starts the search at 11 instead of the sum of distances, 10.
        assert!(split_expanded < expanded, "{split_expanded} >= {expanded}");
        // A floor at the optimal cost keeps it too.
        let mut floored = group(&g, starts, goals, dist.iter().collect());
        floored.floor = cost;
        assert_eq!(solve(&floored).0, cost);
    }
}
