//! The CO-WHCA* loop (Bnaya & Felner 2014), independent of the shared world
//! so the offline form can run it on its own clock.
//!
//! One *planning phase* (the seed's Algorithm 2, lines 3–9) repeats cycles:
//! 1. every unit whose path is missing or crosses a reservation plans a full
//!    path to its goal around the *leftover* reservations (space-time A*
//!    guided by its own RRA* true distances);
//! 2. the paths are simulated to the earliest conflict tick `t`
//!    ([`ConflictFinder`]); every conflict of that tick gets an *owner*
//!    (an uninformed deterministic choice for CO-WHCA*, see
//!    `CoCore::arbitrary_owner`; the winner determination of Algorithm 3,
//!    [`super::winner`], for CO-WHCA*P);
//! 3. the owner's path is reserved from `t − W/2` to `t + W/2` (from the
//!    current tick for CO-HCA*), and the owner keeps that stretch of its
//!    path from then on (it is *pinned*);
//! 4. if the window starts later than now, all units move along their paths
//!    up to the window start (line 11) and the reservations are kept for the
//!    next phase; otherwise the next cycle starts at once.
//!
//! A unit only replans when the new reservations invalidate its path: the
//! table only ever gains constraints, so a still-valid optimal path is still
//! optimal (the seed recomputes every path from scratch; this gives paths of
//! the same cost with fewer searches).
//!
//! Beyond the seed, so that dense instances neither livelock nor stall:
//! - a unit whose full-depth search fails (boxed in by reservations) takes a
//!   `W`-tick windowed path that ends where it can stay, and tries the full
//!   search again at the next phase;
//! - such a stuck unit keeps its cells: reservations in its way are revoked
//!   (their owners replan) and it owns the conflict;
//! - a phase runs at most `n + 16` cycles (CO-HCA*: the seed's 100); then the
//!   units move up to the tick before the unresolved conflict, or, when that
//!   conflict is on the very next tick, everyone waits one tick and the CO
//!   reservations are dropped.

use std::sync::Arc;

use crate::distance::{dense_fits, ReverseResumableAStar};
use crate::map::{Cell, Grid};
use crate::reservation::ReservationTable;
use crate::search::{Depth, SpaceTimeAStar, SpaceTimeQuery};
use crate::units::{Slot, UnitFlags};
use crate::world::World;

use super::co_variant::CoVariant;
use super::conflict::{Conflict, ConflictFinder};
use super::winner::{arrival, select_winner, Trial};
use super::PlannerStats;

/// Expansion cap of one full-depth search, per passable cell of the map.
const EXPANSIONS_PER_CELL: usize = 8;
/// A unit that has lost this many conflicts since it last owned one is made
/// the owner (in CO-WHCA*P without winner determination). Algorithm 3 ignores
/// future conflicts, so without this a unit parked on its goal can win every
/// conflict against a unit that must pass it, and the latter never arrives.
const LOSS_LIMIT: u32 = 4;
/// CO-HCA*'s cycle limit per planning phase (the seed's 100).
const OFFLINE_CYCLES: usize = 100;
/// Expansion cap of the windowed fallback search, per tick of window.
const EXPANSIONS_PER_WINDOW_TICK: usize = 2048;

/// What a planning phase decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Every unit follows its path up to this tick, then a new phase starts.
    Move(u32),
    /// The paths are conflict-free to the end: follow them.
    Done,
    /// No safe progress: everyone waits one tick; reservations were dropped.
    Wait,
}

