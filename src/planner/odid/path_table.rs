//! Other groups' paths indexed by tick and cell: the seed's illegal move table
//! (hard constraints for a same-cost replan) and conflict avoidance table
//! (soft constraints that break ties towards the fewest future conflicts).
//!
//! Every stored path is padded to the table's length with its last cell, so
//! past the last stored tick the table stays the same forever.

use crate::map::{Cell, Grid};

use super::moves::diagonal_corners;

const NOBODY: u32 = u32::MAX;

/// Units' positions per tick, with counts per (tick, cell).
#[derive(Clone, Debug)]
pub struct PathTable {
    cells: usize,
    ticks: usize,
    /// Units on each (tick, cell), row-major by tick.
    count: Vec<u16>,
    /// One unit on each (tick, cell), for swap and crossing checks. Exact
    /// while no two stored paths overlap (true of an illegal move table).
    who: Vec<u32>,
    /// Stored path of each unit id (empty if none).
    paths: Vec<Vec<Cell>>,
}

impl PathTable {
    /// An empty table for `units` unit ids on `grid`.
    pub fn new(grid: &Grid, units: usize) -> Self {
        let cells = grid.cell_count();
        Self {
            cells,
            ticks: 1,
            count: vec![0; cells],
            who: vec![NOBODY; cells],
            paths: vec![Vec::new(); units],
        }
    }

    /// Empties the table for `units` unit ids on `grid`, keeping its memory.
    pub fn reset(&mut self, grid: &Grid, units: usize) {
        self.cells = grid.cell_count();
        self.ticks = 1;
        self.count.clear();
        self.count.resize(self.cells, 0);
        self.who.clear();
        self.who.resize(self.cells, NOBODY);
        for path in &mut self.paths {
            path.clear();
        }
        if self.paths.len() < units {
            self.paths.resize_with(units, Vec::new);
        }
    }

    /// Number of unit ids the table has room for.
    pub fn units(&self) -> usize {
        self.paths.len()
    }

    /// Stored ticks (at least one); tick `ticks() - 1` repeats forever.
    pub fn ticks(&self) -> usize {
        self.ticks
    }

    /// Adds (or replaces) the path of `unit` (ids past the table's grow it).
    pub fn add(&mut self, unit: usize, path: &[Cell]) {
        debug_assert!(!path.is_empty());
        if unit >= self.paths.len() {
            self.paths.resize_with(unit + 1, Vec::new);
        }
        self.remove(unit);
        if path.len() > self.ticks {
            let last = (self.ticks - 1) * self.cells;
            for _ in self.ticks..path.len() {
                self.count.extend_from_within(last..last + self.cells);
                self.who.extend_from_within(last..last + self.cells);
            }
            self.ticks = path.len();
        }
        for t in 0..self.ticks {
            let i = t * self.cells + path[t.min(path.len() - 1)].index();
            self.count[i] += 1;
            self.who[i] = unit as u32;
        }
        self.paths[unit].extend_from_slice(path);
    }

    /// Removes the path of `unit`, if stored.
    pub fn remove(&mut self, unit: usize) {
        let Some(path) = self.paths.get(unit).filter(|p| !p.is_empty()) else {
            return;
        };
        for t in 0..self.ticks {
            let i = t * self.cells + path[t.min(path.len() - 1)].index();
            self.count[i] -= 1;
            if self.who[i] == unit as u32 {
                self.who[i] = NOBODY;
            }
        }
        self.paths[unit].clear();
    }

    /// Where a stored unit is at tick `t`.
    #[inline]
    fn at(&self, unit: u32, t: usize) -> Option<Cell> {
        let path = self.paths.get(unit as usize).filter(|p| !p.is_empty())?;
        Some(path[t.min(path.len() - 1)])
    }

    #[inline]
    fn slot(&self, t: usize, cell: Cell) -> usize {
        t.min(self.ticks - 1) * self.cells + cell.index()
    }

    /// How many stored moves a move from `from` at tick `t` to `to` at `t + 1`
    /// conflicts with (shared cell, swap, diagonal crossing).
    #[inline]
    pub fn conflicts(&self, grid: &Grid, t: u32, from: Cell, to: Cell) -> u32 {
        let t = t as usize;
        let mut n = u32::from(self.count[self.slot(t + 1, to)]);
        if from != to {
            let w = self.who[self.slot(t, to)];
            if w != NOBODY && self.at(w, t + 1) == Some(from) {
                n += 1;
            }
            if let Some((c1, c2)) = diagonal_corners(grid, from, to) {
                for (a, b) in [(c1, c2), (c2, c1)] {
                    let w = self.who[self.slot(t, a)];
                    if w != NOBODY && self.at(w, t + 1) == Some(b) {
                        n += 1;
                    }
                }
            }
        }
        n
    }

    /// The last tick at which some stored unit stands on `cell`.
    pub fn last_occupied(&self, cell: Cell) -> Option<usize> {
        (0..self.ticks)
            .rev()
            .find(|&t| self.count[t * self.cells + cell.index()] > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    #[test]
    fn detects_each_kind_of_conflict_and_pads_paths() {
        let g = Grid::new(3, 3, vec![true; 9], Connectivity::Eight).with_corner_cutting(true);
        let c = |x, y| g.cell(x, y);
        let mut tab = PathTable::new(&g, 2);
        tab.add(0, &[c(1, 0), c(0, 1)]);
        // Shared target, swap, diagonal crossing, then a free move.
        assert_eq!(tab.conflicts(&g, 0, c(0, 0), c(0, 1)), 1);
        assert_eq!(tab.conflicts(&g, 0, c(0, 1), c(1, 0)), 1);
        assert_eq!(tab.conflicts(&g, 0, c(0, 0), c(1, 1)), 1);
        assert_eq!(tab.conflicts(&g, 0, c(2, 2), c(2, 1)), 0);
        // The unit stays on its last cell forever.
        assert_eq!(tab.conflicts(&g, 40, c(0, 0), c(0, 1)), 1);
        tab.add(1, &[c(2, 2), c(2, 1), c(2, 0)]);
        assert_eq!(tab.ticks(), 3);
        assert_eq!(tab.last_occupied(c(0, 1)), Some(2));
        tab.remove(0);
        assert_eq!(tab.conflicts(&g, 0, c(0, 0), c(0, 1)), 0);
        assert_eq!(tab.last_occupied(c(0, 1)), None);
    }
}
