//! Spatial A* on the grid, with scratch memory reused across searches:
//! generation stamps instead of clearing (Pinter's fixed matrix), so a search
//! costs only the cells it touches and allocates nothing after warm-up.
//!
//! Two kernels share the scratch: [`SpatialAStar::search`] (unit costs, the
//! planners' closure-driven kernel) and the weighted one
//! ([`SpatialAStar::search_weighted`], [`SpatialAStar::begin`] and
//! [`SpatialAStar::resume`]) with octile or 4-connected move costs and terrain
//! costs per cell, which can be time-sliced: a bounded number of expansions
//! per call, resumed later where it stopped.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::map::{Cell, Connectivity, Grid, MOVE_OFFSETS};
use crate::queue::{BucketQueue, RadixHeap};

/// Move costs for the weighted kernel. A move onto cell `c` costs
/// `straight` (or `diagonal`) times `terrain[c]`; the multipliers must be at
/// least 1 so that the octile heuristic stays admissible.
#[derive(Clone, Copy, Debug)]
pub struct MoveCosts<'a> {
    /// Which moves are searched, whatever the grid's own rule is: the hybrid
    /// search wants a 4-connected path on an 8-connected map.
    pub connectivity: Connectivity,
    /// Cost of a cardinal move onto a cell of terrain 1.
    pub straight: u32,
    /// Cost of a diagonal move onto a cell of terrain 1.
    pub diagonal: u32,
    /// Per-cell cost multipliers (sand dearer than pavement), indexed by
    /// [`Cell::index`]; `None` means 1 everywhere.
    pub terrain: Option<&'a [u32]>,
}

impl MoveCosts<'static> {
    /// Fixed-point scale of [`MoveCosts::octile`]: a straight move costs this much.
    pub const SCALE: u32 = 10_000;

    /// 8-connected moves costing 1 and √2 (in units of [`Self::SCALE`]), the
    /// MovingAI benchmark's metric.
    pub fn octile() -> Self {
        MoveCosts {
            connectivity: Connectivity::Eight,
            straight: Self::SCALE,
            diagonal: 14_142,
            terrain: None,
        }
    }

    /// 4-connected unit moves (in units of [`Self::SCALE`]).
    pub fn four() -> Self {
        MoveCosts {
            connectivity: Connectivity::Four,
            straight: Self::SCALE,
            diagonal: 14_142,
            terrain: None,
        }
    }
}

impl<'a> MoveCosts<'a> {
    /// The same metric with per-cell terrain multipliers.
    pub fn with_terrain(self, terrain: &'a [u32]) -> MoveCosts<'a> {
        MoveCosts {
            terrain: Some(terrain),
            ..self
        }
    }

    #[inline]
    fn heuristic(&self, (ax, ay): (u32, u32), (bx, by): (u32, u32)) -> u32 {
        let dx = ax.abs_diff(bx);
        let dy = ay.abs_diff(by);
        match self.connectivity {
            Connectivity::Four => self.straight * (dx + dy),
            Connectivity::Eight => {
                let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
                self.straight * (hi - lo) + self.diagonal * lo
            }
        }
    }
}

/// One cell of the weighted kernel's matrix.
#[derive(Clone, Copy, Debug, Default)]
struct NodeRecord {
    /// Generation in which `g` and `parent` were set.
    stamp: u32,
    /// Generation in which the cell was expanded.
    closed: u32,
    g: u32,
    parent: u32,
}

/// Where a time-sliced weighted search stands after a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchStatus {
    /// The path was written; its cost in the [`MoveCosts`] units.
    Found(u32),
    /// The region table says the goal cannot be reached: no search was run.
    Unreachable,
    /// The search ran out of nodes without reaching the goal (only possible
    /// when the move rule differs from the one the regions were labelled with).
    NoPath,
    /// The expansion budget of this call ran out; call [`SpatialAStar::resume`] again.
    InProgress,
}

