//! Reverse Resumable A* (Silver 2005, Algorithm 1): true distances to a goal,
//! computed on demand by an A* search that runs backwards from the goal
//! towards the unit's original position and is resumed, never restarted, when
//! a distance outside its closed list is asked for.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use crate::map::{Cell, Grid};

/// Distance meaning "no path".
pub const UNREACHABLE: u32 = u32::MAX;

/// One unit's RRA* search: its own open and closed lists, kept across windows.
#[derive(Clone, Debug, Default)]
pub struct ReverseResumableAStar {
    goal: Cell,
    origin: Cell,
    open: BinaryHeap<Reverse<(u32, u32, u32)>>,
    g_open: FxHashMap<u32, u32>,
    closed: FxHashMap<u32, u32>,
    /// Nodes expanded since the search was (re)started.
    pub expanded: usize,
    /// Times the search was restarted because it grew past its limit.
    pub restarts: usize,
}

impl ReverseResumableAStar {
    /// Starts a search from `goal` towards `origin` and runs it until `origin`
    /// is closed (`InitialiseRRA*`).
    pub fn new(grid: &Grid, goal: Cell, origin: Cell) -> Self {
        let mut rra = ReverseResumableAStar::default();
        rra.restart(grid, goal, origin);
        rra
    }

    /// Starts again from scratch, reusing the memory.
    pub fn restart(&mut self, grid: &Grid, goal: Cell, origin: Cell) {
        self.goal = goal;
        self.origin = origin;
        self.open.clear();
        self.g_open.clear();
        self.closed.clear();
        self.expanded = 0;
        self.g_open.insert(goal.0, 0);
        self.open
            .push(Reverse((grid.grid_distance(goal, origin), 0, goal.0)));
        self.resume(grid, origin);
    }

    /// The goal distances are measured to.
    pub fn goal(&self) -> Cell {
        self.goal
    }

    /// Cells whose true distance is known.
    pub fn closed_len(&self) -> usize {
        self.closed.len()
    }

    /// Resumes the search until `target` is closed (`ResumeRRA*`). Returns
    /// whether it was reached.
    pub fn resume(&mut self, grid: &Grid, target: Cell) -> bool {
        if self.closed.contains_key(&target.0) {
            return true;
        }
        if !grid.reachable(self.goal, target) {
            return false;
        }
        let mut buf = [Cell(0); 8];
        while let Some(Reverse((_, g, p))) = self.open.pop() {
            if self.closed.contains_key(&p) || self.g_open.get(&p).is_some_and(|&best| g > best) {
                continue;
            }
            self.g_open.remove(&p);
            self.closed.insert(p, g);
            self.expanded += 1;
            // Successors in reverse order, so ties break the same way as the
            // forward search does.
            let n = grid.neighbors(Cell(p), &mut buf);
            for &q in buf[..n].iter().rev() {
                if self.closed.contains_key(&q.0) {
                    continue;
                }
                let qg = g + 1;
                let better = self.g_open.get(&q.0).is_none_or(|&old| qg < old);
                if better {
                    self.g_open.insert(q.0, qg);
                    let f = qg + grid.grid_distance(q, self.origin);
                    self.open.push(Reverse((f, qg, q.0)));
                }
            }
            if p == target.0 {
                return true;
            }
        }
        false
    }

    /// True distance from `cell` to the goal (`AbstractDist`), resuming the
    /// search if needed; [`UNREACHABLE`] if there is no path.
    #[inline]
    pub fn distance(&mut self, grid: &Grid, cell: Cell) -> u32 {
        if let Some(&g) = self.closed.get(&cell.0) {
            return g;
        }
        if self.resume(grid, cell) {
            self.closed[&cell.0]
        } else {
            UNREACHABLE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{generate_map, Connectivity};

    #[test]
    fn matches_breadth_first_search() {
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let g = generate_map("24x24:0.25".parse().unwrap(), conn, 11);
            let free: Vec<Cell> = (0..g.cell_count() as u32)
                .map(Cell)
                .filter(|&c| g.is_passable(c))
                .collect();
            let goal = free[free.len() / 3];
            let bfs = crate::distance::bfs_distances(&g, goal);
            let mut rra = ReverseResumableAStar::new(&g, goal, free[0]);
            for &c in free.iter().rev() {
                assert_eq!(rra.distance(&g, c), bfs[c.index()], "cell {c:?} ({conn:?})");
            }
        }
    }
}
