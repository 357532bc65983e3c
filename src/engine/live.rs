//! Applying the game's recorded calls at the start of a step, and the
//! per-tick upkeep of the live world: spawned units entering the map,
//! units leaving blocks, arrivals, goal queues, states and their events.

use std::sync::Arc;

use crate::map::{Cell, Rect};
use crate::units::{Slot, UnitFlags, UnitId, UnitState};

use super::command::{Command, UnitSpec};
use super::events::{Event, EventKind};
use super::simulation::Simulation;

/// What a new goal does to a unit's clock of progress, which makes it
/// `Stuck` when it stops (and lets the planner's stalled units shove).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Clock {
    /// An order, or the next goal of its queue: progress counts afresh.
    Restart,
    /// A goal traded inside a group: the clock runs on, the best distance
    /// being the straight line to the new goal.
    Keep,
}

impl Simulation {
    /// Applies every call recorded since the last step, in call order.
    pub(super) fn apply_recorded(&mut self) {
        if self.commands.is_empty() {
            return;
        }
        crate::profile_zone!("commands");
        if let Some(r) = &mut self.recorder {
            for cmd in &self.commands {
                r.command(self.event_tick, cmd, &self.world.grid);
            }
            r.flush();
        }
        std::mem::swap(&mut self.commands, &mut self.applying);
        let mut cmds = std::mem::take(&mut self.applying);
        for cmd in cmds.drain(..) {
            match cmd {
                Command::Spawn(id, spec) => {
                    self.set_group(id, 0);
                    self.apply_spawn(id, spec)
                }
                Command::Despawn(id) => {
                    self.set_group(id, 0);
                    self.apply_despawn(id)
                }
                Command::SetGoal(id, goal, group) => {
                    self.set_group(id, group);
                    self.world.units.goal_queue[id.slot() as usize].clear();
                    self.change_goal(id.unit(), goal, true, Clock::Restart);
                }
                Command::PushGoal(id, goal) => {
                    self.set_group(id, 0);
                    self.world.units.goal_queue[id.slot() as usize].push_back(goal)
                }
                Command::Stop(id) => {
                    self.set_group(id, 0);
                    let a = id.unit();
                    self.world.units.goal_queue[a.index()].clear();
                    let here = self.world.units.position[a.index()];
                    self.change_goal(a, here, true, Clock::Restart);
                }
                Command::Block(rect) => self.apply_block(rect),
                Command::Unblock(rect) => self.apply_unblock(rect),
            }
        }
        self.applying = cmds;
    }

    fn emit(&mut self, unit: UnitId, kind: EventKind) {
        self.event_counts[kind.ordinal()] += 1;
        self.events.push(Event {
            tick: self.event_tick,
            unit,
            kind,
        });
    }

    /// The id of the unit in slot `a` (also while its despawn waits to be
    /// applied).
    fn id(&self, a: Slot) -> UnitId {
        self.unit_ids[a.index()]
    }

    fn apply_spawn(&mut self, id: UnitId, spec: UnitSpec) {
        let a = id.unit();
        let units = &mut self.world.units;
        if a.index() == units.len() {
            units.push_slot(spec.cell, spec.goal, spec.priority, spec.kind);
            self.unit_ids.push(id);
        } else {
            units.reuse_slot(a, spec.cell, spec.goal, spec.priority, spec.kind);
            self.unit_ids[a.index()] = id;
        }
        self.planner.unit_added(&self.world, a);
        self.update_reachability(a);
        if self.world.try_place(a, self.event_tick) {
            self.entered(a);
            self.emit(id, EventKind::Spawned(spec.cell));
        } else {
            self.world.table.request(spec.cell, a, self.world.now());
            self.waiting.push(a);
        }
    }

    /// Unit `a` was just placed: during a step it may not move before the
    /// step ends (it appears on its spawn cell at the tick the step
    /// produces), so the planner leaves it alone until the next step.
    fn entered(&mut self, a: Slot) {
        self.placed_now.push(a);
        if self.event_tick > self.world.now() {
            self.world.units.set_flag(a, UnitFlags::ENTERING, true);
        }
    }

