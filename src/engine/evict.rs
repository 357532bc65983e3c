//! Leaving a building placed on top of a unit. The planner only plans units
//! on open cells, so a unit inside a new block gets its escape from here: a
//! breadth-first search over space and time, through the blocked cells and
//! out to the nearest open cell it can hold for good, against the
//! reservation table like any other plan. A unit that finds no way out this
//! tick waits where it is (no one else may enter a block) and tries again
//! on the next.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::footprint::{body, sweep, Motion};
use crate::map::{Cell, Grid, MOVE_OFFSETS};
use crate::units::Slot;

use super::World;

/// Most ticks an escape plan may take (also bounded by the table's horizon).
const MAX_ESCAPE_TICKS: u32 = 48;
/// Most (cell, tick) states one escape search visits: a unit walled in by
/// parked units tries again next tick instead of searching the map.
const MAX_ESCAPE_NODES: usize = 2048;
/// How far (in cells, either axis) an escape may lead from the unit.
const MAX_ESCAPE_REACH: u32 = 12;

/// Scratch of the escape searches, reused across ticks.
#[derive(Default)]
pub struct Escapes {
    open: VecDeque<(Cell, u32)>,
    parent: FxHashMap<(u32, u32), u32>,
    path: Vec<Cell>,
    motions: Vec<u8>,
    steps: Vec<(Cell, Cell)>,
}

impl Escapes {
    /// Plans unit `a`'s way out of the blocked cells it stands in, and
    /// commits it if found. Returns whether it found one.
    pub fn plan(&mut self, world: &mut World, a: Slot) -> bool {
        if !world.units.kind[a.index()].is_cell() {
            return self.plan_body(world, a);
        }
        let now = world.now();
        let start = world.units.position[a.index()];
        let grid = &world.grid;
        let table = &world.table;
        let depth_limit = MAX_ESCAPE_TICKS.min(table.horizon().saturating_sub(2));
        self.open.clear();
        self.parent.clear();
        self.open.push_back((start, 0));
        self.parent.insert((start.0, 0), u32::MAX);
        let mut exit = None;
        while let Some((c, d)) = self.open.pop_front() {
            if grid.is_passable(c) && table.free_from(c, now + d, a) {
                exit = Some((c, d));
                break;
            }
            if d >= depth_limit || self.parent.len() >= MAX_ESCAPE_NODES {
                continue;
            }
            let t = now + d;
            let (sx, sy) = grid.xy(start);
            for n in escape_steps(grid, c) {
                let (nx, ny) = grid.xy(n);
                if nx.abs_diff(sx).max(ny.abs_diff(sy)) > MAX_ESCAPE_REACH
                    || self.parent.contains_key(&(n.0, d + 1))
                {
                    continue;
                }
                if table.move_is_free(grid, a, c, n, t) {
                    self.parent.insert((n.0, d + 1), c.0);
                    self.open.push_back((n, d + 1));
                }
            }
        }
        let Some((mut c, mut d)) = exit else {
            return false;
        };
        self.path.clear();
        loop {
            self.path.push(c);
            let p = self.parent[&(c.0, d)];
            if p == u32::MAX {
                break;
            }
            c = Cell(p);
            d -= 1;
        }
        self.path.reverse();
        world.release_plan(a);
        world.commit_plan(a, now, &self.path);
        true
    }
}

