//! The live world a game drives: units spawned and despawned, orders given,
//! buildings placed and removed, one `step()` per frame. Calls between
//! steps are checked at once and recorded; the next step applies them in
//! call order, plans within the tick's budget, moves every unit one tick
//! along its reserved plan, and reports what happened as events.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::io::PlanFile;
use crate::map::{Cell, Grid, Instance, Rect};
use crate::planner::{
    ConflictOrientedWhca, CooperativeAStar, LocalRepairAStar, Planner, PlannerKind, WindowedHca,
};
use crate::search::SpatialAStar;
use crate::units::{Slot, UnitFlags, UnitId, UnitIds, UnitKind, UnitState};
use crate::validate::{StepChecker, Violation};

use super::check_thread::CheckThread;
use super::command::{Command, UnitSpec};
use super::events::{Event, EventKind};
use super::evict::Escapes;
use super::metrics::{count_cycles, RunSummary};
use super::plan_repair::PlanCutter;
use super::recorder::CallRecorder;
use super::tick_stats::TickStats;
use crate::world::{claims_of, Budget, SimError, World};

/// Longest WHCA* window accepted: a window reserves that many ticks for
/// every unit, and beyond a few hundred ticks it only costs memory.
pub const MAX_WINDOW: u32 = 1024;
/// Most worker threads accepted.
pub const MAX_THREADS: usize = 256;
/// Largest wall-clock budget per tick, µs (one minute; a larger one would
/// overflow the deadline clock).
pub const MAX_BUDGET_US: u64 = 60_000_000;
/// Largest turn limit: the full-depth planners (CA*, HCA*, CO-*) reserve
/// every tick of it.
pub const MAX_TICKS: u32 = 10_000_000;

/// What the simulation keeps of the positions it executed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum History {
    /// Nothing: memory does not grow with ticks (a game's setting; stream
    /// positions out each tick if a replay is wanted).
    #[default]
    Off,
    /// Every tick's positions of the units the simulation was created with,
    /// for plan files and the cycle count. Grows with ticks: for runs of a
    /// bounded length.
    Full,
}

/// Settings of one simulation.
#[derive(Clone, Copy, Debug)]
pub struct SimConfig {
    /// Planner and its window.
    pub planner: PlannerKind,
    /// Turn limit of [`Simulation::run`], and the horizon of the planners
    /// that plan whole runs (CA*, HCA*, the conflict-oriented ones).
    pub max_ticks: u32,
    /// Seed for planners that draw random numbers (LRA*).
    pub seed: u64,
    /// Worker threads for the searches (0: all cores; at most
    /// [`MAX_THREADS`]).
    pub threads: usize,
    /// Pin each worker of the simulation's own pool to a core of its own
    /// when the pool takes every core (see [`crate::world::worker_pool`]);
    /// a pool given by the game is left as it is.
    pub pin_workers: bool,
    /// Planning budget per tick.
    pub budget: Budget,
    /// Most units alive at once (0: the instance's units plus 1,024). The
    /// reservation table and the unit columns are sized for them when the
    /// simulation is created, so spawning allocates nothing.
    pub max_units: usize,
    /// Ticks without progress towards its goal after which a unit is
    /// [`UnitState::Stuck`].
    pub stuck_after: u32,
    /// What to keep of the executed positions.
    pub history: History,
    /// Check every tick's moves with the validator (a few microseconds per
    /// thousand units): no shared cell, no swap, no crossing, no unit
    /// entering a wall or a block. Its count is the summary's `collisions`.
    pub check_moves: bool,
    /// With `check_moves`, check each tick's moves on a thread of its own
    /// while the caller goes on (the game's frame, or the next tick): the
    /// step no longer waits for the check (0.3–0.4 ms a tick for 10,000
    /// units), and [`Simulation::violations`] counts the ticks checked so
    /// far, the last one once [`Simulation::finish_checks`] has waited for
    /// it. One more thread, which shares the cores with the workers.
    pub check_beside: bool,
    /// Room in the reservation table, in cells per tick, for units larger
    /// or slower than one cell a tick spawned after the start, beyond
    /// what `max_units` one-cell units need (a 2×2 body takes 18, a 3×3
    /// one 32: see [`crate::engine::claims_of`]).
    pub footprint_claims: usize,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            planner: PlannerKind::Whca { window: 16 },
            max_ticks: 100,
            seed: 1,
            threads: 1,
            pin_workers: true,
            budget: Budget::default(),
            max_units: 0,
            stuck_after: 64,
            history: History::Off,
            check_moves: true,
            check_beside: false,
            footprint_claims: 4096,
        }
    }
}

impl SimConfig {
    /// Checks every setting's range.
    pub fn validate(&self) -> Result<(), SimError> {
        let window = match self.planner {
            PlannerKind::Whca { window } | PlannerKind::Co { window, .. } => Some(window),
            _ => None,
        };
        if let Some(w) = window.filter(|w| !(2..=MAX_WINDOW).contains(w)) {
            return Err(SimError::Config {
                name: "window",
                value: w.to_string(),
                expected: "2 to 1024 ticks",
            });
        }
        if self.threads > MAX_THREADS {
            return Err(SimError::Config {
                name: "threads",
                value: self.threads.to_string(),
                expected: "0 (all cores) to 256",
            });
        }
        if self.max_units > crate::reservation::MAX_UNITS {
            return Err(SimError::Config {
                name: "max_units",
                value: self.max_units.to_string(),
                expected: "at most 16,777,214",
            });
        }
        if let Some(us) = self.budget.wall_us.filter(|&us| us > MAX_BUDGET_US) {
            return Err(SimError::Config {
                name: "budget.wall_us",
                value: us.to_string(),
                expected: "0 (nobody replans) to 60,000,000 µs (one minute)",
            });
        }
        if self.max_ticks > MAX_TICKS {
            return Err(SimError::Config {
                name: "max_ticks",
                value: self.max_ticks.to_string(),
                expected: "at most 10,000,000 (the full-depth planners reserve every tick)",
            });
        }
        if self.stuck_after == 0 {
            return Err(SimError::Config {
                name: "stuck_after",
                value: "0".into(),
                expected: "at least 1 tick",
            });
        }
        Ok(())
    }
}

