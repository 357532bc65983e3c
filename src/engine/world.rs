//! The state every planner works on: the map, the units and the reservations.

use std::sync::Arc;

use crate::agents::{AgentFlags, AgentId, Agents, UnitState};
use crate::map::{Cell, Grid, Instance};
use crate::reservation::ReservationTable;

use super::SimError;

/// Map, unit columns and reservation table of one simulation.
pub struct World {
    /// The static map.
    pub grid: Arc<Grid>,
    /// Every unit, as columns.
    pub agents: Agents,
    /// Who stands where and when.
    pub table: ReservationTable,
}

impl World {
    /// A world with every unit of `instance` on its start, holding it from
    /// tick 0. `horizon` is how many ticks ahead plans may reserve,
    /// `plan_capacity` the longest plan a unit keeps, `max_units` how many
    /// units may live at once (the reservation table is sized for them).
    pub fn new(
        instance: &Instance,
        horizon: u32,
        plan_capacity: usize,
        max_units: usize,
    ) -> Result<Self, SimError> {
        let grid = instance.grid.clone();
        check_instance(&grid, instance)?;
        let mut agents = Agents::new(&instance.starts, &instance.goals, plan_capacity);
        let table = ReservationTable::for_map(
            grid.cell_count() as u32,
            grid.width(),
            horizon,
            // Each unit's cell per tick, plus slots left by replans.
            max_units.max(instance.len()) * 2,
        );
        for a in agents.ids().collect::<Vec<_>>() {
            let s = agents.start[a.index()];
            table.claim(s, 0, a, 0).expect("starts are distinct");
            table.set_hold(s, 0, a).expect("starts are distinct");
            if !grid.reachable(s, agents.goal[a.index()]) {
                agents.set_flag(a, AgentFlags::UNREACHABLE, true);
                agents.state[a.index()] = UnitState::Unreachable;
            }
            if s == agents.goal[a.index()] {
                agents.first_arrival[a.index()] = 0;
                agents.set_flag(a, AgentFlags::ARRIVED, true);
            }
        }
        Ok(World {
            grid,
            agents,
            table,
        })
    }

    /// Puts the unplaced unit `a` on its cell if nobody holds or has
    /// reserved that cell from now on and it is open; returns whether it
    /// did. It first plans at tick `ready_at` (holding its cell until then).
    pub fn try_place(&mut self, a: AgentId, ready_at: u32) -> bool {
        let i = a.index();
        let c = self.agents.position[i];
        let now = self.now();
        if !self.grid.is_passable(c) || !self.table.free_from(c, now, a) {
            return false;
        }
        let claimed = self.table.claim(c, now, a, self.agents.priority[i]);
        let held = self.table.set_hold(c, now, a);
        debug_assert!(
            claimed.is_ok() && held.is_ok(),
            "the cell was free from now on"
        );
        self.agents.set_plan(a, now, &[c]);
        self.agents.set_flag(a, AgentFlags::UNPLACED, false);
        self.agents.next_replan[i] = ready_at;
        true
    }

    /// Takes unit `a`, placed during this step, off the map again: it waits
    /// to enter, as before it was placed.
    pub fn unplace(&mut self, a: AgentId) {
        let now = self.now();
        let c = self.agents.position[a.index()];
        self.release_plan(a);
        self.table.release(c, now, a);
        self.agents.set_flag(a, AgentFlags::UNPLACED, true);
        self.agents.state[a.index()] = UnitState::Waiting;
    }

    /// Takes unit `a` off the map: every reservation it has from the
    /// current tick on, and its hold, are dropped.
    pub fn remove(&mut self, a: AgentId) {
        if self.agents.on_map(a) {
            let now = self.now();
            self.release_plan(a);
            let here = self.agents.planned_cell(a, now);
            self.table.release(here, now, a);
        }
        self.agents.flags[a.index()] = AgentFlags(AgentFlags::DEAD);
        self.agents.goal_queue[a.index()].clear();
    }