impl Escapes {
    /// [`Escapes::plan`] for a unit with a footprint: the same search over
    /// its anchors, each straight step taking its pace and reserving the
    /// box it sweeps, every cell of which is open or, while the body is
    /// still inside, blocked. It ends where the whole body is on open
    /// cells it can hold for good.
    fn plan_body(&mut self, world: &mut World, a: Slot) -> bool {
        let now = world.now();
        let i = a.index();
        let kind = world.units.kind[i];
        let (size, pace) = (kind.size as u32, kind.pace.max(1) as u32);
        let start = world.units.position[i];
        let grid = &world.grid;
        let table = &world.table;
        let fit = world.fit_grid(kind.size);
        let depth_limit = MAX_ESCAPE_TICKS.min(table.horizon().saturating_sub(2));
        self.open.clear();
        self.parent.clear();
        self.open.push_back((start, 0));
        self.parent.insert((start.0, 0), u32::MAX);
        let (sx, sy) = grid.xy(start);
        let mut exit = None;
        while let Some((c, d)) = self.open.pop_front() {
            if fit.is_passable(c) && body(grid, c, size).all(|b| table.free_from(b, now + d, a)) {
                exit = Some((c, d));
                break;
            }
            if d + pace > depth_limit || self.parent.len() >= MAX_ESCAPE_NODES {
                continue;
            }
            let inside = body(grid, c, size).any(|b| grid.is_blocked(b));
            let (x, y) = grid.xy(c);
            for (dx, dy) in std::iter::once((0, 0)).chain(MOVE_OFFSETS[..4].iter().copied()) {
                let Some(n) = grid.cell_checked(x as i64 + dx as i64, y as i64 + dy as i64) else {
                    continue;
                };
                let dt = if (dx, dy) == (0, 0) { 1 } else { pace };
                let (nx, ny) = grid.xy(n);
                if nx + size > grid.width()
                    || ny + size > grid.height()
                    || nx.abs_diff(sx).max(ny.abs_diff(sy)) > MAX_ESCAPE_REACH
                    || self.parent.contains_key(&(n.0, d + dt))
                {
                    continue;
                }
                let boxed = sweep(grid, c, (dx, dy), size);
                let legal = boxed.cells(grid.width()).all(|b| {
                    (grid.is_passable(b) || (inside && grid.is_blocked(b)))
                        && (0..=dt).all(|k| table.is_free(b, now + d + k, a))
                });
                if legal {
                    self.parent.insert((n.0, d + dt), c.0);
                    self.open.push_back((n, d + dt));
                }
            }
        }
        let Some((mut c, mut d)) = exit else {
            return false;
        };
        // Back from the exit: each step's anchor, `dt` ticks apiece.
        self.steps.clear();
        loop {
            let p = self.parent[&(c.0, d)];
            if p == u32::MAX {
                break;
            }
            let dt = if p == c.0 { 1 } else { pace };
            self.steps.push((Cell(p), c));
            c = Cell(p);
            d -= dt;
        }
        self.path.clear();
        self.motions.clear();
        for &(from, to) in self.steps.iter().rev() {
            let ((fx, fy), (tx, ty)) = (grid.xy(from), grid.xy(to));
            let off = (tx as i32 - fx as i32, ty as i32 - fy as i32);
            let ticks = if off == (0, 0) { 1 } else { pace };
            for k in 0..ticks {
                self.path.push(from);
                self.motions.push(Motion::new(off, k == 0).0);
            }
        }
        self.path.push(c_end(&self.steps, start));
        self.motions.push(Motion::STILL.0);
        world.release_plan(a);
        world.commit_footprint_plan(a, now, &self.path, &self.motions);
        true
    }
}

/// Where a chain of escape steps ends (the start if there are none).
fn c_end(steps: &[(Cell, Cell)], start: Cell) -> Cell {
    steps.first().map_or(start, |&(_, to)| to)
}

/// The cells a unit leaving a block may step to from `c`: waiting, and the
/// cardinal neighbours (legal in either connectivity) that are open or,
/// while it is still inside, blocked. Never a wall of the map, and never
/// back into a block once out.
fn escape_steps(grid: &Grid, c: Cell) -> impl Iterator<Item = Cell> + '_ {
    let (x, y) = grid.xy(c);
    let inside = grid.is_blocked(c);
    std::iter::once(c).chain(MOVE_OFFSETS[..4].iter().filter_map(move |&(dx, dy)| {
        let n = grid.cell_checked(x as i64 + dx as i64, y as i64 + dy as i64)?;
        (grid.is_passable(n) || (inside && grid.is_blocked(n))).then_some(n)
    }))
}