    /// Units placed during the last step may be planned from now on.
    pub(super) fn settle_entered(&mut self) {
        for &a in &self.placed_now {
            self.world.units.set_flag(a, UnitFlags::ENTERING, false);
        }
        self.placed_now.clear();
    }

    fn apply_despawn(&mut self, id: UnitId) {
        let a = id.unit();
        self.world.remove(a);
        let kind = self.world.units.kind[a.index()];
        self.world.discharge(kind);
        self.planner.unit_removed(a);
        self.emit(id, EventKind::Despawned);
    }

    /// Gives unit `a` a new goal (its queue is left as it is): by the
    /// game's order, the next of its queue, or a trade inside its group
    /// (see `clock`).
    pub(super) fn change_goal(&mut self, a: Slot, goal: Cell, ordered: bool, clock: Clock) {
        let now = self.world.now();
        let i = a.index();
        let ag = &mut self.world.units;
        ag.goal[i] = goal;
        ag.first_arrival[i] = u32::MAX;
        ag.settled_at[i] = u32::MAX;
        match clock {
            Clock::Restart => {
                ag.best_distance[i] = u32::MAX;
                ag.progress_tick[i] = now;
            }
            Clock::Keep => {
                ag.best_distance[i] = self.world.grid.grid_distance(ag.position[i], goal);
            }
        }
        ag.set_flag(a, UnitFlags::ARRIVED, false);
        if ag.on_map(a) && !ag.flags[i].has(UnitFlags::EVICTING) {
            ag.next_replan[i] = now;
        }
        self.planner.goal_changed(&self.world, a, ordered);
        self.update_reachability(a);
    }

    /// Sets or clears unit `a`'s unreachable flag from the current map,
    /// with an event when it changes.
    fn update_reachability(&mut self, a: Slot) {
        let i = a.index();
        let ag = &self.world.units;
        let reachable = self.world.reachable(a);
        let was = ag.flags[i].has(UnitFlags::UNREACHABLE);
        if was != reachable {
            return;
        }
        let now = self.world.now();
        let id = self.id(a);
        let ag = &mut self.world.units;
        ag.set_flag(a, UnitFlags::UNREACHABLE, !reachable);
        if reachable {
            ag.next_replan[i] = now;
            ag.progress_tick[i] = now;
            if ag.state[i] == UnitState::Unreachable {
                ag.state[i] = UnitState::Moving;
            }
            self.emit(id, EventKind::Reachable);
        } else {
            if ag.on_map(a) {
                ag.state[i] = UnitState::Unreachable;
            }
            self.emit(id, EventKind::Unreachable);
        }
    }

