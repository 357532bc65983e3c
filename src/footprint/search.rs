//! The windowed space-time search of a unit with a footprint: A* over its
//! actions (waits, steps, curves), each legal only if every reservation
//! entry it sweeps is free in the shared table, guided by true distances
//! on the grid of anchors where its body fits. Silver's WHCA* for one unit,
//! with his footprints in place of cells.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use super::action::{ActionMasks, ActionSet};
use super::body::body;
use super::motion::Motion;
use crate::distance::UNREACHABLE;
use crate::map::{Cell, Grid};
use crate::reservation::ReservationTable;
use crate::search::NodeIndex;
use crate::units::Slot;

/// What one window search is for.
#[derive(Clone, Copy, Debug)]
pub struct FootprintQuery {
    /// The unit searching.
    pub unit: Slot,
    /// Its anchor at `start_tick`, where an action may start.
    pub from: Cell,
    /// The tick the search starts at.
    pub start_tick: u32,
    /// The anchor it is bound for.
    pub goal: Cell,
    /// Ticks the window covers: a node that deep closes it.
    pub window: u32,
    /// Cost of a tick waiting on the goal: 0 (Silver), 1 when asked to
    /// make way.
    pub goal_wait_cost: u32,
    /// Expansions before the search gives up.
    pub max_expansions: usize,
    /// Wall-clock time when the search gives up (`aborted`).
    pub deadline: Option<Instant>,
}

/// Which other units' reservations a search may plan through, and at what
/// price: the units that give way to this one (one-cell units, for a body
/// that has right of way over them). The committer then moves them out of
/// the way (see the planner's right of way) or drops the plan.
#[derive(Clone, Copy)]
pub struct Yielding<'a> {
    /// Whether unit `b` gives way.
    pub yields: &'a dyn Fn(Slot) -> bool,
    /// Extra cost of an action through their reservations.
    pub cost: u32,
    /// First tick whose reservations may be planned through: the units
    /// stand where they stand now.
    pub from: u32,
}

#[derive(Clone, Copy)]
struct Node {
    cell: Cell,
    tick: u32,
    g: u32,
    /// The estimate from here on, computed once when the node was made.
    h: u32,
    parent: u32,
    action: u16,
    closed: bool,
}

/// Scratch of the footprint search, reused from search to search.
#[derive(Default)]
pub struct FootprintSearch {
    nodes: Vec<Node>,
    /// (anchor, tick from the start) → node, and each anchor's estimate:
    /// dense over the box the window reaches (with a hash map of nodes and
    /// a distance asked at every action, bodies' searches took 6% more
    /// instructions).
    index: NodeIndex,
    open: BinaryHeap<Reverse<(u32, u32, u32, bool)>>,
    chain: Vec<u32>,
    /// Per tick from a node's on, the cells of the square around it (see
    /// [`ActionMasks`]) that are not free.
    blocked: Vec<u64>,
    /// Per tick, the cells of that square taken only by units that give
    /// way (see [`Yielding`]).
    soft: Vec<u64>,
    /// Nodes expanded by the last search.
    pub expanded: usize,
    /// Whether the last search stopped at its deadline.
    pub aborted: bool,
}