/// The state of the CO-WHCA* loop, independent of the shared world so the
/// offline form can run it on a virtual clock.
pub(super) struct CoCore {
    pub(super) grid: Arc<Grid>,
    pub(super) window: u32,
    pub(super) variant: CoVariant,
    pub(super) max_ticks: u32,
    /// The CO reservation table (leftovers); its `now` is the phase's tick.
    pub(super) table: ReservationTable,
    pub(super) rra: Vec<ReverseResumableAStar>,
    pub(super) search: SpaceTimeAStar,
    pub(super) goal: Vec<Cell>,
    /// False for units whose goal cannot be reached: they stay put.
    pub(super) movable: Vec<bool>,
    /// `paths[a][k]`: unit `a`'s cell at tick `now + k`; past the end it stays.
    pub(super) paths: Vec<Vec<Cell>>,
    /// Last tick of unit `a`'s reservations (contiguous up to it), if any.
    pub(super) pin_end: Vec<Option<u32>>,
    /// The last full-depth search failed (retried at the next phase).
    failed: Vec<bool>,
    /// A full-depth search failed in this phase: until the next phase only
    /// the windowed fallback is tried (a failing full search is expensive).
    full_failed: Vec<bool>,
    /// Per cell: the latest tick anyone has claimed it in `table` (a bound:
    /// releases leave it), so "free from here on" is cheap to check.
    last_claim: Vec<u32>,
    /// Conflicts each unit was in without being made their owner, since it
    /// last owned one.
    lost: Vec<u32>,
    pub(super) dirty: Vec<bool>,
    finder: ConflictFinder,
    conflicts: Vec<Conflict>,
    pub(super) scratch: Vec<Cell>,
    pub(super) max_expansions: usize,
    pub(super) stats: PlannerStats,
    /// Plan cycles run (conflicts looked for).
    pub cycles: u64,
    /// Conflicts given an owner.
    pub owned: u64,
    /// Reservations revoked to let a stuck unit keep its cell.
    pub revoked: u64,
}

impl CoCore {
    pub(super) fn new(world: &World, window: u32, variant: CoVariant, max_ticks: u32) -> Self {
        let grid = world.grid.clone();
        let n = world.units.len();
        let window = window.max(2);
        let table = ReservationTable::new(
            grid.cell_count(),
            max_ticks.saturating_add(window).saturating_add(4),
            n * 2,
        );
        let dense = dense_fits(grid.cell_count(), n);
        let rra = world
            .units
            .ids()
            .map(|a| {
                let i = a.index();
                ReverseResumableAStar::new(
                    &grid,
                    world.units.goal[i],
                    world.units.position[i],
                    dense,
                )
            })
            .collect();
        let mut core = CoCore {
            window,
            variant,
            max_ticks,
            table,
            rra,
            search: SpaceTimeAStar::new(),
            goal: world.units.goal.clone(),
            movable: (0..n)
                .map(|i| !world.units.flags[i].has(UnitFlags::UNREACHABLE))
                .collect(),
            paths: world.units.position.iter().map(|&c| vec![c]).collect(),
            pin_end: vec![None; n],
            failed: vec![false; n],
            full_failed: vec![false; n],
            lost: vec![0; n],
            last_claim: vec![0; grid.cell_count()],
            dirty: vec![true; n],
            finder: ConflictFinder::new(),
            conflicts: Vec::new(),
            scratch: Vec::new(),
            max_expansions: (grid.passable_count() * EXPANSIONS_PER_CELL).max(100_000),
            stats: PlannerStats::default(),
            cycles: 0,
            owned: 0,
            revoked: 0,
            grid,
        };
        while core.table.now() < world.now() {
            core.table.advance();
        }
        core
    }

    /// The tick of `paths[_][0]`.
    #[inline]
    pub(super) fn now(&self) -> u32 {
        self.table.now()
    }

    /// Unit `a`'s cell at `tick` by its path.
    #[inline]
    pub(super) fn cell_at(&self, a: Slot, tick: u32) -> Cell {
        let p = &self.paths[a.index()];
        p[((tick - self.now()) as usize).min(p.len() - 1)]
    }

    /// Whether unit `a`'s path is reserved at `tick`.
    #[inline]
    fn pinned_at(&self, a: Slot, tick: u32) -> bool {
        self.pin_end[a.index()].is_some_and(|l| l >= tick)
    }

