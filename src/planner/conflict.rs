//! CO-WHCA*'s `findFirstConflict` (Bnaya & Felner 2014, Algorithm 2, line 5):
//! simulate every unit's path tick by tick until the earliest tick at which
//! two or more units would share a cell, swap cells or cross diagonally, and
//! return every conflict of that tick. A unit past the end of its path stays
//! on its last cell, so a unit parked on its goal is part of the simulation.
//! The rules are the validator's, so paths without conflicts execute cleanly.

use rustc_hash::FxHashMap;

use crate::map::{Cell, Grid};
use crate::units::Slot;

/// Units that would collide at one tick: on one cell (`cell` is that cell), in
/// a swap (`cell` is the cell the first unit enters) or crossing diagonally
/// (`cell` is the lower corner of the 2×2 square).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The tick at which they meet (for swaps and crossings, the arrival tick).
    pub tick: u32,
    /// Where they meet.
    pub cell: Cell,
    /// The units involved, at least two.
    pub units: Vec<Slot>,
}

/// Reusable scratch for simulating paths to the first conflict.
#[derive(Clone, Debug, Default)]
pub struct ConflictFinder {
    /// Per cell: unit index + 1 standing there at the previous tick (0: none).
    prev: Vec<u32>,
    /// Per cell: unit index + 1 standing there at the current tick (0: none).
    cur: Vec<u32>,
    vertex: FxHashMap<Cell, usize>,
    diagonal: FxHashMap<(u32, u32), usize>,
}

#[inline]
fn at(path: &[Cell], k: usize) -> Cell {
    path[k.min(path.len() - 1)]
}

impl ConflictFinder {
    /// Empty scratch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Simulates `paths` (`paths[i][k]`: unit `i`'s cell at tick `start + k`;
    /// past its end a unit stays on its last cell) and writes every conflict
    /// of the earliest conflicting tick into `out`. Returns that tick, or
    /// `None` if the paths never conflict. Positions at `start` are assumed
    /// distinct (they are where the units stand).
    pub fn earliest(
        &mut self,
        grid: &Grid,
        paths: &[Vec<Cell>],
        start: u32,
        out: &mut Vec<Conflict>,
    ) -> Option<u32> {
        out.clear();
        let cells = grid.cell_count();
        if self.prev.len() != cells {
            self.prev = vec![0; cells];
            self.cur = vec![0; cells];
        }
        let longest = paths.iter().map(Vec::len).max().unwrap_or(0);
        for (i, p) in paths.iter().enumerate() {
            self.prev[p[0].index()] = i as u32 + 1;
        }
        let mut found = None;
        for k in 1..longest {
            let tick = start + k as u32;
            self.vertex.clear();
            self.diagonal.clear();
            for (i, p) in paths.iter().enumerate() {
                let c = at(p, k);
                let slot = &mut self.cur[c.index()];
                if *slot == 0 {
                    *slot = i as u32 + 1;
                    continue;
                }
                let first = Slot(*slot - 1);
                let idx = *self.vertex.entry(c).or_insert_with(|| {
                    out.push(Conflict {
                        tick,
                        cell: c,
                        units: vec![first],
                    });
                    out.len() - 1
                });
                out[idx].units.push(Slot(i as u32));
            }
            for (i, p) in paths.iter().enumerate() {
                let (a, b) = (at(p, k - 1), at(p, k));
                if a == b {
                    continue;
                }
                let j = self.prev[b.index()];
                if j != 0 {
                    let j = (j - 1) as usize;
                    if j != i && i < j && at(&paths[j], k) == a {
                        out.push(Conflict {
                            tick,
                            cell: b,
                            units: vec![Slot(i as u32), Slot(j as u32)],
                        });
                    }
                }
                let ((ax, ay), (bx, by)) = (grid.xy(a), grid.xy(b));
                if ax != bx && ay != by {
                    let square = (ax.min(bx), ay.min(by));
                    if let Some(&j) = self.diagonal.get(&square) {
                        out.push(Conflict {
                            tick,
                            cell: grid.cell(square.0, square.1),
                            units: vec![Slot(j as u32), Slot(i as u32)],
                        });
                    } else {
                        self.diagonal.insert(square, i);
                    }
                }
            }
            for p in paths {
                self.prev[at(p, k - 1).index()] = 0;
            }
            std::mem::swap(&mut self.prev, &mut self.cur);
            if !out.is_empty() {
                found = Some(tick);
                break;
            }
        }
        // `prev` now holds the last simulated tick; clear it for the next call.
        let last = match found {
            Some(t) => (t - start) as usize,
            None => longest.saturating_sub(1),
        };
        for p in paths {
            self.prev[at(p, last).index()] = 0;
        }
        debug_assert!(self.cur.iter().all(|&x| x == 0));
        debug_assert!(self.prev.iter().all(|&x| x == 0));
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    fn line(n: u32) -> Grid {
        Grid::new(n, 1, vec![true; n as usize], Connectivity::Four)
    }

    #[test]
    fn finds_vertex_swap_and_parked_conflicts() {
        let g = line(6);
        let mut f = ConflictFinder::new();
        let mut out = Vec::new();
        // 0 → 2 and 4 → 2 meet on cell 2 at tick 2 (start 10 → tick 12).
        let paths = vec![
            vec![Cell(0), Cell(1), Cell(2)],
            vec![Cell(4), Cell(3), Cell(2)],
        ];
        assert_eq!(f.earliest(&g, &paths, 10, &mut out), Some(12));
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].cell, Cell(2));
        assert_eq!(out[0].units, vec![Slot(0), Slot(1)]);
        // A swap between ticks 0 and 1.
        let paths = vec![vec![Cell(1), Cell(2)], vec![Cell(2), Cell(1)]];
        assert_eq!(f.earliest(&g, &paths, 0, &mut out), Some(1));
        assert_eq!(out[0].units.len(), 2);
        // A unit parked on its goal (path of one cell) is run into later.
        let paths = vec![vec![Cell(3)], vec![Cell(0), Cell(1), Cell(2), Cell(3)]];
        assert_eq!(f.earliest(&g, &paths, 0, &mut out), Some(3));
        // Following each other is fine.
        let paths = vec![
            vec![Cell(1), Cell(2), Cell(3)],
            vec![Cell(0), Cell(1), Cell(2)],
        ];
        assert_eq!(f.earliest(&g, &paths, 0, &mut out), None);
        assert!(out.is_empty());
    }

    #[test]
    fn finds_diagonal_crossing() {
        let g = Grid::new(2, 2, vec![true; 4], Connectivity::Eight);
        let mut f = ConflictFinder::new();
        let mut out = Vec::new();
        // (0,0)→(1,1) and (1,0)→(0,1) cross.
        let paths = vec![vec![Cell(0), Cell(3)], vec![Cell(1), Cell(2)]];
        assert_eq!(f.earliest(&g, &paths, 0, &mut out), Some(1));
        assert_eq!(out.len(), 1);
    }
}
