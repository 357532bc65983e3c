//! Cooperative A* and Hierarchical Cooperative A* (Silver 2005): each unit in
//! turn searches space-time for a full route around the routes already
//! reserved, then reserves it. CA* is guided by the Manhattan (or Chebyshev)
//! distance, HCA* by true distances from a Reverse Resumable A* per unit.
//! A unit whose search fails keeps its cell and tries again a few ticks later.
//! The first round starts optimistic (see [`super::optimistic`]).

use crate::distance::{dense_fits, ReverseResumableAStar};
use crate::map::Cell;
use crate::search::{Depth, SpaceTimeAStar, SpaceTimeQuery};
use crate::units::{Slot, UnitFlags};
use crate::world::World;

use super::optimistic::{pin_unplanned_starts, release_starts};
use super::order::rotate_order;
use super::{Planner, PlannerStats};

/// Ticks between a failed unit's retries.
const RETRY_INTERVAL: u32 = 4;
/// Expansion cap of one full-depth search, per passable cell of the map.
const EXPANSIONS_PER_CELL: usize = 8;

/// CA* (`hierarchical == false`) or HCA* (`true`).
pub struct CooperativeAStar {
    hierarchical: bool,
    max_ticks: u32,
    rra: Vec<ReverseResumableAStar>,
    search: SpaceTimeAStar,
    due: Vec<Slot>,
    path: Vec<Cell>,
    old: Vec<Cell>,
    max_expansions: usize,
    stats: PlannerStats,
}

impl CooperativeAStar {
    /// A planner for `world` whose routes must end within `max_ticks`.
    pub fn new(world: &World, hierarchical: bool, max_ticks: u32) -> Self {
        CooperativeAStar {
            hierarchical,
            max_ticks,
            rra: Vec::new(),
            search: SpaceTimeAStar::new(),
            due: Vec::new(),
            path: Vec::new(),
            old: Vec::new(),
            max_expansions: (world.grid.passable_count() * EXPANSIONS_PER_CELL).max(100_000),
            stats: PlannerStats::default(),
        }
    }

    fn plan_unit(&mut self, world: &mut World, a: Slot) {
        let i = a.index();
        let now = world.now();
        let grid = world.grid.clone();
        let query = SpaceTimeQuery {
            unit: a,
            start: world.units.position[i],
            start_tick: now,
            goal: world.units.goal[i],
            depth: Depth::Full(self.max_ticks.saturating_sub(now).max(1)),
            goal_wait_cost: 1,
            max_expansions: self.max_expansions,
            deadline: None,
            overriding: None,
        };
        let before = self.rra.get(i).map_or(0, |r| r.expanded);
        let search = &mut self.search;
        let rra = self.rra.get_mut(i);
        let found = world.replan(a, &mut self.old, &mut self.path, |world, path| match rra {
            Some(rra) => search.search(
                &grid,
                &world.table,
                &query,
                &mut |c| rra.distance(&grid, c),
                &|_| 0,
                path,
            ),
            None => search.search(
                &grid,
                &world.table,
                &query,
                &mut |c| grid.grid_distance(c, query.goal),
                &|_| 0,
                path,
            ),
        });
        self.stats.searches += 1;
        self.stats.failed_searches += u64::from(!found);
        self.stats.expanded += self.search.expanded as u64;
        if let Some(r) = self.rra.get(i) {
            self.stats.heuristic_expanded += (r.expanded.saturating_sub(before)) as u64;
        }
        world.units.next_replan[i] = if found {
            u32::MAX
        } else {
            now + RETRY_INTERVAL
        };
    }
}

impl Planner for CooperativeAStar {
    fn name(&self) -> String {
        if self.hierarchical { "HCA*" } else { "CA*" }.to_string()
    }

    fn initialize(&mut self, world: &mut World) {
        if self.hierarchical {
            let grid = world.grid.clone();
            let dense = dense_fits(grid.cell_count(), world.units.len());
            self.rra = world
                .units
                .ids()
                .map(|a| {
                    ReverseResumableAStar::new(
                        &grid,
                        world.units.goal[a.index()],
                        world.units.start[a.index()],
                        dense,
                    )
                })
                .collect();
        }
        let mut due: Vec<Slot> = world
            .units
            .ids()
            .filter(|&a| !world.units.flags[a.index()].has(UnitFlags::UNREACHABLE))
            .collect();
        rotate_order(&mut due, &world.units, 0);
        // Optimistic starts: earlier units may route through later ones'.
        release_starts(world, &due);
        for &a in &due {
            self.plan_unit(world, a);
        }
        loop {
            let replan = pin_unplanned_starts(world, &due);
            if replan.is_empty() {
                break;
            }
            for &v in &replan {
                self.plan_unit(world, v);
            }
        }
        self.due = due;
    }

    fn plan_tick(&mut self, world: &mut World, _until: Option<std::time::Instant>) {
        let now = world.now();
        let mut due = std::mem::take(&mut self.due);
        due.clear();
        due.extend(world.units.ids().filter(|&a| {
            world.units.next_replan[a.index()] <= now
                && !world.units.flags[a.index()].has(UnitFlags::UNREACHABLE)
        }));
        rotate_order(&mut due, &world.units, now);
        for &a in &due {
            self.plan_unit(world, a);
        }
        self.due = due;
    }

    fn stats(&self) -> PlannerStats {
        self.stats
    }
}
