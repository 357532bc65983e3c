//! The windowed space-time search over a unit's actions, each checked
//! entry by entry against the reservation table, with the way other units
//! asked for priced into the window's end.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::action::ActionSet;
use super::body::body;
use super::planner::PlannedAction;
use crate::agents::AgentId;
use crate::distance::{ReverseResumableAStar, UNREACHABLE};
use crate::map::{Cell, Grid};
use crate::reservation::ReservationTable;

/// Expansions one window search may make, per tick of the window.
const EXPANSIONS_PER_TICK: usize = 512;

/// What one window search is for.
#[derive(Clone, Copy)]
pub(super) struct SearchGoal<'a> {
    pub(super) agent: AgentId,
    /// Anchor and tick the window starts from.
    pub(super) from: Cell,
    pub(super) start: u32,
    pub(super) goal: Cell,
    pub(super) window: u32,
    /// Cost of a tick waiting on the goal: 0 (Silver), 1 when asked to make way.
    pub(super) goal_wait_cost: u32,
    /// The way others asked of this unit.
    pub(super) asks: Asks<'a>,
}

/// Way asked for on a cell: by whom, when, and how many steps along the
/// asker's route it lies.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ask {
    pub(super) asker: u32,
    pub(super) tick: u32,
    pub(super) rank: u32,
}

/// The asks as one unit's search sees them.
#[derive(Clone, Copy)]
pub(super) struct Asks<'a> {
    pub(super) map: &'a FxHashMap<Cell, Ask>,
    pub(super) now: u32,
    /// The planner's window, in steps: asks older than that are void.
    pub(super) window: u32,
    pub(super) agent: AgentId,
    /// Whether the unit stands on its goal (then it makes way for anyone).
    pub(super) parked: bool,
    /// The unit's ticks per step: penalties are in ticks, like its costs.
    pub(super) pace: u32,
}

impl Asks<'_> {
    /// What ending a window with the body on `cell` costs the unit: twice
    /// the steps left of the window beyond the asker's rank (in the unit's
    /// ticks, so a step back along the route always pays), if another
    /// unit asked for the cell within a window, and this unit is parked on
    /// its goal or the asker comes first (a lower id; two units blocking
    /// each other head-on would otherwise both wait for the other). Cells
    /// further along the asker's route cost less, so a unit that cannot
    /// leave the route within one window backs along it, ahead of the
    /// asker, until it can; off the route it costs nothing.
    pub(super) fn penalty(&self, cell: Cell) -> u32 {
        match self.map.get(&cell) {
            Some(k)
                if k.asker != self.agent.0
                    && k.tick + self.window >= self.now
                    && (self.parked || k.asker < self.agent.0) =>
            {
                2 * self.pace * (self.window + 1 - k.rank.min(self.window))
            }
            _ => 0,
        }
    }
}

/// Scratch for the windowed space-time search over actions.
#[derive(Default)]
pub(super) struct FootprintSearch {
    nodes: Vec<Node>,
    index: FxHashMap<(u32, u32), u32>,
    open: BinaryHeap<Reverse<(u32, u32, u32, bool)>>,
}

#[derive(Clone, Copy)]
struct Node {
    cell: Cell,
    tick: u32,
    g: u32,
    parent: u32,
    action: u16,
    closed: bool,
}

impl FootprintSearch {
    /// The cheapest actions from `from` at tick `t` over a window of
    /// `window` ticks, or `None`.
    pub(super) fn run(
        &mut self,
        grid: &Grid,
        fits: &Grid,
        table: &ReservationTable,
        set: &ActionSet,
        rra: &mut ReverseResumableAStar,
        q: SearchGoal<'_>,
    ) -> Option<Vec<PlannedAction>> {
        let SearchGoal {
            agent: a,
            from,
            start: t,
            goal,
            window,
            goal_wait_cost,
            ..
        } = q;
        self.nodes.clear();
        self.index.clear();
        self.open.clear();
        let pace = set.shape.ticks_per_move.max(1);
        let size = set.shape.size;
        let h = |rra: &mut ReverseResumableAStar, c: Cell| {
            let d = rra.distance(fits, c);
            (d != UNREACHABLE).then(|| d * pace)
        };
        let last = table.last_tick();
        let h0 = h(rra, from)?;
        self.nodes.push(Node {
            cell: from,
            tick: t,
            g: 0,
            parent: u32::MAX,
            action: 0,
            closed: false,
        });
        self.index.insert((from.0, 0), 0);
        // (f, -depth as tie-break via u32::MAX - tick, id, terminal)
        self.open.push(Reverse((h0, u32::MAX - t, 0, false)));
        let holdable =
            |c: Cell, tick: u32| body(grid, c, size).all(|b| table.free_from(b, tick, a));
        let mut expanded = 0;
        while let Some(Reverse((_, _, id, terminal))) = self.open.pop() {
            let n = self.nodes[id as usize];
            if terminal {
                if holdable(n.cell, n.tick) {
                    return Some(self.reconstruct(id));
                }
                continue;
            }
            if n.closed {
                continue;
            }
            self.nodes[id as usize].closed = true;
            expanded += 1;
            if expanded > EXPANSIONS_PER_TICK * window as usize {
                return None;
            }
            let hn = h(rra, n.cell)?;
            if goal_wait_cost == 0 && n.cell == goal && holdable(n.cell, n.tick) {
                return Some(self.reconstruct(id));
            }
            if n.tick >= t + window {
                let penalty = body(grid, n.cell, size)
                    .map(|c| q.asks.penalty(c))
                    .max()
                    .unwrap_or(0);
                self.open.push(Reverse((n.g + hn + penalty, 0, id, true)));
                continue;
            }
            for (k, act) in set.actions.iter().enumerate() {
                let end = n.tick + act.duration;
                if end > last {
                    continue;
                }
                let Some(to) = act.target(grid, n.cell) else {
                    continue;
                };
                if !fits.is_passable(to) {
                    continue;
                }
                let free = act.for_each_entry(grid, n.cell, n.tick, &mut |c, tick| {
                    table.is_free(c, tick, a)
                });
                if !free {
                    continue;
                }
                let Some(hto) = h(rra, to) else {
                    continue;
                };
                let cost = if act.is_wait() && n.cell == goal {
                    goal_wait_cost
                } else {
                    act.duration
                };
                let g = n.g + cost;
                let key = (to.0, end - t);
                let id2 = match self.index.get(&key) {
                    Some(&j) => {
                        let m = &mut self.nodes[j as usize];
                        if m.closed || m.g <= g {
                            continue;
                        }
                        m.g = g;
                        m.parent = id;
                        m.action = k as u16;
                        j
                    }
                    None => {
                        let j = self.nodes.len() as u32;
                        self.nodes.push(Node {
                            cell: to,
                            tick: end,
                            g,
                            parent: id,
                            action: k as u16,
                            closed: false,
                        });
                        self.index.insert(key, j);
                        j
                    }
                };
                self.open
                    .push(Reverse((g + hto, u32::MAX - end, id2, false)));
            }
        }
        None
    }

    fn reconstruct(&self, mut id: u32) -> Vec<PlannedAction> {
        let mut out = Vec::new();
        while self.nodes[id as usize].parent != u32::MAX {
            let n = self.nodes[id as usize];
            let p = self.nodes[n.parent as usize];
            out.push(PlannedAction {
                start: p.tick,
                from: p.cell,
                action: n.action,
            });
            id = n.parent;
        }
        out.reverse();
        out
    }
}
