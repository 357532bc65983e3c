//! The validator, one tick at a time, for runs whose units come and go and
//! whose map changes: it keeps the last tick's positions and checks each new
//! tick against them, so a run of any length is checked in memory that does
//! not grow with ticks. It reads only what each unit covers and the map,
//! never the planner's or the reservation table's state.
//!
//! A unit covers a rectangle: one cell, a larger body, or, in the middle of
//! a step that takes several ticks, the box that step sweeps. The rules:
//! no two rectangles overlap at a tick; no covered cell is a wall, or a
//! block the unit was not already in; no two units swap (each one's new
//! rectangle meets the other's old one); one-cell units do not cross on a
//! diagonal; a larger body stepping diagonally in one tick sweeps the box
//! around both ends, which holds no other unit at either tick.

use crate::map::{Cell, Grid, Rect};

use super::Violation;

/// No unit in this slot at this tick.
const ABSENT: Rect = Rect {
    x0: u32::MAX,
    y0: u32::MAX,
    x1: u32::MAX,
    y1: u32::MAX,
};

/// Who covers which cell at one tick: an open-addressing table sized for
/// the units, not the map, so its lookups stay in cache on large maps (a
/// table per cell cost 600 µs a tick for 10,000 units on 512×512, almost
/// all cache misses). An entry packs `(cell + 1) << 32 | slot` in 8 bytes
/// (0: empty). Clearing it each tick also brings it into cache before the
/// claims: with a stamp in 12-byte entries instead, and no clearing, the
/// check of 10,000 units took 10% longer.
#[derive(Clone, Debug, Default)]
struct Owners {
    slots: Vec<u64>,
}

impl Owners {
    fn reset(&mut self, cells: usize) {
        // At most half full, so every probe run is short.
        let n = (2 * cells.max(32)).next_power_of_two();
        if self.slots.len() < n {
            self.slots = vec![0; n];
        } else {
            self.slots.fill(0);
        }
    }

    fn home(&self, cell: Cell) -> usize {
        (cell.0.wrapping_mul(0x9E37_79B9) as usize) & (self.slots.len() - 1)
    }

    fn get(&self, cell: Cell) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let key = u64::from(cell.0) + 1;
        let mut i = self.home(cell);
        loop {
            let e = self.slots[i];
            if e == 0 {
                return None;
            }
            if e >> 32 == key {
                return Some(e as u32);
            }
            i = (i + 1) & mask;
        }
    }

    /// Records `slot` on `cell` unless someone is there already: then
    /// returns who, and records nothing.
    fn claim(&mut self, cell: Cell, slot: u32) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let key = u64::from(cell.0) + 1;
        let mut i = self.home(cell);
        loop {
            let e = self.slots[i];
            if e == 0 {
                self.slots[i] = key << 32 | u64::from(slot);
                return None;
            }
            if e >> 32 == key {
                return Some(e as u32);
            }
            i = (i + 1) & mask;
        }
    }
}

/// Violations found among the moves checked: how many, and the first
/// [`StepChecker::KEEP`].
#[derive(Clone, Debug, Default)]
struct Found {
    count: u64,
    first: Vec<Violation>,
}

impl Found {
    fn report(&mut self, v: Violation) {
        self.count += 1;
        if self.first.len() < StepChecker::KEEP {
            self.first.push(v);
        }
    }

    fn report_illegal(&mut self, tick: usize, unit: usize, from: (u32, u32), to: (u32, u32)) {
        self.report(Violation::IllegalMove {
            tick,
            unit,
            from,
            to,
        });
    }
}

fn meets(a: &Rect, b: &Rect) -> bool {
    a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1
}

fn is_cell(r: &Rect) -> bool {
    r.x0 == r.x1 && r.y0 == r.y1
}

/// Checks consecutive ticks of a live run. See the module docs.
#[derive(Clone, Debug, Default)]
pub struct StepChecker {
    /// Per unit slot, what it covered at the last tick checked and at the
    /// tick being checked ([`ABSENT`]: not there).
    prev: Vec<Rect>,
    cur: Vec<Rect>,
    /// Who covered what at the last tick, and at the tick being checked.
    prev_owners: Owners,
    owners: Owners,
    /// Slots present at the tick being checked (scratch).
    present: Vec<u32>,
    pairs: Vec<(u32, Rect)>,
    /// What the check of the moves found (scratch).
    found: Found,
    /// Every violation found so far.
    pub count: u64,
    /// The first violations found (at most [`StepChecker::KEEP`]).
    pub first: Vec<Violation>,
}

