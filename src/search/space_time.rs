//! Space-time A*: a single unit's search through (cell, tick) around the
//! reservations of the others, with the wait action.
//!
//! Two modes, from Silver (2005):
//! - *windowed* (WHCA*): the search stops `w` ticks ahead; every node at depth
//!   `w` gets a terminal edge to the goal costed by the true distance, and a
//!   wait on the goal costs nothing, so the cheapest window is the one that
//!   ends nearest the goal and stays there longest;
//! - *full depth* (CA*, HCA*): the search runs until the unit stands on its
//!   goal and can stay there for good; every tick costs one.
//!
//! Either way the plan's last cell must be free for the unit from its last
//! tick on (it becomes a hold), so "stay" is always a safe fallback.
//! Scratch memory is kept between searches; after warm-up a search allocates
//! nothing.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::distance::DistanceOracle;
use crate::map::{Cell, Grid, MOVE_OFFSETS};
use crate::reservation::ReservationTable;
use crate::units::Slot;

use super::node_index::NodeIndex;
use crate::queue::{WindowQueue, MAX_WINDOW_DEPTH};

/// A search's open list: nodes by f, deeper first on ties (the terminal
/// edge deepest of all), exact h before a lower bound, then first come.
trait OpenList {
    /// Queues node `id` at `f`; `depth` `None` for the terminal edge.
    fn push(&mut self, f: u32, depth: Option<u32>, exact: bool, id: u32);
    /// The next node id, and whether it is a terminal edge.
    fn pop(&mut self) -> Option<(u32, bool)>;
}

impl OpenList for BinaryHeap<Reverse<u64>> {
    #[inline]
    fn push(&mut self, f: u32, depth: Option<u32>, exact: bool, id: u32) {
        let k = match depth {
            None => key(f, u16::MAX as u32, TERMINAL | id as u64),
            Some(d) => key(f, d, if exact { 0 } else { INEXACT } | id as u64),
        };
        BinaryHeap::push(self, Reverse(k));
    }

    #[inline]
    fn pop(&mut self) -> Option<(u32, bool)> {
        BinaryHeap::pop(self).map(|Reverse(k)| ((k & ID_MASK) as u32, k & TERMINAL != 0))
    }
}

impl OpenList for WindowQueue {
    #[inline]
    fn push(&mut self, f: u32, depth: Option<u32>, exact: bool, id: u32) {
        WindowQueue::push(self, f, depth, exact, id);
    }

    #[inline]
    fn pop(&mut self) -> Option<(u32, bool)> {
        WindowQueue::pop(self)
    }
}

/// How deep a space-time search goes and how it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// WHCA*: exactly `w` ticks, then a terminal edge.
    Window(u32),
    /// CA*/HCA*: until the goal is reached and can be held, at most this many ticks.
    Full(u32),
}

/// One space-time search's inputs.
#[derive(Clone, Copy, Debug)]
pub struct SpaceTimeQuery<'a> {
    /// The searching unit (its own reservations do not block it).
    pub unit: Slot,
    /// Where it stands at `start_tick`.
    pub start: Cell,
    /// The tick the search starts from.
    pub start_tick: u32,
    /// Its destination.
    pub goal: Cell,
    /// Window or full depth.
    pub depth: Depth,
    /// Cost of waiting on the goal inside a window: 0 (Silver), or 1 when
    /// another unit has asked to pass.
    pub goal_wait_cost: u32,
    /// Give up after this many expansions.
    pub max_expansions: usize,
    /// Stop (and report [`SpaceTimeAStar::aborted`]) once this instant has
    /// passed: a tick's wall-clock budget reaches into long searches too.
    pub deadline: Option<std::time::Instant>,
    /// A promoted unit's search (Silver's unit priorities): reservations of
    /// the units this accepts count as free, at an extra cost per move that
    /// overrides them. The caller must move those units out of the way (or
    /// give up the plan) before committing it.
    pub overriding: Option<Overriding<'a>>,
}

/// Which reservations a promoted search may override, and at what cost.
#[derive(Clone, Copy)]
pub struct Overriding<'a> {
    /// Whether the reservations of this unit may be overridden.
    pub may_override: &'a (dyn Fn(Slot) -> bool + Sync),
    /// Added to the cost of a move (or of the window's last cell) that
    /// overrides a reservation, so the search goes round others when it can.
    pub cost: u32,
}

