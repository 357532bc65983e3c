//! Shoves: a unit stuck for long steps towards its goal by pushing a chain
//! of standing units one cell each, into a free cell or round into the
//! shover's own cell (a rotation), as priority inheritance does in PIBT (K.
//! Okumura, M. Machida, X. Défago and Y. Tamura, *Priority Inheritance with
//! Backtracking for Iterative Multi-agent Path Finding*, IJCAI 2019). A
//! promotion moves units out of a whole window's way and fails where a
//! crowd is packed solid (units with goals deep in a block of parked
//! units); one step needs only a chain to the nearest hole, or a ring of
//! units turning by one cell, and the units pushed off their goals come
//! back by their own searches.

use super::{save_plan, WindowedHca};
use crate::map::Cell;
use crate::units::{Slot, UnitFlags};
use crate::world::World;

/// Windows without progress (its best distance to its goal unchanged)
/// after which a one-cell unit shoves; after a shove it goes on shoving at
/// each replan for a window, replanning every tick. Units packed into a
/// block of individually ordered goals behind an 8-cell gap (300 units,
/// five orderings): all home by ticks 222–548 with 4; 264–295 home at tick
/// 3,000 without shoves. With chains to free cells only (no rings): all
/// home by ticks 254–459 with 4, by 181–331 with 2, 298–300 by tick 3,000
/// with 8. On the warehouse map (1,000 units, seeds 1–10, with and without
/// lanes) 2 left a unit off its goal for good in one run of 20, 3 and 4
/// none; sums of costs +1.5% and +1.9% against no shoves with 4, +2.1%
/// and +2.1% with 3.
pub(super) const SHOVE_AFTER_WINDOWS: u32 = 4;

/// Most units one shove may consider (each at most once, as in PIBT). With
/// 256, one group order of 1,000 units across den520d (seed 4) brought 930
/// home, against 980 with 64: chains that run far disturb more units.
pub(super) const MAX_SHOVED: usize = 64;

/// Scratch of [`WindowedHca::shove`].
#[derive(Default)]
pub(super) struct Shove {
    /// The chain found so far: unit, its cell, the cell it moves to.
    chain: Vec<(Slot, Cell, Cell)>,
    /// Units already tried in this shove.
    seen: Vec<Slot>,
    /// Blockers of one move, reused.
    blockers: Vec<Slot>,
}

impl Shove {
    pub(super) fn with_capacity(n: usize) -> Self {
        Self {
            chain: Vec::with_capacity(n),
            seen: Vec::with_capacity(n),
            blockers: Vec::with_capacity(4 * n),
        }
    }
}

impl WindowedHca {
    /// Whether unit `a` (one cell, off its goal, not following a joint
    /// plan) should shove now: without progress for
    /// [`SHOVE_AFTER_WINDOWS`], or shoving already.
    pub(super) fn shove_due(&self, world: &World, a: Slot) -> bool {
        let i = a.index();
        let now = world.now();
        world.units.kind[i].is_cell()
            && !world.units.at_goal(a)
            && !self.initializing
            && self.scripted_until[i] <= now
            && (self.shoving_until[i] > now
                || now.saturating_sub(world.units.progress_tick[i])
                    >= SHOVE_AFTER_WINDOWS * self.window)
    }

    /// Unit `a` steps to a neighbour nearer its goal, the units standing in
    /// the way pushed one cell each along a chain that ends in a free cell
    /// or in the unit's own cell. Every unit of the chain gets a one-step
    /// plan and plans again next tick. Returns whether a chain was found
    /// and committed.
    pub(super) fn shove(&mut self, world: &mut World, a: Slot) -> bool {
        crate::profile_zone!("shove");
        self.stats.shoves += 1;
        self.shove.chain.clear();
        self.shove.seen.clear();
        self.shove.seen.push(a);
        if !self.shove_from(world, a, None) {
            return false;
        }
        let now = world.now();
        let p = &mut self.promotion;
        p.clear();
        for &(u, ..) in &self.shove.chain {
            save_plan(p, world, u);
            world.release_plan(u);
        }
        for &(u, from, to) in &self.shove.chain {
            let path = [from, to];
            if !world.path_is_free(u, &path) {
                // Each move was checked against the table; kept safe all
                // the same.
                self.promotion.restore(world);
                return false;
            }
            world.commit_plan(u, now, &path);
        }
        for &(u, ..) in &self.shove.chain {
            let i = u.index();
            world.units.next_replan[i] = now + 1;
            world.units.set_flag(u, UnitFlags::STUCK, false);
            self.stalled[i] = 0;
        }
        self.shoving_until[a.index()] = now + self.window;
        self.stats.shoves_kept += 1;
        true
    }