impl FootprintSearch {
    /// Searches `q`'s window for a unit doing `set`'s actions: every entry
    /// of each action free in `table` (on open cells of `grid`), anchors on
    /// open cells of `fits`, the window's end priced by `distance` (steps to
    /// the goal on `fits`, [`UNREACHABLE`] if none) times the unit's pace
    /// plus `penalty` of the cells its body ends on. Appends the plan to
    /// `path` and `motions` (the anchor and motion at each tick from the
    /// start's on) and returns whether it found one; the plan ends where the
    /// body can stay for good. With `yielding`, actions may also pass
    /// through the reservations of units that give way, at its cost (the
    /// plan's end still free for good); not for kinds without action masks.
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        &mut self,
        grid: &Grid,
        fits: &Grid,
        table: &ReservationTable,
        set: &ActionSet,
        distance: &mut dyn FnMut(Cell) -> u32,
        penalty: &dyn Fn(Cell) -> u32,
        q: &FootprintQuery,
        yielding: Option<&Yielding>,
        path: &mut Vec<Cell>,
        motions: &mut Vec<u8>,
    ) -> bool {
        self.nodes.clear();
        self.open.clear();
        self.expanded = 0;
        self.aborted = false;
        let a = q.unit;
        let t0 = q.start_tick;
        let pace = set.shape.pace.max(1) as u32;
        let size = set.shape.size as u32;
        let mut h = |c: Cell| {
            let d = distance(c);
            (d != UNREACHABLE).then(|| d * pace)
        };
        let last = table.last_tick();
        let (longest, masks) = (set.longest(), set.masks());
        // Nodes lie at most `window - 1 + longest` ticks from the start,
        // and an anchor moves at most one cell a tick.
        let depths = q.window + longest;
        self.index
            .reset(grid, q.from, Some(depths), depths as usize + 1);
        let from_xy = grid.xy(q.from);
        let Some(h0) = self.index.remember(q.from, from_xy, || h(q.from)) else {
            return false;
        };
        self.nodes.push(Node {
            cell: q.from,
            tick: t0,
            g: 0,
            h: h0,
            parent: u32::MAX,
            action: 0,
            closed: false,
        });
        let root = self.index.key(q.from, from_xy, 0);
        self.index.insert(root, 0);
        // (f, deeper first, node, whether it closes the window)
        self.open.push(Reverse((h0, u32::MAX - t0, 0, false)));
        let holdable =
            |c: Cell, tick: u32| body(grid, c, size).all(|b| table.free_from(b, tick, a));
        while let Some(Reverse((_, _, id, terminal))) = self.open.pop() {
            let n = self.nodes[id as usize];
            if terminal {
                if holdable(n.cell, n.tick) {
                    self.write(id, set, grid, path, motions);
                    return true;
                }
                continue;
            }
            if n.closed {
                continue;
            }
            self.nodes[id as usize].closed = true;
            self.expanded += 1;
            if self.expanded > q.max_expansions {
                return false;
            }
            // A body's node reads a square of the table over several ticks
            // and asks for a dozen distances: the clock every few nodes
            // (every 64, a 3×3 body's search ran 0.4 ms past its deadline).
            if self.expanded % 8 == 0 && q.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
                return false;
            }
            let hn = n.h;
            if q.goal_wait_cost == 0 && n.cell == q.goal && holdable(n.cell, n.tick) {
                self.write(id, set, grid, path, motions);
                return true;
            }
            if n.tick >= t0 + q.window {
                let end_penalty = body(grid, n.cell, size).map(penalty).max().unwrap_or(0);
                self.open
                    .push(Reverse((n.g + hn + end_penalty, 0, id, true)));
                continue;
            }
            if let Some(m) = masks {
                let ticks = longest.min(last - n.tick);
                read_square(
                    grid,
                    table,
                    a,
                    size,
                    m,
                    n.cell,
                    n.tick,
                    ticks,
                    &mut self.blocked,
                    yielding,
                    &mut self.soft,
                );
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
                let free = match masks {
                    Some(m) => m.ticks[k]
                        .iter()
                        .zip(&self.blocked)
                        .all(|(&cells, &taken)| cells & taken == 0),
                    None => act.for_each_entry(grid, n.cell, n.tick, &mut |c, tick| {
                        table.is_free(c, tick, a)
                    }),
                };
                if !free {
                    continue;
                }
                let overrides = match (masks, yielding) {
                    (Some(m), Some(y)) => m.ticks[k]
                        .iter()
                        .zip(&self.soft)
                        .any(|(&cells, &taken)| cells & taken != 0)
                        .then_some(y.cost),
                    _ => None,
                };
                let cost = if act.is_wait() && n.cell == q.goal {
                    q.goal_wait_cost
                } else {
                    act.duration
                } + overrides.unwrap_or(0);
                let g = n.g + cost;
                let xy = grid.xy(to);
                debug_assert!(self.index.covers(xy), "an anchor beyond the window's box");
                let key = self.index.key(to, xy, end - t0);
                let (id2, hto) = match self.index.get(key) {
                    Some(j) => {
                        let m = &mut self.nodes[j as usize];
                        if m.closed || m.g <= g {
                            continue;
                        }
                        m.g = g;
                        m.parent = id;
                        m.action = k as u16;
                        (j, m.h)
                    }
                    None => {
                        let Some(hto) = self.index.remember(to, xy, || h(to)) else {
                            continue;
                        };
                        let j = self.nodes.len() as u32;
                        self.nodes.push(Node {
                            cell: to,
                            tick: end,
                            g,
                            h: hto,
                            parent: id,
                            action: k as u16,
                            closed: false,
                        });
                        self.index.insert(key, j);
                        (j, hto)
                    }
                };
                self.open
                    .push(Reverse((g + hto, u32::MAX - end, id2, false)));
            }
        }
        false
    }

    /// Appends the plan ending at node `id` as anchors and motions.
    fn write(
        &mut self,
        mut id: u32,
        set: &ActionSet,
        grid: &Grid,
        path: &mut Vec<Cell>,
        motions: &mut Vec<u8>,
    ) {
        self.chain.clear();
        while id != u32::MAX {
            self.chain.push(id);
            id = self.nodes[id as usize].parent;
        }
        let pace = set.shape.pace.max(1) as usize;
        for k in (1..self.chain.len()).rev() {
            let from = self.nodes[self.chain[k] as usize];
            let to = self.nodes[self.chain[k - 1] as usize];
            let act = &set.actions[to.action as usize];
            if act.is_wait() {
                path.push(from.cell);
                motions.push(Motion::STILL.0);
                continue;
            }
            let (x, y) = grid.xy(from.cell);
            let mut at = (0, 0);
            for (j, &w) in act.waypoints.iter().enumerate() {
                let d = (w.0 - at.0, w.1 - at.1);
                let anchor = grid.cell((x as i32 + at.0) as u32, (y as i32 + at.1) as u32);
                for tick in 0..pace {
                    path.push(anchor);
                    motions.push(Motion::new(d, j == 0 && tick == 0).0);
                }
                at = w;
            }
        }
        let end = self.nodes[self.chain[0] as usize];
        path.push(end.cell);
        motions.push(Motion::STILL.0);
    }
}

