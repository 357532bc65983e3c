//! The tick loop: plan, move every unit one step along its reserved plan,
//! record, repeat until every unit is home or the turn limit is reached.

use std::time::Instant;

use crate::agents::{AgentFlags, AgentId};
use crate::io::PlanFile;
use crate::map::{Cell, Instance};
use crate::planner::{Planner, PlannerKind};
use crate::search::SpatialAStar;
use crate::validate::validate_steps;

use super::metrics::{count_cycles, percentile, soc_and_makespan, RunSummary};
use super::{Budget, World};

/// Settings of one run.
#[derive(Clone, Copy, Debug)]
pub struct SimConfig {
    /// Planner and its window.
    pub planner: PlannerKind,
    /// Turn limit.
    pub max_ticks: u32,
    /// Seed for planners that draw random numbers (LRA*).
    pub seed: u64,
    /// Worker threads for the searches (0: all cores).
    pub threads: usize,
    /// Planning budget per tick.
    pub budget: Budget,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            planner: PlannerKind::Whca { window: 16 },
            max_ticks: 100,
            seed: 1,
            threads: 1,
            budget: Budget::default(),
        }
    }
}

/// One simulation: a world, a planner, and what has been executed so far.
pub struct Simulation {
    /// The units, the map and the reservations.
    pub world: World,
    planner: Box<dyn Planner>,
    config: SimConfig,
    instance: Instance,
    trajectory: Vec<Cell>,
    tick_ms: Vec<f64>,
    init_ms: f64,
}

impl Simulation {
    /// A simulation of `instance`, not yet planned.
    pub fn new(instance: &Instance, config: SimConfig) -> Self {
        let horizon = config.planner.horizon(config.max_ticks);
        let capacity = horizon as usize;
        let world = World::new(instance, horizon, capacity);
        crate::profiling::init();
        let planner = config.planner.build(&world, &config);
        let mut trajectory = Vec::with_capacity(instance.len() * (config.max_ticks as usize + 1));
        trajectory.extend_from_slice(&world.agents.position);
        Simulation {
            world,
            planner,
            config,
            instance: instance.clone(),
            trajectory,
            tick_ms: Vec::with_capacity(config.max_ticks as usize),
            init_ms: 0.0,
        }
    }

    /// Plans every unit before the first tick (timed as the initial planning).
    pub fn initialize(&mut self) {
        let t0 = Instant::now();
        self.planner.initialize(&mut self.world);
        self.init_ms = t0.elapsed().as_secs_f64() * 1e3;
    }

    /// One tick: replan the due units (timed), then move every unit.
    pub fn step(&mut self) {
        crate::profile_zone!("tick");
        self.plan();
        self.execute();
        crate::profile_frame!();
    }

    /// The planning half of a tick: replans the due units and records the
    /// time it took. [`Simulation::execute`] must follow before the next.
    pub fn plan(&mut self) {
        let t0 = Instant::now();
        self.planner.plan_tick(&mut self.world);
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        self.tick_ms.push(ms);
        if let Some(us) = self.config.budget.wall_us {
            crate::profile_plot!("budget use", ms * 1e3 / us.max(1) as f64);
        }
    }

    /// The moving half of a tick: every unit goes to where its plan puts it
    /// at the next tick, and the tick advances.
    pub fn execute(&mut self) {
        crate::profile_zone!("execute");
        let world = &mut self.world;
        let next_tick = world.now() + 1;
        for i in 0..world.agents.len() {
            let a = AgentId(i as u32);
            let next = world.agents.planned_cell(a, next_tick);
            debug_assert!(world.grid.is_move(world.agents.position[i], next));
            world.agents.position[i] = next;
            if next == world.agents.goal[i] && world.agents.first_arrival[i] == u32::MAX {
                world.agents.first_arrival[i] = next_tick;
                world.agents.set_flag(a, AgentFlags::ARRIVED, true);
            }
        }
        self.trajectory.extend_from_slice(&world.agents.position);
        world.table.advance();
    }

    /// Whether every unit that can reach its goal stands on it.
    pub fn all_home(&self) -> bool {
        let ag = &self.world.agents;
        (0..ag.len())
            .all(|i| ag.position[i] == ag.goal[i] || ag.flags[i].has(AgentFlags::UNREACHABLE))
    }

    /// Runs to completion and reports.
    pub fn run(&mut self) -> RunSummary {
        self.initialize();
        while self.world.now() < self.config.max_ticks && !self.all_home() {
            self.step();
        }
        self.summary()
    }

    /// The planner's counters.
    pub fn planner_stats(&self) -> crate::planner::PlannerStats {
        self.planner.stats()
    }

    /// The executed positions, tick-major.
    pub fn trajectory(&self) -> &[Cell] {
        &self.trajectory
    }