impl StepChecker {
    /// How many violations are kept for the report.
    pub const KEEP: usize = 16;

    /// A checker for `grid`'s cells; the first tick given has no moves to
    /// check.
    pub fn new(_grid: &Grid) -> Self {
        StepChecker::default()
    }

    fn report(&mut self, v: Violation) {
        self.count += 1;
        if self.first.len() < Self::KEEP {
            self.first.push(v);
        }
    }

    /// [`Self::check`] for one-cell units, as (slot, cell) pairs.
    pub fn check_cells(
        &mut self,
        grid: &Grid,
        tick: u32,
        units: impl Iterator<Item = (u32, Cell)>,
    ) {
        self.check(
            grid,
            tick,
            units.map(|(s, c)| {
                let (x, y) = if c.index() < grid.cell_count() {
                    grid.xy(c)
                } else {
                    (u32::MAX - 1, u32::MAX - 1)
                };
                (
                    s,
                    Rect {
                        x0: x,
                        y0: y,
                        x1: x,
                        y1: y,
                    },
                )
            }),
        );
    }

    /// Checks what the units cover at tick `tick`, as (slot, rectangle)
    /// pairs, against the last tick checked (see the module docs). `grid`
    /// is the map as it stands at this tick, blocks included. A slot absent
    /// at the last tick has just entered the map: only its cells are
    /// checked.
    pub fn check(&mut self, grid: &Grid, tick: u32, units: impl Iterator<Item = (u32, Rect)>) {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        pairs.extend(units);
        std::mem::swap(&mut self.prev_owners, &mut self.owners);
        let area: usize = pairs
            .iter()
            .map(|(_, r)| {
                (r.width() as usize)
                    .saturating_mul(r.height() as usize)
                    .min(1 << 16)
            })
            .sum();
        self.owners.reset(area);
        let t = tick as usize;
        self.cur.iter_mut().for_each(|c| *c = ABSENT);
        let mut present = std::mem::take(&mut self.present);
        present.clear();
        for &(slot, r) in &pairs {
            let s = slot as usize;
            if s >= self.cur.len() {
                self.cur.resize(s + 1, ABSENT);
                self.prev.resize(s + 1, ABSENT);
            }
            if r.x1 >= grid.width() || r.y1 >= grid.height() || r.x0 > r.x1 || r.y0 > r.y1 {
                self.report(Violation::OutOfBounds {
                    tick: t,
                    unit: s,
                    at: (r.x1, r.y1),
                });
                continue;
            }
            for c in r.cells(grid.width()) {
                if let Some(other) = self.owners.claim(c, slot) {
                    self.report(Violation::SharedCell {
                        tick: t,
                        units: (other as usize, s),
                        at: grid.xy(c),
                    });
                }
            }
            self.cur[s] = r;
            present.push(slot);
        }
        let mut found = std::mem::take(&mut self.found);
        found.count = 0;
        found.first.clear();
        for &slot in &present {
            self.check_unit(grid, t, slot, &mut found);
        }
        self.count += found.count;
        let room = Self::KEEP.saturating_sub(self.first.len());
        self.first.extend(found.first.drain(..).take(room));
        self.found = found;
        std::mem::swap(&mut self.prev, &mut self.cur);
        self.present = present;
        self.pairs = pairs;
    }

