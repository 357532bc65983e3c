//! Breadth-first true distances from one cell to every cell: the reference
//! RRA* is tested against, and a shared table when many units share a goal.

use super::UNREACHABLE;
use crate::map::{Cell, Grid};

/// Moves from `source` to every cell (moves are reversible, so also to
/// `source` from every cell); [`UNREACHABLE`] where there is no path.
pub fn bfs_distances(grid: &Grid, source: Cell) -> Vec<u32> {
    let mut dist = Vec::new();
    bfs_distances_into(grid, source, &mut dist, &mut Vec::new());
    dist
}

/// [`bfs_distances`] into `dist`, with `queue` as scratch: both keep their
/// memory, so a caller filling tables again and again allocates nothing
/// once they are large enough.
pub fn bfs_distances_into(grid: &Grid, source: Cell, dist: &mut Vec<u32>, queue: &mut Vec<Cell>) {
    dist.clear();
    dist.resize(grid.cell_count(), UNREACHABLE);
    queue.clear();
    if !grid.is_passable(source) {
        return;
    }
    dist[source.index()] = 0;
    queue.push(source);
    let mut head = 0;
    let mut buf = [Cell(0); 8];
    while let Some(&c) = queue.get(head) {
        head += 1;
        let d = dist[c.index()] + 1;
        let n = grid.neighbors(c, &mut buf);
        for &nb in &buf[..n] {
            if dist[nb.index()] == UNREACHABLE {
                dist[nb.index()] = d;
                queue.push(nb);
            }
        }
    }
}