    fn apply_block(&mut self, rect: Rect) {
        // A check beside holds the map as it stood: done first, the map
        // is edited in place rather than copied.
        self.finish_checks();
        self.edited.clear();
        Arc::make_mut(&mut self.world.grid).block(rect, &mut self.edited);
        if self.edited.is_empty() {
            return;
        }
        self.world.update_fit_grids(rect);
        let now = self.world.now();
        // The units concerned: those with a reservation or hold on the
        // block or the ring around it (a diagonal step may cut a corner of
        // it). The table answers without looking at every unit.
        self.concerned.clear();
        {
            let (w, h) = (self.world.grid.width(), self.world.grid.height());
            let table = &self.world.table;
            for c in rect.grown(1, w, h).cells(w) {
                for t in now..=table.last_tick() {
                    if let Some(a) = table.layer_owner(c, t) {
                        self.concerned.push(a);
                    }
                }
                if let Some((a, _)) = table.hold(c) {
                    self.concerned.push(a);
                }
            }
        }
        self.concerned.sort_unstable();
        self.concerned.dedup();
        // Units inside leave; plans that enter the block end before it.
        for k in 0..self.concerned.len() {
            let a = self.concerned[k];
            let i = a.index();
            let ag = &self.world.units;
            if !ag.on_map(a) {
                continue;
            }

            let grid = &self.world.grid;
            let kind = ag.kind[i];
            // Inside the block: the unit's cell, or any cell its body covers.
            let inside = if kind.is_cell() {
                grid.is_blocked(ag.position[i])
            } else {
                self.world
                    .rect_of(a)
                    .cells(grid.width())
                    .any(|c| grid.is_blocked(c))
            };
            if inside && self.placed_now.contains(&a) {
                // Placed by a call before this one, in the same step: it
                // has not appeared yet, and now waits for its cell again.
                self.world.unplace(a);
                self.world.units.set_flag(a, UnitFlags::ENTERING, false);
                self.placed_now.retain(|&b| b != a);
                self.waiting.push(a);
                let id = self.id(a);
                if let Some(k) = self
                    .events
                    .iter()
                    .position(|e| e.unit == id && matches!(e.kind, EventKind::Spawned(_)))
                {
                    self.events.remove(k);
                    self.event_counts[EventKind::Spawned(Cell(0)).ordinal()] -= 1;
                }
                continue;
            }
            if inside {
                if !ag.flags[i].has(UnitFlags::EVICTING) {
                    self.world.units.set_flag(a, UnitFlags::EVICTING, true);
                    self.evicting.push(a);
                    let id = self.id(a);
                    self.emit(id, EventKind::Evicted);
                }
                self.cutter.request(a, 0);
                continue;
            }
            let plan = ag.plan(a);
            let from = (now.saturating_sub(ag.plan_start[i]) as usize + 1).min(plan.len());
            if kind.is_cell() {
                if let Some(k) = (from..plan.len())
                    .find(|&k| !grid.is_passable(plan[k]) || !grid.is_move(plan[k - 1], plan[k]))
                {
                    self.cutter.request(a, k);
                }
            } else {
                // The first motion whose box meets the block: the plan ends
                // where that motion starts.
                let motions = ag.plan_motions(a);
                let size = kind.size as u32;
                if let Some(k) = (from - 1..plan.len() - 1).find(|&k| {
                    let m = crate::footprint::Motion(motions[k]);
                    crate::footprint::sweep(grid, plan[k], m.offset(), size)
                        .cells(grid.width())
                        .any(|c| !grid.is_passable(c))
                }) {
                    self.cutter.request(a, k + 1);
                }
            }
        }
        let cut = self.cutter.cut_plans(&mut self.world);
        for &a in cut {
            self.world.units.next_replan[a.index()] = now;
        }
        self.planner.map_changed(&self.world, &self.edited, &[]);
        self.recheck_reachability();
    }

    fn apply_unblock(&mut self, rect: Rect) {
        // A check beside holds the map as it stood: done first, the map
        // is edited in place rather than copied.
        self.finish_checks();
        self.edited.clear();
        Arc::make_mut(&mut self.world.grid).unblock(rect, &mut self.edited);
        if self.edited.is_empty() {
            return;
        }
        self.world.update_fit_grids(rect);
        // An escape planned through cells that are open now may lead from
        // open ground into a block that still stands: every unit still
        // escaping stops where it is and plans its way out again (or, on
        // open ground already, is planned by the planner).
        let now = self.world.now();
        for k in 0..self.evicting.len() {
            let a = self.evicting[k];
            if self.world.units.flags[a.index()].has(UnitFlags::EVICTING) {
                self.cutter.request(a, 0);
            }
        }
        let cut = self.cutter.cut_plans(&mut self.world);
        for &a in cut {
            self.world.units.next_replan[a.index()] = now;
        }
        for k in 0..self.evicting.len() {
            let a = self.evicting[k];
            let out = self
                .world
                .body_fits(a, self.world.units.position[a.index()]);
            let ag = &mut self.world.units;
            if ag.flags[a.index()].has(UnitFlags::EVICTING) && out {
                ag.set_flag(a, UnitFlags::EVICTING, false);
                ag.next_replan[a.index()] = now;
            }
        }
        self.planner.map_changed(&self.world, &[], &self.edited);
        self.recheck_reachability();
    }

    fn recheck_reachability(&mut self) {
        for i in 0..self.world.units.len() {
            let a = Slot(i as u32);
            if !self.world.units.flags[i].has(UnitFlags::DEAD) {
                self.update_reachability(a);
            }
        }
    }

