//! How a plan of a unit with a footprint is stored and what it reserves.
//!
//! Such a plan is its anchor per tick (as a one-cell unit's plan is its
//! cell per tick) and, per tick, a [`Motion`] byte: the direction the body
//! moves in from that tick to the next, and whether an action starts at
//! that tick. During a step that takes several ticks the anchor stays on
//! the step's start until the tick it arrives. From tick `t` to `t + 1` the
//! body sweeps the box of its motion; the unit reserves that box at both
//! ticks, so at any tick it holds the boxes of the motions that end and
//! start there: Silver's footprints, tick by tick.

use crate::map::{Cell, Grid, Rect, MOVE_OFFSETS};

use super::body::sweep;

/// One tick of a footprint plan: bits 0–3 the direction (0: still,
/// `k + 1`: [`MOVE_OFFSETS`]`[k]`), bit 4 set when an action starts at the
/// tick (the unit may be given a new plan from there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Motion(pub u8);

impl Motion {
    /// Set on the first tick of an action.
    pub const ACTION_START: u8 = 0x10;
    /// Standing still, free to change plans.
    pub const STILL: Motion = Motion(Self::ACTION_START);

    /// The motion moving by (`dx`, `dy`) (one step or none), starting an
    /// action or continuing one.
    pub fn new((dx, dy): (i32, i32), starts_action: bool) -> Motion {
        let dir = MOVE_OFFSETS
            .iter()
            .position(|&o| o == (dx, dy))
            .map_or(0, |k| k as u8 + 1);
        Motion(dir | if starts_action { Self::ACTION_START } else { 0 })
    }

    /// The anchor's change over the step this motion belongs to.
    #[inline]
    pub fn offset(self) -> (i32, i32) {
        match self.0 & 0x0F {
            0 => (0, 0),
            d => MOVE_OFFSETS[d as usize - 1],
        }
    }

    /// Whether an action starts at this motion's tick.
    #[inline]
    pub fn starts_action(self) -> bool {
        self.0 & Self::ACTION_START != 0
    }
}

/// Calls `claim(cell, tick)` for every reservation of a footprint plan
/// (`path` anchors and `motions` from tick `start`, bodies of side `size`)
/// at ticks from `from` on: each motion's box at its two ticks, and the
/// last body at the last tick, each cell once a tick. (Two motions in a
/// row share a tick, where their boxes mostly overlap: a 3×3 body's step
/// after a step ahead adds 3 cells to the 12 of the box before, and the
/// last body lies in the last box. Naming each cell once a tick spares the
/// table a third or more of the claims, releases and reads of a plan.)
pub fn for_each_claim(
    grid: &Grid,
    size: u32,
    start: u32,
    path: &[Cell],
    motions: &[u8],
    from: u32,
    claim: &mut dyn FnMut(Cell, u32),
) {
    let n = path.len();
    let width = grid.width();
    // The box claimed at tick `t` by the motion before (at its second tick).
    let mut before: Option<Rect> = None;
    for i in 0..n.saturating_sub(1) {
        let t = start + i as u32;
        let r = sweep(grid, path[i], Motion(motions[i]).offset(), size);
        if t + 1 >= from {
            for y in r.y0..=r.y1 {
                for x in r.x0..=r.x1 {
                    let c = Cell(y * width + x);
                    // At `t`, the motion before (if any) already named
                    // the cells of its box: it claimed `t` as its second
                    // tick whenever `t >= from`.
                    if t >= from && !before.is_some_and(|b| b.contains((x, y))) {
                        claim(c, t);
                    }
                    claim(c, t + 1);
                }
            }
        }
        before = Some(r);
    }
    let last = start + n as u32 - 1;
    if last >= from {
        for c in super::body::body(grid, path[n - 1], size) {
            if !before.is_some_and(|b| b.contains(grid.xy(c))) {
                claim(c, last);
            }
        }
    }
}