/// What the last step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickReport {
    /// The tick the step produced.
    pub tick: u32,
    /// Wall-clock time of the whole step, microseconds.
    pub step_us: f64,
    /// Of which planning, microseconds.
    pub plan_us: f64,
    /// Searches run.
    pub searches: u64,
    /// Nodes expanded (space-time and true-distance).
    pub nodes: u64,
    /// Due searches left for a later tick.
    pub carried_over: u64,
    /// Units that changed cell.
    pub moved: u32,
}

/// One simulation: a world, a planner, the recorded calls and what the last
/// steps did. See the module docs.
pub struct Simulation {
    pub(super) world: World,
    pub(super) planner: Box<dyn Planner>,
    pub(super) config: SimConfig,
    pub(super) max_units: usize,
    pub(super) ids: UnitIds,
    /// Per slot, the id of the unit living there (or that lived there last).
    pub(super) unit_ids: Vec<UnitId>,
    pub(super) commands: Vec<Command>,
    pub(super) applying: Vec<Command>,
    pub(super) events: Vec<Event>,
    /// The tick events are stamped with: the one the step under way
    /// produces (calls applied at a step's start take effect at its end).
    pub(super) event_tick: u32,
    pub(super) event_counts: [u64; EventKind::NAMES.len()],
    /// Spawned units whose cell was taken, and units inside a block.
    pub(super) waiting: Vec<Slot>,
    /// Units placed during the step under way (not yet seen on the map).
    pub(super) placed_now: Vec<Slot>,
    pub(super) evicting: Vec<Slot>,
    pub(super) cutter: PlanCutter,
    pub(super) escapes: Escapes,
    /// Cells a map edit opened or closed, and the units it concerns (scratch).
    pub(super) edited: Vec<Cell>,
    pub(super) concerned: Vec<Slot>,
    /// Where the applied calls are written, if the game asked.
    pub(super) recorder: Option<CallRecorder>,
    /// Per slot, the group order its goal came from (0: none; see
    /// `trade_group_goals`), how many slots have one, and the last group's
    /// number.
    pub(super) group_of: Vec<u32>,
    pub(super) grouped: usize,
    /// Per slot with a group, the tick until which it keeps a goal a
    /// groupmate handed it (see `trade_group_goals`).
    pub(super) keeps_goal_until: Vec<u32>,
    pub(super) last_group: u32,
    /// The validator's checker; `None` while a check runs beside (see
    /// [`SimConfig::check_beside`]).
    checker: Option<StepChecker>,
    /// The thread checking beside, and what the checks done by it found.
    check_thread: Option<CheckThread>,
    checked: (u64, Vec<Violation>),
    /// Tick-major positions of the first `history_width` slots.
    history: Vec<Cell>,
    history_width: usize,
    stats: TickStats,
    last: TickReport,
    /// Time the step takes after planning (moves, states, checks), ns: the
    /// planning budget leaves room for it.
    rest_ns: f64,
    init_ms: f64,
    setup_ms: f64,
    map_name: String,
    starts: Vec<Cell>,
    initialized: bool,
}

impl Simulation {
    /// A simulation of `instance`'s units on its map, none planned yet:
    /// either call [`Simulation::initialize`] (every unit planned at once,
    /// as the seeds' experiments do) or just [`Simulation::step`] (units
    /// are planned within the per-tick budget, holding their cells until
    /// then). Refuses an instance with a unit off the map, on a wall or on
    /// another's start, and settings out of range.
    pub fn new(instance: &Instance, config: SimConfig) -> Result<Self, SimError> {
        Self::build(instance, config, None)
    }

    /// [`Simulation::new`] searching on the game's own worker pool instead
    /// of one of its own (`config.threads` is then ignored).
    pub fn in_pool(
        instance: &Instance,
        config: SimConfig,
        pool: Arc<rayon::ThreadPool>,
    ) -> Result<Self, SimError> {
        Self::build(instance, config, Some(pool))
    }

    /// A simulation on `grid` with no units yet: spawn them.
    pub fn with_map(grid: Arc<Grid>, config: SimConfig) -> Result<Self, SimError> {
        let instance = Instance {
            grid,
            starts: Vec::new(),
            goals: Vec::new(),
            map_name: String::new(),
        };
        Self::new(&instance, config)
    }

