//! `throng run --planner odid-split|odid|od|od-sid|astar-joint|astar-joint-id`:
//! Standley's optimal offline solver, run to completion (or to its limits)
//! before any unit moves; the plan is then executed, validated and summarised
//! like the online planners' runs.

use std::time::Duration;

use throng::engine::RunSummary;
use throng::map::{Cell, Instance};
use throng::planner::odid::{plan_cost, solve, Limits, OptimalAlgorithm};
use throng::validate::validate_steps;

use super::error::{write_file, CliError};
use super::run::RunArgs;

/// Solves `instance` optimally as the arguments ask and reports.
pub fn run_optimal(
    args: &RunArgs,
    algorithm: OptimalAlgorithm,
    instance: &Instance,
) -> Result<RunSummary, CliError> {
    let limits = Limits {
        time: args.time_limit_ms.map(Duration::from_millis),
        nodes: args.node_limit,
        ..Limits::none()
    };
    let outcome =
        solve(instance, algorithm, &limits).map_err(|e| CliError::Other(e.to_string()))?;
    let grid = &instance.grid;
    let n = instance.len();
    let mut summary = RunSummary {
        planner: algorithm.name().to_string(),
        units: n,
        threads: 1,
        init_ms: outcome.elapsed.as_secs_f64() * 1e3,
        expanded: outcome.stats.expanded,
        searches: outcome.stats.searches,
        solved: Some(outcome.is_solved()),
        largest_group: Some(outcome.largest_group),
        ..RunSummary::default()
    };
    if let Some(paths) = &outcome.paths {
        let steps = outcome.steps(grid).unwrap_or_default();
        let starts: Vec<(u32, u32)> = instance.starts.iter().map(|&c| grid.xy(c)).collect();
        let report = validate_steps(grid, &steps, &starts);
        let arrival =
            |p: &Vec<Cell>, g: Cell| p.iter().rposition(|&c| c != g).map_or(0, |i| i + 1) as u64;
        let arrivals: Vec<u64> = paths
            .iter()
            .zip(&instance.goals)
            .map(|(p, &g)| arrival(p, g))
            .collect();
        let first: Vec<u64> = paths
            .iter()
            .zip(&instance.goals)
            .map(|(p, &g)| p.iter().position(|&c| c == g).unwrap_or(p.len()) as u64)
            .collect();
        summary.reached = n;
        summary.success_rate = 1.0;
        summary.at_goal_at_end = n;
        summary.soc = plan_cost(paths, &instance.goals);
        summary.makespan = arrivals.iter().copied().max().unwrap_or(0);
        summary.mean_path_len = first.iter().sum::<u64>() as f64 / n.max(1) as f64;
        summary.lower_bound_path_len =
            throng::planner::odid::lower_bound(grid, &instance.starts, &instance.goals) as f64
                / n.max(1) as f64;
        summary.collisions = report.violations.len();
        summary.ticks = steps.len().saturating_sub(1) as u32;
        if let Some(path) = &args.out {
            if let Some(plan) = outcome.to_plan_file(instance, algorithm.name()) {
                write_file(path, plan.to_text())?;
            }
        }
    }
    if !args.quiet {
        if outcome.is_solved() {
            println!(
                "solved optimally: cost {} (the seed's: moves not waiting on the goal)",
                summary.soc
            );
        } else {
            println!(
                "not solved: {} after {:.1} ms; {} independent groups found, the largest of {} units",
                outcome.status.name(),
                summary.init_ms,
                outcome.groups.len(),
                outcome.largest_group
            );
        }
        println!("planner              {}", summary.planner);
        println!("units                {}", n);
        println!("collisions           {}", summary.collisions);
        println!("largest group        {}", outcome.largest_group);
        println!(
            "nodes expanded       {} in {} searches (peak {} stored)",
            outcome.stats.expanded, outcome.stats.searches, outcome.stats.peak_nodes
        );
        println!("solve time           {:.3} ms", summary.init_ms);
    }
    if let Some(path) = &args.summary_json {
        let json =
            serde_json::to_string_pretty(&summary).map_err(|e| CliError::Other(e.to_string()))?;
        write_file(path, json + "\n")?;
    }
    Ok(summary)
}

/// The seed's comparison baseline: HCA*'s plan cost under the seed's cost
/// model, or `None` when HCA* does not bring every unit home.
pub fn hca_seed_cost(instance: &Instance) -> Option<u64> {
    use throng::engine::{SimConfig, Simulation};
    use throng::planner::PlannerKind;
    let mut sim = Simulation::new(
        instance,
        SimConfig {
            planner: PlannerKind::Hca,
            max_ticks: 512,
            threads: 1,
            history: throng::engine::History::Full,
            ..SimConfig::default()
        },
    )
    .ok()?;
    let s = sim.run();
    if s.at_goal_at_end != instance.len() {
        return None;
    }
    let n = instance.len();
    let traj = sim.trajectory();
    let paths: Vec<Vec<Cell>> = (0..n)
        .map(|i| traj.iter().skip(i).step_by(n).copied().collect())
        .collect();
    Some(plan_cost(&paths, &instance.goals))
}
