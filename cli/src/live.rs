//! `throng run --events`: feeds an event script to the live simulation tick
//! by tick, and streams what happened: the trace of every unit's cell and
//! each tick's times.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use std::collections::HashMap as FxHashMap;

use throng::agents::{AgentId, UnitId};
use throng::engine::{Simulation, UnitSpec};
use throng::io::{Action, ScriptedEvent};
use throng::map::{Instance, Rect};

use super::error::CliError;
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

/// Drives one run: the script's events, the trace, the tick times.
pub struct Driver {
    script_path: PathBuf,
    events: Vec<ScriptedEvent>,
    next: usize,
    labels: FxHashMap<String, UnitId>,
    /// Per slot, the label of the unit living there.
    slot_label: Vec<String>,
    trace: Option<Csv>,
    tick_times: Option<Csv>,
}

impl Driver {
    /// A driver for `events` (checked already) on `instance`'s units,
    /// labelled by their row.
    pub fn new(
        args: &RunArgs,
        instance: &Instance,
        events: Vec<ScriptedEvent>,
    ) -> Result<Self, CliError> {
        let slot_label: Vec<String> = (0..instance.len()).map(|i| i.to_string()).collect();
        let trace = match &args.trace {
            Some(p) => Some(Csv::create(p, "tick,unit,x,y")?),
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
            next: 0,
            labels: FxHashMap::new(),
            slot_label,
            trace,
            tick_times,
        })
    }

    /// Applies the tick-0 events so that their units stand on the map at
    /// tick 0, and writes tick 0 of the trace.
    pub fn start(&mut self, sim: &mut Simulation) -> Result<(), CliError> {
        for id in sim.units().collect::<Vec<_>>() {
            self.labels.insert(id.slot().to_string(), id);
        }
        self.apply_due(sim, 0)?;
        sim.apply_commands();
        self.write_trace(sim)
    }

    /// Whether every event has been applied.
    pub fn done(&self) -> bool {
        self.next == self.events.len()
    }

    /// Applies the events of the tick the next step produces.
    pub fn before_step(&mut self, sim: &mut Simulation) -> Result<(), CliError> {
        self.apply_due(sim, sim.ticks() + 1)
    }

    /// Records the tick just stepped.
    pub fn after_step(&mut self, sim: &mut Simulation) -> Result<(), CliError> {
        sim.drain_events().for_each(drop);
        self.write_trace(sim)?;
        if let Some(csv) = &mut self.tick_times {
            let r = sim.last_tick();
            csv.line(format_args!(
                "{},{:.1},{:.1},{},{},{},{}",
                r.tick, r.step_us, r.plan_us, r.searches, r.nodes, r.carried_over, r.moved
            ))?;
        }
        Ok(())
    }

    /// Flushes the files.
    pub fn finish(&mut self) -> Result<(), CliError> {
        for csv in [&mut self.trace, &mut self.tick_times]
            .into_iter()
            .flatten()
        {
            csv.flush()?;
        }
        Ok(())
    }

    fn apply_due(&mut self, sim: &mut Simulation, tick: u32) -> Result<(), CliError> {
        while let Some(e) = self.events.get(self.next).filter(|e| e.tick <= tick) {
            let e = e.clone();
            self.next += 1;
            self.apply(sim, &e).map_err(|err| {
                CliError::Other(format!(
                    "{}:{}: the engine refused the event: {err}",
                    self.script_path.display(),
                    e.line
                ))
            })?;
        }
        Ok(())
    }

    fn apply(
        &mut self,
        sim: &mut Simulation,
        e: &ScriptedEvent,
    ) -> Result<(), throng::engine::SimError> {
        let cell = |sim: &Simulation, (x, y): (u32, u32)| sim.cell(x as i64, y as i64);
        let unit = |labels: &FxHashMap<String, UnitId>, l: &str| {
            labels
                .get(l)
                .copied()
                .expect("event scripts are checked before the run")
        };
        match &e.action {
            Action::Spawn {
                unit: label,
                at,
                goal,
                priority,
            } => {
                let spec =
                    UnitSpec::new(cell(sim, *at)?, cell(sim, *goal)?).with_priority(*priority);
                let id = sim.spawn(spec)?;
                let s = id.slot() as usize;
                if s >= self.slot_label.len() {
                    self.slot_label.resize(s + 1, String::new());
                }
                self.slot_label[s] = label.clone();
                self.labels.insert(label.clone(), id);
            }
            Action::Despawn { unit: l } => {
                let id = unit(&self.labels, l);
                sim.despawn(id)?;
                self.labels.remove(l);
            }
            Action::Goal { unit: l, goal } => {
                let g = cell(sim, *goal)?;
                sim.set_goal(unit(&self.labels, l), g)?;
            }
            Action::PushGoal { unit: l, goal } => {
                let g = cell(sim, *goal)?;
                sim.push_goal(unit(&self.labels, l), g)?;
            }
            Action::Stop { unit: l } => sim.stop(unit(&self.labels, l))?,
            Action::Block { from, to } => sim.block(Rect::new(*from, *to))?,
            Action::Unblock { from, to } => sim.unblock(Rect::new(*from, *to))?,
        }
        Ok(())
    }

    fn write_trace(&mut self, sim: &Simulation) -> Result<(), CliError> {
        let Some(csv) = &mut self.trace else {
            return Ok(());
        };
        let tick = sim.ticks();
        let agents = &sim.world().agents;
        let grid = sim.grid();
        for id in sim.units() {
            let a = AgentId(id.slot());
            if !agents.on_map(a) {
                continue;
            }
            let (x, y) = grid.xy(agents.position[a.index()]);
            let label = &self.slot_label[a.index()];
            csv.line(format_args!("{tick},{label},{x},{y}"))?;
        }
        Ok(())
    }
}