    fn build(
        instance: &Instance,
        config: SimConfig,
        pool: Option<Arc<rayon::ThreadPool>>,
    ) -> Result<Self, SimError> {
        config.validate()?;
        let max_units = if config.max_units == 0 {
            instance.len() + 1024
        } else {
            config.max_units.max(instance.len())
        };
        let horizon = config.planner.horizon(config.max_ticks);
        let claims = max_units * claims_of(UnitKind::CELL) + config.footprint_claims;
        let mut world = World::new(instance, horizon, horizon as usize, claims)?;
        world.units.reserve(max_units - instance.len());
        crate::profiling::init();
        let t0 = Instant::now();
        let config = SimConfig {
            max_units,
            ..config
        };
        // WHCA* plans on a pool of its own unless the game gave one.
        let pool = match config.planner {
            PlannerKind::Whca { .. } => {
                pool.or_else(|| crate::world::worker_pool(config.threads, config.pin_workers))
            }
            _ => pool,
        };
        let planner = build_planner(&world, &config, pool);
        let setup_ms = t0.elapsed().as_secs_f64() * 1e3;
        let mut checker = config.check_moves.then(|| StepChecker::new(&world.grid));
        if let Some(c) = &mut checker {
            c.check(&world.grid, 0, on_map(&world));
        }
        let history_width = instance.len();
        let history = match config.history {
            History::Full => world.units.position.clone(),
            History::Off => Vec::new(),
        };
        let ids = UnitIds::with_units(instance.len());
        let mut unit_ids: Vec<UnitId> = Vec::with_capacity(max_units);
        unit_ids.extend(ids.iter());
        Ok(Simulation {
            ids,
            unit_ids,
            max_units,
            commands: Vec::new(),
            applying: Vec::new(),
            // A tick rarely has more events than units: the buffer grows
            // no further in steady state.
            events: Vec::with_capacity(max_units),
            event_tick: 0,
            event_counts: [0; EventKind::NAMES.len()],
            waiting: Vec::new(),
            placed_now: Vec::new(),
            evicting: Vec::new(),
            cutter: PlanCutter::default(),
            escapes: Escapes::default(),
            edited: Vec::new(),
            concerned: Vec::new(),
            recorder: None,
            group_of: Vec::with_capacity(max_units),
            keeps_goal_until: Vec::with_capacity(max_units),
            grouped: 0,
            last_group: 0,
            checker,
            check_thread: (config.check_moves && config.check_beside).then(CheckThread::new),
            checked: (0, Vec::with_capacity(StepChecker::KEEP)),
            history,
            history_width,
            stats: TickStats::default(),
            last: TickReport::default(),
            rest_ns: 0.0,
            init_ms: 0.0,
            setup_ms,
            map_name: instance.map_name.clone(),
            starts: instance.starts.clone(),
            initialized: false,
            world,
            planner,
            config,
        })
    }

    // ---- The game's calls: checked now, applied at the next step. ----

    /// Spawns a unit: it enters the map on `spec.cell` at the next step, or
    /// as soon as that cell is free (state [`UnitState::Waiting`] until
    /// then). The cells must be on the map and not walls.
    pub fn spawn(&mut self, spec: UnitSpec) -> Result<UnitId, SimError> {
        self.require_live()?;
        if !spec.kind.is_valid() {
            return Err(SimError::BadKind {
                size: spec.kind.size,
                pace: spec.kind.pace,
            });
        }
        self.check_body("spawn cell", spec.cell, spec.kind.size)?;
        self.check_body("goal", spec.goal, spec.kind.size)?;
        if self.ids.live_count() >= self.max_units {
            return Err(SimError::TooManyUnits {
                max: self.max_units,
            });
        }
        if !self.world.admit(spec.kind) {
            let (room, used) = self.world.claim_room();
            return Err(SimError::TableFull {
                needed: crate::engine::claims_of(spec.kind),
                free: room - used,
            });
        }
        let id = self.ids.allocate();
        self.commands.push(Command::Spawn(id, spec));
        Ok(id)
    }

    /// Removes a unit at the next step; its id is stale from now on.
    pub fn despawn(&mut self, id: UnitId) -> Result<(), SimError> {
        self.require_live()?;
        self.check_unit(id)?;
        self.ids.release(id);
        self.commands.push(Command::Despawn(id));
        Ok(())
    }

    /// Sends a unit to `goal`, dropping any goals it had queued
    /// (DetourCrowd's move request). A unit with a body goes to the
    /// nearest place its body fits, centred on `goal` where it can be:
    /// [`Self::goal`] then answers that place's top-left cell.
    pub fn set_goal(&mut self, id: UnitId, goal: Cell) -> Result<(), SimError> {
        self.set_goal_in_group(id, goal, 0)
    }

    /// [`Self::set_goal`] as one unit of group order `group` (0: none),
    /// whose units may trade goals: how a script replays a group order.
    pub(super) fn set_goal_in_group(
        &mut self,
        id: UnitId,
        goal: Cell,
        group: u32,
    ) -> Result<(), SimError> {
        self.require_live()?;
        self.check_unit(id)?;
        self.check_cell("goal", goal)?;
        let goal = self.body_goal(id, goal);
        self.commands.push(Command::SetGoal(id, goal, group));
        self.last_group = self.last_group.max(group);
        Ok(())
    }

    /// Where a unit with a body goes when sent to `target`: the anchor
    /// (its body's top-left cell) of the nearest place its body fits,
    /// centred on the target where it can be (see
    /// [`super::group::place_goals`]); a one-cell unit's goal is the
    /// target. So a tank ordered beside a wall stops beside it, where its
    /// body fits, rather than finding no way there.
    fn body_goal(&self, id: UnitId, target: Cell) -> Cell {
        let size = self.kind_of(id).size as u32;
        if size <= 1 {
            return target;
        }
        self.place_goals(target, &[size])[0]
    }

