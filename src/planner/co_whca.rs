//! Conflict-Oriented WHCA* (Bnaya & Felner 2014) as a [`Planner`]:
//! CO-WHCA*, CO-WHCA*P, CO-HCA* and CO-HCA*P. The plan–move loop itself is in
//! `co_core.rs`; this file runs it online or offline and commits what the
//! units execute to the shared table.
//!
//! Safety: the CO reservations live in a private table; what the units
//! execute is committed to the shared [`World`] table segment by segment,
//! each checked move by move and ending in a hold, and only conflict-free
//! prefixes are ever committed (if a check ever failed, every unit would stay
//! put instead).
//!
//! Online and offline: in the online form ([`ConflictOrientedWhca`] with
//! `offline == false`) each `plan_tick` that reaches the end of the committed
//! segment runs one planning phase and commits the next segment. In the
//! offline form (`offline == true`; CO-HCA* always) `initialize` runs the
//! whole plan–move loop on a virtual clock to the end and commits the final
//! trajectories at once; `plan_tick` then has nothing to do. (For CO-HCA*
//! the loop is a single phase unless its cycle limit is hit.)

use crate::map::Cell;
use crate::units::Slot;
use crate::world::World;

use super::co_core::{CoCore, Outcome};
use super::co_variant::CoVariant;
use super::{Planner, PlannerStats};

/// The CO-WHCA* family as a [`Planner`]; see the module docs.
pub struct ConflictOrientedWhca {
    core: Option<CoCore>,
    window: u32,
    variant: CoVariant,
    offline: bool,
    max_ticks: u32,
    /// Tick at which the next planning phase is due.
    next_phase: u32,
    segment: Vec<Cell>,
    /// Executed trajectories of the offline form.
    trajectories: Vec<Vec<Cell>>,
    stats: PlannerStats,
}

impl ConflictOrientedWhca {
    /// A planner with reservation window `window` whose runs end at
    /// `max_ticks`. `offline`: plan the whole run in `initialize` (CO-HCA* is
    /// always offline). The state is built from the world in `initialize`.
    pub fn new(
        _world: &World,
        window: u32,
        variant: CoVariant,
        offline: bool,
        max_ticks: u32,
    ) -> Self {
        ConflictOrientedWhca {
            core: None,
            window: window.max(2),
            variant,
            offline: offline || variant.fixed_start(),
            max_ticks,
            next_phase: 0,
            segment: Vec::new(),
            trajectories: Vec::new(),
            stats: PlannerStats::default(),
        }
    }

    /// Plan cycles run so far.
    pub fn cycles(&self) -> u64 {
        self.core.as_ref().map_or(0, |c| c.cycles)
    }

    /// Commits every unit's path up to tick `to` to the shared table, each
    /// checked move by move and ending in a hold. If any check fails, every
    /// unit stays where it is instead (always safe) and `false` is returned.
    fn commit(&mut self, world: &mut World, to: u32) -> bool {
        let core = self.core.as_ref().expect("initialized");
        let now = world.now();
        debug_assert_eq!(core.now(), now);
        let to = to.min(self.max_ticks).max(now);
        let ids: Vec<Slot> = world.units.ids().collect();
        for &a in &ids {
            world.release_plan(a);
        }
        let mut ok = true;
        for &a in &ids {
            let p = &core.paths[a.index()];
            let len = ((to - now) as usize + 1).min(p.len());
            self.segment.clear();
            self.segment.extend_from_slice(&p[..len]);
            if !segment_free(world, a, now, &self.segment) {
                ok = false;
                break;
            }
            world.commit_plan(a, now, &self.segment);
        }
        if !ok {
            stay_all(world, &ids);
        }
        ok
    }

    /// The offline form: runs plan–move phases on the core's own clock to the
    /// end, recording where every unit goes. Moves, retries and waits happen
    /// at the same ticks as in the online form, so both execute one plan.
    fn plan_offline(&mut self, world: &World) {
        let core = self.core.as_mut().expect("initialized");
        let tr = &mut self.trajectories;
        *tr = world.units.position.iter().map(|&c| vec![c]).collect();
        let half = (self.window / 2).max(1);
        while core.now() < self.max_ticks {
            let now = core.now();
            match core.phase() {
                Outcome::Move(to) => follow_paths(core, tr, to.min(self.max_ticks)),
                Outcome::Done if core.all_paths_home() => {
                    let end = core.paths.iter().map(|p| now + p.len() as u32 - 1).max();
                    follow_paths(core, tr, end.unwrap_or(now).min(self.max_ticks));
                    break;
                }
                // Someone's full search failed: follow the paths a while, retry.
                Outcome::Done => follow_paths(core, tr, (now + half).min(self.max_ticks)),
                Outcome::Wait => follow_paths(core, tr, now + 1),
            }
        }
    }
}

