//! Local Repair A* (the games industry's standard, as described by Silver):
//! each unit follows its own A* route, ignoring the others except its current
//! neighbours; when the next cell is occupied it recomputes its route, and
//! each reroute raises its agitation, the amount of random noise added to its
//! heuristic, in the hope that it wanders out of a bottleneck.
//!
//! Moves are still claimed in the reservation table one tick ahead, so two
//! units never collide: a unit whose next cell is taken reroutes, and waits if
//! the new route's first step is taken too.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::map::Cell;
use crate::search::SpatialAStar;
use crate::units::{Slot, UnitFlags};
use crate::world::World;

use super::{Planner, PlannerStats};

/// LRA* state: each unit's route and the shared search scratch.
pub struct LocalRepairAStar {
    routes: Vec<Vec<Cell>>,
    cursor: Vec<usize>,
    search: SpatialAStar,
    rng: ChaCha8Rng,
    path: Vec<Cell>,
    stats: PlannerStats,
}

impl LocalRepairAStar {
    /// A planner for `world`, its noise drawn from `seed`.
    pub fn new(world: &World, seed: u64) -> Self {
        LocalRepairAStar {
            routes: vec![Vec::new(); world.units.len()],
            cursor: vec![0; world.units.len()],
            search: SpatialAStar::new(&world.grid),
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x4C52_4121),
            path: Vec::new(),
            stats: PlannerStats::default(),
        }
    }

    fn reroute(&mut self, world: &World, a: Slot) -> bool {
        let i = a.index();
        let pos = world.units.position[i];
        let goal = world.units.goal[i];
        let now = world.now();
        let agitation = world.units.agitation[i];
        let grid = &world.grid;
        let rng = &mut self.rng;
        let (px, py) = grid.xy(pos);
        // Only the current neighbours are seen: cells next to us occupied now.
        let blocked = |c: Cell| {
            let (x, y) = grid.xy(c);
            x.abs_diff(px) <= 1
                && y.abs_diff(py) <= 1
                && world.table.occupant(c, now).is_some_and(|b| b != a)
        };
        let h = |c: Cell| {
            let noise = if agitation > 0 {
                rng.gen_range(0..=agitation)
            } else {
                0
            };
            grid.grid_distance(c, goal) + noise
        };
        let found = self
            .search
            .search(grid, pos, goal, blocked, h, &mut self.path);
        self.stats.searches += 1;
        self.stats.failed_searches += u64::from(!found);
        self.stats.expanded += self.search.expanded as u64;
        if found {
            std::mem::swap(&mut self.routes[i], &mut self.path);
            self.cursor[i] = 0;
        }
        found
    }

    fn next_step(&self, a: Slot) -> Option<Cell> {
        self.routes[a.index()]
            .get(self.cursor[a.index()] + 1)
            .copied()
    }

    fn try_move(&mut self, world: &mut World, a: Slot) -> bool {
        let Some(next) = self.next_step(a) else {
            return false;
        };
        let i = a.index();
        let pos = world.units.position[i];
        let now = world.now();
        if !world.table.move_is_free(&world.grid, a, pos, next, now) {
            return false;
        }
        world.release_plan(a);
        world.commit_plan(a, now, &[pos, next]);
        self.cursor[i] += 1;
        true
    }
}

impl Planner for LocalRepairAStar {
    fn name(&self) -> String {
        "LRA*".into()
    }

    fn initialize(&mut self, world: &mut World) {
        for a in world.units.ids().collect::<Vec<_>>() {
            if !world.units.flags[a.index()].has(UnitFlags::UNREACHABLE) {
                self.reroute(world, a);
            }
        }
    }

    fn plan_tick(&mut self, world: &mut World, _until: Option<std::time::Instant>) {
        for a in world.units.ids().collect::<Vec<_>>() {
            let i = a.index();
            if world.units.flags[i].has(UnitFlags::UNREACHABLE) || world.units.at_goal(a) {
                continue;
            }
            // Off our route (e.g. after a wait the cursor still matches): follow it.
            if self.try_move(world, a) {
                continue;
            }
            // Blocked: reroute around the current neighbours, a little more randomly each time.
            world.units.agitation[i] += 1;
            if self.reroute(world, a) {
                self.try_move(world, a);
            }
        }
    }

    fn stats(&self) -> PlannerStats {
        self.stats
    }
}
