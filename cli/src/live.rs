//! `throng run --events`: feeds an event script to the live simulation tick
//! by tick, and streams what happened: the trace of the cells every unit
//! holds and each tick's times.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use throng::engine::ScriptPlayer;
use throng::engine::{EventKind, Simulation};
use throng::io::{Action, ScriptedEvent};
use throng::units::{Slot, UnitId};

use super::error::CliError;
use super::mixed::Crowd;
use super::run::RunArgs;

/// A CSV file written row by row.
struct Csv {
    path: PathBuf,
    out: BufWriter<File>,
}

impl Csv {
    fn create(path: &Path, header: &str) -> Result<Self, CliError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| CliError::Write {
                path: path.to_path_buf(),
                source,
            })?;
        }
        let file = File::create(path).map_err(|source| CliError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        let mut csv = Csv {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
        };
        csv.line(format_args!("{header}"))?;
        Ok(csv)
    }

    fn line(&mut self, args: std::fmt::Arguments<'_>) -> Result<(), CliError> {
        self.out
            .write_fmt(args)
            .and_then(|_| self.out.write_all(b"\n"))
            .map_err(|source| CliError::Write {
                path: self.path.clone(),
                source,
            })
    }

    fn flush(&mut self) -> Result<(), CliError> {
        self.out.flush().map_err(|source| CliError::Write {
            path: self.path.clone(),
            source,
        })
    }
}

/// What became of the orders (goal events) of a run. An order is open
/// from its event until its unit arrives there; a later order for the
/// same unit supersedes it, a despawn drops it.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct OrderCounts {
    /// Goal orders given.
    pub issued: u64,
    /// Orders whose unit reached the goal.
    pub arrived: u64,
    /// Orders replaced by a later one before their unit arrived.
    pub superseded: u64,
    /// Orders whose unit was despawned first.
    pub dropped: u64,
    /// Orders whose goal was unreachable when the run ended (walls or
    /// buildings in the way).
    pub unreachable: u64,
    /// Orders still open at the end with a reachable goal.
    pub pending: u64,
    /// `arrived / (arrived + pending)`: of the orders that kept their unit
    /// and a reachable goal to the end, the share that arrived.
    pub arrived_rate: f64,
    /// Ticks from order to arrival: mean and largest.
    pub mean_ticks_to_arrive: f64,
    /// See [`OrderCounts::mean_ticks_to_arrive`].
    pub max_ticks_to_arrive: u32,
    /// Orders whose unit left its cell (or had arrived) within 20 ticks,
    /// of the orders that lasted that long.
    pub started_within_20: u64,
    /// Orders that lasted 20 ticks or more.
    pub lasted_20: u64,
    /// Most ticks an order waited before its unit left its cell.
    pub max_ticks_to_start: u32,
}

/// What a live run reports beyond the engine's summary.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct LiveReport {
    /// The run's goal orders.
    pub orders: OrderCounts,
    /// Peak resident memory after 1,000 ticks and after the last tick
    /// (before the summary is computed), MiB: a live world's memory should
    /// not grow with ticks.
    pub peak_memory_mb_at_1000: f64,
    /// See [`LiveReport::peak_memory_mb_at_1000`].
    pub peak_memory_mb_end: f64,
}

impl LiveReport {
    /// Prints the report's lines after the summary table.
    pub fn print(&self) {
        let o = &self.orders;
        println!(
            "orders               {} issued: {} arrived ({:.1}% of {} kept), {} superseded, {} dropped, {} unreachable; {:.1} ticks to arrive (max {})",
            o.issued,
            o.arrived,
            100.0 * o.arrived_rate,
            o.arrived + o.pending,
            o.superseded,
            o.dropped,
            o.unreachable,
            o.mean_ticks_to_arrive,
            o.max_ticks_to_arrive
        );
        println!(
            "order starts         {} of {} orders lasting 20 ticks had their unit moving by then; longest wait {} ticks",
            o.started_within_20, o.lasted_20, o.max_ticks_to_start
        );
        println!(
            "memory               peak {:.1} MiB after 1,000 ticks, {:.1} MiB at the end",
            self.peak_memory_mb_at_1000, self.peak_memory_mb_end
        );
    }
}

/// An order not yet arrived: its goal, when it was given, where its unit
/// stood then, and whether it has left that cell.
#[derive(Clone, Copy, Debug)]
struct OpenOrder {
    goal: throng::map::Cell,
    tick: u32,
    from: Option<throng::map::Cell>,
    started: bool,
}

