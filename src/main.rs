//! Temporary entry point on the `motion` branch: only `throng path`. The
//! lead's `src/main.rs` and `src/cli/` replace it on merge.

use clap::{Parser, Subcommand};
use throng::cli_path as path;

#[derive(Parser)]
#[command(name = "throng", about = "Cooperative pathfinding engine")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plan one unit's trip with a motion method (Pinter 2001).
    Path(path::PathArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Path(a) => path::run(a),
    };
    if let Err(e) = result {
        eprintln!("throng: {e}");
        std::process::exit(2);
    }
}
