//! The cooperative planners. Each implements [`Planner`]: plan every unit
//! before the first tick, then replan the units that are due each tick.

mod co_core;
mod co_variant;
mod co_whca;
mod conflict;
mod cooperative;
mod kind;
mod lra;
pub mod odid;
mod optimistic;
mod order;
mod repair;
mod tiles;
mod whca;
mod winner;

pub use co_variant::CoVariant;
pub use co_whca::ConflictOrientedWhca;
pub use conflict::{Conflict, ConflictFinder};
pub use cooperative::CooperativeAStar;
pub use kind::PlannerKind;
pub use lra::LocalRepairAStar;
pub use whca::WindowedHca;

use crate::map::Cell;
use crate::units::Slot;
use crate::world::World;

/// Counters a planner keeps for the metrics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlannerStats {
    /// Searches run.
    pub searches: u64,
    /// Of [`PlannerStats::searches`], those run in map tiles (see the
    /// scheduler): claimed on the workers, with no serial commit.
    pub tiled_searches: u64,
    /// Searches that found no plan (the unit kept its old one).
    pub failed_searches: u64,
    /// Space-time (or spatial) nodes expanded.
    pub expanded: u64,
    /// True-distance (RRA*) nodes expanded.
    pub heuristic_expanded: u64,
    /// RRA* searches restarted from their unit's cell because they grew
    /// too large (Silver).
    pub heuristic_restarts: u64,
    /// Searches whose result conflicted with an earlier commit of the same
    /// batch and were run again.
    pub commit_conflicts: u64,
    /// Due searches that did not fit a tick's budget and moved to the next.
    pub carried_over: u64,
    /// True-distance tables shared by units bound for a common goal.
    pub shared_distance_tables: u64,
    /// Searches of promoted units (Silver's unit priorities), and how many
    /// of their plans were kept (every overridden unit found a way out).
    pub promotions: u64,
    /// See [`PlannerStats::promotions`].
    pub promotions_kept: u64,
    /// Promotions undone because a unit in the way found no other plan.
    pub promotions_rolled_back: u64,
    /// Joint repairs of units stuck together tried (see `repair`), and how
    /// many of their plans were committed.
    pub repairs: u64,
    /// See [`PlannerStats::repairs`].
    pub repairs_kept: u64,
    /// Ways cleared for stalled units with footprints tried (the units in
    /// the way planned around them), and how many were kept.
    pub way_clearings: u64,
    /// See [`PlannerStats::way_clearings`].
    pub way_clearings_kept: u64,
    /// Units given distances around the units on their way (see
    /// [`crate::distance::Detour`]): bodies whose way could not be
    /// cleared, one-cell units whose joint repairs kept failing.
    pub detours: u64,
    /// Bodies pulled over for a stalled body that could neither have its
    /// way cleared nor walk around (see [`PlannerStats::detours`]).
    pub pull_overs: u64,
    /// Shoves tried by units stuck for long (a step pushing a chain of
    /// standing units into a free cell), and how many were kept.
    pub shoves: u64,
    /// See [`PlannerStats::shoves`].
    pub shoves_kept: u64,
    /// Bodies' plans through one-cell units' reservations (a body's right
    /// of way), how many were kept (their units moved out of the way), and
    /// how many one-cell units were given new plans for them.
    pub right_of_way: u64,
    /// See [`PlannerStats::right_of_way`].
    pub right_of_way_kept: u64,
    /// See [`PlannerStats::right_of_way`].
    pub right_of_way_moved: u64,
}

/// What one tick's planning did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickWork {
    /// Searches run.
    pub searches: u64,
    /// Nodes expanded (space-time and true-distance).
    pub nodes: u64,
    /// Due searches left for a later tick.
    pub carried_over: u64,
}

/// An online planner inside the tick loop.
pub trait Planner: Send {
    /// Short name, e.g. `whca(16)`.
    fn name(&self) -> String;
    /// Plans every unit before the first tick.
    fn initialize(&mut self, world: &mut World);
    /// Replans the units due at the current tick, before the units move,
    /// finishing by `until` if given (the tick's wall-clock budget, less
    /// what the rest of the step needs).
    fn plan_tick(&mut self, world: &mut World, until: Option<std::time::Instant>);
    /// Counters so far (may take time in proportion to the units: not
    /// for every tick).
    fn stats(&self) -> PlannerStats;
    /// What the last `plan_tick` did, cheaply: searches, nodes expanded,
    /// due searches carried over.
    fn last_tick_work(&self) -> TickWork {
        TickWork::default()
    }
    /// Worker threads it searches on.
    fn threads(&self) -> usize {
        1
    }
    /// Whether it plans a live world: units spawned and despawned, goals
    /// changed and the map edited while it runs. Planners that plan a
    /// fixed instance once say no, and the simulation refuses such calls.
    fn is_live(&self) -> bool {
        false
    }
    /// Unit `a` (a new slot or a reused one) entered the world.
    fn unit_added(&mut self, _world: &World, _a: Slot) {}
    /// Unit `a` left the world.
    fn unit_removed(&mut self, _a: Slot) {}
    /// Unit `a`'s goal changed: by the game's order (`ordered`), or to the
    /// next goal of its queue on arriving.
    fn goal_changed(&mut self, _world: &World, _a: Slot, _ordered: bool) {}
    /// Cells became impassable (`closed`) or passable (`opened`): every
    /// cached distance must stay a lower bound, and plans are replanned.
    fn map_changed(&mut self, _world: &World, _closed: &[Cell], _opened: &[Cell]) {}
    /// Appends to `out` the rest of unit `a`'s way from `from` to its goal,
    /// as its distances lead (not reserved): for drawing waypoints.
    fn route(&mut self, _world: &World, _a: Slot, _from: Cell, _out: &mut Vec<Cell>) {}
    /// Unit `a` joined (`true`) or left a group order, whose units trade
    /// goals: a trade restarts no clock of progress, but a unit handed its
    /// goal back and forth shows progress in bursts.
    fn group_changed(&mut self, _a: Slot, _grouped: bool) {}
    /// Unit `a`'s distance from `cell` to its goal, by the way round walls
    /// where the planner knows it (a lower bound otherwise); `None` if it
    /// keeps no distances.
    fn distance(&mut self, _world: &World, _a: Slot, _cell: Cell) -> Option<u32> {
        None
    }
    /// Whether it records each unit's progress (the `best_distance` and
    /// `progress_tick` columns); otherwise the simulation does, by grid
    /// distance.
    fn tracks_progress(&self) -> bool {
        false
    }
}
