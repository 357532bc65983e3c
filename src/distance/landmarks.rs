//! Landmark (ALT) lower bounds on true distance: breadth-first distances from
//! a few far-apart cells, shared by every unit. By the triangle inequality
//! `|d(L, a) - d(L, b)| <= d(a, b)` for every landmark `L`, so the largest such
//! difference is an admissible, consistent estimate of the distance from `a`
//! to `b`, read in O(landmarks) with no per-unit search.
//!
//! Per-unit Reverse Resumable A* gives exact distances but its memory and its
//! resumes grow with the map: on a 512×512 map with 10,000 units it expanded
//! 242 million nodes and held 5 GiB. Landmarks cost `landmarks × cells × 2`
//! bytes once, whatever the number of units.

use super::{bfs_distances, UNREACHABLE};
use crate::map::{Cell, Grid};

/// Landmark distance table, cell-major (`dist[cell * count + k]`) so one
/// lookup touches one cache line.
#[derive(Clone, Debug)]
pub struct Landmarks {
    count: usize,
    dist: Vec<u16>,
    /// The chosen landmark cells.
    pub cells: Vec<Cell>,
}

const FAR: u16 = u16::MAX;

impl Landmarks {
    /// Picks `count` landmarks by farthest-point selection (each next one as
    /// far as possible from those chosen) and measures distances from each.
    pub fn build(grid: &Grid, count: usize) -> Self {
        let n = grid.cell_count();
        let count = count.max(1);
        let mut dist = vec![FAR; n * count];
        let mut nearest = vec![u32::MAX; n];
        let mut cells = Vec::with_capacity(count);
        // Start from the first passable cell of the largest region.
        let sizes = grid.region_sizes();
        let largest = (0..sizes.len()).max_by_key(|&r| sizes[r]).unwrap_or(0) as u32;
        let Some(mut next) = (0..n as u32).map(Cell).find(|&c| grid.region(c) == largest) else {
            return Landmarks { count, dist, cells };
        };
        for k in 0..count {
            cells.push(next);
            let d = bfs_distances(grid, next);
            let mut far = (0u32, next);
            for c in 0..n {
                if d[c] != UNREACHABLE {
                    dist[c * count + k] = d[c].min(FAR as u32 - 1) as u16;
                    nearest[c] = nearest[c].min(d[c]);
                    if nearest[c] > far.0 {
                        far = (nearest[c], Cell(c as u32));
                    }
                }
            }
            next = far.1;
        }
        Landmarks { count, dist, cells }
    }

    /// Number of landmarks.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.dist.len() * 2
    }

    /// The landmark distances of one cell.
    #[inline]
    pub fn row(&self, c: Cell) -> &[u16] {
        &self.dist[c.index() * self.count..(c.index() + 1) * self.count]
    }

    /// A lower bound on the moves from `a` to a cell whose row is `goal_row`.
    #[inline]
    ///
    /// `a` and the goal must lie in one connected region (a search never
    /// leaves its start's): then a landmark out of reach of one is out of
    /// reach of both, its two "far" markers (`u16::MAX`) differ by 0, and
    /// no test is needed, so the loop is a plain element-wise maximum the
    /// compiler vectorizes (it was a fifth of the 10,000-unit stress run's
    /// time with the tests).
    pub fn lower_bound_to(&self, a: Cell, goal_row: &[u16]) -> u32 {
        let row = self.row(a);
        row.iter()
            .zip(goal_row)
            .fold(0u16, |best, (&x, &y)| best.max(x.abs_diff(y))) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{generate_map, Connectivity};

    #[test]
    fn bounds_are_admissible() {
        let g = generate_map("40x40:0.25".parse().unwrap(), Connectivity::Four, 3);
        let lm = Landmarks::build(&g, 8);
        let free: Vec<Cell> = (0..g.cell_count() as u32)
            .map(Cell)
            .filter(|&c| g.is_passable(c))
            .collect();
        for &goal in free.iter().step_by(97) {
            let exact = bfs_distances(&g, goal);
            let row = lm.row(goal).to_vec();
            let mut exact_hits = 0;
            for &c in &free {
                let lb = lm.lower_bound_to(c, &row);
                assert!(
                    lb <= exact[c.index()],
                    "{c:?}->{goal:?}: {lb} > {}",
                    exact[c.index()]
                );
                exact_hits += usize::from(lb == exact[c.index()]);
            }
            assert!(
                exact_hits * 4 > free.len(),
                "landmarks should often be exact"
            );
        }
    }
}