    /// The kind of living unit `id`, whose spawn may still wait for the
    /// next step.
    fn kind_of(&self, id: UnitId) -> UnitKind {
        self.pending_spawn(id)
            .map_or_else(|| self.world.units.kind[id.slot() as usize], |s| s.kind)
    }

    /// Goals around `target` for bodies of sides `sizes` on the map as it
    /// stands (see [`super::group::place_goals`]).
    fn place_goals(&self, target: Cell, sizes: &[u32]) -> Vec<Cell> {
        let world = &self.world;
        super::group::place_goals(&world.grid, target, sizes, &|size, anchor| {
            world.fit_grid(size as u8).is_passable(anchor)
        })
    }

    /// Queues `goal` for after the unit's current one (a unit on its goal
    /// with nothing queued takes it at once): a stream of tasks per unit.
    pub fn push_goal(&mut self, id: UnitId, goal: Cell) -> Result<(), SimError> {
        self.require_live()?;
        self.check_unit(id)?;
        self.check_cell("goal", goal)?;
        let goal = self.body_goal(id, goal);
        self.commands.push(Command::PushGoal(id, goal));
        Ok(())
    }

    /// Stops a unit where it stands and drops its queued goals.
    pub fn stop(&mut self, id: UnitId) -> Result<(), SimError> {
        self.require_live()?;
        self.check_unit(id)?;
        self.commands.push(Command::Stop(id));
        Ok(())
    }

    /// Sends `units` to the area around `target`: each gets its own goal,
    /// so they do not all fight over one cell. Goals are open cells of the
    /// target's region, taken in breadth-first order from it; a unit with a
    /// body gets a place its body fits that covers no other unit's goal.
    /// They are handed out back to front (the units nearest the target take
    /// those deepest along the way the group comes), and the group's
    /// one-cell units trade goals on the way (see `goal_trading.rs`):
    /// [`Self::goal`] answers each unit's goal of the moment.
    pub fn order_group(&mut self, units: &[UnitId], target: Cell) -> Result<(), SimError> {
        self.require_live()?;
        if units.is_empty() {
            return Err(SimError::EmptyGroup);
        }
        self.check_cell("group target", target)?;
        for &id in units {
            self.check_unit(id)?;
        }
        let grid = &self.world.grid;
        let mut order: Vec<(u32, UnitId)> = units
            .iter()
            .map(|&id| {
                let at = self.position(id).expect("checked above");
                (grid.grid_distance(at, target), id)
            })
            .collect();
        order.sort_unstable();
        order.dedup_by_key(|&mut (_, id)| id);
        let order: Vec<UnitId> = order.into_iter().map(|(_, id)| id).collect();
        let sizes: Vec<u32> = order
            .iter()
            .map(|&id| self.kind_of(id).size as u32)
            .collect();
        let mut goals = self.place_goals(target, &sizes);
        let from: Vec<Cell> = order
            .iter()
            .map(|&id| self.position(id).expect("checked above"))
            .collect();
        if goals.len() == order.len() {
            super::group::back_to_front(&self.world.grid, target, &from, &sizes, &mut goals);
        }
        self.last_group += 1;
        let group = self.last_group;
        for (k, &id) in order.iter().enumerate() {
            let goal = goals[k.min(goals.len() - 1)];
            self.commands.push(Command::SetGoal(id, goal, group));
        }
        Ok(())
    }

    /// Places a building over `rect` (both corners included) at the next
    /// step: no unit enters its cells from then on; units inside leave for
    /// the nearest free cells; plans through it are cut and replanned.
    pub fn block(&mut self, rect: Rect) -> Result<(), SimError> {
        self.require_live()?;
        self.check_rect(rect)?;
        self.commands.push(Command::Block(rect));
        Ok(())
    }

    /// Removes one building from `rect` at the next step (cells that are
    /// walls of the map stay walls).
    pub fn unblock(&mut self, rect: Rect) -> Result<(), SimError> {
        self.require_live()?;
        self.check_rect(rect)?;
        self.commands.push(Command::Unblock(rect));
        Ok(())
    }

    /// Writes every call from now on to `out` as an event script, as the
    /// engine applies it, so that the run can be replayed from the command
    /// line (`throng run --map M --events S`; write the map with
    /// [`crate::map::write_map`]). Units already on the map are written as
    /// spawns of tick 0. Starts before the first step only: a script
    /// replays a run from its beginning.
    pub fn record_calls(
        &mut self,
        out: impl std::io::Write + Send + 'static,
    ) -> Result<(), SimError> {
        let now = self.world.now();
        if now > 0 {
            return Err(SimError::Config {
                name: "record_calls",
                value: format!("at tick {now}"),
                expected: "a call before the first step",
            });
        }
        let mut r = CallRecorder::new(Box::new(out));
        r.head(&self.world.grid);
        for id in self.units() {
            let a = id.unit();
            if !self.world.units.on_map(a) {
                continue;
            }
            let i = a.index();
            let ag = &self.world.units;
            let spec = UnitSpec::new(ag.position[i], ag.goal[i])
                .with_kind(ag.kind[i])
                .with_priority(ag.priority[i]);
            r.command(0, &Command::Spawn(id, spec), &self.world.grid);
        }
        r.flush();
        self.recorder = Some(r);
        Ok(())
    }

    /// Stops recording: flushes the script and reports the first write
    /// that failed, if one did (nothing was written after it).
    pub fn stop_recording(&mut self) -> std::io::Result<()> {
        self.recorder.take().map_or(Ok(()), CallRecorder::finish)
    }