/// Drives one run: the script's events, the trace, the tick times.
pub struct Driver {
    script_path: PathBuf,
    /// The script, until the run starts; then the player.
    events: Vec<ScriptedEvent>,
    player: Option<ScriptPlayer>,
    trace: Option<Csv>,
    tick_times: Option<Csv>,
    /// Per slot, the order its unit is carrying out.
    open: Vec<Option<OpenOrder>>,
    orders: OrderCounts,
    arrive_ticks: u64,
    memory_at_1000: f64,
    /// Each tick's step time, µs (kept for `--tick-chart` only).
    tick_us: Option<Vec<f32>>,
    /// Peak memory when the last tick ended (before the summary's own
    /// work), MiB.
    memory_end: f64,
    live: bool,
    /// Per slot, the goal of the mixed crowd's unit there, while it lives.
    watched: Vec<Option<throng::map::Cell>>,
    /// Per slot, the tick that unit first stood on that goal.
    arrived: Vec<Option<u32>>,
}

impl Driver {
    /// A driver for `events` (checked already); the starting units are
    /// labelled by their row.
    pub fn new(args: &RunArgs, events: Vec<ScriptedEvent>) -> Result<Self, CliError> {
        let trace = match &args.trace {
            Some(p) => Some(Csv::create(p, "tick,unit,x,y,w,h")?),
            None => None,
        };
        let tick_times = match &args.tick_times {
            Some(p) => Some(Csv::create(
                p,
                "tick,step_us,plan_us,searches,nodes,carried_over,moved",
            )?),
            None => None,
        };
        Ok(Driver {
            script_path: args.events.clone().unwrap_or_default(),
            events,
            player: None,
            trace,
            tick_times,
            open: Vec::new(),
            orders: OrderCounts::default(),
            arrive_ticks: 0,
            memory_at_1000: 0.0,
            memory_end: 0.0,
            tick_us: args.tick_chart.as_ref().map(|_| Vec::new()),
            live: false,
            watched: Vec::new(),
            arrived: Vec::new(),
        })
    }

    /// Records when each unit of `crowd` (spawned as `ids`) first stands on
    /// its goal: at tick 0 if it starts there, else at its first arrival
    /// there (a despawn ends the watch).
    pub fn watch_arrivals(&mut self, ids: &[UnitId], crowd: &Crowd) {
        for (&id, u) in ids.iter().zip(&crowd.units) {
            let s = id.slot() as usize;
            if s >= self.watched.len() {
                self.watched.resize(s + 1, None);
                self.arrived.resize(s + 1, None);
            }
            self.watched[s] = Some(u.goal);
            self.arrived[s] = (u.start == u.goal).then_some(0);
        }
    }

    /// The first arrival ticks of the watched units `ids`.
    pub fn arrivals(&self, ids: &[UnitId]) -> Vec<Option<u32>> {
        ids.iter()
            .map(|id| self.arrived.get(id.slot() as usize).copied().flatten())
            .collect()
    }

    /// Applies the tick-0 events so that their units stand on the map at
    /// tick 0, and writes tick 0 of the trace.
    pub fn start(&mut self, sim: &mut Simulation) -> Result<(), CliError> {
        self.live = !self.events.is_empty();
        self.player = Some(ScriptPlayer::new(std::mem::take(&mut self.events), sim));
        self.apply_due(sim, 0)?;
        sim.apply_commands();
        self.write_trace(sim)
    }

    /// Whether every event has been applied.
    pub fn done(&self) -> bool {
        self.player.as_ref().is_none_or(ScriptPlayer::done)
    }

    /// Applies the events of the tick the next step produces.
    pub fn before_step(&mut self, sim: &mut Simulation) -> Result<(), CliError> {
        self.apply_due(sim, sim.ticks() + 1)
    }

    /// Records the tick just stepped.
    pub fn after_step(&mut self, sim: &mut Simulation) -> Result<(), CliError> {
        let tick = sim.ticks();
        for e in sim.drain_events() {
            let s = e.unit.slot() as usize;
            if let (EventKind::Arrived(cell), Some(Some(goal))) = (e.kind, self.watched.get(s)) {
                if *goal == cell && self.arrived[s].is_none() {
                    self.arrived[s] = Some(tick);
                }
            }
            if let (EventKind::Arrived(cell), Some(Some(o))) = (e.kind, self.open.get(s)) {
                if o.goal == cell {
                    self.orders.arrived += 1;
                    let took = tick - o.tick;
                    self.arrive_ticks += took as u64;
                    self.orders.max_ticks_to_arrive = self.orders.max_ticks_to_arrive.max(took);
                    self.open[s] = None;
                }
            }
        }
        if tick == 1000 {
            self.memory_at_1000 = throng::engine::peak_memory_mb();
        }
        // Orders whose unit has left its cell, and those 20 ticks old.
        let positions = sim.positions();
        for (s, o) in self.open.iter_mut().enumerate() {
            let Some(o) = o else {
                continue;
            };
            let age = tick.saturating_sub(o.tick);
            if !o.started && positions.get(s).copied() != o.from {
                o.started = true;
                self.orders.max_ticks_to_start = self.orders.max_ticks_to_start.max(age);
            }
            if age == 20 {
                self.orders.lasted_20 += 1;
                self.orders.started_within_20 += u64::from(o.started);
            }
        }
        self.write_trace(sim)?;
        if let Some(v) = &mut self.tick_us {
            v.push(sim.last_tick().step_us as f32);
        }
        if let Some(csv) = &mut self.tick_times {
            let r = sim.last_tick();
            csv.line(format_args!(
                "{},{:.1},{:.1},{},{},{},{}",
                r.tick, r.step_us, r.plan_us, r.searches, r.nodes, r.carried_over, r.moved
            ))?;
        }
        Ok(())
    }

