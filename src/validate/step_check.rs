//! The validator, one tick at a time, for runs whose units come and go and
//! whose map changes: it keeps the last tick's positions and checks each new
//! tick against them, so a run of any length is checked in memory that does
//! not grow with ticks. It reads only positions and the map, never the
//! planner's or the reservation table's state.

use crate::map::{Cell, Grid};

use super::Violation;

/// No unit in this slot at this tick.
const ABSENT: Cell = Cell(u32::MAX);

/// Checks consecutive ticks of a live run. See the module docs.
#[derive(Clone, Debug, Default)]
pub struct StepChecker {
    /// Per unit slot, its cell at the last tick checked and at the tick
    /// being checked ([`ABSENT`]: not there).
    prev: Vec<Cell>,
    cur: Vec<Cell>,
    /// Who stands where at the tick being checked: an open-addressing
    /// table of (stamp, cell, slot) sized for the units, not the map, so
    /// its lookups stay in cache on large maps (a table per cell cost
    /// 600 µs a tick for 10,000 units on 512×512, almost all cache misses).
    owner: Vec<(u32, u32, u32)>,
    /// Slots present at the tick being checked, and their cells (scratch).
    present: Vec<u32>,
    pairs: Vec<(u32, Cell)>,
    checks: u32,
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
        StepChecker {
            owner: vec![(0, 0, 0); 64],
            ..Default::default()
        }
    }

    fn report(&mut self, v: Violation) {
        self.count += 1;
        if self.first.len() < Self::KEEP {
            self.first.push(v);
        }
    }

    /// Checks the positions at tick `tick`, `units` as (slot, cell) pairs:
    /// every cell on the map and open (or inside a block the unit was
    /// already in), one legal move from the unit's last cell, no two units
    /// on a cell, no swap, no diagonal crossing. `grid` is the map as it
    /// stands at this tick, blocks included. A slot absent at the last
    /// tick has just entered the map: only its cell is checked.
    pub fn check(&mut self, grid: &Grid, tick: u32, units: impl Iterator<Item = (u32, Cell)>) {
        self.checks += 1;
        let stamp = self.checks;
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        pairs.extend(units);
        // At most half full, so every probe run is short.
        if self.owner.len() < 2 * pairs.len().max(32) {
            let n = (2 * pairs.len().max(32)).next_power_of_two();
            self.owner = vec![(0, 0, 0); n];
        }
        let t = tick as usize;
        self.cur.iter_mut().for_each(|c| *c = ABSENT);
        let mut present = std::mem::take(&mut self.present);
        present.clear();
        for &(slot, c) in &pairs {
            let s = slot as usize;
            if s >= self.cur.len() {
                self.cur.resize(s + 1, ABSENT);
                self.prev.resize(s + 1, ABSENT);
            }
            if c.index() >= grid.cell_count() {
                self.report(Violation::OutOfBounds {
                    tick: t,
                    unit: s,
                    at: (u32::MAX, u32::MAX),
                });
                continue;
            }
            if let Some(other) = self.owner_now(c, stamp) {
                self.report(Violation::SharedCell {
                    tick: t,
                    units: (other as usize, s),
                    at: grid.xy(c),
                });
            } else {
                self.insert_owner(c, slot, stamp);
            }
            self.cur[s] = c;
            present.push(slot);
        }
        for &slot in &present {
            let s = slot as usize;
            let (from, to) = (self.prev[s], self.cur[s]);
            let at = grid.xy(to);
            let was_inside = from != ABSENT && grid.is_blocked(from);
            if !(grid.is_passable(to) || grid.is_blocked(to) && was_inside) {
                self.report(Violation::Blocked {
                    tick: t,
                    unit: s,
                    at,
                });
            }
            if from == ABSENT || from == to {
                continue;
            }
            let legal = if !grid.is_passable(to) {
                true // entering a wall or a block: reported above
            } else if grid.is_passable(from) {
                grid.is_move(from, to)
            } else {
                let (fx, fy) = grid.xy(from);
                fx.abs_diff(at.0) + fy.abs_diff(at.1) == 1
            };
            if !legal {
                self.report(Violation::IllegalMove {
                    tick: t,
                    unit: s,
                    from: grid.xy(from),
                    to: at,
                });
            }
            // A swap: the unit now on `from` stood on `to` before.
            if let Some(o) = self.owner_now(from, stamp) {
                if o != slot && self.prev[o as usize] == to && slot < o {
                    self.report(Violation::Swap {
                        tick: t.saturating_sub(1),
                        units: (s, o as usize),
                    });
                }
            }
            // A crossing: (x,y)→(x+1,y+1) while another goes (x+1,y)→(x,y+1).
            let (fx, fy) = grid.xy(from);
            if fx.abs_diff(at.0) == 1 && fy.abs_diff(at.1) == 1 {
                let (c1, c2) = (grid.cell(at.0, fy), grid.cell(fx, at.1));
                for (p, q) in [(c1, c2), (c2, c1)] {
                    if let Some(o) = self.owner_now(q, stamp) {
                        if o != slot && self.prev[o as usize] == p && slot < o {
                            self.report(Violation::DiagonalCrossing {
                                tick: t.saturating_sub(1),
                                units: (s, o as usize),
                            });
                        }
                    }
                }
            }
        }
        std::mem::swap(&mut self.prev, &mut self.cur);
        self.present = present;
        self.pairs = pairs;
    }

    fn home(&self, cell: Cell) -> usize {
        (cell.0.wrapping_mul(0x9E37_79B9) as usize) & (self.owner.len() - 1)
    }

    /// The slot standing on `cell` at the tick being checked.
    fn owner_now(&self, cell: Cell, stamp: u32) -> Option<u32> {
        let mask = self.owner.len() - 1;
        let mut i = self.home(cell);
        loop {
            let (seen, c, slot) = self.owner[i];
            if seen != stamp {
                return None;
            }
            if c == cell.0 {
                return Some(slot);
            }
            i = (i + 1) & mask;
        }
    }

    fn insert_owner(&mut self, cell: Cell, slot: u32, stamp: u32) {
        let mask = self.owner.len() - 1;
        let mut i = self.home(cell);
        while self.owner[i].0 == stamp {
            i = (i + 1) & mask;
        }
        self.owner[i] = (stamp, cell.0, slot);
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
        c.check(&g, 0, ids(&[(0, 0, 0), (1, 1, 0)], &g).into_iter());
        assert_eq!(c.count, 0);
        c.check(&g, 1, ids(&[(0, 1, 0), (1, 0, 0)], &g).into_iter());
        assert_eq!(c.count, 1);
        assert!(matches!(c.first[0], Violation::Swap { .. }));
        let mut c = StepChecker::new(&g);
        c.check(&g, 0, ids(&[(0, 0, 0), (1, 1, 0)], &g).into_iter());
        c.check(&g, 1, ids(&[(0, 1, 1), (1, 0, 1)], &g).into_iter());
        assert!(
            c.first
                .iter()
                .any(|v| matches!(v, Violation::DiagonalCrossing { .. })),
            "{:?}",
            c.first
        );
        let mut c = StepChecker::new(&g);
        c.check(&g, 0, ids(&[(0, 0, 0), (1, 2, 0)], &g).into_iter());
        c.check(&g, 1, ids(&[(0, 1, 0), (1, 1, 0)], &g).into_iter());
        assert!(c
            .first
            .iter()
            .any(|v| matches!(v, Violation::SharedCell { .. })));
        let mut c = StepChecker::new(&g);
        c.check(&g, 0, ids(&[(0, 0, 0)], &g).into_iter());
        c.check(&g, 1, ids(&[(0, 2, 0)], &g).into_iter());
        assert!(c
            .first
            .iter()
            .any(|v| matches!(v, Violation::IllegalMove { .. })));
    }

    #[test]
    fn a_unit_may_leave_a_block_but_never_enter_one() {
        let mut g = Grid::from_rows(&["....", "....", "...."], Connectivity::Four);
        let mut c = StepChecker::new(&g);
        c.check(&g, 0, ids(&[(0, 1, 1), (1, 3, 1)], &g).into_iter());
        g.block(Rect::new((1, 1), (2, 1)), &mut Vec::new());
        // 0 was inside and stays; 1 steps in from outside.
        c.check(&g, 1, ids(&[(0, 1, 1), (1, 2, 1)], &g).into_iter());
        assert_eq!(c.count, 1, "{:?}", c.first);
        assert!(matches!(c.first[0], Violation::Blocked { unit: 1, .. }));
        // 0 leaves the block, 1 stays where it is: nothing new.
        c.check(&g, 2, ids(&[(0, 1, 0), (1, 2, 1)], &g).into_iter());
        assert_eq!(c.count, 1, "{:?}", c.first);
    }
}
