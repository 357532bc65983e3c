//! The `throng` command line.

pub mod chart;
mod error;
pub mod experiment_bnaya;
pub mod experiment_lifelong;
pub mod experiment_silver;
pub mod experiment_standley;
pub mod fuzz;
pub mod limits;
pub mod live;
pub mod machine;
pub mod mixed;
pub mod path;
pub mod report;
pub mod run;
pub mod run_optimal;
pub mod validate;

pub use error::{write_file, CliError};

use clap::{Parser, Subcommand};

/// Throng: cooperative pathfinding for thousands of units.
#[derive(Parser, Debug)]
#[command(name = "throng", version, about)]
pub struct Cli {
    /// What to do; with none, runs the default scenario.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run one simulation and print its summary.
    Run(Box<run::RunArgs>),
    /// Check a plan file against a map: exit 1 on any violation.
    Validate(validate::ValidateArgs),
    /// Plan one unit's realistic path (Pinter 2001): smoothing, turning radius, Directional A*.
    Path(path::PathArgs),
    /// Run the benchmark set and write docs/benchmarks.md.
    Report(report::ReportArgs),
    /// Re-run a seed paper's experiment.
    #[command(subcommand)]
    Experiment(Experiment),
}

/// The experiments.
#[derive(Subcommand, Debug)]
pub enum Experiment {
    /// Silver 2005: 10 generated 32×32 maps, 10..100 units, LRA*, CA*, HCA*, WHCA*(8,16,32).
    Silver(experiment_silver::SilverArgs),
    /// Standley 2010: OD+ID on generated 32×32 8-connected maps, 2..60 units, 1 s each, against HCA*.
    Standley(experiment_standley::StandleyArgs),
    /// Bnaya & Felner 2014: crowded 32×32 maps, 10..70 units, WHCA*(8,16,32),
    /// CO-WHCA*, CO-WHCA*P, HCA*, CO-HCA*, CO-HCA*P; and den520d with 10 units.
    Bnaya(experiment_bnaya::BnayaArgs),
    /// Lifelong MAPF (League of Robot Runners, RHCR): every unit always has
    /// a next task; throughput and planning time per tick.
    Lifelong(experiment_lifelong::LifelongArgs),
}

/// Runs the command line; returns the process exit status.
pub fn main_with(cli: Cli) -> i32 {
    let result = match cli.command.unwrap_or_else(|| Command::Run(Box::default())) {
        Command::Run(args) => run::run(&args).map(|_| 0),
        Command::Report(args) => report::run(&args).map(|_| 0),
        Command::Validate(args) => validate::run(&args).map(|ok| if ok { 0 } else { 1 }),
        Command::Path(args) => path::run(&args)
            .map(|_| 0)
            .map_err(|e| CliError::Other(e.to_string())),
        Command::Experiment(Experiment::Silver(args)) => experiment_silver::run(&args).map(|_| 0),
        Command::Experiment(Experiment::Standley(args)) => {
            experiment_standley::run_with_baseline(&args, Some(&run_optimal::hca_seed_cost))
                .map(|_| 0)
                .map_err(|e| CliError::Other(e.to_string()))
        }
        Command::Experiment(Experiment::Bnaya(args)) => experiment_bnaya::run(&args).map(|_| 0),
        Command::Experiment(Experiment::Lifelong(args)) => {
            experiment_lifelong::run(&args).map(|_| 0)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