    /// How many leading cells of unit `a`'s path are fixed by its reservations.
    #[inline]
    pub(super) fn prefix_len(&self, a: Slot) -> usize {
        let now = self.now();
        match self.pin_end[a.index()] {
            Some(l) if l > now => ((l - now) as usize + 1).min(self.paths[a.index()].len()),
            _ => 1,
        }
    }

    /// Moves the clock to `to`: every unit is where its path puts it then.
    pub(super) fn advance_to(&mut self, to: u32) {
        let now = self.now();
        debug_assert!(to >= now);
        let k = (to - now) as usize;
        for (i, p) in self.paths.iter_mut().enumerate() {
            p.drain(..k.min(p.len() - 1));
            if self.pin_end[i].is_some_and(|l| l <= to) {
                self.pin_end[i] = None;
            }
        }
        while self.table.now() < to {
            self.table.advance();
        }
    }

    /// Searches a path for unit `a` from the end of its pinned prefix into
    /// `scratch` (prefix excluded): full depth first; if that fails, a
    /// `W`-tick window that ends somewhere it can stay. Returns
    /// `(found, full)`.
    pub(super) fn search_unit(&mut self, a: Slot) -> (bool, bool) {
        let i = a.index();
        let prefix = self.prefix_len(a);
        let start = self.paths[i][prefix - 1];
        let start_tick = self.now() + prefix as u32 - 1;
        let grid = self.grid.clone();
        let mut query = SpaceTimeQuery {
            unit: a,
            start,
            start_tick,
            goal: self.goal[i],
            depth: Depth::Full(self.max_ticks.saturating_sub(start_tick).max(1)),
            goal_wait_cost: 1,
            max_expansions: self.max_expansions,
            deadline: None,
            overriding: None,
        };
        let rra = &mut self.rra[i];
        let before = rra.expanded;
        let mut h = |c: Cell| rra.distance(&grid, c);
        let mut full = false;
        if !self.full_failed[i] {
            full = self.search.search(
                &grid,
                &self.table,
                &query,
                &mut h,
                &|_| 0,
                &mut self.scratch,
            );
            self.stats.searches += 1;
            self.stats.expanded += self.search.expanded as u64;
            if !full {
                self.stats.failed_searches += 1;
                self.full_failed[i] = true;
            }
        }
        let mut found = full;
        if !full {
            query.depth = Depth::Window(self.window);
            query.goal_wait_cost = 0;
            query.max_expansions = EXPANSIONS_PER_WINDOW_TICK * self.window as usize;
            found = self.search.search(
                &grid,
                &self.table,
                &query,
                &mut h,
                &|_| 0,
                &mut self.scratch,
            );
            self.stats.searches += 1;
            self.stats.expanded += self.search.expanded as u64;
        }
        self.stats.heuristic_expanded += self.rra[i].expanded.saturating_sub(before) as u64;
        (found, full)
    }

    /// Replans unit `a` (keeping its pinned prefix).
    fn plan_unit(&mut self, a: Slot) {
        let i = a.index();
        self.dirty[i] = false;
        if !self.movable[i] {
            return;
        }
        let prefix = self.prefix_len(a);
        let (found, full) = self.search_unit(a);
        let p = &mut self.paths[i];
        p.truncate(prefix);
        if found {
            p.extend_from_slice(&self.scratch[1..]);
        }
        self.failed[i] = !full;
    }

    /// Whether unit `a`'s path avoids the other units' reservations made at
    /// ticks `lo..=hi` (it was valid before they were made, so only moves
    /// touching those ticks, and the final stay, need checking).
    fn path_valid(&self, a: Slot, lo: u32, hi: u32) -> bool {
        let p = &self.paths[a.index()];
        let now = self.now();
        let end = now + p.len() as u32 - 1;
        let first = lo.saturating_sub(1).max(now);
        let last = hi.min(end);
        for t in first..last {
            let k = (t - now) as usize;
            if !self.table.move_is_free(&self.grid, a, p[k], p[k + 1], t) {
                return false;
            }
        }
        end > hi || self.free_from(p[p.len() - 1], end, a)
    }

