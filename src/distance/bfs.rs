//! Breadth-first true distances from one cell to every cell: the reference
//! RRA* is tested against, and a shared table when many units share a goal.

use std::collections::VecDeque;

use super::UNREACHABLE;
use crate::map::{Cell, Grid};

/// Moves from `source` to every cell (moves are reversible, so also to
/// `source` from every cell); [`UNREACHABLE`] where there is no path.
pub fn bfs_distances(grid: &Grid, source: Cell) -> Vec<u32> {
    let mut dist = vec![UNREACHABLE; grid.cell_count()];
    if !grid.is_passable(source) {
        return dist;
    }
    let mut queue = VecDeque::new();
    dist[source.index()] = 0;
    queue.push_back(source);
    let mut buf = [Cell(0); 8];
    while let Some(c) = queue.pop_front() {
        let d = dist[c.index()] + 1;
        let n = grid.neighbors(c, &mut buf);
        for &nb in &buf[..n] {
            if dist[nb.index()] == UNREACHABLE {
                dist[nb.index()] = d;
                queue.push_back(nb);
            }
        }
    }
    dist
}
