//! The `throng` binary: see `throng --help`.

use clap::Parser;

fn main() {
    let cli = throng_cli::Cli::parse();
    std::process::exit(throng_cli::main_with(cli));
}