/// The window straight down a body's true distances, if it is free: at
/// each node a one-cell step of `set` to an anchor one closer to the goal
/// (by `known`, the distances already known: no search runs for them), or
/// on the goal a wait, every entry free in `table`; it ends as
/// [`FootprintSearch::search`]'s plans do, on the goal where the body can
/// stay for good, or at the window's end where it can, on no cell `penalty`
/// prices. Appends the plan to `path` and `motions` as the search does and
/// returns whether there was one (appending nothing otherwise). Its cost
/// never rises above the start's estimate, so it is a best window: most
/// windows of a body in open ground, found in a few table reads instead
/// of a search over actions. For `q.goal_wait_cost == 0` only.
#[allow(clippy::too_many_arguments)]
pub fn straight_window(
    grid: &Grid,
    fits: &Grid,
    table: &ReservationTable,
    set: &ActionSet,
    known: &dyn Fn(Cell) -> Option<u32>,
    penalty: &dyn Fn(Cell) -> u32,
    q: &FootprintQuery,
    path: &mut Vec<Cell>,
    motions: &mut Vec<u8>,
) -> bool {
    debug_assert_eq!(q.goal_wait_cost, 0);
    let (len0, motions0) = (path.len(), motions.len());
    let size = set.shape.size as u32;
    let last = table.last_tick();
    let holdable =
        |c: Cell, tick: u32| body(grid, c, size).all(|b| table.free_from(b, tick, q.unit));
    let free = |act: &super::Action, from: Cell, tick: u32| {
        tick + act.duration <= last
            && act.for_each_entry(grid, from, tick, &mut |c, t| table.is_free(c, t, q.unit))
    };
    let Some(mut d) = known(q.from) else {
        return false;
    };
    let (mut cur, mut tick) = (q.from, q.start_tick);
    let ok = loop {
        if cur == q.goal && holdable(cur, tick) {
            break true;
        }
        if tick >= q.start_tick + q.window {
            break holdable(cur, tick) && body(grid, cur, size).all(|c| penalty(c) == 0);
        }
        let next = if d == 0 {
            set.actions
                .iter()
                .find(|act| act.is_wait() && free(act, cur, tick))
                .map(|act| (act, cur))
        } else {
            set.actions.iter().find_map(|act| {
                let to = act.target(grid, cur)?;
                (act.waypoints.len() == 1
                    && fits.is_passable(to)
                    && known(to) == Some(d - 1)
                    && free(act, cur, tick))
                .then_some((act, to))
            })
        };
        let Some((act, to)) = next else {
            break false;
        };
        if act.is_wait() {
            path.push(cur);
            motions.push(Motion::STILL.0);
        } else {
            for k in 0..act.duration {
                path.push(cur);
                motions.push(Motion::new((act.dx, act.dy), k == 0).0);
            }
            d -= 1;
        }
        cur = to;
        tick += act.duration;
    };
    if ok {
        path.push(cur);
        motions.push(Motion::STILL.0);
    } else {
        path.truncate(len0);
        motions.truncate(motions0);
    }
    ok
}

