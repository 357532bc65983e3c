//! Spatial A* on the grid, with scratch memory reused across searches:
//! generation stamps instead of clearing (Pinter's fixed matrix), so a search
//! costs only the cells it touches and allocates nothing after warm-up.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::map::{Cell, Grid};

/// Reusable memory for [`SpatialAStar::search`].
#[derive(Clone, Debug, Default)]
pub struct SpatialAStar {
    stamp: Vec<u32>,
    g: Vec<u32>,
    parent: Vec<u32>,
    closed: Vec<u32>,
    generation: u32,
    open: BinaryHeap<Reverse<(u32, u32, u32)>>,
    /// Nodes expanded by the last search.
    pub expanded: usize,
}

impl SpatialAStar {
    /// Scratch sized for `grid`.
    pub fn new(grid: &Grid) -> Self {
        let n = grid.cell_count();
        SpatialAStar {
            stamp: vec![0; n],
            g: vec![0; n],
            parent: vec![0; n],
            closed: vec![0; n],
            generation: 0,
            open: BinaryHeap::new(),
            expanded: 0,
        }
    }

    fn next_generation(&mut self, cells: usize) {
        if self.stamp.len() != cells {
            *self = SpatialAStar {
                stamp: vec![0; cells],
                g: vec![0; cells],
                parent: vec![0; cells],
                closed: vec![0; cells],
                ..Default::default()
            };
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.closed.fill(0);
            self.generation = 1;
        }
        self.open.clear();
        self.expanded = 0;
    }

    /// Shortest path from `start` to `goal` with unit move costs, avoiding cells
    /// for which `blocked` is true, with `h(cell)` as heuristic (it need not be
    /// admissible: LRA*'s agitation adds noise). Writes the path, start first,
    /// into `path` and returns whether one was found.
    pub fn search(
        &mut self,
        grid: &Grid,
        start: Cell,
        goal: Cell,
        mut blocked: impl FnMut(Cell) -> bool,
        mut h: impl FnMut(Cell) -> u32,
        path: &mut Vec<Cell>,
    ) -> bool {
        path.clear();
        if !grid.reachable(start, goal) {
            return false;
        }
        self.next_generation(grid.cell_count());
        let gen = self.generation;
        let s = start.index();
        self.stamp[s] = gen;
        self.g[s] = 0;
        self.parent[s] = start.0;
        self.open.push(Reverse((h(start), 0, start.0)));
        let mut buf = [Cell(0); 8];
        while let Some(Reverse((_, neg_g, c))) = self.open.pop() {
            let ci = c as usize;
            let g = u32::MAX - neg_g;
            let g = if neg_g == 0 { 0 } else { g };
            if self.closed[ci] == gen || g > self.g[ci] {
                continue;
            }
            self.closed[ci] = gen;
            self.expanded += 1;
            if c == goal.0 {
                let mut cur = c;
                path.push(Cell(cur));
                while cur != start.0 {
                    cur = self.parent[cur as usize];
                    path.push(Cell(cur));
                }
                path.reverse();
                return true;
            }
            let n = grid.neighbors(Cell(c), &mut buf);
            for &nb in &buf[..n] {
                let ni = nb.index();
                if self.closed[ni] == gen || (nb != goal && blocked(nb)) {
                    continue;
                }
                let ng = self.g[ci] + 1;
                if self.stamp[ni] != gen || ng < self.g[ni] {
                    self.stamp[ni] = gen;
                    self.g[ni] = ng;
                    self.parent[ni] = c;
                    // Ties on f go to the deeper node: fewer expansions on open maps.
                    self.open.push(Reverse((ng + h(nb), u32::MAX - ng, nb.0)));
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    #[test]
    fn finds_shortest_path_around_wall() {
        let rows = ["....", ".@@.", "...."];
        let p = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '.'))
            .collect();
        let g = Grid::new(4, 3, p, Connectivity::Four);
        let mut a = SpatialAStar::new(&g);
        let mut path = Vec::new();
        assert!(a.search(
            &g,
            g.cell(0, 1),
            g.cell(3, 1),
            |_| false,
            |c| g.grid_distance(c, g.cell(3, 1)),
            &mut path
        ));
        assert_eq!(path.len(), 6);
    }
}