    /// Whether unit `a` could stay on `cell` from `tick` on (the CO table has
    /// no holds; only claims up to the cell's latest are looked at).
    fn free_from(&self, cell: Cell, tick: u32, a: Slot) -> bool {
        let last = self.last_claim[cell.index()].min(self.table.last_tick());
        (tick.max(self.now())..=last)
            .all(|t| self.table.layer_owner(cell, t).is_none_or(|b| b == a))
    }

    /// First tick unit `a` would newly reserve for a window `[ws, we]`: it
    /// continues its existing reservations so they stay contiguous.
    #[inline]
    pub(super) fn window_from(&self, a: Slot, ws: u32) -> u32 {
        let now = self.now();
        match self.pin_end[a.index()] {
            Some(l) if l >= now => ws.min(l + 1),
            _ => ws,
        }
        .max(now)
    }

    /// Whether unit `a`'s path from `from` to `we` is free of the others'
    /// reservations.
    pub(super) fn window_free(&self, a: Slot, from: u32, we: u32) -> bool {
        if !self.table.is_free(self.cell_at(a, from), from, a) {
            return false;
        }
        (from..we).all(|t| {
            self.table
                .move_is_free(&self.grid, a, self.cell_at(a, t), self.cell_at(a, t + 1), t)
        })
    }

    /// Reserves unit `a`'s path from `from` to `we` (extending the path with
    /// waits on its last cell if it ends earlier); writes the claims it made
    /// (cells it did not hold yet) into `out`.
    pub(super) fn claim_window(&mut self, a: Slot, from: u32, we: u32, out: &mut Vec<(Cell, u32)>) {
        out.clear();
        let need = (we - self.now()) as usize + 1;
        let p = &mut self.paths[a.index()];
        if p.len() < need {
            let last = p[p.len() - 1];
            p.resize(need, last);
        }
        for t in from..=we {
            let c = self.cell_at(a, t);
            if self.table.layer_owner(c, t) != Some(a) && self.table.claim(c, t, a, 0).is_ok() {
                out.push((c, t));
                let last = &mut self.last_claim[c.index()];
                *last = (*last).max(t);
            }
        }
    }

    /// Drops claims made by [`Self::claim_window`].
    pub(super) fn release_claims(&mut self, a: Slot, claims: &[(Cell, u32)]) {
        for &(c, t) in claims {
            self.table.release(c, t, a);
        }
    }

    /// Drops every reservation and pin (the fallback when no progress is possible).
    pub(super) fn drop_reservations(&mut self) {
        let now = self.now();
        for i in 0..self.paths.len() {
            if let Some(l) = self.pin_end[i].take() {
                let a = Slot(i as u32);
                for t in now..=l {
                    let c = self.cell_at(a, t);
                    self.table.release(c, t, a);
                }
            }
        }
    }

    /// The uninformed owner choice (the seed picks "arbitrarily"), made
    /// deterministic and live: units that cannot replan keep their cells;
    /// then a unit that has lost [`LOSS_LIMIT`] conflicts since it last owned
    /// one; then a unit passing through beats one resting on its goal at the
    /// conflict tick (it steps aside, as WHCA*'s parked units do on request);
    /// then the lower id. A fixed order keeps two units in a corridor from
    /// taking turns to back off; the other rules keep a parked unit from
    /// blocking a passage for ever.
    fn arbitrary_owner(&self, candidates: &[Slot], t: u32) -> Slot {
        let stuck = |a: Slot| !self.movable[a.index()] || self.failed[a.index()];
        let resting = |a: Slot| {
            let p = &self.paths[a.index()];
            p[p.len() - 1] == self.goal[a.index()] && t + 1 >= self.now() + p.len() as u32
        };
        *candidates
            .iter()
            .min_by_key(|&&a| {
                (
                    !stuck(a),
                    self.lost[a.index()] < LOSS_LIMIT,
                    resting(a),
                    a.0,
                )
            })
            .expect("candidates are not empty")
    }

