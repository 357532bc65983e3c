//! Directional A* (the seed's "Legal Turns"): a search over (cell, heading)
//! with 8 compass headings, whose successors are the cells 1, 2 or 3 tiles
//! away (Directional8, 24, 48) arriving with any heading. A transition is
//! legal only if its shortest curve keeps the unit's footprint off blocked
//! cells, tested with the precomputed [`HitTable`]: per expanded node the
//! 11×11 block's blocked cells are gathered into one 121-bit mask, so each of
//! the up to 384 transitions costs one AND. The [`HeuristicTable`] guides it.
//! Memory is 8 nodes per cell with generation stamps, as in the spatial A*.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::map::{Cell, Grid};

use super::curve::{Curve, CurvePath};
use super::error::MotionError;
use super::heuristic_table::HeuristicTable;
use super::hit_table::{block_bit, HitTable, BLOCK_HALF};
use super::pose::{heading_angle, Point, Pose, HEADINGS};
use super::turns::{arc_line_arc_with_reverse, shortest_legal};
use super::walkable::{free, Footprint};

/// How far successors lie: the seed's Directional8, 24 and 48.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Neighborhood {
    /// The 8 cells one tile away.
    D8,
    /// The 24 cells up to two tiles away.
    D24,
    /// The 48 cells up to three tiles away.
    D48,
}

impl Neighborhood {
    /// Chebyshev reach in tiles.
    pub fn reach(self) -> i32 {
        match self {
            Neighborhood::D8 => 1,
            Neighborhood::D24 => 2,
            Neighborhood::D48 => 3,
        }
    }

    /// The seed's name.
    pub fn name(self) -> &'static str {
        match self {
            Neighborhood::D8 => "directional8",
            Neighborhood::D24 => "directional24",
            Neighborhood::D48 => "directional48",
        }
    }
}

/// The unit and the search's limits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectionalConfig {
    /// Successor reach.
    pub neighborhood: Neighborhood,
    /// Turning radius, tiles.
    pub radius: f64,
    /// Unit width, tiles.
    pub width: f64,
    /// Allow driving in reverse, each reversing leg's length multiplied by this.
    pub reverse_penalty: Option<f64>,
    /// Give up after this many expansions.
    pub max_expansions: usize,
}

impl DirectionalConfig {
    /// Forward-only search with a 4-million-node budget.
    pub fn new(neighborhood: Neighborhood, radius: f64, width: f64) -> Self {
        DirectionalConfig {
            neighborhood,
            radius,
            width,
            reverse_penalty: None,
            max_expansions: 4_000_000,
        }
    }
}

/// The heading a search starts with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StartHeading {
    /// Any of the 8 compass headings, at no cost (a unit at rest, free to face anywhere).
    Free,
    /// This exact angle, radians; the first transitions are then computed exactly.
    Angle(f64),
}

/// One search's endpoints.
#[derive(Clone, Copy, Debug)]
pub struct DirectionalQuery<'a> {
    /// Start cell (the unit at its centre).
    pub start: Cell,
    /// Heading at the start.
    pub start_heading: StartHeading,
    /// Goal cell.
    pub goal: Cell,
    /// Compass heading required at the goal, if any.
    pub goal_heading: Option<u8>,
    /// Only cells in `[x0, x1] × [y0, y1]` are visited (the hybrid's local window).
    pub window: Option<[u32; 4]>,
    /// Per-cell cost multipliers (≥ 1): a transition costs its length times its end cell's terrain.
    pub terrain: Option<&'a [u32]>,
}

impl<'a> DirectionalQuery<'a> {
    /// From `start` with `start_heading` to `goal` facing anywhere.
    pub fn new(start: Cell, start_heading: StartHeading, goal: Cell) -> Self {
        DirectionalQuery {
            start,
            start_heading,
            goal,
            goal_heading: None,
            window: None,
            terrain: None,
        }
    }
}