impl std::fmt::Debug for Overriding<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overriding")
            .field("cost", &self.cost)
            .finish_non_exhaustive()
    }
}

impl Overriding<'_> {
    /// Whether every unit blocking the move may be overridden.
    fn move_allowed(
        &self,
        grid: &Grid,
        table: &ReservationTable,
        a: Slot,
        from: Cell,
        to: Cell,
        tick: u32,
    ) -> bool {
        let mut ok = true;
        table.move_blockers(grid, a, from, to, tick, &mut |b| {
            ok &= (self.may_override)(b)
        });
        ok
    }

    /// Whether every unit keeping `a` from staying on `cell` may be overridden.
    fn stay_allowed(&self, table: &ReservationTable, cell: Cell, tick: u32, a: Slot) -> bool {
        let mut ok = true;
        table.stay_blockers(cell, tick, a, &mut |b| ok &= (self.may_override)(b));
        ok
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    cell: Cell,
    depth: u32,
    g: u32,
    /// Heuristic value; a lower bound until `exact`.
    h: u32,
    parent: u32,
    closed: bool,
    exact: bool,
}

/// Open-list keys pack into one `u64` so the heap compares single words:
/// bits 63..40 f, bits 39..24 `u16::MAX - depth` (deeper first on ties),
/// bit 23 set while h is only a lower bound (exact nodes first: they may
/// finish the search before the lower bounds need paying for), bit 22
/// terminal edge, bits 21..0 node id.
const INEXACT: u64 = 1 << 23;
const TERMINAL: u64 = 1 << 22;
const ID_MASK: u64 = TERMINAL - 1;
/// Most nodes one search may create (the id field's range).
const MAX_NODES: usize = ID_MASK as usize;
#[inline]
fn key(f: u32, depth: u32, item: u64) -> u64 {
    ((f.min(0xFF_FFFF) as u64) << 40)
        | (((u16::MAX as u32).saturating_sub(depth) as u64) << 24)
        | item
}

/// One search's fixed inputs, as its loop reads them.
#[derive(Clone, Copy)]
struct Run<'a, 'q> {
    grid: &'a Grid,
    table: &'a ReservationTable,
    q: &'a SpaceTimeQuery<'q>,
    end_penalty: &'a dyn Fn(Cell) -> u32,
    max_depth: u32,
    windowed: bool,
}

/// Reusable scratch for space-time searches.
#[derive(Clone, Debug, Default)]
pub struct SpaceTimeAStar {
    nodes: Vec<Node>,
    index: NodeIndex,
    /// Open list of full-depth searches and of windows deeper than
    /// [`MAX_WINDOW_DEPTH`].
    open: BinaryHeap<Reverse<u64>>,
    /// Open list of window searches.
    window_open: WindowQueue,
    /// Nodes expanded by the last search.
    pub expanded: usize,
    /// Whether the last search stopped at its deadline (no answer either way).
    pub aborted: bool,
}

impl SpaceTimeAStar {
    /// Empty scratch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Scratch with room for searches of up to `nodes` nodes, so they never
    /// allocate.
    pub fn with_capacity(nodes: usize) -> Self {
        SpaceTimeAStar {
            nodes: Vec::with_capacity(nodes),
            open: BinaryHeap::with_capacity(nodes),
            ..Self::default()
        }
    }

    /// Readies the scratch for window searches `window` ticks deep on
    /// `grid`: sizes the node index and writes once through the node,
    /// index and open-list memory, so that the first searches (a game's
    /// initial planning) neither allocate nor fault in fresh pages.
    pub fn prepare(&mut self, grid: &Grid, window: u32) {
        self.index
            .reset(grid, Cell(0), Some(window), window as usize + 1);
        self.index.touch();
        self.nodes.resize(self.nodes.capacity(), Node::default());
        self.nodes.clear();
        if window <= MAX_WINDOW_DEPTH {
            // f rises by at most 2 a tick (3 against a lane), plus the
            // terminal edge's penalty and overriding costs: room for four
            // levels a tick.
            self.window_open
                .reserve(self.nodes.capacity(), 4 * window as usize + 8, window);
        }
        let mut open = std::mem::take(&mut self.open).into_vec();
        open.resize(open.capacity(), Reverse(0));
        open.clear();
        self.open = BinaryHeap::from(open);
    }

