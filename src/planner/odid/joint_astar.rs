//! The standard admissible algorithm: A* over joint states where one operator
//! moves every unit at once. Successors are the solutions of a small
//! constraint problem, enumerated by backtracking over the units.

use crate::map::Cell;

use super::frontier::{standard_key, Frontier, Meta};
use super::heuristic::UNREACHABLE;
use super::limits::{Budget, Stop};
use super::moves::moves_conflict;
use super::od::CLOCK_EVERY;
use super::problem::{step_cost, GroupPlan, GroupProblem};
use super::stats::SearchStats;

/// Finds an optimal plan for the group with joint-move A*, or `None` when no
/// plan exists within the problem's cost limit.
pub(crate) fn search_joint(
    p: &GroupProblem,
    budget: &Budget,
    stats: &mut SearchStats,
) -> Result<Option<GroupPlan>, Stop> {
    let mut fr = Frontier::new(p.len());
    let result = run(p, budget, &mut fr);
    stats.record(fr.expanded, fr.stored());
    result
}

/// The node being expanded and the partial joint move being built.
struct Expansion<'a> {
    p: &'a GroupProblem<'a>,
    parent: u32,
    meta: Meta,
    tick_key: u32,
    from: Vec<Cell>,
    to: Vec<Cell>,
    key: Vec<u32>,
}

fn run(p: &GroupProblem, budget: &Budget, fr: &mut Frontier) -> Result<Option<GroupPlan>, Stop> {
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
    let mut ex = Expansion {
        p,
        parent: 0,
        meta: Meta::new(0, h0, 0, 0, 0, u32::MAX),
        tick_key: 0,
        from: vec![Cell(0); k],
        to: vec![Cell(0); k],
        key: Vec::with_capacity(k + 2),
    };
    standard_key(&mut ex.key, 0, &p.starts);
    fr.push(&ex.key, &p.starts, &p.starts, ex.meta);
    while let Some(n) = fr.pop() {
        if fr.expanded % CLOCK_EVERY == 0 {
            budget.check_time()?;
        }
        budget.check_nodes(fr.stored())?;
        let m = fr.meta(n);
        ex.from.copy_from_slice(fr.post(n));
        if m.t >= settle && ex.from == p.goals {
            return Ok(Some(GroupPlan {
                paths: fr.paths_to(n),
                cost: u64::from(m.g),
            }));
        }
        ex.parent = n;
        ex.meta = m;
        ex.tick_key = (m.t + 1).min(horizon);
        assign(&mut ex, fr, budget, 0, m.g, m.h, m.conflicts)?;
    }
    Ok(None)
}

/// Assigns unit `i` every move consistent with units `..i`, recursing to the
/// next unit; a complete joint move becomes a child node. One expansion can
/// add 9^k nodes, so the budget is checked here too.
fn assign(
    ex: &mut Expansion,
    fr: &mut Frontier,
    budget: &Budget,
    i: usize,
    g: u32,
    h: u32,
    conflicts: u32,
) -> Result<(), Stop> {
    let p = ex.p;
    if i == p.len() {
        if p.cost_limit.is_some_and(|l| u64::from(g + h) > l) {
            return Ok(());
        }
        standard_key(&mut ex.key, ex.tick_key, &ex.to);
        let meta = Meta::new(g, h, conflicts, ex.meta.t + 1, 0, ex.parent);
        if fr.push(&ex.key, &ex.to, &ex.to, meta) {
            budget.check_nodes(fr.stored())?;
            if fr.stored() % 4096 == 0 {
                budget.check_time()?;
            }
        }
        return Ok(());
    }
    let from = ex.from[i];
    let mut buf = [Cell(0); 8];
    let count = p.grid.neighbors(from, &mut buf);
    let t = ex.meta.t;
    for to in std::iter::once(from).chain(buf[..count].iter().copied()) {
        if !p.allowed(i, t, from, to) {
            continue;
        }
        if (0..i).any(|j| moves_conflict(p.grid, from, to, ex.from[j], ex.to[j])) {
            continue;
        }
        let d = p.dist[i].get(to);
        if d == UNREACHABLE {
            continue;
        }
        let g2 = g + step_cost(from, to, p.goals[i]);
        let h2 = h - p.dist[i].get(from) + d;
        // Later units never lower f (the heuristic is consistent), so prune now.
        if p.cost_limit.is_some_and(|l| u64::from(g2 + h2) > l) {
            continue;
        }
        ex.to[i] = to;
        let c2 = conflicts + p.avoid_conflicts(t, from, to);
        assign(ex, fr, budget, i + 1, g2, h2, c2)?;
    }
    Ok(())
}
