//! The state every planner works on (the map, the units and the
//! reservations) and the job scheduler that searches it on worker threads.

mod error;
mod scheduler;

pub use error::SimError;
pub use scheduler::{worker_pool, Budget, Scheduler, SearchOutcome, TileGraph, WorkerScratch};

use std::ops::Range;
use std::sync::Arc;

use crate::footprint::{body, for_each_claim, rect_at, update_fit_grid, ActionSet, Motion};
use crate::map::{Cell, Grid, Instance, Rect};
use crate::reservation::ReservationTable;
use crate::units::{Slot, UnitFlags, UnitKind, UnitState, Units, MAX_SIZE};

/// Map, unit columns and reservation table of one simulation.
pub struct World {
    /// The static map.
    pub(crate) grid: Arc<Grid>,
    /// Every unit, as columns.
    pub(crate) units: Units,
    /// Who stands where and when.
    pub(crate) table: ReservationTable,
    /// Per body size (index), the grid of anchors where such a body fits,
    /// made when the first unit of that size spawns (size 1 is `grid`).
    fits: Vec<Option<Arc<Grid>>>,
    /// The action set of every unit kind other than [`UnitKind::CELL`] seen.
    actions: Vec<(UnitKind, Arc<ActionSet>)>,
    /// Claims per tick the table was sized for, and the most the units
    /// alive may make (see [`claims_of`]).
    claim_capacity: usize,
    claim_load: usize,
}

/// Claims per tick a unit of `kind` may make at most: a one-cell unit its
/// cell (and slots replans leave), a body the two boxes of the motions
/// meeting at a tick.
pub fn claims_of(kind: UnitKind) -> usize {
    if kind.is_cell() {
        2
    } else {
        2 * kind.claims_per_tick()
    }
}

impl World {
    /// The static map (without buildings: see [`Grid::is_open_terrain`]).
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Every unit, as columns, indexed by [`Slot`].
    pub fn units(&self) -> &Units {
        &self.units
    }

    /// The space-time reservation table.
    pub fn table(&self) -> &ReservationTable {
        &self.table
    }

    /// A world with every unit of `instance` on its start, holding it from
    /// tick 0. `horizon` is how many ticks ahead plans may reserve,
    /// `plan_capacity` the longest plan a unit keeps, `claims_per_tick` how
    /// many cells all units alive may reserve in one tick (the reservation
    /// table is sized for them: see [`claims_of`]).
    pub fn new(
        instance: &Instance,
        horizon: u32,
        plan_capacity: usize,
        claims_per_tick: usize,
    ) -> Result<Self, SimError> {
        let grid = instance.grid.clone();
        check_instance(&grid, instance)?;
        let mut units = Units::new(&instance.starts, &instance.goals, plan_capacity);
        let table = ReservationTable::for_map(
            grid.cell_count() as u32,
            grid.width(),
            horizon,
            claims_per_tick.max(instance.len() * 2),
        );
        for a in units.ids().collect::<Vec<_>>() {
            let s = units.start[a.index()];
            table.claim(s, 0, a, 0).expect("starts are distinct");
            table.set_hold(s, 0, a).expect("starts are distinct");
            if !grid.reachable(s, units.goal[a.index()]) {
                units.set_flag(a, UnitFlags::UNREACHABLE, true);
                units.state[a.index()] = UnitState::Unreachable;
            }
            if s == units.goal[a.index()] {
                units.first_arrival[a.index()] = 0;
                units.set_flag(a, UnitFlags::ARRIVED, true);
            }
        }
        Ok(World {
            grid,
            units,
            table,
            fits: vec![None; MAX_SIZE as usize + 1],
            actions: Vec::new(),
            claim_capacity: claims_per_tick.max(instance.len() * 2),
            claim_load: instance.len() * 2,
        })
    }

    /// Counts a unit of `kind` into the table's load, readying its fit grid
    /// and actions; false (and nothing counted) if the table has no room.
    pub fn admit(&mut self, kind: UnitKind) -> bool {
        let load = self.claim_load + claims_of(kind);
        if load > self.claim_capacity {
            return false;
        }
        self.claim_load = load;
        if !kind.is_cell() {
            let size = kind.size as usize;
            if size > 1 && self.fits[size].is_none() {
                // Bodies keep to lanes too: those of their anchors.
                self.fits[size] = Some(Arc::new(
                    crate::footprint::fit_grid(&self.grid, size as u32)
                        .with_lanes(self.grid.has_lanes()),
                ));
            }
            if !self.actions.iter().any(|(k, _)| *k == kind) {
                let set = ActionSet::for_kind(kind, self.grid.connectivity());
                self.actions.push((kind, Arc::new(set)));
            }
        }
        true
    }