/// Reusable memory for [`SpatialAStar::search`].
#[derive(Clone, Debug, Default)]
pub struct SpatialAStar {
    stamp: Vec<u32>,
    g: Vec<u32>,
    parent: Vec<u32>,
    closed: Vec<u32>,
    generation: u32,
    open: BinaryHeap<Reverse<(u32, u32, u32)>>,
    /// Open list of [`SpatialAStar::steps`].
    buckets: BucketQueue,
    /// The weighted kernel's matrix: one 16-byte record per cell (the seed's
    /// fixed matrix), so a neighbour's stamp, g and parent share a cache line.
    nodes: Vec<NodeRecord>,
    /// Open list of the weighted kernel: `(f, cell)` in a radix heap (f never
    /// decreases with the consistent octile heuristic).
    wopen: RadixHeap,
    wstart: Cell,
    wgoal: Cell,
    /// Nodes expanded by the last search (over all its slices).
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
            buckets: BucketQueue::default(),
            nodes: vec![NodeRecord::default(); n],
            wopen: RadixHeap::default(),
            wstart: Cell(0),
            wgoal: Cell(0),
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
                nodes: vec![NodeRecord::default(); cells],
                ..Default::default()
            };
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.closed.fill(0);
            self.nodes.fill(NodeRecord::default());
            self.generation = 1;
        }
        self.open.clear();
        self.wopen.clear();
        self.expanded = 0;
    }

    /// Shortest path from `start` to `goal` under `costs`, written start first
    /// into `path`; returns its cost, or `None` when there is none. Answers
    /// "unreachable" from the region table before searching.
    pub fn search_weighted(
        &mut self,
        grid: &Grid,
        start: Cell,
        goal: Cell,
        costs: &MoveCosts,
        path: &mut Vec<Cell>,
    ) -> Option<u32> {
        match self.begin(grid, start, goal, costs) {
            SearchStatus::InProgress => {}
            _ => {
                path.clear();
                return None;
            }
        }
        match self.resume(grid, costs, usize::MAX, path) {
            SearchStatus::Found(c) => Some(c),
            _ => None,
        }
    }

    /// Starts a weighted search without expanding anything. Returns
    /// [`SearchStatus::Unreachable`] at once when the regions differ (O(1)),
    /// otherwise [`SearchStatus::InProgress`].
    pub fn begin(
        &mut self,
        grid: &Grid,
        start: Cell,
        goal: Cell,
        costs: &MoveCosts,
    ) -> SearchStatus {
        if !grid.reachable(start, goal) {
            return SearchStatus::Unreachable;
        }
        self.next_generation(grid.cell_count());
        let gen = self.generation;
        self.nodes[start.index()] = NodeRecord {
            stamp: gen,
            closed: 0,
            g: 0,
            parent: start.0,
        };
        self.wstart = start;
        self.wgoal = goal;
        let h = costs.heuristic(grid.xy(start), grid.xy(goal));
        self.wopen.push(h, start.0);
        SearchStatus::InProgress
    }

    /// Runs the search begun by [`SpatialAStar::begin`] for at most
    /// `max_expansions` expansions. `costs` must be the ones given to `begin`.
    /// On [`SearchStatus::Found`] the path is in `path`, start first.
    pub fn resume(
        &mut self,
        grid: &Grid,
        costs: &MoveCosts,
        max_expansions: usize,
        path: &mut Vec<Cell>,
    ) -> SearchStatus {
        let gen = self.generation;
        let goal = self.wgoal;
        let goal_xy = grid.xy(goal);
        let (w, h) = (grid.width() as i64, grid.height() as i64);
        let dirs = match costs.connectivity {
            Connectivity::Four => 4,
            Connectivity::Eight => 8,
        };
        let mut budget = max_expansions;
        let corner_cutting = grid.corner_cutting();
        while let Some((f, c)) = self.wopen.pop() {
            let ci = c as usize;
            let rec = self.nodes[ci];
            // A stale entry's cell was expanded before: with monotone f the best entry comes first.
            if rec.closed == gen {
                continue;
            }
            let g = rec.g;
            if budget == 0 {
                self.wopen.push(f, c);
                return SearchStatus::InProgress;
            }
            budget -= 1;
            self.nodes[ci].closed = gen;
            self.expanded += 1;
            if c == goal.0 {
                path.clear();
                let mut cur = c;
                path.push(Cell(cur));
                while cur != self.wstart.0 {
                    cur = self.nodes[cur as usize].parent;
                    path.push(Cell(cur));
                }
                path.reverse();
                return SearchStatus::Found(g);
            }
            let (x, y) = grid.xy(Cell(c));
            let (x, y) = (x as i64, y as i64);
            let mut open = [false; 4];
            for (k, &(dx, dy)) in MOVE_OFFSETS[..dirs].iter().enumerate() {
                let (nx, ny) = (x + dx as i64, y + dy as i64);
                if nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let ni = (ny * w + nx) as usize;
                if !grid.is_passable(Cell(ni as u32)) {
                    continue;
                }
                let base = if k < 4 {
                    open[k] = true;
                    costs.straight
                } else {
                    // Diagonal k-4 (NE, SE, SW, NW) touches cardinals k-4 and k-3 (mod 4).
                    let corners_open = open[k - 4] && open[(k - 3) % 4];
                    if !corner_cutting && !corners_open {
                        continue;
                    }
                    costs.diagonal
                };
                let nrec = &mut self.nodes[ni];
                if nrec.closed == gen {
                    continue;
                }
                let step = match costs.terrain {
                    Some(t) => base * t[ni],
                    None => base,
                };
                let ng = g + step;
                if nrec.stamp != gen || ng < nrec.g {
                    nrec.stamp = gen;
                    nrec.g = ng;
                    nrec.parent = c;
                    let f = ng + costs.heuristic((nx as u32, ny as u32), goal_xy);
                    self.wopen.push(f, ni as u32);
                }
            }
        }
        SearchStatus::NoPath
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

    /// The fewest moves from `start` to `goal` (`None`: no way), for
    /// counting only: A* on unit moves bounded by the grid distance, its
    /// open list a bucket queue (a move raises f by at most 2), no path
    /// kept. A run's summary prices every unit's lower bound with it; with
    /// [`Self::search`]'s binary heap that took longer than planning the
    /// whole run on den520d.
    pub fn steps(&mut self, grid: &Grid, start: Cell, goal: Cell) -> Option<u32> {
        if !grid.reachable(start, goal) {
            return None;
        }
        self.next_generation(grid.cell_count());
        let gen = self.generation;
        self.buckets.clear();
        self.stamp[start.index()] = gen;
        self.g[start.index()] = 0;
        self.buckets.push(grid.grid_distance(start, goal), start.0);
        let mut buf = [Cell(0); 8];
        while let Some((_, c)) = self.buckets.pop() {
            let ci = c as usize;
            if self.closed[ci] == gen {
                continue;
            }
            self.closed[ci] = gen;
            self.expanded += 1;
            if c == goal.0 {
                return Some(self.g[ci]);
            }
            let n = grid.neighbors(Cell(c), &mut buf);
            for &nb in &buf[..n] {
                let ni = nb.index();
                let ng = self.g[ci] + 1;
                if self.closed[ni] != gen && (self.stamp[ni] != gen || ng < self.g[ni]) {
                    self.stamp[ni] = gen;
                    self.g[ni] = ng;
                    self.buckets.push(ng + grid.grid_distance(nb, goal), nb.0);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    #[test]
    fn steps_count_the_moves_of_the_shortest_path() {
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let g = crate::map::generate_map("40x30:0.3".parse().unwrap(), conn, 3);
            let open: Vec<Cell> = (0..g.cell_count() as u32)
                .map(Cell)
                .filter(|&c| g.is_passable(c))
                .collect();
            let mut a = SpatialAStar::new(&g);
            let mut path = Vec::new();
            let mut counted = 0;
            for k in 0..200 {
                let (s, t) = (open[k * 7 % open.len()], open[k * 13 % open.len()]);
                let found = a.search(&g, s, t, |_| false, |c| g.grid_distance(c, t), &mut path);
                let want = found.then(|| path.len() as u32 - 1);
                assert_eq!(a.steps(&g, s, t), want, "{s:?} -> {t:?} ({conn:?})");
                counted += usize::from(found);
            }
            assert!(counted > 100, "{counted}");
        }
    }

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

    fn grid8(rows: &[&str]) -> Grid {
        Grid::from_rows(rows, Connectivity::Eight)
    }

    #[test]
    fn weighted_octile_cost_and_terrain_detour() {
        let g = grid8(&["....", "....", "...."]);
        let mut a = SpatialAStar::new(&g);
        let mut path = Vec::new();
        let c = a.search_weighted(
            &g,
            g.cell(0, 0),
            g.cell(3, 2),
            &MoveCosts::octile(),
            &mut path,
        );
        assert_eq!(c, Some(10_000 + 2 * 14_142));
        // Make the middle row dear: the path keeps off it except where it must cross.
        let mut t = vec![1u32; g.cell_count()];
        for x in 0..4 {
            t[g.cell(x, 1).index()] = 5;
        }
        t[g.cell(0, 1).index()] = 1;
        let c = a.search_weighted(
            &g,
            g.cell(0, 0),
            g.cell(3, 2),
            &MoveCosts::octile().with_terrain(&t),
            &mut path,
        );
        assert!(path.contains(&g.cell(0, 1)), "{path:?}");
        assert_eq!(c, Some(10_000 + 14_142 + 2 * 10_000));
    }

    #[test]
    fn four_connected_cost_ignores_grid_rule() {
        let g = grid8(&["...", "...", "..."]);
        let mut a = SpatialAStar::new(&g);
        let mut path = Vec::new();
        let c = a.search_weighted(
            &g,
            g.cell(0, 0),
            g.cell(2, 2),
            &MoveCosts::four(),
            &mut path,
        );
        assert_eq!(c, Some(40_000));
        assert_eq!(path.len(), 5);
    }

    #[test]
    fn time_sliced_search_matches_one_shot() {
        let g = grid8(&["........", ".@@@@@@.", "......@.", ".@@@@.@.", "........"]);
        let mut a = SpatialAStar::new(&g);
        let mut one = Vec::new();
        let full = a.search_weighted(
            &g,
            g.cell(0, 2),
            g.cell(5, 2),
            &MoveCosts::octile(),
            &mut one,
        );
        let total = a.expanded;
        assert!(total > 3);
        let mut sliced = Vec::new();
        assert_eq!(
            a.begin(&g, g.cell(0, 2), g.cell(5, 2), &MoveCosts::octile()),
            SearchStatus::InProgress
        );
        let mut calls = 0;
        let status = loop {
            calls += 1;
            match a.resume(&g, &MoveCosts::octile(), 2, &mut sliced) {
                SearchStatus::InProgress => continue,
                s => break s,
            }
        };
        assert_eq!(status, SearchStatus::Found(full.unwrap()));
        assert_eq!(sliced, one);
        assert_eq!(a.expanded, total);
        assert!(calls >= total / 2, "{calls} calls for {total} expansions");
    }

    #[test]
    fn unreachable_is_answered_without_search() {
        let g = grid8(&[".@.", ".@.", ".@."]);
        let mut a = SpatialAStar::new(&g);
        assert_eq!(
            a.begin(&g, g.cell(0, 0), g.cell(2, 2), &MoveCosts::octile()),
            SearchStatus::Unreachable
        );
        assert_eq!(a.expanded, 0);
    }
}