    /// Cycles one phase may run before it gives up on a conflict: the seed's
    /// 100 for CO-HCA*; for the online forms one per unit (each stalled
    /// cycle normally pins one more unit) plus slack.
    fn cycle_cap(&self) -> usize {
        if self.variant.fixed_start() {
            OFFLINE_CYCLES
        } else {
            self.paths.len() + 16
        }
    }

    /// One planning phase at the current tick; see the module docs.
    pub(super) fn phase(&mut self) -> Outcome {
        let now = self.now();
        let n = self.paths.len();
        for i in 0..n {
            self.dirty[i] |= self.failed[i];
            self.full_failed[i] = false;
        }
        let half = self.window / 2;
        let cap = self.cycle_cap();
        let mut claims = Vec::new();
        let mut owners: Vec<Slot> = Vec::new();
        for cycle in 0.. {
            // Searches see only the reservations, not each other's paths,
            // so the order does not matter.
            for i in 0..n {
                if self.dirty[i] {
                    self.plan_unit(Slot(i as u32));
                }
            }
            let mut conflicts = std::mem::take(&mut self.conflicts);
            let first = self
                .finder
                .earliest(&self.grid, &self.paths, now, &mut conflicts);
            let t = match first {
                Some(t) if t <= self.max_ticks => t,
                _ => {
                    self.conflicts = conflicts;
                    return Outcome::Done;
                }
            };
            self.cycles += 1;
            if cycle >= cap {
                self.conflicts = conflicts;
                return self.give_up(t);
            }
            let ws = if self.variant.fixed_start() {
                now
            } else {
                t.saturating_sub(half).max(now)
            };
            let we = (t + half).min(self.table.last_tick());
            owners.clear();
            let (mut new_lo, mut new_hi) = (u32::MAX, 0);
            for c in &conflicts {
                if c.units.iter().any(|a| owners.contains(a)) {
                    // An owner of this tick already holds its cell here.
                    continue;
                }
                let mut candidates: Vec<Slot> = c
                    .units
                    .iter()
                    .copied()
                    .filter(|&a| {
                        !self.pinned_at(a, t) && self.window_free(a, self.window_from(a, ws), we)
                    })
                    .collect();
                if candidates.is_empty() {
                    if let Some(a) = self.clear_way_for_stuck(c, ws, we, t) {
                        candidates.push(a);
                    } else {
                        continue;
                    }
                }
                let starved = candidates
                    .iter()
                    .any(|a| self.lost[a.index()] >= LOSS_LIMIT);
                let owner = if self.variant.prioritized() && !starved {
                    select_winner(self, &candidates, &c.units, ws, we)
                } else {
                    self.arbitrary_owner(&candidates, t)
                };
                let from = self.window_from(owner, ws);
                self.claim_window(owner, from, we, &mut claims);
                for &(_, t) in &claims {
                    new_lo = new_lo.min(t);
                    new_hi = new_hi.max(t);
                }
                let pin = &mut self.pin_end[owner.index()];
                *pin = Some(pin.map_or(we, |l| l.max(we)));
                owners.push(owner);
                self.owned += 1;
                for &a in &c.units {
                    if a != owner {
                        self.lost[a.index()] += 1;
                    }
                }
                self.lost[owner.index()] = 0;
            }
            self.conflicts = conflicts;
            if owners.is_empty() {
                return self.give_up(t);
            }
            for i in 0..n {
                let a = Slot(i as u32);
                if !self.dirty[i]
                    && self.movable[i]
                    && !owners.contains(&a)
                    && !self.path_valid(a, new_lo, new_hi)
                {
                    self.dirty[i] = true;
                }
            }
            if ws > now {
                return Outcome::Move(ws);
            }
        }
        unreachable!("the cycle loop only ends by returning")
    }