    /// Takes a unit of `kind` out of the table's load.
    pub fn discharge(&mut self, kind: UnitKind) {
        self.claim_load = self.claim_load.saturating_sub(claims_of(kind));
    }

    /// Claims per tick the table has room for, and those in use.
    pub fn claim_room(&self) -> (usize, usize) {
        (self.claim_capacity, self.claim_load)
    }

    /// The grid of anchors where a body of side `size` fits (the map itself
    /// for one cell).
    ///
    /// # Panics
    /// If no unit of that size was admitted.
    #[inline]
    pub fn fit_grid(&self, size: u8) -> &Grid {
        if size <= 1 {
            &self.grid
        } else {
            self.fits[size as usize]
                .as_deref()
                .expect("a unit of this size was admitted")
        }
    }

    /// The actions of units of `kind` (not [`UnitKind::CELL`]).
    ///
    /// # Panics
    /// If no unit of that kind was admitted.
    pub fn action_set(&self, kind: UnitKind) -> &Arc<ActionSet> {
        &self
            .actions
            .iter()
            .find(|(k, _)| *k == kind)
            .expect("a unit of this kind was admitted")
            .1
    }

    /// Keeps the fit grids true after the cells of `rect` were blocked or
    /// unblocked on the map.
    pub fn update_fit_grids(&mut self, rect: Rect) {
        for (size, fit) in self.fits.iter_mut().enumerate() {
            if let Some(fit) = fit {
                update_fit_grid(Arc::make_mut(fit), &self.grid, size as u32, rect);
            }
        }
    }

    /// Whether unit `a` may reach its goal from where it stands on the
    /// current map (on the anchors of its body's grid).
    pub fn reachable(&self, a: Slot) -> bool {
        let i = a.index();
        let fit = self.fit_grid(self.units.kind[i].size);
        let (from, goal) = (self.units.position[i], self.units.goal[i]);
        fit.reachable(from, goal) || (self.grid.is_blocked(from) && fit.is_passable(goal))
    }

    /// The rectangle unit `a` (on the map) covers at the current tick: its
    /// body, or mid-step the box the step sweeps.
    pub fn rect_of(&self, a: Slot) -> Rect {
        let i = a.index();
        let kind = self.units.kind[i];
        if kind.is_cell() {
            let (x, y) = self.grid.xy(self.units.position[i]);
            return Rect::new((x, y), (x, y));
        }
        rect_at(
            &self.grid,
            kind.size as u32,
            self.units.plan_start[i],
            self.units.plan(a),
            self.units.plan_motions(a),
            self.now(),
        )
    }

    /// Whether unit `a` is of a kind with a footprint.
    #[inline]
    fn has_footprint(&self, a: Slot) -> bool {
        !self.units.kind[a.index()].is_cell()
    }

    /// Calls `f(cell, tick)` for every reservation of unit `a`'s plan from
    /// tick `from` on (a cell may come twice).
    fn for_each_plan_claim(&self, a: Slot, from: u32, f: &mut dyn FnMut(Cell, u32)) {
        let i = a.index();
        let start = self.units.plan_start[i];
        if self.has_footprint(a) {
            let size = self.units.kind[i].size as u32;
            for_each_claim(
                &self.grid,
                size,
                start,
                self.units.plan(a),
                self.units.plan_motions(a),
                from,
                f,
            );
        } else {
            for (k, &c) in self.units.plan(a).iter().enumerate() {
                let t = start + k as u32;
                if t >= from {
                    f(c, t);
                }
            }
        }
    }