/// A legal route found by a directional search.
#[derive(Clone, Debug)]
pub struct DirectionalPath {
    /// Poses at the visited nodes, start first (the exact start pose when one was given).
    pub poses: Vec<Pose>,
    /// The cells of those nodes.
    pub cells: Vec<Cell>,
    /// For each leg between poses, whether it is driven in reverse.
    pub reversing: Vec<bool>,
    /// The legs' curves joined.
    pub curve: CurvePath,
    /// Search cost (length, with terrain and reverse penalties), tiles.
    pub cost: f64,
}

const ROOT: u32 = u32::MAX;

/// The endpoints of the search in progress, kept between slices.
#[derive(Clone, Copy, Debug)]
struct ActiveSearch {
    start: Cell,
    goal: Cell,
    goal_heading: Option<u8>,
    window: Option<[u32; 4]>,
    /// The exact start heading when it is not a compass heading.
    exact: Option<f64>,
}

/// Directional A* with its tables and reusable scratch memory.
#[derive(Clone, Debug)]
pub struct DirectionalAStar {
    config: DirectionalConfig,
    table: HitTable,
    heur: HeuristicTable,
    footprint: Footprint,
    stamp: Vec<u32>,
    g: Vec<u32>,
    /// `(parent node << 1) | reversing`, or [`ROOT`] for a successor of an exact start.
    parent: Vec<u32>,
    closed: Vec<u32>,
    generation: u32,
    open: BinaryHeap<Reverse<(u64, u32)>>,
    start_legs: Vec<(u32, Curve)>,
    active: Option<ActiveSearch>,
    /// Nodes expanded by the last search.
    pub expanded: usize,
}