    /// Puts waiting spawns on the map whose cells have come free.
    pub(super) fn place_waiting(&mut self) {
        if self.waiting.is_empty() {
            return;
        }
        let now = self.world.now();
        let mut k = 0;
        while k < self.waiting.len() {
            let a = self.waiting[k];
            let flags = self.world.units.flags[a.index()];
            if flags.has(UnitFlags::DEAD) || !flags.has(UnitFlags::UNPLACED) {
                self.waiting.swap_remove(k);
                continue;
            }
            if self.world.try_place(a, self.event_tick) {
                self.entered(a);
                self.waiting.swap_remove(k);
                let id = self.id(a);
                let cell = self.world.units.position[a.index()];
                self.emit(id, EventKind::Spawned(cell));
            } else {
                let cell = self.world.units.position[a.index()];
                self.world.table.request(cell, a, now);
                k += 1;
            }
        }
        // Placement order must not depend on removals: keep slot order.
        self.waiting.sort_unstable();
    }

    /// Plans a way out for every unit still inside a block without one.
    pub(super) fn plan_escapes(&mut self) {
        if self.evicting.is_empty() {
            return;
        }
        let mut k = 0;
        while k < self.evicting.len() {
            let a = self.evicting[k];
            let ag = &self.world.units;
            if !ag.flags[a.index()].has(UnitFlags::EVICTING) {
                self.evicting.remove(k);
                continue;
            }
            let end = *ag.plan(a).last().expect("plans are never empty");
            if !self.world.body_fits(a, end) {
                self.escapes.plan(&mut self.world, a);
            }
            k += 1;
        }
    }

    /// After the move: arrivals (and the next queued goal), units out of
    /// blocks, progress, states, and their events.
    pub(super) fn update_units(&mut self) {
        crate::profile_zone!("states");
        let now = self.world.now();
        self.event_tick = now;
        let stuck_after = self.config.stuck_after;
        let planner_tracks = self.planner.tracks_progress();
        for i in 0..self.world.units.len() {
            let a = Slot(i as u32);
            let ag = &mut self.world.units;
            let flags = ag.flags[i];
            if flags.has(UnitFlags::DEAD) {
                continue;
            }
            if flags.has(UnitFlags::UNPLACED) {
                ag.state[i] = UnitState::Waiting;
                continue;
            }
            let pos = ag.position[i];
            if flags.has(UnitFlags::EVICTING) && self.world.body_fits(a, pos) {
                self.world.units.set_flag(a, UnitFlags::EVICTING, false);
                self.world.units.next_replan[i] = now;
            }
            let ag = &mut self.world.units;
            if pos == ag.goal[i] {
                ag.best_distance[i] = 0;
                ag.progress_tick[i] = now;
                if ag.first_arrival[i] == u32::MAX {
                    ag.first_arrival[i] = now;
                    ag.set_flag(a, UnitFlags::ARRIVED, true);
                }
                if ag.settled_at[i] == u32::MAX {
                    ag.settled_at[i] = now;
                    let id = self.id(a);
                    self.emit(id, EventKind::Arrived(pos));
                }
                if let Some(next) = self.world.units.goal_queue[i].pop_front() {
                    self.change_goal(a, next, false, Clock::Restart);
                }
            } else {
                ag.settled_at[i] = u32::MAX;
                if !planner_tracks {
                    let d = self.world.grid.grid_distance(pos, ag.goal[i]);
                    if d < ag.best_distance[i] {
                        ag.best_distance[i] = d;
                        ag.progress_tick[i] = now;
                    }
                }
            }
            let ag = &self.world.units;
            let old = ag.state[i];
            let new = if ag.flags[i].has(UnitFlags::UNREACHABLE) {
                UnitState::Unreachable
            } else if ag.position[i] == ag.goal[i] && ag.goal_queue[i].is_empty() {
                UnitState::Arrived
            } else if now.saturating_sub(ag.progress_tick[i]) >= stuck_after {
                UnitState::Stuck
            } else {
                UnitState::Moving
            };
            if new != old {
                self.world.units.state[i] = new;
                if new == UnitState::Stuck {
                    let id = self.id(a);
                    self.emit(id, EventKind::Stuck);
                } else if old == UnitState::Stuck && new != UnitState::Unreachable {
                    let id = self.id(a);
                    self.emit(id, EventKind::Unstuck);
                }
            }
        }
    }
}