    /// The cells unit `a` holds for good at the end of its plan.
    pub fn end_cells(&self, a: Slot) -> impl Iterator<Item = Cell> + '_ {
        let i = a.index();
        let last = *self.units.plan(a).last().expect("plans are never empty");
        body(&self.grid, last, self.units.kind[i].size as u32)
    }

    /// Puts the unplaced unit `a` on its cell if nobody holds or has
    /// reserved that cell from now on and it is open; returns whether it
    /// did. It first plans at tick `ready_at` (holding its cell until then).
    pub fn try_place(&mut self, a: Slot, ready_at: u32) -> bool {
        let i = a.index();
        let c = self.units.position[i];
        let now = self.now();
        let size = self.units.kind[i].size as u32;
        if !self.fit_grid(size as u8).is_passable(c)
            || !body(&self.grid, c, size).all(|b| self.table.free_from(b, now, a))
        {
            return false;
        }
        for b in body(&self.grid, c, size) {
            let claimed = self.table.claim(b, now, a, self.units.priority[i]);
            let held = self.table.set_hold(b, now, a);
            debug_assert!(
                claimed.is_ok() && held.is_ok(),
                "the cells were free from now on"
            );
        }
        self.units
            .set_footprint_plan(a, now, &[c], &[Motion::STILL.0]);
        self.units.set_flag(a, UnitFlags::UNPLACED, false);
        self.units.next_replan[i] = ready_at;
        true
    }

    /// Takes unit `a`, placed during this step, off the map again: it waits
    /// to enter, as before it was placed.
    pub fn unplace(&mut self, a: Slot) {
        self.release_plan(a);
        self.release_now(a);
        self.units.set_flag(a, UnitFlags::UNPLACED, true);
        self.units.state[a.index()] = UnitState::Waiting;
    }

    /// Takes unit `a` off the map: its reservations after the current
    /// tick, and its hold, are dropped. It still stands where it is at the
    /// current tick (it leaves the map with the step), so the cells it
    /// covers stay claimed at that tick: a body stepping diagonally from
    /// now on sweeps the box around both ends at both ticks, and must not
    /// sweep through it.
    pub fn remove(&mut self, a: Slot) {
        if self.units.on_map(a) {
            let (r, now) = (self.rect_of(a), self.now());
            let prio = self.units.priority[a.index()];
            self.release_plan(a);
            for c in r.cells(self.grid.width()) {
                let claimed = self.table.claim(c, now, a, prio);
                debug_assert!(claimed.is_ok(), "its own cells now: {claimed:?}");
            }
        }
        self.units.flags[a.index()] = UnitFlags(UnitFlags::DEAD);
        self.units.goal_queue[a.index()].clear();
    }

    /// The current tick.
    #[inline]
    pub fn now(&self) -> u32 {
        self.table.now()
    }

    /// Whether a body of unit `a`'s size anchored at `at` lies on open
    /// cells of the map as it stands.
    pub fn body_fits(&self, a: Slot, at: Cell) -> bool {
        self.fit_grid(self.units.kind[a.index()].size)
            .is_passable(at)
    }

    /// Cuts unit `a`'s plan to its first `keep` ticks (at least one, and
    /// less than its length): the reservations past the new end are
    /// dropped, and so is the hold on its old end. The caller holds the new
    /// end (see [`Self::end_cells`]) once nobody else claims it later. A
    /// footprint unit cut in the middle of a step stays on the step's
    /// start: its body is inside the box it had reserved.
    pub fn truncate_plan(&mut self, a: Slot, keep: usize) {
        let i = a.index();
        let start = self.units.plan_start[i];
        self.release_plan(a);
        self.units.plan_len[i] = keep as u32;
        if self.has_footprint(a) {
            let at = i * self.units.plan_capacity + keep - 1;
            self.units.motions[at] = Motion::STILL.0;
        }
        let now = self.now();
        let prio = self.units.priority[i];
        let table = &self.table;
        self.for_each_plan_claim(a, now + 1, &mut |c, t| {
            let r = table.claim(c, t, a, prio);
            debug_assert!(r.is_ok(), "a cut plan claims less than before: {r:?}");
        });
        debug_assert_eq!(self.units.plan_start[i], start);
    }

    /// Drops unit `a`'s reservations at the current tick.
    fn release_now(&mut self, a: Slot) {
        let now = self.now();
        let table = &self.table;
        self.for_each_plan_claim(a, now, &mut |c, t| {
            if t == now {
                table.release(c, t, a);
            }
        });
    }

    /// Drops unit `a`'s reservations after the current tick and its hold.
    pub fn release_plan(&mut self, a: Slot) {
        let now = self.now();
        let table = &self.table;
        self.for_each_plan_claim(a, now + 1, &mut |c, t| table.release(c, t, a));
        for c in self.end_cells(a) {
            self.table.release_hold(c, a);
        }
    }

    /// Unit `a`'s plan from the current tick to the start of its next
    /// action, as indices into its plan: a footprint unit is bound to the
    /// action it is in the middle of (a slow step, a curve), so every new
    /// plan keeps this part as it is. Empty when an action may start now.
    pub fn action_in_progress(&self, a: Slot) -> Range<usize> {
        let (plan, motions) = (self.units.plan(a), self.units.plan_motions(a));
        let i0 = self.units.plan_index(a, self.now());
        let mut j = i0;
        if self.has_footprint(a) {
            while j + 1 < plan.len() && !Motion(motions[j]).starts_action() {
                j += 1;
            }
        }
        i0..j
    }

    /// Drops unit `a`'s plan as [`Self::release_plan`] does but keeps the
    /// claims of the action it is in the middle of (see
    /// [`Self::action_in_progress`]): its plan is set aside while other
    /// units plan first, and none of them may take what it is bound to.
    pub fn release_plan_but_action(&mut self, a: Slot) {
        let keep = self.action_in_progress(a);
        self.release_plan(a);
        if keep.is_empty() {
            return;
        }
        let i = a.index();
        let now = self.now();
        let prio = self.units.priority[i];
        let (plan, motions) = (self.units.plan(a), self.units.plan_motions(a));
        let start = self.units.plan_start[i] + keep.start as u32;
        let table = &self.table;
        for_each_claim(
            &self.grid,
            self.units.kind[i].size as u32,
            start,
            &plan[keep.start..=keep.end],
            &motions[keep.start..=keep.end],
            now + 1,
            &mut |c, t| {
                let r = table.claim(c, t, a, prio);
                debug_assert!(r.is_ok(), "the claims were the unit's own: {r:?}");
            },
        );
    }

    /// Reserves `path` (cell per tick from `start_tick`) for unit `a` and holds
    /// its last cell from then on. The path must have been searched against
    /// the table, so every claim succeeds.
    pub fn commit_plan(&mut self, a: Slot, start_tick: u32, path: &[Cell]) {
        let held = self.reserve_plan(a, start_tick, path);
        debug_assert!(held, "searched path end must be holdable");
    }

    /// Reserves the footprint plan `path`, `motions` (from `start_tick`) of
    /// unit `a`, of a kind with a footprint, and holds its last body from
    /// then on. The plan must have been searched against the table.
    pub fn commit_footprint_plan(
        &mut self,
        a: Slot,
        start_tick: u32,
        path: &[Cell],
        motions: &[u8],
    ) {
        self.units.set_footprint_plan(a, start_tick, path, motions);
        let held = self.reserve_stored_plan(a);
        debug_assert!(held, "searched plan end must be holdable");
    }

    /// Claims unit `a`'s stored plan from the current tick on and holds
    /// its end; returns whether every end cell could be held.
    fn reserve_stored_plan(&mut self, a: Slot) -> bool {
        let now = self.now();
        let prio = self.units.priority[a.index()];
        let table = &self.table;
        self.for_each_plan_claim(a, now, &mut |c, t| {
            let r = table.claim(c, t, a, prio);
            debug_assert!(r.is_ok(), "searched plan must be claimable: {r:?}");
        });
        let end = self.units.plan_end(a);
        let mut held = true;
        for c in self.end_cells(a) {
            held &= self.table.set_hold(c, end, a).is_ok();
        }
        held
    }

    /// Whether the footprint plan `path`, `motions` (from the current tick)
    /// is free for unit `a` against the table as it stands: every entry
    /// free, and its last body free for good.
    pub fn footprint_plan_is_free(&self, a: Slot, path: &[Cell], motions: &[u8]) -> bool {
        let now = self.now();
        let size = self.units.kind[a.index()].size as u32;
        let mut free = true;
        for_each_claim(&self.grid, size, now, path, motions, now, &mut |c, t| {
            free = free && self.grid.is_passable(c) && self.table.is_free(c, t, a);
        });
        let end = now + path.len() as u32 - 1;
        let last = *path.last().expect("non-empty");
        free && body(&self.grid, last, size).all(|c| self.table.free_from(c, end, a))
    }

    /// Replaces the plan of unit `a` (of a kind with a footprint) by
    /// `path`, `motions` from the current tick if it is still free now that
    /// other units may have committed since it was searched; otherwise
    /// leaves the old plan. Returns whether the new plan was committed.
    pub fn try_replace_footprint_plan(&mut self, a: Slot, path: &[Cell], motions: &[u8]) -> bool {
        if path.first() != Some(&self.units.position[a.index()])
            || !self.footprint_plan_is_free(a, path, motions)
        {
            return false;
        }
        let now = self.now();
        // The old claims at the current tick stay: the unit is there now.
        self.release_plan(a);
        self.commit_footprint_plan(a, now, path, motions);
        true
    }

    /// [`Self::commit_plan`], returning whether the last cell could be held
    /// (the claims must succeed).
    fn reserve_plan(&mut self, a: Slot, start_tick: u32, path: &[Cell]) -> bool {
        if self.has_footprint(a) {
            // A footprint unit's plans are restored with their motions by
            // the caller (see `replan`); a bare path is a standstill.
            debug_assert!(path.iter().all(|&c| c == path[0]), "a still footprint plan");
            let motions = [Motion::STILL.0; 1];
            self.units
                .set_footprint_plan(a, start_tick, &path[..1], &motions);
            return self.reserve_stored_plan(a);
        }
        let prio = self.units.priority[a.index()];
        let now = self.now();
        for (i, &c) in path.iter().enumerate() {
            let t = start_tick + i as u32;
            if t >= now {
                let r = self.table.claim(c, t, a, prio);
                debug_assert!(r.is_ok(), "searched path must be claimable: {r:?}");
            }
        }
        let last = *path.last().expect("non-empty path");
        let held = self
            .table
            .set_hold(last, start_tick + path.len() as u32 - 1, a)
            .is_ok();
        self.units.set_plan(a, start_tick, path);
        held
    }

    /// Replans unit `a`: drops its reservations, lets `search` write a new
    /// path from its cell at the current tick into `path`, and commits it; if
    /// the search fails, the old plan is reserved again (nobody can have taken
    /// its cells meanwhile), so a failed search never causes a collision.
    /// Returns whether a new plan was found.
    pub fn replan(
        &mut self,
        a: Slot,
        old: &mut Vec<Cell>,
        path: &mut Vec<Cell>,
        search: impl FnOnce(&World, &mut Vec<Cell>) -> bool,
    ) -> bool {
        old.clear();
        old.extend_from_slice(self.units.plan(a));
        let old_start = self.units.plan_start[a.index()];
        self.release_plan(a);
        let now = self.now();
        if search(self, path) && !path.is_empty() {
            debug_assert_eq!(path[0], self.units.position[a.index()]);
            self.commit_plan(a, now, path);
            self.units.set_flag(a, UnitFlags::STUCK, false);
            true
        } else {
            // Nobody planned since the old plan was released, so it is
            // free again; only at an optimistic start (see
            // `planner::optimistic`) may another unit hold the start, and
            // the unit, stuck and unheld, is then pinned by its planner.
            let held = self.reserve_plan(a, old_start, old);
            debug_assert!(held || old.len() == 1, "an old plan's end must be holdable");
            self.units.set_flag(a, UnitFlags::STUCK, true);
            false
        }
    }

    /// Whether `path` (from the unit's cell at the current tick) is legal for
    /// unit `a` against the table as it stands: every step free, no swap, no
    /// crossing, and its last cell free for good.
    pub fn path_is_free(&self, a: Slot, path: &[Cell]) -> bool {
        let now = self.now();
        path.windows(2).enumerate().all(|(i, w)| {
            self.table
                .move_is_free(&self.grid, a, w[0], w[1], now + i as u32)
        }) && path
            .last()
            .is_some_and(|&c| self.table.free_from(c, now + path.len() as u32 - 1, a))
    }

    /// Replaces unit `a`'s plan by `path` (from its cell at the current tick)
    /// if it is still legal now that other units may have committed since it
    /// was searched; otherwise leaves the old plan untouched. With
    /// `recheck == false` the caller vouches that nothing committed since the
    /// search touched the path's cells, and the move-by-move check is skipped.
    /// Returns whether the new plan was committed.
    pub fn try_replace_plan(&mut self, a: Slot, path: &[Cell], recheck: bool) -> bool {
        if !self.claim_replacement(a, path, recheck) {
            return false;
        }
        let now = self.now();
        self.units.set_plan(a, now, path);
        true
    }

    /// The reservation-table half of [`Self::try_replace_plan`]: checks
    /// `path` (with `recheck`), releases what unit `a`'s old plan holds and
    /// the new one does not, claims the rest and the new end; the unit's own
    /// plan is left for the caller to set. Only the ticks where the new plan
    /// differs from the old one are released and claimed (a replan usually
    /// repeats the first half of the old window). Takes `&self`: the table's
    /// claims are compare-and-swaps, so callers planning far-apart units may
    /// run it on several threads at once.
    pub fn claim_replacement(&self, a: Slot, path: &[Cell], recheck: bool) -> bool {
        if path.first() != Some(&self.units.position[a.index()]) {
            return false;
        }
        // Own reservations never block a check, so the old plan can stay in
        // place while the new one is checked.
        if recheck && !self.path_is_free(a, path) {
            return false;
        }
        let now = self.now();
        let prio = self.units.priority[a.index()];
        let old = self.units.plan(a);
        let old_start = self.units.plan_start[a.index()];
        let old_at = |t: u32| {
            t.checked_sub(old_start)
                .and_then(|i| old.get(i as usize))
                .copied()
        };
        if self.table.wants_prefetch() {
            // Each claim and release below is a cache miss on a large map
            // (a quarter of the 512² stress map's initial planning): start
            // them all before the first.
            for (i, &c) in path.iter().enumerate() {
                let t = now + i as u32;
                if old_at(t) != Some(c) {
                    self.table.prefetch(c, t);
                }
            }
            for (i, &c) in old.iter().enumerate() {
                let t = old_start + i as u32;
                if t > now && path.get((t - now) as usize) != Some(&c) {
                    self.table.prefetch(c, t);
                }
            }
        }
        for (i, &c) in old.iter().enumerate() {
            let t = old_start + i as u32;
            if t > now && path.get((t - now) as usize) != Some(&c) {
                self.table.release(c, t, a);
            }
        }
        let (old_last, new_last) = (
            *old.last().expect("plans are never empty"),
            *path.last().expect("non-empty"),
        );
        if old_last != new_last {
            self.table.release_hold(old_last, a);
        }
        for (i, &c) in path.iter().enumerate() {
            let t = now + i as u32;
            if old_at(t) != Some(c) {
                let r = self.table.claim(c, t, a, prio);
                debug_assert!(r.is_ok(), "checked path must be claimable: {r:?}");
            }
        }
        let r = self
            .table
            .set_hold(new_last, now + path.len() as u32 - 1, a);
        debug_assert!(r.is_ok(), "checked path end must be holdable");
        true
    }
}