/// The rectangle a unit on a footprint plan covers at `tick` (inside the
/// plan): its body, or in the middle of a step that takes several ticks,
/// the box that step sweeps.
pub fn rect_at(
    grid: &Grid,
    size: u32,
    start: u32,
    path: &[Cell],
    motions: &[u8],
    tick: u32,
) -> Rect {
    let i = (tick.saturating_sub(start) as usize).min(path.len() - 1);
    // A plan ends at rest (a plan cut in the middle of a step leaves the
    // body on the step's start), so its last tick and later are the body.
    if i > 0 && i + 1 < path.len() {
        let m = Motion(motions[i - 1]);
        if m.offset() != (0, 0) && path[i] == path[i - 1] {
            return sweep(grid, path[i], m.offset(), size);
        }
    }
    sweep(grid, path[i], (0, 0), size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Naming each cell once a tick names the same reservations as every
    /// motion's box at both its ticks and the last body: random walks of
    /// every size and pace, straight and diagonal steps and waits, read
    /// from any tick.
    #[test]
    fn claims_name_each_cell_once_a_tick_and_no_fewer() {
        let rows = vec!["........................"; 24];
        let g = Grid::from_rows(&rows, Connectivity::Eight);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..400 {
            let (size, pace) = (rng.gen_range(1..=3u32), rng.gen_range(1..=3u32));
            let (mut x, mut y) = (10i32, 10i32);
            let (mut path, mut motions) = (Vec::new(), Vec::new());
            for _ in 0..rng.gen_range(0..8) {
                let d = (rng.gen_range(-1..=1), rng.gen_range(-1..=1));
                let at = g.cell(x as u32, y as u32);
                if d == (0, 0) {
                    path.push(at);
                    motions.push(Motion::STILL.0);
                    continue;
                }
                for k in 0..pace {
                    path.push(at);
                    motions.push(Motion::new(d, k == 0).0);
                }
                (x, y) = (x + d.0, y + d.1);
            }
            path.push(g.cell(x as u32, y as u32));
            motions.push(Motion::STILL.0);
            let start = rng.gen_range(0..5);
            let from = start + rng.gen_range(0..=path.len() as u32);
            let mut every = std::collections::BTreeSet::new();
            for i in 0..path.len() - 1 {
                let t = start + i as u32;
                let r = sweep(&g, path[i], Motion(motions[i]).offset(), size);
                for c in r.cells(g.width()) {
                    every.extend([(c, t), (c, t + 1)].into_iter().filter(|&(_, t)| t >= from));
                }
            }
            let last = start + path.len() as u32 - 1;
            for c in super::super::body::body(&g, *path.last().unwrap(), size) {
                every.extend([(c, last)].into_iter().filter(|&(_, t)| t >= from));
            }
            let mut named = Vec::new();
            for_each_claim(&g, size, start, &path, &motions, from, &mut |c, t| {
                named.push((c, t));
            });
            let once: std::collections::BTreeSet<_> = named.iter().copied().collect();
            assert_eq!(once.len(), named.len(), "a cell named twice a tick");
            assert_eq!(once, every, "size {size}, pace {pace}, from {from}");
        }
    }

    #[test]
    fn a_slow_step_reserves_its_box_for_every_tick() {
        let g = Grid::from_rows(&["....", "....", "...."], Connectivity::Four);
        let a = g.cell(0, 0);
        let b = g.cell(1, 0);
        let m = |s| Motion::new((1, 0), s).0;
        // Size 2, pace 3: anchor (0,0) for three ticks, then (1,0).
        let path = [a, a, a, b];
        let motions = [m(true), m(false), m(false), Motion::STILL.0];
        let mut at: Vec<(u32, u32, u32)> = Vec::new();
        for_each_claim(&g, 2, 5, &path, &motions, 0, &mut |c, t| {
            let (x, y) = g.xy(c);
            at.push((t, x, y));
        });
        at.sort();
        at.dedup();
        for t in 5..=8 {
            let cells = at.iter().filter(|e| e.0 == t).count();
            assert_eq!(cells, 6, "a 3×2 box at tick {t}");
        }
        let r = rect_at(&g, 2, 5, &path, &motions, 6);
        assert_eq!((r.x0, r.x1), (0, 2), "mid-step: the box");
        let r = rect_at(&g, 2, 5, &path, &motions, 8);
        assert_eq!((r.x0, r.x1), (1, 2), "arrived: the body");
    }
}