    /// A conflict nobody can own: typically a unit that cannot get out of the
    /// way (its search failed, or its goal is unreachable) meets another
    /// unit's reservation. The reservations in the stuck unit's way are
    /// revoked (those units replan) and the stuck unit may own the conflict.
    /// Revoking is safe: reservations are promises between planning cycles;
    /// only executed segments are committed to the shared table.
    fn clear_way_for_stuck(&mut self, c: &Conflict, ws: u32, we: u32, t: u32) -> Option<Slot> {
        for &a in &c.units {
            let i = a.index();
            let stuck = self.failed[i] || !self.movable[i];
            if !stuck || self.pinned_at(a, t) {
                continue;
            }
            let from = self.window_from(a, ws);
            for tick in from..=we {
                let here = self.cell_at(a, tick);
                if let Some(b) = self.table.layer_owner(here, tick).filter(|&b| b != a) {
                    self.revoke(b);
                }
                if tick < we {
                    // Swaps and crossings: whoever is reserved next to us.
                    let next = self.cell_at(a, tick + 1);
                    for (p, q) in [(next, tick), (here, tick + 1)] {
                        if let Some(b) = self.table.layer_owner(p, q).filter(|&b| b != a) {
                            self.revoke(b);
                        }
                    }
                }
            }
            if self.window_free(a, from, we) {
                return Some(a);
            }
        }
        None
    }

    /// Drops unit `b`'s reservations; it replans at the next cycle.
    fn revoke(&mut self, b: Slot) {
        let now = self.now();
        if let Some(l) = self.pin_end[b.index()].take() {
            for t in now..=l {
                let c = self.cell_at(b, t);
                self.table.release(c, t, b);
            }
        }
        self.dirty[b.index()] = true;
        self.revoked += 1;
    }

    /// No owner could be found for the conflicts at `t`, or too many cycles
    /// ran: move up to the tick before `t` if that is later than now,
    /// else drop the reservations and wait one tick.
    fn give_up(&mut self, t: u32) -> Outcome {
        let now = self.now();
        if t > now + 1 {
            return Outcome::Move(t - 1);
        }
        self.drop_reservations();
        for i in 0..self.paths.len() {
            self.paths[i].truncate(1);
            self.dirty[i] = true;
        }
        Outcome::Wait
    }

    /// Whether every unit that can reach its goal has a path ending there.
    pub(super) fn all_paths_home(&self) -> bool {
        (0..self.paths.len())
            .all(|i| !self.movable[i] || self.paths[i].last() == Some(&self.goal[i]))
    }
}

impl Trial for CoCore {
    fn max_ticks(&self) -> u32 {
        self.max_ticks
    }

    fn claim(&mut self, c: Slot, ws: u32, we: u32, claims: &mut Vec<(Cell, u32)>) {
        let from = self.window_from(c, ws);
        self.claim_window(c, from, we, claims);
    }

    fn release(&mut self, c: Slot, claims: &[(Cell, u32)]) {
        self.release_claims(c, claims);
    }

    fn planned_arrival(&self, c: Slot) -> Option<usize> {
        arrival(&self.paths[c.index()], self.goal[c.index()])
    }

    fn arrival_around(&mut self, m: Slot) -> Option<usize> {
        if !self.movable[m.index()] {
            return None;
        }
        let (_, full) = self.search_unit(m);
        // Fixed prefix, then the searched path (its first cell is the
        // prefix's last).
        full.then(|| {
            self.prefix_len(m) - 1 + arrival(&self.scratch, self.goal[m.index()]).unwrap_or(0)
        })
    }
}
