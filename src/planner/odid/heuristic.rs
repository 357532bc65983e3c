//! Single-unit true distances, the seed's admissible heuristic: a
//! breadth-first table from each goal, so A* updates the sum of distances
//! with two lookups per move assignment.

use crate::distance::{bfs_distances, bfs_distances_into};
use crate::map::{Cell, Grid};

/// Marks a cell from which the goal cannot be reached.
pub use crate::distance::UNREACHABLE;

/// Moves from every cell to one goal, ignoring other units.
#[derive(Clone, Debug)]
pub struct DistanceTable {
    dist: Vec<u32>,
}

impl DistanceTable {
    /// Breadth-first search from `goal` (moves are symmetric, so the table
    /// holds the distance from each cell to the goal).
    pub fn new(grid: &Grid, goal: Cell) -> Self {
        Self {
            dist: bfs_distances(grid, goal),
        }
    }

    /// An empty table, to [`Self::refill`].
    pub(crate) fn empty() -> Self {
        Self { dist: Vec::new() }
    }

    /// Refills this table with the moves to `goal` on `grid`, reusing its
    /// memory (`queue` is scratch).
    pub(crate) fn refill(&mut self, grid: &Grid, goal: Cell, queue: &mut Vec<Cell>) {
        bfs_distances_into(grid, goal, &mut self.dist, queue);
    }

    /// Moves from `cell` to the goal, or [`UNREACHABLE`].
    #[inline]
    pub fn get(&self, cell: Cell) -> u32 {
        self.dist[cell.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    #[test]
    fn distances_follow_connectivity() {
        let g = Grid::new(3, 3, vec![true; 9], Connectivity::Four);
        let t = DistanceTable::new(&g, g.cell(0, 0));
        assert_eq!(t.get(g.cell(2, 2)), 4);
        let g = g.with_connectivity(Connectivity::Eight);
        let t = DistanceTable::new(&g, g.cell(0, 0));
        assert_eq!(t.get(g.cell(2, 2)), 2);
    }

    #[test]
    fn walls_make_cells_unreachable() {
        let p = vec![true, false, true];
        let g = Grid::new(3, 1, p, Connectivity::Four);
        let t = DistanceTable::new(&g, g.cell(0, 0));
        assert_eq!(t.get(g.cell(2, 0)), UNREACHABLE);
    }
}