    // ---- Reading the world. ----

    /// The cell at column `x`, row `y`, if it is on the map.
    pub fn cell(&self, x: i64, y: i64) -> Result<Cell, SimError> {
        let g = &self.world.grid;
        g.cell_checked(x, y).ok_or(SimError::OffMap {
            what: "cell",
            x,
            y,
            width: g.width(),
            height: g.height(),
        })
    }

    /// The map as it stands (blocks included).
    pub fn grid(&self) -> &Grid {
        &self.world.grid
    }

    /// The world: map, unit columns, reservation table (read only).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Whether `id` names a living unit.
    pub fn contains(&self, id: UnitId) -> bool {
        self.ids.is_live(id)
    }

    /// Living units, spawned ones not yet on the map included.
    pub fn unit_count(&self) -> usize {
        self.ids.live_count()
    }

    /// Every living unit's id, by slot.
    pub fn units(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.ids.iter()
    }

    /// What a unit is doing.
    pub fn state(&self, id: UnitId) -> Result<UnitState, SimError> {
        let i = self.slot_of(id)?;
        if self.pending_spawn(id).is_some() {
            return Ok(UnitState::Waiting);
        }
        Ok(self.world.units.state[i])
    }

    /// The rectangle of cells unit `id` covers at the current tick: its
    /// body (one cell for a one-cell unit), or in the middle of a step that
    /// takes several ticks the box that step sweeps. A unit waiting to
    /// enter covers the body it will enter with.
    pub fn rect(&self, id: UnitId) -> Result<Rect, SimError> {
        let i = self.slot_of(id)?;
        let a = Slot(i as u32);
        let (kind, at) = match self.pending_spawn(id) {
            Some(s) => (s.kind, s.cell),
            None if self.world.units.on_map(a) => return Ok(self.world.rect_of(a)),
            None => (self.world.units.kind[i], self.world.units.position[i]),
        };
        let size = kind.size as u32;
        let (x, y) = self.world.grid.xy(at);
        Ok(Rect::new((x, y), (x + size - 1, y + size - 1)))
    }

    /// Unit `id`'s kind.
    pub fn kind(&self, id: UnitId) -> Result<UnitKind, SimError> {
        let i = self.slot_of(id)?;
        Ok(match self.pending_spawn(id) {
            Some(s) => s.kind,
            None => self.world.units.kind[i],
        })
    }

    /// The cell a unit stands on (a waiting unit: the cell it will enter on).
    pub fn position(&self, id: UnitId) -> Result<Cell, SimError> {
        let i = self.slot_of(id)?;
        Ok(match self.pending_spawn(id) {
            Some(s) => s.cell,
            None => self.world.units.position[i],
        })
    }

    /// A unit's current goal.
    pub fn goal(&self, id: UnitId) -> Result<Cell, SimError> {
        let i = self.slot_of(id)?;
        Ok(match self.pending_spawn(id) {
            Some(s) => s.goal,
            None => self.world.units.goal[i],
        })
    }

    /// Writes a unit's whole route into `out`: the cells it has reserved,
    /// one per tick from now, then the rest of the way to its goal as the
    /// planner's true distances lead (not reserved; for drawing waypoints).
    pub fn planned_path(&mut self, id: UnitId, out: &mut Vec<Cell>) -> Result<(), SimError> {
        let i = self.slot_of(id)?;
        out.clear();
        let a = Slot(i as u32);
        if self.pending_spawn(id).is_some() || !self.world.units.on_map(a) {
            out.push(self.position(id)?);
            return Ok(());
        }
        let now = self.world.now();
        for t in now..=self.world.units.plan_end(a).max(now) {
            out.push(self.world.units.planned_cell(a, t));
        }
        let last = *out.last().expect("a cell at least");
        self.planner.route(&self.world, a, last, out);
        Ok(())
    }

    /// Every unit's cell, by slot (read straight from the column: hand it to
    /// a renderer). Slots of dead or waiting units hold stale cells; see
    /// [`Simulation::units`].
    pub fn positions(&self) -> &[Cell] {
        &self.world.units.position
    }

