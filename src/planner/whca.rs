//! Windowed Hierarchical Cooperative A* (Silver 2005): each unit reserves a
//! `w`-tick window found by space-time A* guided by its own Reverse Resumable
//! A* true distances, and replans every `w/2` ticks, staggered so about
//! `2n/w` units replan per tick. Units keep planning after they arrive, so a
//! unit parked on its goal can step aside when another asks to pass.

use crate::agents::{AgentFlags, AgentId};
use crate::distance::{dense_fits, ReverseResumableAStar, UNREACHABLE};
use crate::engine::World;
use crate::map::Cell;
use crate::search::{Depth, SpaceTimeAStar, SpaceTimeQuery};

use super::order::rotate_order;
use super::{Planner, PlannerStats};

/// Expansion cap of one windowed search, per tick of window.
const EXPANSIONS_PER_WINDOW_TICK: usize = 2048;

/// The WHCA* planner's state: one RRA* per unit plus reusable scratch.
pub struct WindowedHca {
    window: u32,
    rra: Vec<ReverseResumableAStar>,
    search: SpaceTimeAStar,
    due: Vec<AgentId>,
    path: Vec<Cell>,
    old: Vec<Cell>,
    stats: PlannerStats,
}

impl WindowedHca {
    /// A planner with window `window` (at least 2) for the units of `world`.
    pub fn new(world: &World, window: u32) -> Self {
        let window = window.max(2);
        WindowedHca {
            window,
            rra: Vec::with_capacity(world.agents.len()),
            search: SpaceTimeAStar::new(),
            due: Vec::with_capacity(world.agents.len()),
            path: Vec::with_capacity(window as usize + 1),
            old: Vec::with_capacity(window as usize + 1),
            stats: PlannerStats::default(),
        }
    }

    fn replan(&mut self, world: &mut World, a: AgentId) {
        let i = a.index();
        let now = world.now();
        let pos = world.agents.position[i];
        let goal = world.agents.goal[i];
        let w = self.window;
        // A request on our cell from another unit (recent enough) makes
        // staying costly, so we step aside if there is room.
        let recent =
            |c: Cell| matches!(world.table.request_on(c), Some((b, t)) if b != a && t + w >= now);
        let goal_wait_cost = u32::from(recent(goal));
        let rra = &mut self.rra[i];
        let grid = world.grid.clone();
        let before = rra.expanded;
        let query = SpaceTimeQuery {
            agent: a,
            start: pos,
            start_tick: now,
            goal,
            depth: Depth::Window(w),
            goal_wait_cost,
            max_expansions: EXPANSIONS_PER_WINDOW_TICK * w as usize,
        };
        let search = &mut self.search;
        let found = world.replan(a, &mut self.old, &mut self.path, |world, path| {
            let penalty = |c: Cell| {
                if matches!(world.table.request_on(c), Some((b, t)) if b != a && t + w >= now) {
                    w
                } else {
                    0
                }
            };
            search.search(
                &grid,
                &world.table,
                &query,
                &mut |c| rra.distance(&grid, c),
                &penalty,
                path,
            )
        });
        self.stats.searches += 1;
        self.stats.failed_searches += u64::from(!found);
        self.stats.expanded += self.search.expanded as u64;
        // Ask units parked on our way to make room.
        let end = *world.agents.plan(a).last().expect("plans are never empty");
        if end != goal {
            self.request_way(world, a, pos);
        }
        self.stats.heuristic_expanded +=
            (self.rra[i].expanded - before.min(self.rra[i].expanded)) as u64;
        let next = if found { now + (w / 2).max(1) } else { now + 1 };
        world.agents.next_replan[i] = next;
    }

    /// Follows the true-distance gradient from `from` and leaves a request on
    /// every cell held by another unit along it.
    fn request_way(&mut self, world: &World, a: AgentId, from: Cell) {
        let grid = &world.grid;
        let rra = &mut self.rra[a.index()];
        let now = world.now();
        let mut cur = from;
        let mut d = rra.distance(grid, cur);
        let mut buf = [Cell(0); 8];
        for _ in 0..self.window {
            if d == 0 || d == UNREACHABLE {
                break;
            }
            let n = grid.neighbors(cur, &mut buf);
            let Some(&next) = buf[..n].iter().find(|&&c| rra.distance(grid, c) < d) else {
                break;
            };
            if let Some((b, _)) = world.table.hold(next) {
                if b != a {
                    world.table.request(next, a, now);
                }
            }
            cur = next;
            d -= 1;
        }
    }
}

impl Planner for WindowedHca {
    fn name(&self) -> String {
        format!("WHCA*({})", self.window)
    }

    fn initialize(&mut self, world: &mut World) {
        let grid = world.grid.clone();
        let dense = dense_fits(grid.cell_count(), world.agents.len());
        self.rra = world
            .agents
            .ids()
            .map(|a| {
                let i = a.index();
                ReverseResumableAStar::new(
                    &grid,
                    world.agents.goal[i],
                    world.agents.start[i],
                    dense,
                )
            })
            .collect();
        self.due.clear();
        self.due.extend(
            world
                .agents
                .ids()
                .filter(|&a| !world.agents.flags[a.index()].has(AgentFlags::UNREACHABLE)),
        );
        let mut due = std::mem::take(&mut self.due);
        rotate_order(&mut due, &world.agents, 0);
        let half = (self.window / 2).max(1);
        for (rank, &a) in due.iter().enumerate() {
            self.replan(world, a);
            // Stagger: about 2n/w units replan on each later tick.
            if !world.agents.flags[a.index()].has(AgentFlags::STUCK) {
                world.agents.next_replan[a.index()] = 1 + (rank as u32 % half);
            }
        }
        self.due = due;
    }

    fn plan_tick(&mut self, world: &mut World) {
        let now = world.now();
        let mut due = std::mem::take(&mut self.due);
        due.clear();
        due.extend(world.agents.ids().filter(|&a| {
            world.agents.next_replan[a.index()] <= now
                && !world.agents.flags[a.index()].has(AgentFlags::UNREACHABLE)
        }));
        rotate_order(&mut due, &world.agents, now);
        for &a in &due {
            self.replan(world, a);
        }
        self.due = due;
    }

    fn stats(&self) -> PlannerStats {
        self.stats
    }
}