/// Appends every unit's cells from the core's next tick to `to` (staying on
/// its last cell past the end of its path) and moves the core's clock there.
fn follow_paths(core: &mut CoCore, trajectories: &mut [Vec<Cell>], to: u32) {
    let now = core.now();
    for (p, tr) in core.paths.iter().zip(trajectories.iter_mut()) {
        tr.extend((1..=(to - now) as usize).map(|k| p[k.min(p.len() - 1)]));
    }
    core.advance_to(to);
}

/// Whether unit `a` can follow `path` from `start` on the shared table and
/// then stay on its last cell.
fn segment_free(world: &World, a: Slot, start: u32, path: &[Cell]) -> bool {
    let t = &world.table;
    path.windows(2)
        .enumerate()
        .all(|(k, w)| t.move_is_free(&world.grid, a, w[0], w[1], start + k as u32))
        && t.free_from(path[path.len() - 1], start + path.len() as u32 - 1, a)
}

/// Every unit stays on its cell (the always-safe plan).
fn stay_all(world: &mut World, ids: &[Slot]) {
    let now = world.now();
    for &a in ids {
        world.release_plan(a);
    }
    for &a in ids {
        let here = world.units.position[a.index()];
        world.commit_plan(a, now, &[here]);
    }
}

impl Planner for ConflictOrientedWhca {
    fn name(&self) -> String {
        self.variant.label(self.window, self.offline)
    }

    fn initialize(&mut self, world: &mut World) {
        self.core = Some(CoCore::new(
            world,
            self.window,
            self.variant,
            self.max_ticks,
        ));
        if !self.offline {
            self.plan_tick(world, None);
            return;
        }
        self.plan_offline(world);
        let ids: Vec<Slot> = world.units.ids().collect();
        for &a in &ids {
            world.release_plan(a);
        }
        let mut ok = true;
        for &a in &ids {
            let tr = &self.trajectories[a.index()];
            if !segment_free(world, a, 0, tr) {
                ok = false;
                break;
            }
            world.commit_plan(a, 0, tr);
        }
        self.stats = self.core.as_ref().expect("initialized").stats;
        if ok {
            self.next_phase = u32::MAX;
        } else {
            // Cannot happen if the simulation is right; fall back to the
            // online form from the start rather than execute anything unsafe.
            stay_all(world, &ids);
            self.offline = false;
            self.core = Some(CoCore::new(
                world,
                self.window,
                self.variant,
                self.max_ticks,
            ));
            self.next_phase = 0;
        }
    }

    fn plan_tick(&mut self, world: &mut World, _until: Option<std::time::Instant>) {
        let now = world.now();
        if now < self.next_phase {
            return;
        }
        let core = self.core.as_mut().expect("initialized");
        core.advance_to(now);
        debug_assert!(world
            .units
            .ids()
            .all(|a| core.paths[a.index()][0] == world.units.position[a.index()]));
        let outcome = core.phase();
        let half = (self.window / 2).max(1);
        self.next_phase = match outcome {
            Outcome::Move(to) => {
                if self.commit(world, to) {
                    to
                } else {
                    self.core_reset(world);
                    now + 1
                }
            }
            Outcome::Done => {
                let core = self.core.as_ref().expect("initialized");
                let end = core
                    .paths
                    .iter()
                    .map(|p| now + p.len() as u32 - 1)
                    .max()
                    .unwrap_or(now);
                let home = core.all_paths_home();
                if !self.commit(world, end) {
                    self.core_reset(world);
                    now + 1
                } else if home {
                    u32::MAX
                } else {
                    now + half
                }
            }
            Outcome::Wait => {
                let ids: Vec<Slot> = world.units.ids().collect();
                stay_all(world, &ids);
                now + 1
            }
        };
        self.stats = self.core.as_ref().expect("initialized").stats;
    }

    fn stats(&self) -> PlannerStats {
        self.stats
    }
}

impl ConflictOrientedWhca {
    /// After a failed commit everyone stays; the CO state restarts from the
    /// units' cells at the next tick.
    fn core_reset(&mut self, world: &World) {
        let core = self.core.as_mut().expect("initialized");
        core.drop_reservations();
        for p in core.paths.iter_mut() {
            p.truncate(1);
        }
        for d in core.dirty.iter_mut() {
            *d = true;
        }
        debug_assert!(world
            .units
            .ids()
            .all(|a| core.paths[a.index()][0] == world.units.position[a.index()]));
    }
}