impl DirectionalAStar {
    /// Builds the hit-check and heuristic tables for `config`.
    pub fn new(config: DirectionalConfig) -> Self {
        DirectionalAStar {
            config,
            table: HitTable::build(config.radius, config.width, config.neighborhood.reach()),
            heur: HeuristicTable::build(config.radius),
            footprint: Footprint::new(config.width),
            stamp: Vec::new(),
            g: Vec::new(),
            parent: Vec::new(),
            closed: Vec::new(),
            generation: 0,
            open: BinaryHeap::new(),
            start_legs: Vec::new(),
            active: None,
            expanded: 0,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &DirectionalConfig {
        &self.config
    }

    /// Changes the unit or the reach, rebuilding the tables only if the radius, width or reach changed.
    pub fn reconfigure(&mut self, config: DirectionalConfig) {
        if config.radius != self.config.radius
            || config.width != self.config.width
            || config.neighborhood != self.config.neighborhood
        {
            *self = DirectionalAStar {
                stamp: std::mem::take(&mut self.stamp),
                g: std::mem::take(&mut self.g),
                parent: std::mem::take(&mut self.parent),
                closed: std::mem::take(&mut self.closed),
                generation: self.generation,
                ..DirectionalAStar::new(config)
            };
        }
        self.config = config;
    }

    /// The hit-check table in use.
    pub fn hit_table(&self) -> &HitTable {
        &self.table
    }

    /// The heuristic table in use.
    pub fn heuristic_table(&self) -> &HeuristicTable {
        &self.heur
    }

    fn next_generation(&mut self, nodes: usize) {
        if self.stamp.len() != nodes {
            self.stamp = vec![0; nodes];
            self.g = vec![0; nodes];
            self.parent = vec![0; nodes];
            self.closed = vec![0; nodes];
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.closed.fill(0);
            self.generation = 1;
        }
        self.open.clear();
        self.start_legs.clear();
        self.expanded = 0;
    }

    fn h(&self, grid: &Grid, cell: Cell, heading: u8, goal: Point) -> u32 {
        let p = Point::centre(grid, cell);
        let mut e = self
            .heur
            .estimate(Pose::at(p, heading_angle(heading)), goal);
        if self.config.reverse_penalty.is_some() {
            e = e.min(p.dist(goal));
        }
        (e * 1000.0) as u32
    }

    #[inline]
    fn relax(&mut self, node: u32, g: u32, parent: u32, f: u32) {
        let n = node as usize;
        if self.closed[n] == self.generation {
            return;
        }
        if self.stamp[n] != self.generation || g < self.g[n] {
            self.stamp[n] = self.generation;
            self.g[n] = g;
            self.parent[n] = parent;
            self.open
                .push(Reverse(((f as u64) << 32 | (u32::MAX - g) as u64, node)));
        }
    }

    /// The blocked cells of the 11×11 block around `(x, y)` as a mask
    /// (off-map cells count as blocked).
    pub fn blocked_block(grid: &Grid, x: u32, y: u32) -> u128 {
        let mut m = 0u128;
        for dy in -BLOCK_HALF..=BLOCK_HALF {
            for dx in -BLOCK_HALF..=BLOCK_HALF {
                if !free(grid, x as i64 + dx as i64, y as i64 + dy as i64) {
                    m |= 1u128 << block_bit(dx, dy);
                }
            }
        }
        m
    }

    /// Searches for a legal route. Fails at once (no search) when the region
    /// table says the goal is unreachable.
    pub fn search(
        &mut self,
        grid: &Grid,
        q: &DirectionalQuery,
    ) -> Result<DirectionalPath, MotionError> {
        self.begin(grid, q)?;
        loop {
            if let Some(path) = self.resume(grid, q.terrain, usize::MAX)? {
                return Ok(path);
            }
        }
    }

    /// Starts a search to be run in slices by [`DirectionalAStar::resume`]:
    /// checks the endpoints and the region table (failing at once when the
    /// goal is unreachable) and seeds the open list, expanding nothing.
    pub fn begin(&mut self, grid: &Grid, q: &DirectionalQuery) -> Result<(), MotionError> {
        self.active = None;
        if !grid.is_passable(q.start) || !grid.is_passable(q.goal) {
            let (what, c) = if grid.is_passable(q.start) {
                ("goal", q.goal)
            } else {
                ("start", q.start)
            };
            let (x, y) = grid.xy(c);
            return Err(MotionError::BlockedEndpoint {
                what,
                x: x as i64,
                y: y as i64,
            });
        }
        if !grid.reachable(q.start, q.goal) {
            return Err(MotionError::Unreachable);
        }
        self.next_generation(grid.cell_count() * HEADINGS);
        let goal_pt = Point::centre(grid, q.goal);
        let start_pt = Point::centre(grid, q.start);
        let (sx, sy) = grid.xy(q.start);
        let terrain = |c: Cell| q.terrain.map_or(1, |t| t[c.index()]);
        let in_window = |x: i64, y: i64| match q.window {
            Some([x0, y0, x1, y1]) => {
                x >= x0 as i64 && x <= x1 as i64 && y >= y0 as i64 && y <= y1 as i64
            }
            None => true,
        };
        let discrete = match q.start_heading {
            StartHeading::Free => None,
            StartHeading::Angle(a) => {
                let k = super::pose::nearest_heading(a);
                let d = super::pose::wrap_pi(a - heading_angle(k)).abs();
                Some((k, d < 1e-9, a))
            }
        };
        match discrete {
            None => {
                for h in 0..HEADINGS as u8 {
                    let node = q.start.0 * HEADINGS as u32 + h as u32;
                    let f = self.h(grid, q.start, h, goal_pt);
                    self.relax(node, 0, node << 1, f);
                }
            }
            Some((k, true, _)) => {
                let node = q.start.0 * HEADINGS as u32 + k as u32;
                let f = self.h(grid, q.start, k, goal_pt);
                self.relax(node, 0, node << 1, f);
            }
            Some((_, false, a)) => {
                // An exact start heading: compute the first legs exactly (the table assumes compass headings).
                let from = Pose::at(start_pt, a);
                let fp = self.footprint;
                let r = self.config.radius;
                let (offsets, count) = self.table.offsets_array();
                for &(dx, dy) in &offsets[..count] {
                    let (nx, ny) = (sx as i64 + dx as i64, sy as i64 + dy as i64);
                    if !free(grid, nx, ny) || !in_window(nx, ny) {
                        continue;
                    }
                    let nc = grid.cell(nx as u32, ny as u32);
                    for h1 in 0..HEADINGS as u8 {
                        let to = Pose::at(Point::centre(grid, nc), heading_angle(h1));
                        let legal = |c: &Curve| fp.walkable_curve(grid, c);
                        let leg = match self.config.reverse_penalty {
                            Some(p) => arc_line_arc_with_reverse(from, to, r, p, legal),
                            None => shortest_legal(from, to, r, legal).map(|c| (c, c.length())),
                        };
                        if let Some((curve, cost)) = leg {
                            let node = nc.0 * HEADINGS as u32 + h1 as u32;
                            let g = (cost * 1000.0).round() as u32 * terrain(nc);
                            let f = g + self.h(grid, nc, h1, goal_pt);
                            let before = (self.stamp[node as usize] == self.generation)
                                .then(|| self.g[node as usize]);
                            self.relax(node, g, ROOT, f);
                            if before.is_none_or(|b| g < b) {
                                self.start_legs.retain(|(n, _)| *n != node);
                                self.start_legs.push((node, curve));
                            }
                        }
                    }
                }
            }
        }
        self.active = Some(ActiveSearch {
            start: q.start,
            goal: q.goal,
            goal_heading: q.goal_heading,
            window: q.window,
            exact: discrete.and_then(|(_, on_compass, a)| (!on_compass).then_some(a)),
        });
        Ok(())
    }

    /// Runs the search begun by [`DirectionalAStar::begin`] for at most
    /// `max_expansions` expansions: `Ok(None)` means call again, `terrain`
    /// must be the query's. The seed's "stop and think" over several frames.
    pub fn resume(
        &mut self,
        grid: &Grid,
        terrain: Option<&[u32]>,
        max_expansions: usize,
    ) -> Result<Option<DirectionalPath>, MotionError> {
        let name = self.config.neighborhood.name();
        let Some(q) = self.active else {
            return Err(self.no_path(name, ""));
        };
        let goal_pt = Point::centre(grid, q.goal);
        let terrain = |c: Cell| terrain.map_or(1, |t| t[c.index()]);
        let in_window = |x: i64, y: i64| match q.window {
            Some([x0, y0, x1, y1]) => {
                x >= x0 as i64 && x <= x1 as i64 && y >= y0 as i64 && y <= y1 as i64
            }
            None => true,
        };
        let (offsets, count) = self.table.offsets_array();
        let offsets = &offsets[..count];
        let penalty = self.config.reverse_penalty;
        let mut budget = max_expansions;
        while let Some(Reverse((key, node))) = self.open.pop() {
            let n = node as usize;
            let g = u32::MAX - key as u32;
            if self.closed[n] == self.generation || g > self.g[n] {
                continue;
            }
            if budget == 0 {
                self.open.push(Reverse((key, node)));
                return Ok(None);
            }
            budget -= 1;
            self.closed[n] = self.generation;
            self.expanded += 1;
            if self.expanded > self.config.max_expansions {
                self.active = None;
                return Err(self.no_path(name, ", budget exhausted"));
            }
            let cell = Cell(node / HEADINGS as u32);
            let h0 = (node % HEADINGS as u32) as u8;
            if cell == q.goal && q.goal_heading.is_none_or(|gh| gh == h0) {
                self.active = None;
                return Ok(Some(self.reconstruct(grid, node, &q)));
            }
            let (x, y) = grid.xy(cell);
            let blocked = Self::blocked_block(grid, x, y);
            for (o, &(dx, dy)) in offsets.iter().enumerate() {
                if blocked & (1u128 << block_bit(dx, dy)) != 0 {
                    continue;
                }
                let (nx, ny) = (x as i64 + dx as i64, y as i64 + dy as i64);
                if !in_window(nx, ny) {
                    continue;
                }
                let nc = grid.cell(nx as u32, ny as u32);
                let t = terrain(nc);
                for h1 in 0..HEADINGS as u8 {
                    let nnode = nc.0 * HEADINGS as u32 + h1 as u32;
                    if self.closed[nnode as usize] == self.generation {
                        continue;
                    }
                    let mut best: Option<(u32, u32)> = None;
                    if let Some((_, cost)) = self.table.legal(h0, h1, o, blocked) {
                        best = Some((g + cost * t, node << 1));
                    }
                    if let Some(p) = penalty {
                        if let Some((_, cost)) =
                            self.table.legal((h0 + 4) % 8, (h1 + 4) % 8, o, blocked)
                        {
                            let c = g + (cost as f64 * p) as u32 * t;
                            if best.is_none_or(|b| c < b.0) {
                                best = Some((c, node << 1 | 1));
                            }
                        }
                    }
                    if let Some((ng, par)) = best {
                        if self.stamp[nnode as usize] == self.generation
                            && ng >= self.g[nnode as usize]
                        {
                            continue;
                        }
                        let f = ng + self.h(grid, nc, h1, goal_pt);
                        self.relax(nnode, ng, par, f);
                    }
                }
            }
        }
        self.active = None;
        Err(self.no_path(name, ""))
    }

    fn no_path(&self, method: &'static str, budget: &'static str) -> MotionError {
        MotionError::NoLegalPath {
            method,
            radius: self.config.radius,
            width: self.config.width,
            expanded: self.expanded,
            budget,
        }
    }

    fn reconstruct(&self, grid: &Grid, goal_node: u32, q: &ActiveSearch) -> DirectionalPath {
        // Nodes from the first searched node to the goal; the reversing bit of
        // each leg is read from the parent word of the leg's end node.
        let mut chain = vec![goal_node];
        let mut node = goal_node;
        loop {
            let p = self.parent[node as usize];
            if p == ROOT || p >> 1 == node {
                break;
            }
            node = p >> 1;
            chain.push(node);
        }
        chain.reverse();
        let mut poses = Vec::new();
        let mut cells = Vec::new();
        let mut reversing = Vec::new();
        let mut curves = Vec::new();
        let node_pose = |n: u32| {
            Pose::at(
                Point::centre(grid, Cell(n / 8)),
                heading_angle((n % 8) as u8),
            )
        };
        let first = chain[0];
        if self.parent[first as usize] == ROOT {
            let a = q.exact.unwrap_or(0.0);
            poses.push(Pose::at(Point::centre(grid, q.start), a));
            cells.push(q.start);
            let leg = self
                .start_legs
                .iter()
                .find(|(n, _)| *n == first)
                .map(|(_, c)| *c)
                .expect("every exact-start successor has its leg");
            reversing.push(leg.reverse);
            curves.push(leg);
        }
        poses.push(node_pose(first));
        cells.push(Cell(first / 8));
        for w in chain.windows(2) {
            let (a, b) = (w[0], w[1]);
            let rev = self.parent[b as usize] & 1 == 1;
            let (ax, ay) = grid.xy(Cell(a / 8));
            let (bx, by) = grid.xy(Cell(b / 8));
            let o = self
                .table
                .offset_number(bx as i32 - ax as i32, by as i32 - ay as i32)
                .expect("parent and child are within reach");
            let (h0, h1) = ((a % 8) as u8, (b % 8) as u8);
            // The search took the first candidate clear of the block's blocked cells: take it again.
            let blocked = Self::blocked_block(grid, ax, ay);
            let (t0, t1) = if rev {
                ((h0 + 4) % 8, (h1 + 4) % 8)
            } else {
                (h0, h1)
            };
            let (k, _) = self
                .table
                .legal(t0, t1, o, blocked)
                .expect("the search used a legal candidate");
            let mut curve = self.table.curve(t0, t1, o, k, ax, ay);
            curve.reverse = rev;
            curves.push(curve);
            reversing.push(rev);
            poses.push(node_pose(b));
            cells.push(Cell(b / 8));
        }
        DirectionalPath {
            poses,
            cells,
            reversing,
            curve: CurvePath { curves },
            cost: self.g[goal_node as usize] as f64 / 1000.0,
        }
    }
}