    /// The rules of one unit's move from the last tick to this one.
    fn check_unit(&self, grid: &Grid, t: usize, slot: u32, out: &mut Found) {
        let s = slot as usize;
        let (from, to) = (self.prev[s], self.cur[s]);
        if from == to {
            // Standing still: its cells were checked when it entered them
            // (a block going up on it later is allowed; walls never move).
            return;
        }
        if is_cell(&to) && is_cell(&from) {
            // (`ABSENT` is a cell too: the unit has just entered.)
            return self.check_cell_unit(grid, t, slot, from, to, out);
        }
        // A unit a block went up on may cross blocked cells on its way out.
        let was_inside = from != ABSENT && from.cells(grid.width()).any(|c| grid.is_blocked(c));
        if let Some(c) = to
            .cells(grid.width())
            .find(|&c| !(grid.is_passable(c) || was_inside && grid.is_blocked(c)))
        {
            out.report(Violation::Blocked {
                tick: t,
                unit: s,
                at: grid.xy(c),
            });
            return;
        }
        if from == ABSENT {
            return;
        }
        let (fx, fy, tx, ty) = (from.x0, from.y0, to.x0, to.y0);
        // A body moves, or grows to the box of a step and back: each edge
        // moves by one cell at most. (One-cell moves: `check_cell_unit`.)
        let legal = from.x0.abs_diff(to.x0) <= 1
            && from.x1.abs_diff(to.x1) <= 1
            && from.y0.abs_diff(to.y0) <= 1
            && from.y1.abs_diff(to.y1) <= 1;
        if !legal {
            out.report_illegal(t, s, (fx, fy), (tx, ty));
        }
        // A swap: a unit that covered part of our new rectangle now covers
        // part of our old one.
        let w = grid.width();
        let mut seen: [u32; 8] = [u32::MAX; 8];
        let mut n = 0;
        for c in to.cells(w) {
            let Some(o) = self.prev_owners.get(c).filter(|&o| o != slot) else {
                continue;
            };
            if seen[..n].contains(&o) {
                continue;
            }
            if n < seen.len() {
                seen[n] = o;
                n += 1;
            }
            let theirs = self.cur[o as usize];
            if theirs != ABSENT && meets(&theirs, &from) && slot < o {
                out.report(Violation::Swap {
                    tick: t.saturating_sub(1),
                    units: (s, o as usize),
                });
            }
        }
        let diagonal = fx.abs_diff(tx) == 1 && fy.abs_diff(ty) == 1;
        if diagonal && from.width() == to.width() && from.height() == to.height() {
            // A body stepping diagonally in one tick sweeps the box around
            // both ends: nobody else in it at either tick.
            let swept = Rect::new(
                (fx.min(tx), fy.min(ty)),
                (from.x1.max(to.x1), from.y1.max(to.y1)),
            );
            for c in swept.cells(w) {
                let other = [self.prev_owners.get(c), self.owners.get(c)]
                    .into_iter()
                    .flatten()
                    .find(|&o| o != slot);
                if let Some(o) = other {
                    out.report(Violation::SharedCell {
                        tick: t,
                        units: (s, o as usize),
                        at: grid.xy(c),
                    });
                    break;
                }
            }
        }
    }
}