    /// Adds node (cell, depth), not seen before, under index `slot`; `None`
    /// if the search is out of node ids.
    #[inline(always)]
    fn add_node(
        &mut self,
        slot: u64,
        cell: Cell,
        depth: u32,
        g: u32,
        parent: u32,
        h: (u32, bool),
    ) -> Option<u32> {
        if self.nodes.len() >= MAX_NODES {
            return None;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            cell,
            depth,
            g,
            h: h.0,
            parent,
            closed: false,
            exact: h.1,
        });
        self.index.insert(slot, id);
        Some(id)
    }

    /// Searches for a plan; on success writes it (one cell per tick, starting
    /// with `q.start` at `q.start_tick`) into `path` and returns true.
    ///
    /// `h(cell)` is the heuristic (true distance for HCA*/WHCA*, Manhattan for
    /// CA*; for windows it also prices the terminal edge). `end_penalty(cell)`
    /// is added to a window's terminal edge (used to make way for requests).
    pub fn search<H: DistanceOracle + ?Sized>(
        &mut self,
        grid: &Grid,
        table: &ReservationTable,
        q: &SpaceTimeQuery<'_>,
        h: &mut H,
        end_penalty: &dyn Fn(Cell) -> u32,
        path: &mut Vec<Cell>,
    ) -> bool {
        path.clear();
        self.nodes.clear();
        self.expanded = 0;
        self.aborted = false;
        let (max_depth, windowed) = match q.depth {
            Depth::Window(w) => (w, true),
            Depth::Full(d) => (d, false),
        };
        let max_depth = max_depth
            .min(table.last_tick().saturating_sub(q.start_tick))
            .min(u16::MAX as u32 - 1);
        self.index.reset(
            grid,
            q.start,
            windowed.then_some(max_depth),
            max_depth as usize + 1,
        );
        let h0 = h.exact(q.start);
        if h.paused() {
            self.aborted = true;
            return false;
        }
        if h0 == u32::MAX {
            return false;
        }
        let root_slot = self.index.key(q.start, grid.xy(q.start), 0);
        let root = self
            .add_node(root_slot, q.start, 0, 0, u32::MAX, (h0, true))
            .expect("fresh scratch");
        let run = Run {
            grid,
            table,
            q,
            end_penalty,
            max_depth,
            windowed,
        };
        if windowed && max_depth <= MAX_WINDOW_DEPTH {
            let mut open = std::mem::take(&mut self.window_open);
            open.reset(max_depth, h0);
            OpenList::push(&mut open, h0, Some(0), true, root);
            let found = self.run(&mut open, &run, h, path);
            self.window_open = open;
            found
        } else {
            let mut open = std::mem::take(&mut self.open);
            open.clear();
            OpenList::push(&mut open, h0, Some(0), true, root);
            let found = self.run(&mut open, &run, h, path);
            self.open = open;
            found
        }
    }

    /// The search loop of [`Self::search`], over either open list.
    #[inline(always)]
    fn run<O: OpenList, H: DistanceOracle + ?Sized>(
        &mut self,
        open: &mut O,
        run: &Run<'_, '_>,
        h: &mut H,
        path: &mut Vec<Cell>,
    ) -> bool {
        let Run {
            grid,
            table,
            q,
            end_penalty,
            max_depth,
            windowed,
        } = *run;
        let goal_xy = grid.xy(q.goal);
        let mut buf = [Cell(0); 8];
        let mut pops = 0u32;
        while let Some((item, terminal)) = open.pop() {
            // The clock every 64 nodes popped, not expanded: in a crowd,
            // most ends of a window are taken for good, and a search can pop
            // many of them (each a read of every layer of the table), or
            // nodes priced on lower bounds, between two expansions.
            pops = pops.wrapping_add(1);
            if pops % 64 == 0 && q.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                self.aborted = true;
                return false;
            }
            if terminal {
                let id = item;
                let n = self.nodes[id as usize];
                let tick = q.start_tick + n.depth;
                if table.free_from(n.cell, tick, q.unit)
                    || q.overriding
                        .is_some_and(|o| o.stay_allowed(table, n.cell, tick, q.unit))
                {
                    self.reconstruct(id, path);
                    return true;
                }
                continue;
            }
            let n = self.nodes[item as usize];
            if n.closed {
                continue;
            }
            if !n.exact {
                // Popped on a lower bound: now pay for the true distance, and
                // go back in the queue if it raised f.
                let e = h.exact(n.cell);
                if h.paused() {
                    self.aborted = true;
                    return false;
                }
                let node = &mut self.nodes[item as usize];
                node.exact = true;
                if e == u32::MAX {
                    node.closed = true;
                    continue;
                }
                if e > n.h {
                    node.h = e;
                    open.push(n.g + e, Some(n.depth), true, item);
                    continue;
                }
            }
            let n = self.nodes[item as usize];
            self.nodes[item as usize].closed = true;
            self.expanded += 1;
            if self.expanded > q.max_expansions {
                return false;
            }
            let tick = q.start_tick + n.depth;
            if !windowed && n.cell == q.goal && table.free_from(n.cell, tick, q.unit) {
                self.reconstruct(item, path);
                return true;
            }
            if windowed && n.depth == max_depth {
                // The terminal edge, priced by the (now exact) true distance.
                let f = n.g.saturating_add(n.h).saturating_add(end_penalty(n.cell));
                open.push(f, None, true, item);
                continue;
            }
            if n.depth >= max_depth {
                continue;
            }
            let depth = n.depth + 1;
            if table.wants_prefetch() {
                // Start every reservation load this expansion will need, so
                // their cache misses overlap instead of queueing behind each
                // check.
                let count = grid.neighbors(n.cell, &mut buf);
                for &c in &buf[..count] {
                    table.prefetch(c, tick + 1);
                    table.prefetch(c, tick);
                    table.prefetch_cell(c, tick + 1);
                    h.prefetch(c);
                }
                table.prefetch(n.cell, tick + 1);
            }
            let step_view = table.step(tick);
            // Moves (in move-bit order), then the wait action, each with its
            // cell's coordinates carried from this node's.
            let pxy = grid.xy(n.cell);
            let mut bits = grid.move_bits(n.cell);
            let mut waited = false;
            loop {
                let (next, nxy, step) = if bits != 0 {
                    let k = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let (dx, dy) = MOVE_OFFSETS[k];
                    (
                        Cell((n.cell.0 as i64 + grid.move_delta(k)) as u32),
                        (pxy.0.wrapping_add_signed(dx), pxy.1.wrapping_add_signed(dy)),
                        grid.move_cost(n.cell, k),
                    )
                } else if !waited {
                    waited = true;
                    let wait = if windowed && n.cell == q.goal {
                        q.goal_wait_cost
                    } else {
                        1
                    };
                    (n.cell, pxy, wait)
                } else {
                    break;
                };
                // A node already closed, or reached as cheaply, needs no
                // legality check and no distance: look it up first.
                let slot = self.index.key(next, nxy, depth);
                let seen = self.index.get(slot);
                if let Some(id) = seen {
                    let m = &self.nodes[id as usize];
                    if m.closed || m.g <= n.g + step {
                        continue;
                    }
                }
                let mut overridden = 0;
                if !step_view.move_is_free(grid, q.unit, n.cell, next) {
                    match q.overriding {
                        Some(o) if o.move_allowed(grid, table, q.unit, n.cell, next, tick) => {
                            overridden = o.cost;
                        }
                        _ => continue,
                    }
                }
                let g = n.g + step + overridden;
                let (id, hn, exact) = match seen {
                    Some(id) => {
                        let m = &mut self.nodes[id as usize];
                        if m.g <= g {
                            continue;
                        }
                        m.g = g;
                        m.parent = item;
                        (id, m.h, m.exact)
                    }
                    None => {
                        let (hn, exact) = if next == n.cell {
                            (n.h, true)
                        } else {
                            match self.index.estimate(h, next, nxy) {
                                Some(u32::MAX) => continue,
                                Some(d) => (d, true),
                                // One move changes the true distance by at
                                // most its cost.
                                None => (
                                    n.h.saturating_sub(step)
                                        .max(grid.grid_distance_xy(nxy, goal_xy)),
                                    false,
                                ),
                            }
                        };
                        let Some(id) = self.add_node(slot, next, depth, g, item, (hn, exact))
                        else {
                            continue;
                        };
                        (id, hn, exact)
                    }
                };
                open.push(g + hn, Some(depth), exact, id);
            }
        }
        false
    }

    fn reconstruct(&self, mut id: u32, path: &mut Vec<Cell>) {
        loop {
            let n = self.nodes[id as usize];
            path.push(n.cell);
            if n.parent == u32::MAX {
                break;
            }
            id = n.parent;
        }
        path.reverse();
    }
}