    /// The events of the last step (and of calls applied since), oldest
    /// first. Drain them after each step: the next step clears what is
    /// left. The buffer is reused, so this allocates nothing.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, Event> {
        self.events.drain(..)
    }

    /// How many events of each kind so far, in [`EventKind::NAMES`] order.
    pub fn event_counts(&self) -> [u64; EventKind::NAMES.len()] {
        self.event_counts
    }

    /// Ticks executed.
    pub fn ticks(&self) -> u32 {
        self.world.now()
    }

    /// What the last step did.
    pub fn last_tick(&self) -> TickReport {
        self.last
    }

    /// The distribution of step times so far.
    pub fn tick_stats(&self) -> &TickStats {
        &self.stats
    }

    /// The planner's counters.
    pub fn planner_stats(&self) -> crate::planner::PlannerStats {
        self.planner.stats()
    }

    /// The executed positions kept by [`History::Full`], tick-major (empty
    /// with [`History::Off`]).
    pub fn trajectory(&self) -> &[Cell] {
        &self.history
    }

    /// Validator violations so far, and the first few. With
    /// [`SimConfig::check_beside`], of the ticks checked so far: the last
    /// tick's check may still run ([`Self::finish_checks`] waits for it).
    pub fn violations(&self) -> (u64, &[Violation]) {
        match (&self.checker, &self.check_thread) {
            (Some(c), _) => (c.count, &c.first[..]),
            (None, Some(_)) => (self.checked.0, &self.checked.1[..]),
            (None, None) => (0, &[][..]),
        }
    }

    /// Waits for the check of the last tick's moves, when it runs beside
    /// (see [`SimConfig::check_beside`]), so that [`Self::violations`] and
    /// [`Self::summary`] count it.
    pub fn finish_checks(&mut self) {
        if self.checker.is_none() {
            if let Some(t) = &mut self.check_thread {
                self.checker = Some(t.finish());
            }
        }
    }

    // ---- Stepping. ----

    /// Plans every unit before the first tick, at once and unbudgeted (the
    /// seeds' set-up; timed as the initial planning). A game need not call
    /// it: without it, units are planned within each tick's budget.
    pub fn initialize(&mut self) {
        if self.initialized || self.world.now() > 0 {
            return;
        }
        self.initialized = true;
        let t0 = Instant::now();
        self.planner.initialize(&mut self.world);
        self.init_ms = t0.elapsed().as_secs_f64() * 1e3;
    }

    /// Applies the recorded calls now, without stepping: units spawned
    /// before the first step stand on the map at tick 0.
    pub fn apply_commands(&mut self) {
        self.event_tick = self.world.now();
        self.settle_entered();
        self.apply_recorded();
        self.place_waiting();
        self.finish_checks();
        if let Some(c) = &mut self.checker {
            // The current tick again, with the units just placed (units
            // already on the map stay where they were: inside a block put
            // up around them is where they were).
            c.check(&self.world.grid, self.world.now(), on_map(&self.world));
        }
        self.update_units();
    }

    /// One tick: applies the recorded calls, plans the due units within the
    /// budget, moves every unit one tick along its plan, updates states and
    /// events.
    pub fn step(&mut self) {
        crate::profile_zone!("tick");
        let started = Instant::now();
        // Events live until the next step: a game that does not drain them
        // does not make the buffer grow.
        self.events.clear();
        self.settle_entered();
        // A unit placed now first plans next tick: it appears on its spawn
        // cell at the tick this step produces.
        self.event_tick = self.world.now() + 1;
        self.apply_recorded();
        self.trade_group_goals();
        self.place_waiting();
        self.plan_escapes();
        // Planning ends early enough for the rest of the step (moves,
        // states, checks) to fit the budget too, with 5% to spare for the
        // rest's ups and downs (it takes longer after a wave of orders).
        let until = self.config.budget.wall_us.map(|us| {
            let rest = Duration::from_nanos(self.rest_ns as u64 + us * 50);
            (started + Duration::from_micros(us))
                .checked_sub(rest)
                .unwrap_or(started)
        });
        self.planner.plan_tick(&mut self.world, until);
        let planned = Instant::now();
        let moved = self.execute();
        self.update_units();
        self.record();
        self.ids.recycle();
        let step_ns = started.elapsed().as_nanos() as u64;
        // The rest of the step, smoothed: 1/8 of the new, 7/8 of the old
        // (the worst of recent ticks decays slowly).
        let rest_now = planned.elapsed().as_nanos() as f64;
        self.rest_ns = if rest_now > self.rest_ns {
            rest_now
        } else {
            self.rest_ns * 0.875 + rest_now * 0.125
        };
        let budget_ns = self.config.budget.wall_us.map(|us| us * 1000);
        self.stats.record(step_ns, budget_ns);
        let work = self.planner.last_tick_work();
        self.last = TickReport {
            tick: self.world.now(),
            step_us: step_ns as f64 / 1e3,
            plan_us: (planned - started).as_secs_f64() * 1e6,
            searches: work.searches,
            nodes: work.nodes,
            carried_over: work.carried_over,
            moved,
        };
        if let Some(us) = self.config.budget.wall_us {
            crate::profile_plot!("budget use", step_ns as f64 / (us.max(1) * 1000) as f64);
        }
        crate::profile_frame!();
    }

    /// Every unit on the map goes to where its plan puts it at the next
    /// tick, and the tick advances. Returns how many changed cell.
    fn execute(&mut self) -> u32 {
        crate::profile_zone!("execute");
        let world = &mut self.world;
        let next_tick = world.now() + 1;
        let mut moved = 0;
        for i in 0..world.units.len() {
            let a = Slot(i as u32);
            if !world.units.on_map(a) {
                continue;
            }
            let next = world.units.planned_cell(a, next_tick);
            moved += u32::from(next != world.units.position[i]);
            world.units.position[i] = next;
        }
        world.table.advance();
        moved
    }

    /// Records the tick's positions (history, validator).
    fn record(&mut self) {
        crate::profile_zone!("record");
        let world = &self.world;
        if let Some(t) = &mut self.check_thread {
            // The last tick's check is done by now, as a rule (the step ran
            // beside it); this tick's goes out.
            let checker = self.checker.take().unwrap_or_else(|| t.finish());
            self.checked.0 = checker.count;
            self.checked.1.clone_from(&checker.first);
            t.send(checker, world.grid.clone(), world.now(), |units| {
                units.extend(on_map(world))
            });
        } else if let Some(c) = &mut self.checker {
            c.check(&world.grid, world.now(), on_map(world));
        }
        if self.config.history == History::Full {
            let w = self.history_width;
            self.history.extend_from_slice(&world.units.position[..w]);
        }
    }

    /// Whether every unit on the map that can reach its goal stands on it,
    /// with nothing queued, and no unit waits to enter.
    pub fn all_home(&self) -> bool {
        let ag = &self.world.units;
        self.waiting.is_empty()
            && (0..ag.len()).all(|i| {
                let f = ag.flags[i];
                f.has(UnitFlags::DEAD)
                    || f.has(UnitFlags::UNREACHABLE)
                    || (ag.position[i] == ag.goal[i] && ag.goal_queue[i].is_empty())
            })
    }

    /// Runs a fixed instance to completion (every unit home, or the turn
    /// limit) and reports.
    pub fn run(&mut self) -> RunSummary {
        self.initialize();
        while self.world.now() < self.config.max_ticks && !self.all_home() {
            self.step();
        }
        self.finish_checks();
        self.summary()
    }

    /// The executed trajectories as a plan file (needs [`History::Full`]).
    pub fn plan_file(&self) -> PlanFile {
        let grid = &self.world.grid;
        let n = self.history_width;
        let xy = |c: Cell| grid.xy(c);
        let steps = if n == 0 {
            Vec::new()
        } else {
            self.history
                .chunks(n)
                .map(|row| row.iter().map(|&c| xy(c)).collect())
                .collect()
        };
        let (soc, makespan) = self.soc_and_makespan();
        PlanFile {
            map_file: self.map_name.clone(),
            solver: self.planner.name(),
            solved: self.all_home(),
            soc,
            makespan,
            comp_time_ms: self.init_ms + self.stats.total_ms(),
            starts: self.starts.iter().map(|&c| xy(c)).collect(),
            goals: self.world.units.goal[..n].iter().map(|&c| xy(c)).collect(),
            steps,
        }
    }

    /// Sum over units on the map of the tick from which each has stood on
    /// its goal (the current tick for units elsewhere), and the largest.
    fn soc_and_makespan(&self) -> (u64, u64) {
        let ag = &self.world.units;
        let now = self.world.now() as u64;
        let mut soc = 0;
        let mut makespan = 0;
        for i in 0..ag.len() {
            if !ag.on_map(Slot(i as u32)) {
                continue;
            }
            let cost = if ag.settled_at[i] == u32::MAX {
                now
            } else {
                ag.settled_at[i] as u64
            };
            soc += cost;
            makespan = makespan.max(cost);
        }
        (soc, makespan)
    }

    /// The run's measures so far.
    pub fn summary(&self) -> RunSummary {
        let ag = &self.world.units;
        let grid = &self.world.grid;
        let live: Vec<usize> = (0..ag.len())
            .filter(|&i| !ag.flags[i].has(UnitFlags::DEAD))
            .collect();
        let n = live.len();
        let reached: Vec<usize> = live
            .iter()
            .copied()
            .filter(|&i| ag.first_arrival[i] <= self.world.now())
            .collect();
        let mut astar = SpatialAStar::new(grid);
        let lower: u64 = reached
            .iter()
            .filter_map(|&i| astar.steps(grid, ag.start[i], ag.goal[i]))
            .map(u64::from)
            .sum();
        let mean = |sum: u64| {
            if reached.is_empty() {
                0.0
            } else {
                sum as f64 / reached.len() as f64
            }
        };
        let path_sum: u64 = reached.iter().map(|&i| ag.first_arrival[i] as u64).sum();
        let (soc, makespan) = self.soc_and_makespan();
        let stats = self.planner.stats();
        let (overruns, worst) = self.stats.overruns();
        let w = self.history_width;
        RunSummary {
            planner: self.planner.name(),
            units: n,
            reached: reached.len(),
            success_rate: if n == 0 {
                1.0
            } else {
                reached.len() as f64 / n as f64
            },
            at_goal_at_end: live
                .iter()
                .filter(|&&i| ag.position[i] == ag.goal[i])
                .count(),
            soc,
            makespan,
            mean_path_len: mean(path_sum),
            lower_bound_path_len: mean(lower),
            cycles_per_agent: if w == 0 || self.history.is_empty() {
                0.0
            } else {
                count_cycles(grid, &self.history, w) as f64 / w as f64
            },
            collisions: self.violations().0 as usize,
            unreachable: live
                .iter()
                .filter(|&&i| ag.flags[i].has(UnitFlags::UNREACHABLE))
                .count(),
            ticks: self.ticks(),
            threads: self.planner.threads(),
            init_ms: self.init_ms,
            setup_ms: self.setup_ms,
            plan_ms_total: self.stats.total_ms(),
            tick_ms_mean: self.stats.mean_ms(),
            tick_ms_p99: self.stats.percentile_ms(99.0),
            tick_ms_p999: self.stats.percentile_ms(99.9),
            tick_ms_histogram: {
                const BOUNDS: [f64; 13] = [
                    0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0,
                ];
                let counts = self.stats.histogram(&BOUNDS);
                BOUNDS.iter().copied().chain([-1.0]).zip(counts).collect()
            },
            tick_ms_max: self.stats.max_ms(),
            budget_overruns: overruns as usize,
            worst_overrun_ms: worst,
            carried_over: stats.carried_over,
            commit_conflicts: stats.commit_conflicts,
            peak_memory_mb: super::metrics::peak_memory_mb(),
            solved: None,
            largest_group: None,
            searches: stats.searches,
            tiled_searches: stats.tiled_searches,
            failed_searches: stats.failed_searches,
            expanded: stats.expanded,
            heuristic_expanded: stats.heuristic_expanded,
            heuristic_restarts: stats.heuristic_restarts,
            promotions: stats.promotions,
            promotions_kept: stats.promotions_kept,
            promotions_rolled_back: stats.promotions_rolled_back,
            repairs: stats.repairs,
            repairs_kept: stats.repairs_kept,
            way_clearings: stats.way_clearings,
            way_clearings_kept: stats.way_clearings_kept,
            detours: stats.detours,
            pull_overs: stats.pull_overs,
            shoves: stats.shoves,
            shoves_kept: stats.shoves_kept,
            right_of_way: stats.right_of_way,
            right_of_way_kept: stats.right_of_way_kept,
            right_of_way_moved: stats.right_of_way_moved,
            events: EventKind::NAMES
                .iter()
                .zip(self.event_counts)
                .map(|(&k, n)| (k.to_string(), n))
                .collect(),
            states: state_counts(ag),
        }
    }

    // ---- Checks of the calls' inputs. ----

    fn require_live(&self) -> Result<(), SimError> {
        if self.planner.is_live() {
            Ok(())
        } else {
            Err(SimError::NotLive {
                planner: self.planner.name(),
            })
        }
    }

    fn check_unit(&self, id: UnitId) -> Result<(), SimError> {
        self.slot_of(id).map(|_| ())
    }

    fn slot_of(&self, id: UnitId) -> Result<usize, SimError> {
        if self.ids.is_live(id) {
            Ok(id.slot() as usize)
        } else {
            Err(SimError::StaleUnit(id))
        }
    }

    fn check_cell(&self, what: &'static str, c: Cell) -> Result<(), SimError> {
        let g = &self.world.grid;
        if c.index() >= g.cell_count() {
            return Err(SimError::OffMap {
                what,
                x: (c.0 % g.width().max(1)) as i64,
                y: (c.0 / g.width().max(1)) as i64,
                width: g.width(),
                height: g.height(),
            });
        }
        if !g.is_open_terrain(c) {
            let (x, y) = g.xy(c);
            return Err(SimError::Wall { what, x, y });
        }
        Ok(())
    }

    /// Checks that a body of side `size` anchored at `c` lies on open
    /// ground of the map.
    fn check_body(&self, what: &'static str, c: Cell, size: u8) -> Result<(), SimError> {
        self.check_cell(what, c)?;
        let g = &self.world.grid;
        let (x, y) = g.xy(c);
        let size = size as u32;
        if x + size > g.width() || y + size > g.height() {
            return Err(SimError::OffMap {
                what,
                x: (x + size - 1) as i64,
                y: (y + size - 1) as i64,
                width: g.width(),
                height: g.height(),
            });
        }
        for c in crate::footprint::body(g, c, size) {
            self.check_cell(what, c)?;
        }
        Ok(())
    }

    fn check_rect(&self, r: Rect) -> Result<(), SimError> {
        let g = &self.world.grid;
        if r.x0 > r.x1 || r.y0 > r.y1 || !g.contains_rect(&r) {
            return Err(SimError::OffMap {
                what: "rectangle corner",
                x: r.x1 as i64,
                y: r.y1 as i64,
                width: g.width(),
                height: g.height(),
            });
        }
        Ok(())
    }

    /// The spec of a spawn recorded but not applied yet.
    fn pending_spawn(&self, id: UnitId) -> Option<UnitSpec> {
        self.commands.iter().find_map(|c| match c {
            Command::Spawn(i, s) if *i == id => Some(*s),
            _ => None,
        })
    }
}

