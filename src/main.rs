//! Temporary entry point of the `odid` branch: dispatches only
//! `throng experiment standley`; the lead's `src/main.rs` replaces it on merge.

mod cli;

use clap::{Parser, Subcommand};

/// Throng command line.
#[derive(Parser)]
#[command(name = "throng", about = "Cooperative pathfinding engine")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Reproduce a seed paper's experiment.
    #[command(subcommand)]
    Experiment(Experiment),
}

#[derive(Subcommand)]
enum Experiment {
    /// Standley 2010: OD+ID on random 32x32 maps, share solved within the limit.
    Standley(cli::experiment_standley::StandleyArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Experiment(Experiment::Standley(args)) => cli::experiment_standley::run(&args),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