    /// The ticks' step times as chart points (tick, µs).
    pub fn tick_points(&self) -> Vec<(f64, f64)> {
        self.tick_us
            .iter()
            .flatten()
            .enumerate()
            .map(|(t, &us)| (t as f64 + 1.0, us as f64))
            .collect()
    }

    /// Flushes the files.
    pub fn finish(&mut self) -> Result<(), CliError> {
        self.memory_end = throng::engine::peak_memory_mb();
        for csv in [&mut self.trace, &mut self.tick_times]
            .into_iter()
            .flatten()
        {
            csv.flush()?;
        }
        Ok(())
    }

    /// What the live run did, if it was one (an event script or a
    /// generated load).
    pub fn report(&self) -> Option<LiveReport> {
        if !self.live {
            return None;
        }
        let mut orders = self.orders.clone();
        if orders.arrived > 0 {
            orders.mean_ticks_to_arrive = self.arrive_ticks as f64 / orders.arrived as f64;
        }
        orders.arrived_rate = if orders.arrived + orders.pending == 0 {
            1.0
        } else {
            orders.arrived as f64 / (orders.arrived + orders.pending) as f64
        };
        Some(LiveReport {
            orders,
            peak_memory_mb_at_1000: self.memory_at_1000,
            peak_memory_mb_end: self.memory_end,
        })
    }

    /// Counts the orders still open at the end: pending, or unreachable.
    pub fn close_orders(&mut self, sim: &Simulation) {
        let mut ids = vec![None; self.open.len()];
        for id in sim.units() {
            if let Some(slot) = ids.get_mut(id.slot() as usize) {
                *slot = Some(id);
            }
        }
        for (s, o) in self.open.iter_mut().enumerate() {
            if o.take().is_some() {
                let unreachable = ids[s]
                    .is_some_and(|id| sim.state(id) == Ok(throng::units::UnitState::Unreachable));
                if unreachable {
                    self.orders.unreachable += 1;
                } else {
                    self.orders.pending += 1;
                }
            }
        }
    }

    fn apply_due(&mut self, sim: &mut Simulation, tick: u32) -> Result<(), CliError> {
        let Some(player) = &mut self.player else {
            return Ok(());
        };
        let (open, orders, watched) = (&mut self.open, &mut self.orders, &mut self.watched);
        let next_tick = sim.ticks() + 1;
        player
            .apply_due(sim, tick, |e, unit, sim| {
                let Some(id) = unit else {
                    return;
                };
                let s = id.slot() as usize;
                if s >= open.len() {
                    open.resize(s + 1, None);
                }
                if let (Action::Despawn { .. }, Some(w)) = (&e.action, watched.get_mut(s)) {
                    *w = None;
                }
                match &e.action {
                    Action::Goal { goal, .. } => {
                        let Ok(goal) = sim.cell(goal.0 as i64, goal.1 as i64) else {
                            return;
                        };
                        orders.issued += 1;
                        if open[s].is_some() {
                            orders.superseded += 1;
                        }
                        open[s] = Some(OpenOrder {
                            goal,
                            tick: next_tick,
                            from: sim.position(id).ok(),
                            started: false,
                        });
                    }
                    Action::Stop { .. } if open[s].take().is_some() => orders.superseded += 1,
                    Action::Despawn { .. } if open[s].take().is_some() => orders.dropped += 1,
                    _ => {}
                }
            })
            .map_err(|(line, err)| {
                CliError::Other(format!(
                    "{}:{line}: the engine refused the event: {err}",
                    self.script_path.display()
                ))
            })
    }

    /// Writes the current tick's rows: per unit on the map, the rectangle
    /// it holds (top-left cell, width, height).
    fn write_trace(&mut self, sim: &Simulation) -> Result<(), CliError> {
        let Some(csv) = &mut self.trace else {
            return Ok(());
        };
        let tick = sim.ticks();
        let units = sim.world().units();
        for id in sim.units() {
            if !units.on_map(Slot(id.slot())) {
                continue;
            }
            let r = sim.rect(id)?;
            let label = self.player.as_ref().map_or("", |p| p.label(id.slot()));
            csv.line(format_args!(
                "{tick},{label},{},{},{},{}",
                r.x0,
                r.y0,
                r.x1 - r.x0 + 1,
                r.y1 - r.y0 + 1
            ))?;
        }
        Ok(())
    }
}