/// Every unit on the map as (slot, the rectangle it covers).
fn on_map(world: &World) -> impl Iterator<Item = (u32, Rect)> + '_ {
    let ag = &world.units;
    (0..ag.len() as u32)
        .filter(|&s| ag.on_map(Slot(s)))
        .map(|s| (s, world.rect_of(Slot(s))))
}

/// How many living units are in each state.
fn state_counts(ag: &crate::units::Units) -> std::collections::BTreeMap<String, u64> {
    let names = ["moving", "arrived", "waiting", "stuck", "unreachable"];
    let mut counts = [0u64; 5];
    for i in 0..ag.len() {
        if !ag.flags[i].has(UnitFlags::DEAD) {
            counts[ag.state[i] as usize] += 1;
        }
    }
    names
        .iter()
        .zip(counts)
        .map(|(&k, n)| (k.to_string(), n))
        .collect()
}

/// Builds the configured planner for `world` with the run's settings,
/// searching on `pool` if given (else on a pool of `config.threads` of its
/// own).
fn build_planner(
    world: &World,
    config: &SimConfig,
    pool: Option<Arc<rayon::ThreadPool>>,
) -> Box<dyn Planner> {
    match config.planner {
        PlannerKind::Lra => Box::new(LocalRepairAStar::new(world, config.seed)),
        PlannerKind::Ca => Box::new(CooperativeAStar::new(world, false, config.max_ticks)),
        PlannerKind::Hca => Box::new(CooperativeAStar::new(world, true, config.max_ticks)),
        PlannerKind::Whca { window } => {
            let mut p = WindowedHca::new_in(world, window, config.threads, config.budget, pool);
            p.reserve_units(world, config.max_units);
            Box::new(p)
        }
        PlannerKind::Co {
            window,
            variant,
            offline,
        } => Box::new(ConflictOrientedWhca::new(
            world,
            window,
            variant,
            offline,
            config.max_ticks,
        )),
    }
}