impl StepChecker {
    /// [`Self::check_unit`] for a one-cell unit that moved or entered (the
    /// common case, without the rectangles' iterators): the same rules,
    /// read from this tick's owners (just written, so in cache) and the
    /// units' rectangles, never from the last tick's owners.
    fn check_cell_unit(
        &self,
        grid: &Grid,
        t: usize,
        slot: u32,
        from: Rect,
        to: Rect,
        out: &mut Found,
    ) {
        let s = slot as usize;
        let b = grid.cell(to.x0, to.y0);
        if from == ABSENT {
            // Entered: only its cell is checked.
            if !grid.is_passable(b) {
                out.report(Violation::Blocked {
                    tick: t,
                    unit: s,
                    at: (to.x0, to.y0),
                });
            }
            return;
        }
        let a = grid.cell(from.x0, from.y0);
        let (fx, fy, tx, ty) = (from.x0, from.y0, to.x0, to.y0);
        let (dx, dy) = (tx as i32 - fx as i32, ty as i32 - fy as i32);
        // A legal move ends on a passable cell: one lookup checks both.
        if !grid.has_step(a, dx, dy) {
            // A unit a block went up on may cross blocked cells on its way
            // out, one cardinal step a tick.
            let was_inside = grid.is_blocked(a);
            if !(grid.is_passable(b) || was_inside && grid.is_blocked(b)) {
                out.report(Violation::Blocked {
                    tick: t,
                    unit: s,
                    at: (tx, ty),
                });
                return;
            }
            if grid.is_passable(a) || dx.unsigned_abs() + dy.unsigned_abs() != 1 {
                out.report_illegal(t, s, (fx, fy), (tx, ty));
            }
        }
        // A swap: whoever covers our old cell now covered our new one.
        if let Some(o) = self.owners.get(a).filter(|&o| o != slot) {
            if self.prev[o as usize].contains((tx, ty)) && slot < o {
                out.report(Violation::Swap {
                    tick: t.saturating_sub(1),
                    units: (s, o as usize),
                });
            }
        }
        if dx != 0 && dy != 0 {
            // A crossing: (x,y)→(x+1,y+1) while another goes (x+1,y)→(x,y+1).
            let (c1, c2) = ((tx, fy), (fx, ty));
            for (p, q) in [(c1, c2), (c2, c1)] {
                if let Some(o) = self.owners.get(grid.cell(q.0, q.1)).filter(|&o| o != slot) {
                    if self.prev[o as usize].contains(p) && slot < o {
                        out.report(Violation::DiagonalCrossing {
                            tick: t.saturating_sub(1),
                            units: (s, o as usize),
                        });
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Connectivity, Rect};

    fn ids(cells: &[(u32, u32, u32)], g: &Grid) -> Vec<(u32, Cell)> {
        cells.iter().map(|&(s, x, y)| (s, g.cell(x, y))).collect()
    }

    #[test]
    fn finds_each_broken_rule() {
        let g = Grid::from_rows(&["....", "....", "...."], Connectivity::Eight);
        let mut c = StepChecker::new(&g);
        c.check_cells(&g, 0, ids(&[(0, 0, 0), (1, 1, 0)], &g).into_iter());
        assert_eq!(c.count, 0);
        c.check_cells(&g, 1, ids(&[(0, 1, 0), (1, 0, 0)], &g).into_iter());
        assert_eq!(c.count, 1);
        assert!(matches!(c.first[0], Violation::Swap { .. }));
        let mut c = StepChecker::new(&g);
        c.check_cells(&g, 0, ids(&[(0, 0, 0), (1, 1, 0)], &g).into_iter());
        c.check_cells(&g, 1, ids(&[(0, 1, 1), (1, 0, 1)], &g).into_iter());
        assert!(
            c.first
                .iter()
                .any(|v| matches!(v, Violation::DiagonalCrossing { .. })),
            "{:?}",
            c.first
        );
        let mut c = StepChecker::new(&g);
        c.check_cells(&g, 0, ids(&[(0, 0, 0), (1, 2, 0)], &g).into_iter());
        c.check_cells(&g, 1, ids(&[(0, 1, 0), (1, 1, 0)], &g).into_iter());
        assert!(c
            .first
            .iter()
            .any(|v| matches!(v, Violation::SharedCell { .. })));
        let mut c = StepChecker::new(&g);
        c.check_cells(&g, 0, ids(&[(0, 0, 0)], &g).into_iter());
        c.check_cells(&g, 1, ids(&[(0, 2, 0)], &g).into_iter());
        assert!(c
            .first
            .iter()
            .any(|v| matches!(v, Violation::IllegalMove { .. })));
    }

    #[test]
    fn a_cell_swapping_with_a_body_is_one_swap_whichever_slot_comes_first() {
        let g = Grid::from_rows(&["....", "....", "...."], Connectivity::Four);
        let cell = |x, y| Rect::new((x, y), (x, y));
        let body = |x, y| Rect::new((x, y), (x + 1, y + 1));
        for (c, b) in [(0, 1), (1, 0)] {
            let mut k = StepChecker::new(&g);
            // The body at (0,0)-(1,1) steps right onto the cell unit's (2,0);
            // the cell unit steps left into the body's old (1,0).
            k.check(&g, 0, [(c, cell(2, 0)), (b, body(0, 0))].into_iter());
            k.check(&g, 1, [(c, cell(1, 0)), (b, body(1, 0))].into_iter());
            let swaps = k
                .first
                .iter()
                .filter(|v| matches!(v, Violation::Swap { .. }))
                .count();
            assert_eq!(swaps, 1, "{:?}", k.first);
        }
    }

    #[test]
    fn a_unit_may_leave_a_block_but_never_enter_one() {
        let mut g = Grid::from_rows(&["....", "....", "...."], Connectivity::Four);
        let mut c = StepChecker::new(&g);
        c.check_cells(&g, 0, ids(&[(0, 1, 1), (1, 3, 1)], &g).into_iter());
        g.block(Rect::new((1, 1), (2, 1)), &mut Vec::new());
        // 0 was inside and stays; 1 steps in from outside.
        c.check_cells(&g, 1, ids(&[(0, 1, 1), (1, 2, 1)], &g).into_iter());
        assert_eq!(c.count, 1, "{:?}", c.first);
        assert!(matches!(c.first[0], Violation::Blocked { unit: 1, .. }));
        // 0 leaves the block, 1 stays where it is: nothing new.
        c.check_cells(&g, 2, ids(&[(0, 1, 0), (1, 2, 1)], &g).into_iter());
        assert_eq!(c.count, 1, "{:?}", c.first);
    }
}