    /// The current tick.
    #[inline]
    pub fn now(&self) -> u32 {
        self.table.now()
    }

    /// Drops unit `a`'s reservations after the current tick and its hold.
    pub fn release_plan(&mut self, a: AgentId) {
        let now = self.now();
        let start = self.agents.plan_start[a.index()];
        let plan = self.agents.plan(a);
        for (i, &c) in plan.iter().enumerate() {
            let t = start + i as u32;
            if t > now {
                self.table.release(c, t, a);
            }
        }
        let last = *plan.last().expect("plans are never empty");
        self.table.release_hold(last, a);
    }

    /// Reserves `path` (cell per tick from `start_tick`) for unit `a` and holds
    /// its last cell from then on. The path must have been searched against
    /// the table, so every claim succeeds.
    pub fn commit_plan(&mut self, a: AgentId, start_tick: u32, path: &[Cell]) {
        let held = self.reserve_plan(a, start_tick, path);
        debug_assert!(held, "searched path end must be holdable");
    }

    /// [`Self::commit_plan`], returning whether the last cell could be held
    /// (the claims must succeed).
    fn reserve_plan(&mut self, a: AgentId, start_tick: u32, path: &[Cell]) -> bool {
        let prio = self.agents.priority[a.index()];
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
        self.agents.set_plan(a, start_tick, path);
        held
    }

    /// Replans unit `a`: drops its reservations, lets `search` write a new
    /// path from its cell at the current tick into `path`, and commits it; if
    /// the search fails, the old plan is reserved again (nobody can have taken
    /// its cells meanwhile), so a failed search never causes a collision.
    /// Returns whether a new plan was found.
    pub fn replan(
        &mut self,
        a: AgentId,
        old: &mut Vec<Cell>,
        path: &mut Vec<Cell>,
        search: impl FnOnce(&World, &mut Vec<Cell>) -> bool,
    ) -> bool {
        old.clear();
        old.extend_from_slice(self.agents.plan(a));
        let old_start = self.agents.plan_start[a.index()];
        self.release_plan(a);
        let now = self.now();
        if search(self, path) && !path.is_empty() {
            debug_assert_eq!(path[0], self.agents.position[a.index()]);
            self.commit_plan(a, now, path);
            self.agents.set_flag(a, AgentFlags::STUCK, false);
            true
        } else {
            // Nobody planned since the old plan was released, so it is
            // free again; only at an optimistic start (see
            // `planner::optimistic`) may another unit hold the start, and
            // the unit, stuck and unheld, is then pinned by its planner.
            let held = self.reserve_plan(a, old_start, old);
            debug_assert!(held || old.len() == 1, "an old plan's end must be holdable");
            self.agents.set_flag(a, AgentFlags::STUCK, true);
            false
        }
    }

    /// Whether `path` (from the unit's cell at the current tick) is legal for
    /// unit `a` against the table as it stands: every step free, no swap, no
    /// crossing, and its last cell free for good.
    pub fn path_is_free(&self, a: AgentId, path: &[Cell]) -> bool {
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
    /// Only the ticks where the new plan differs from the old one are released
    /// and claimed (a replan usually repeats the first half of the old
    /// window). `old` is scratch. Returns whether the new plan was committed.
    pub fn try_replace_plan(
        &mut self,
        a: AgentId,
        path: &[Cell],
        old: &mut Vec<Cell>,
        recheck: bool,
    ) -> bool {
        if path.first() != Some(&self.agents.position[a.index()]) {
            return false;
        }
        // Own reservations never block a check, so the old plan can stay in
        // place while the new one is checked.
        if recheck && !self.path_is_free(a, path) {
            return false;
        }
        let now = self.now();
        let prio = self.agents.priority[a.index()];
        old.clear();
        old.extend_from_slice(self.agents.plan(a));
        let old_start = self.agents.plan_start[a.index()];
        let old_at = |t: u32| {
            t.checked_sub(old_start)
                .and_then(|i| old.get(i as usize))
                .copied()
        };
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
        self.agents.set_plan(a, now, path);
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