/// Checks that every unit of `instance` starts and ends on an open cell of
/// the map and that no two start on one cell.
fn check_instance(grid: &Grid, instance: &Instance) -> Result<(), SimError> {
    if instance.starts.len() != instance.goals.len() {
        return Err(SimError::BadInstance {
            unit: instance.starts.len().min(instance.goals.len()),
            reason: format!(
                "{} starts but {} goals",
                instance.starts.len(),
                instance.goals.len()
            ),
        });
    }
    let n = grid.cell_count();
    let mut taken = vec![u32::MAX; n];
    for (u, (&s, &g)) in instance.starts.iter().zip(&instance.goals).enumerate() {
        for (what, c) in [("start", s), ("goal", g)] {
            if c.index() >= n {
                return Err(SimError::BadInstance {
                    unit: u,
                    reason: format!(
                        "{what} cell {} is outside the {}×{} map",
                        c.0,
                        grid.width(),
                        grid.height()
                    ),
                });
            }
            if !grid.is_passable(c) {
                let (x, y) = grid.xy(c);
                return Err(SimError::BadInstance {
                    unit: u,
                    reason: format!("{what} ({x}, {y}) is not an open cell"),
                });
            }
        }
        if taken[s.index()] != u32::MAX {
            let (x, y) = grid.xy(s);
            return Err(SimError::BadInstance {
                unit: u,
                reason: format!(
                    "starts on ({x}, {y}), where unit {} starts too",
                    taken[s.index()]
                ),
            });
        }
        taken[s.index()] = u as u32;
    }
    Ok(())
}
