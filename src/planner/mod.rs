//! The cooperative planners. Each implements [`Planner`]: plan every unit
//! before the first tick, then replan the units that are due each tick.

mod co_core;
mod co_whca;
mod conflict;
mod cooperative;
mod lra;
pub mod odid;
mod optimistic;
mod order;
mod whca;
mod winner;

pub use co_whca::{CoVariant, ConflictOrientedWhca};
pub use conflict::{Conflict, ConflictFinder};
pub use cooperative::CooperativeAStar;
pub use lra::LocalRepairAStar;
pub use whca::WindowedHca;

use crate::agents::AgentId;
use crate::engine::{SimConfig, World};
use crate::map::Cell;

/// Counters a planner keeps for the metrics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlannerStats {
    /// Searches run.
    pub searches: u64,
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
    fn unit_added(&mut self, _world: &World, _a: AgentId) {}
    /// Unit `a` left the world.
    fn unit_removed(&mut self, _a: AgentId) {}
    /// Unit `a`'s goal changed.
    fn goal_changed(&mut self, _world: &World, _a: AgentId) {}
    /// Cells became impassable (`closed`) or passable (`opened`): every
    /// cached distance must stay a lower bound, and plans are replanned.
    fn map_changed(&mut self, _world: &World, _closed: &[Cell], _opened: &[Cell]) {}
    /// Appends to `out` the rest of unit `a`'s way from `from` to its goal,
    /// as its distances lead (not reserved): for drawing waypoints.
    fn route(&mut self, _world: &World, _a: AgentId, _from: Cell, _out: &mut Vec<Cell>) {}
    /// Whether it records each unit's progress (the `best_distance` and
    /// `progress_tick` columns); otherwise the simulation does, by grid
    /// distance.
    fn tracks_progress(&self) -> bool {
        false
    }
}

/// Which planner, with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlannerKind {
    /// Local Repair A* with agitation noise.
    Lra,
    /// Cooperative A*: full-depth space-time search, Manhattan heuristic.
    Ca,
    /// Hierarchical Cooperative A*: full depth, RRA* true distances.
    Hca,
    /// Windowed HCA* with window `w`, replanning every `w/2` ticks.
    Whca {
        /// Window size.
        window: u32,
    },
    /// The conflict-oriented family (Bnaya & Felner 2014): CO-WHCA*,
    /// CO-WHCA*P, CO-HCA*, with a reservation window of `window` ticks
    /// centred on each conflict.
    Co {
        /// Reservation window size.
        window: u32,
        /// Which member.
        variant: CoVariant,
        /// Plan the whole run before the first tick (always for CO-HCA*).
        offline: bool,
    },
}

impl PlannerKind {
    /// Parses `lra`, `ca`, `hca`, `whca`, `co-whca`, `co-whcap`, `co-hca`,
    /// `co-hcap`, `co-whca-offline` or `co-whcap-offline` (window given
    /// separately).
    pub fn parse(name: &str, window: u32) -> Option<Self> {
        let co = |variant, offline| {
            Some(Self::Co {
                window,
                variant,
                offline,
            })
        };
        match name {
            "lra" => Some(Self::Lra),
            "ca" => Some(Self::Ca),
            "hca" => Some(Self::Hca),
            "whca" => Some(Self::Whca { window }),
            "co-whca" => co(CoVariant::Whca, false),
            "co-whcap" => co(CoVariant::WhcaP, false),
            "co-hca" => co(CoVariant::Hca, true),
            "co-hcap" => co(CoVariant::HcaP, true),
            "co-whca-offline" => co(CoVariant::Whca, true),
            "co-whcap-offline" => co(CoVariant::WhcaP, true),
            _ => None,
        }
    }

    /// Display name, e.g. `WHCA*(16)`.
    pub fn label(self) -> String {
        match self {
            Self::Lra => "LRA*".into(),
            Self::Ca => "CA*".into(),
            Self::Hca => "HCA*".into(),
            Self::Whca { window } => format!("WHCA*({window})"),
            Self::Co {
                window,
                variant,
                offline,
            } => variant.label(window, offline),
        }
    }

    /// How many ticks ahead this planner reserves, given the run's turn limit.
    /// Saturates at the reservation table's
    /// [`MAX_HORIZON`](crate::reservation::MAX_HORIZON), so any window and
    /// turn limit give a horizon the table accepts.
    pub fn horizon(self, max_ticks: u32) -> u32 {
        let ahead = match self {
            Self::Lra => 2,
            Self::Ca | Self::Hca => max_ticks.saturating_add(2),
            Self::Whca { window } => window.saturating_add(2),
            Self::Co { window, .. } => max_ticks.saturating_add(window).saturating_add(4),
        };
        ahead.min(crate::reservation::MAX_HORIZON)
    }

    /// Builds the planner for `world` with the run's settings, searching on
    /// `pool` if given (else on a pool of `config.threads` of its own).
    pub fn build(
        self,
        world: &World,
        config: &SimConfig,
        pool: Option<std::sync::Arc<rayon::ThreadPool>>,
    ) -> Box<dyn Planner> {
        match self {
            Self::Lra => Box::new(LocalRepairAStar::new(world, config.seed)),
            Self::Ca => Box::new(CooperativeAStar::new(world, false, config.max_ticks)),
            Self::Hca => Box::new(CooperativeAStar::new(world, true, config.max_ticks)),
            Self::Whca { window } => {
                let mut p = WindowedHca::new_in(world, window, config.threads, config.budget, pool);
                p.reserve_units(config.max_units);
                Box::new(p)
            }
            Self::Co {
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
}