/// Fills `blocked` (ticks `0..=ticks` from `tick` on) with the cells of
/// the square of `masks` around anchor `at` that unit `a` may not enter:
/// off the map or closed at every tick, else taken in `table` at that
/// tick. The body's own cells at `tick` are not read: the action that
/// reached the node (or the unit's own plan, at the search's start) has
/// them. With `yielding`, cells taken only by units that give way, from
/// its first tick on, go to its `soft` bits instead of `blocked`.
#[allow(clippy::too_many_arguments)]
fn read_square(
    grid: &Grid,
    table: &ReservationTable,
    a: Slot,
    size: u32,
    masks: &ActionMasks,
    at: Cell,
    tick: u32,
    ticks: u32,
    blocked: &mut Vec<u64>,
    yielding: Option<&Yielding>,
    soft: &mut Vec<u64>,
) {
    blocked.clear();
    blocked.resize(ticks as usize + 1, 0);
    soft.clear();
    soft.resize(ticks as usize + 1, 0);
    // Whether unit `b`'s reservation at `t` may be planned through.
    let gives_way = |b: Slot, t: u32| yielding.is_some_and(|y| t >= y.from && (y.yields)(b));
    let (x, y) = grid.xy(at);
    let (r, side) = (masks.reach as i64, masks.side);
    let body = masks.reach..masks.reach + size;
    let row_bits = (1u64 << side) - 1;
    // The square's columns on the map: `i0..i1` of `0..side`.
    let x0 = x as i64 - r;
    let i0 = (-x0).max(0) as u32;
    let i1 = (grid.width() as i64 - x0).min(side as i64) as u32;
    for j in 0..side {
        let row = row_bits << (j * side);
        let yy = y as i64 + j as i64 - r;
        if yy < 0 || yy >= grid.height() as i64 || i0 >= i1 {
            blocked.iter_mut().for_each(|b| *b |= row);
            continue;
        }
        let on_map = (row_bits >> i0 << i0) & (row_bits >> (side - i1)) & row_bits;
        let mut walls = row_bits & !on_map;
        // The body's own cells at the first tick are left out.
        let own = if body.contains(&j) {
            ((1u64 << size) - 1) << masks.reach
        } else {
            0
        };
        let first = grid.cell((x0 + i0 as i64) as u32, yy as u32);
        for i in i0..i1 {
            let c = Cell(first.0 + (i - i0));
            if !grid.is_passable(c) {
                walls |= 1 << i;
                continue;
            }
            // A hold blocks every tick from its first on: one load a cell.
            if let Some((b, from)) = table.hold(c) {
                if b != a {
                    let skip = u32::from(own >> i & 1 != 0);
                    for k in from.saturating_sub(tick).max(skip)..=ticks {
                        let bit = 1 << (i + j * side);
                        if gives_way(b, tick + k) {
                            soft[k as usize] |= bit;
                        } else {
                            blocked[k as usize] |= bit;
                        }
                    }
                }
            }
        }
        if walls != 0 {
            blocked.iter_mut().for_each(|b| *b |= walls << (j * side));
        }
        // Claims: one or two words of claim bits a row and tick; only set
        // bits on open cells read their slots.
        for k in 0..=ticks {
            let mut bits = table.claim_bits(first, i1 - i0, tick + k) << i0 & !walls;
            if k == 0 {
                bits &= !own;
            }
            while bits != 0 {
                let i = bits.trailing_zeros();
                bits &= bits - 1;
                let c = Cell(first.0 + (i - i0));
                match table.layer_owner(c, tick + k).filter(|&b| b != a) {
                    Some(b) if gives_way(b, tick + k) => soft[k as usize] |= 1 << (i + j * side),
                    Some(_) => blocked[k as usize] |= 1 << (i + j * side),
                    None => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{generate_map, Connectivity};
    use crate::units::UnitKind;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A window of 24 ticks from `from` to `goal` for unit 0, from tick 0.
    fn query(from: Cell, goal: Cell) -> FootprintQuery {
        FootprintQuery {
            unit: Slot(0),
            from,
            start_tick: 0,
            goal,
            window: 24,
            goal_wait_cost: 0,
            max_expansions: 100_000,
            deadline: None,
        }
    }

    /// On open ground the straight window is as cheap as the search's
    /// best (the same cost, the plan ending on the goal), with the same
    /// anchors and motions; a claim on the way leaves it to the search,
    /// appending nothing.
    #[test]
    fn the_straight_window_is_a_best_one_and_steps_aside_for_claims() {
        let grid = Grid::from_rows(&["............"; 6], Connectivity::Four);
        let kind = UnitKind::new(2, 2);
        let set = ActionSet::for_kind(kind, Connectivity::Four);
        let fits = crate::footprint::fit_grid(&grid, 2);
        let goal = grid.cell(8, 1);
        let dist = crate::distance::bfs_distances(&fits, goal);
        let known = |c: Cell| Some(dist[c.index()]).filter(|&d| d != UNREACHABLE);
        let q = query(grid.cell(0, 1), goal);
        let table = ReservationTable::new(grid.cell_count(), 32, 4096);
        // The plan after the start's cell, if straight.
        let straight = |table: &ReservationTable| {
            let (mut path, mut motions) = (vec![q.from], vec![0u8]);
            let found = straight_window(
                &grid,
                &fits,
                table,
                &set,
                &known,
                &|_| 0,
                &q,
                &mut path,
                &mut motions,
            );
            (found, path, motions)
        };
        let (found, path, motions) = straight(&table);
        assert!(found);
        // Eight steps of two ticks, then the goal.
        assert_eq!(path.len(), 1 + 8 * 2 + 1);
        assert_eq!(path.last(), Some(&goal));
        let (mut p2, mut m2) = (vec![q.from], vec![0u8]);
        let mut search = FootprintSearch::default();
        let mut distance = |c: Cell| dist[c.index()];
        assert!(search.search(
            &grid,
            &fits,
            &table,
            &set,
            &mut distance,
            &|_| 0,
            &q,
            None,
            &mut p2,
            &mut m2
        ));
        assert_eq!((&path, &motions), (&p2, &m2));
        // Someone's claim on the row at tick 5: no straight window, and
        // nothing appended.
        table.claim(grid.cell(4, 2), 5, Slot(1), 0).unwrap();
        let (found, path, motions) = straight(&table);
        assert!(!found);
        assert_eq!((path.len(), motions.len()), (1, 1));
    }

    /// With right of way over a unit, a body's plan passes through that
    /// unit's hold, at the price of each action touching it, and reaches
    /// its goal as on an empty row; over a unit that does not give way, or
    /// through a reservation before the first tick it may override, no plan
    /// gets past.
    #[test]
    fn a_body_with_right_of_way_plans_through_units_that_give_way() {
        let grid = Grid::from_rows(&["............"; 2], Connectivity::Four);
        let kind = UnitKind::new(2, 1);
        let set = ActionSet::for_kind(kind, Connectivity::Four);
        let fits = crate::footprint::fit_grid(&grid, 2);
        let goal = grid.cell(8, 0);
        let dist = crate::distance::bfs_distances(&fits, goal);
        let q = query(grid.cell(0, 0), goal);
        let plan = |table: &ReservationTable, yielding: Option<&Yielding>| {
            let (mut path, mut motions) = (vec![q.from], vec![0u8]);
            let mut search = FootprintSearch::default();
            let mut distance = |c: Cell| dist[c.index()];
            let found = search.search(
                &grid,
                &fits,
                table,
                &set,
                &mut distance,
                &|_| 0,
                &q,
                yielding,
                &mut path,
                &mut motions,
            );
            (found, path)
        };
        let empty = ReservationTable::new(grid.cell_count(), 32, 4096);
        let (found, free_path) = plan(&empty, None);
        assert!(found && free_path.last() == Some(&goal));
        // Unit 1 parked on the row for good, from tick 0.
        let table = ReservationTable::new(grid.cell_count(), 32, 4096);
        table.set_hold(grid.cell(4, 1), 0, Slot(1)).unwrap();
        let unit_1 = |b: Slot| b == Slot(1);
        let nobody = |_: Slot| false;
        let right_of_way = |yields, from| Yielding {
            yields,
            cost: 2,
            from,
        };
        let (found, path) = plan(&table, Some(&right_of_way(&unit_1, 1)));
        assert!(found);
        assert_eq!(path, free_path, "straight through, on time");
        for (yielding, why) in [
            (right_of_way(&nobody, 1), "a unit that does not give way"),
            (
                right_of_way(&unit_1, 100),
                "a hold before the first tick it may override",
            ),
        ] {
            let (found, path) = plan(&table, Some(&yielding));
            assert!(!found || path.last() != Some(&goal), "{why}: {path:?}");
        }
        let (found, path) = plan(&table, None);
        assert!(!found || path.last() != Some(&goal), "without right of way");
    }

    /// Reading the square around a node once and testing each action's
    /// masks against it judges every action as reading its own entries
    /// does, for every kind, on a table with other units' claims and holds
    /// all around (the body's own cells at the start left to the unit, as
    /// a search finds them), on a map small enough for a direct-mapped
    /// table and on one whose table hashes, near the edges too.
    #[test]
    fn action_masks_judge_actions_as_their_entries_do() {
        for map in ["24x24:0.15", "90x90:0.15"] {
            judge_actions_on(&generate_map(map.parse().unwrap(), Connectivity::Eight, 5));
        }
    }

    fn judge_actions_on(grid: &Grid) {
        let grid = grid.clone();
        let me = Slot(0);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut judged = [0usize; 2];
        for size in 1..=3u8 {
            for pace in 1..=3u8 {
                for curves in [false, true] {
                    let kind = UnitKind::new(size, pace);
                    let kind = if curves { kind.with_curves() } else { kind };
                    let set = ActionSet::for_kind(kind, Connectivity::Eight);
                    let masks = set.masks().expect("a square of at most 64 cells");
                    for _ in 0..40 {
                        let table = ReservationTable::new(grid.cell_count(), 32, 4096);
                        let at = Cell(rng.gen_range(0..grid.cell_count() as u32));
                        let t0 = rng.gen_range(0..4);
                        let body: Vec<Cell> =
                            crate::footprint::body(&grid, at, size as u32).collect();
                        let (ax, ay) = grid.xy(at);
                        for _ in 0..60 {
                            // Around the body (the square reaches 3 cells out).
                            let (dx, dy) = (rng.gen_range(-5i64..=7), rng.gen_range(-5i64..=7));
                            let Some(c) = grid.cell_checked(ax as i64 + dx, ay as i64 + dy) else {
                                continue;
                            };
                            let t = t0 + rng.gen_range(0..8);
                            if t == t0 && body.contains(&c) {
                                continue;
                            }
                            let other = Slot(rng.gen_range(1..5));
                            if rng.gen_bool(0.1) {
                                let _ = table.set_hold(c, t, other);
                            } else {
                                let _ = table.claim(c, t, other, 0);
                            }
                        }
                        // The square's blocked and soft bits, with or
                        // without right of way.
                        let read = |yielding: Option<&Yielding>| {
                            let (mut blocked, mut soft) = (Vec::new(), Vec::new());
                            read_square(
                                &grid,
                                &table,
                                me,
                                size as u32,
                                masks,
                                at,
                                t0,
                                set.longest(),
                                &mut blocked,
                                yielding,
                                &mut soft,
                            );
                            (blocked, soft)
                        };
                        let (blocked, _) = read(None);
                        // With right of way over units 1 and 3 from tick t0 + 2.
                        let yields = |b: Slot| b.0 % 2 == 1;
                        let yielding = Yielding {
                            yields: &yields,
                            cost: 2,
                            from: t0 + 2,
                        };
                        let (hard, soft) = read(Some(&yielding));
                        for (k, act) in set.actions.iter().enumerate() {
                            let by_entries = act
                                .for_each_entry(&grid, at, t0, &mut |c, t| table.is_free(c, t, me));
                            let by_masks = masks.ticks[k]
                                .iter()
                                .zip(&blocked)
                                .all(|(&cells, &taken)| cells & taken == 0);
                            assert_eq!(by_masks, by_entries, "{kind:?} action {k} at {at:?}");
                            judged[usize::from(by_masks)] += 1;
                            // Each entry's blockers: whoever claims it, and
                            // whoever holds its cell by then.
                            let mut through = false;
                            let passable = act.for_each_entry(&grid, at, t0, &mut |c, t| {
                                let mut blockers = table.layer_owner(c, t).into_iter().chain(
                                    table.hold(c).filter(|&(_, from)| from <= t).map(|(b, _)| b),
                                );
                                let mut any = false;
                                let all_yield = blockers.all(|b| {
                                    any |= b != me;
                                    b == me || (t >= yielding.from && yields(b))
                                });
                                through |= any && all_yield;
                                all_yield
                            });
                            let hard_free = masks.ticks[k]
                                .iter()
                                .zip(&hard)
                                .all(|(&cells, &taken)| cells & taken == 0);
                            assert_eq!(
                                hard_free, passable,
                                "{kind:?} action {k} at {at:?}, yielding"
                            );
                            if passable {
                                let by_soft = masks.ticks[k]
                                    .iter()
                                    .zip(&soft)
                                    .any(|(&cells, &taken)| cells & taken != 0);
                                assert_eq!(by_soft, through, "{kind:?} action {k} at {at:?}, soft");
                            }
                        }
                    }
                }
            }
        }
        assert!(judged[0] > 1000 && judged[1] > 1000, "{judged:?}");
    }
}