    /// Finds a move for unit `u` standing on its cell, pushed by the unit on
    /// `pusher` (none for the shoving unit, which must come nearer its
    /// goal): its neighbours nearest its goal first, free ones before
    /// occupied ones; a neighbour where a unit stands is taken if that
    /// unit can be pushed on in turn. Appends the moves to the chain.
    fn shove_from(&mut self, world: &World, u: Slot, pusher: Option<Cell>) -> bool {
        let now = world.now();
        let grid = &world.grid;
        let from = world.units.position[u.index()];
        let mut around = [Cell(0); 8];
        let n = grid.neighbors(from, &mut around);
        // (distance, occupied now, cell) per candidate.
        let mut options = [(0u32, false, Cell(0)); 8];
        let here = {
            let mut h = self.heuristics[u.index()].lock();
            h.ensure_started(grid);
            for (k, &c) in around[..n].iter().enumerate() {
                options[k] = (
                    h.distance(grid, c),
                    world.table.occupant(c, now).is_some(),
                    c,
                );
            }
            h.distance(grid, from)
        };
        let options = &mut options[..n];
        options.sort_unstable_by_key(|&(d, busy, c)| (d, busy, c.0));
        for &(d, _, to) in options.iter() {
            if pusher.is_none() && d >= here {
                break;
            }
            // No swap with the pusher; no cell of the chain (where a unit
            // of it stands now, or goes next), but the shover's own cell:
            // the chain may close there, a rotation of three or more units
            // through a crowd with no hole near.
            let chain = &self.shove.chain;
            let closes = chain.len() >= 2 && to == chain[0].1;
            if Some(to) == pusher
                || !closes && chain.iter().any(|&(_, at, next)| at == to || next == to)
            {
                continue;
            }
            let blockers = &mut self.shove.blockers;
            blockers.clear();
            let mut note = |b: Slot| blockers.push(b);
            world.table.move_blockers(grid, u, from, to, now, &mut note);
            world.table.stay_blockers(to, now + 1, u, &mut note);
            let chain = &self.shove.chain;
            blockers.retain(|&b| !chain.iter().any(|&(w, ..)| w == b));
            let Some(&v) = blockers.first() else {
                // Free for good from the next tick on.
                self.shove.chain.push((u, from, to));
                return true;
            };
            // Only the unit standing there may be in the way, and it must
            // be pushed on in turn.
            if blockers.iter().any(|&b| b != v)
                || world.table.occupant(to, now) != Some(v)
                || self.shove.seen.len() >= MAX_SHOVED
                || self.shove.seen.contains(&v)
                || !self.shovable(world, u, v)
            {
                continue;
            }
            self.shove.seen.push(v);
            self.shove.chain.push((u, from, to));
            if self.shove_from(world, v, Some(from)) {
                return true;
            }
            self.shove.chain.pop();
        }
        false
    }

    /// Whether unit `v`, standing in unit `u`'s way, may be pushed: a
    /// one-cell unit staying where it is next tick, not bound to a joint
    /// plan, not outranking `u`.
    fn shovable(&self, world: &World, u: Slot, v: Slot) -> bool {
        let now = world.now();
        let (i, j) = (u.index(), v.index());
        let units = &world.units;
        units.kind[j].is_cell()
            && units.planned_cell(v, now + 1) == units.position[j]
            && self.scripted_until[j] <= now
            && !units.flags[j].has(UnitFlags::UNREACHABLE)
            && !units.flags[j].any(UnitFlags::INACTIVE)
            && units.priority[j] <= units.priority[i]
    }
}
