//! Playing an event script (or a generated load) into a live simulation:
//! labels become unit ids, each event is applied before the tick it names.

use rustc_hash::FxHashMap;

use super::{SimError, Simulation, UnitSpec};
use crate::io::{Action, ScriptedEvent};
use crate::map::Rect;
use crate::units::UnitId;

/// Feeds a script's events to a simulation, tick by tick.
pub struct ScriptPlayer {
    events: Vec<ScriptedEvent>,
    next: usize,
    labels: FxHashMap<String, UnitId>,
    /// Per slot, the label of the unit living there.
    slot_label: Vec<String>,
}

impl ScriptPlayer {
    /// A player of `events` (sorted by tick, as [`crate::io::parse_events`]
    /// gives them) for `sim`, whose living units are labelled by slot.
    pub fn new(events: Vec<ScriptedEvent>, sim: &Simulation) -> Self {
        let mut labels = FxHashMap::default();
        let mut slot_label = Vec::new();
        for id in sim.units() {
            let s = id.slot() as usize;
            if s >= slot_label.len() {
                slot_label.resize(s + 1, String::new());
            }
            slot_label[s] = id.slot().to_string();
            labels.insert(id.slot().to_string(), id);
        }
        ScriptPlayer {
            events,
            next: 0,
            labels,
            slot_label,
        }
    }

    /// Whether every event has been applied.
    pub fn done(&self) -> bool {
        self.next == self.events.len()
    }

    /// The label of the unit in `slot` (empty if none was given).
    pub fn label(&self, slot: u32) -> &str {
        self.slot_label
            .get(slot as usize)
            .map_or("", String::as_str)
    }

    /// Applies every event of tick `tick` or before not applied yet, calling
    /// `applied` with each, the unit it named and the simulation. On a refusal, returns the
    /// event's line and the engine's error.
    pub fn apply_due(
        &mut self,
        sim: &mut Simulation,
        tick: u32,
        mut applied: impl FnMut(&ScriptedEvent, Option<UnitId>, &Simulation),
    ) -> Result<(), (usize, SimError)> {
        while self.next < self.events.len() && self.events[self.next].tick <= tick {
            let k = self.next;
            self.next += 1;
            let unit = self.apply(sim, k).map_err(|e| (self.events[k].line, e))?;
            applied(&self.events[k], unit, sim);
        }
        Ok(())
    }

    fn unit(&self, label: &str) -> Result<UnitId, SimError> {
        // A label never spawned: a script not checked with `check_events`.
        self.labels
            .get(label)
            .copied()
            .ok_or(SimError::UnknownLabel {
                label: label.to_string(),
            })
    }

    fn apply(&mut self, sim: &mut Simulation, k: usize) -> Result<Option<UnitId>, SimError> {
        let cell = |sim: &Simulation, (x, y): (u32, u32)| sim.cell(x as i64, y as i64);
        let e = &self.events[k];
        Ok(match &e.action {
            Action::Spawn {
                unit,
                at,
                goal,
                priority,
                kind,
            } => {
                let spec = UnitSpec::new(cell(sim, *at)?, cell(sim, *goal)?)
                    .with_priority(*priority)
                    .with_kind(*kind);
                let id = sim.spawn(spec)?;
                let s = id.slot() as usize;
                if s >= self.slot_label.len() {
                    self.slot_label.resize(s + 1, String::new());
                }
                self.slot_label[s] = unit.clone();
                self.labels.insert(unit.clone(), id);
                Some(id)
            }
            Action::Despawn { unit } => {
                let id = self.unit(unit)?;
                sim.despawn(id)?;
                self.labels.remove(unit.as_str());
                Some(id)
            }
            Action::Goal { unit, goal, group } => {
                let id = self.unit(unit)?;
                sim.set_goal_in_group(id, cell(sim, *goal)?, *group)?;
                Some(id)
            }
            Action::PushGoal { unit, goal } => {
                let id = self.unit(unit)?;
                sim.push_goal(id, cell(sim, *goal)?)?;
                Some(id)
            }
            Action::Stop { unit } => {
                let id = self.unit(unit)?;
                sim.stop(id)?;
                Some(id)
            }
            Action::Block { from, to } => {
                sim.block(Rect::new(*from, *to))?;
                None
            }
            Action::Unblock { from, to } => {
                sim.unblock(Rect::new(*from, *to))?;
                None
            }
        })
    }
}