    /// Ticks executed.
    pub fn ticks(&self) -> u32 {
        self.world.now()
    }

    /// Planning time of each tick so far, ms.
    pub fn tick_times_ms(&self) -> &[f64] {
        &self.tick_ms
    }

    /// Executed trajectories as a plan file.
    pub fn plan_file(&self) -> PlanFile {
        let grid = &self.world.grid;
        let n = self.world.agents.len();
        let xy = |c: Cell| grid.xy(c);
        let steps = if n == 0 {
            Vec::new()
        } else {
            self.trajectory
                .chunks(n)
                .map(|row| row.iter().map(|&c| xy(c)).collect())
                .collect()
        };
        let (soc, makespan) = soc_and_makespan(&self.trajectory, &self.world.agents.goal);
        PlanFile {
            map_file: self.instance.map_name.clone(),
            solver: self.planner.name(),
            solved: self.all_home(),
            soc,
            makespan,
            comp_time_ms: self.init_ms + self.tick_ms.iter().sum::<f64>(),
            starts: self.instance.starts.iter().map(|&c| xy(c)).collect(),
            goals: self.instance.goals.iter().map(|&c| xy(c)).collect(),
            steps,
        }
    }

    /// Ticks whose planning went over the wall-clock budget, and the worst
    /// excess in ms.
    fn overruns(&self) -> (usize, f64) {
        let Some(us) = self.config.budget.wall_us else {
            return (0, 0.0);
        };
        let budget_ms = us as f64 / 1e3;
        let over: Vec<f64> = self
            .tick_ms
            .iter()
            .map(|&t| t - budget_ms)
            .filter(|&d| d > 0.0)
            .collect();
        (over.len(), over.iter().copied().fold(0.0, f64::max))
    }

    /// The run's measures so far.
    pub fn summary(&self) -> RunSummary {
        let ag = &self.world.agents;
        let grid = &self.world.grid;
        let n = ag.len();
        let reached: Vec<usize> = (0..n)
            .filter(|&i| ag.first_arrival[i] <= self.config.max_ticks)
            .collect();
        let mut astar = SpatialAStar::new(grid);
        let mut path = Vec::new();
        let mut lower = 0u64;
        for &i in &reached {
            let goal = ag.goal[i];
            if astar.search(
                grid,
                ag.start[i],
                goal,
                |_| false,
                |c| grid.grid_distance(c, goal),
                &mut path,
            ) {
                lower += path.len() as u64 - 1;
            }
        }
        let mean = |sum: u64| {
            if reached.is_empty() {
                0.0
            } else {
                sum as f64 / reached.len() as f64
            }
        };
        let path_sum: u64 = reached.iter().map(|&i| ag.first_arrival[i] as u64).sum();
        let plan = self.plan_file();
        let report = validate_steps(grid, &plan.steps, &plan.starts);
        let stats = self.planner.stats();
        let plan_total: f64 = self.tick_ms.iter().sum();
        RunSummary {
            planner: self.planner.name(),
            agents: n,
            reached: reached.len(),
            success_rate: if n == 0 {
                1.0
            } else {
                reached.len() as f64 / n as f64
            },
            at_goal_at_end: (0..n).filter(|&i| ag.position[i] == ag.goal[i]).count(),
            soc: plan.soc,
            makespan: plan.makespan,
            mean_path_len: mean(path_sum),
            lower_bound_path_len: mean(lower),
            cycles_per_agent: if n == 0 {
                0.0
            } else {
                count_cycles(grid, &self.trajectory, n) as f64 / n as f64
            },
            collisions: report.violations.len(),
            unreachable: (0..n)
                .filter(|&i| ag.flags[i].has(AgentFlags::UNREACHABLE))
                .count(),
            ticks: self.ticks(),
            threads: self.planner.threads(),
            init_ms: self.init_ms,
            plan_ms_total: plan_total,
            tick_ms_mean: if self.tick_ms.is_empty() {
                0.0
            } else {
                plan_total / self.tick_ms.len() as f64
            },
            tick_ms_p99: percentile(&self.tick_ms, 99.0),
            tick_ms_max: self.tick_ms.iter().copied().fold(0.0, f64::max),
            budget_overruns: self.overruns().0,
            worst_overrun_ms: self.overruns().1,
            carried_over: stats.carried_over,
            commit_conflicts: stats.commit_conflicts,
            peak_memory_mb: super::metrics::peak_memory_mb(),
            solved: None,
            largest_group: None,
            searches: stats.searches,
            failed_searches: stats.failed_searches,
            expanded: stats.expanded,
            heuristic_expanded: stats.heuristic_expanded,
            heuristic_restarts: stats.heuristic_restarts,
            promotions: stats.promotions,
            promotions_kept: stats.promotions_kept,
            promotions_rolled_back: stats.promotions_rolled_back,
        }
    }
}
