//! The `throng` binary: see `throng --help`.

use clap::Parser;

fn main() {
    let cli = throng::cli::Cli::parse();
    std::process::exit(throng::cli::main_with(cli));
}
