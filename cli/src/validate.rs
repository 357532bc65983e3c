//! `throng validate MAP PLAN`: checks a plan file without the planners.

use std::path::PathBuf;

use clap::Args;

use throng::io::PlanFile;
use throng::map::read_map;
use throng::validate::validate_plan;

use super::error::CliError;
use super::run::parse_connectivity;

/// Options of `throng validate`.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// MovingAI `.map` file.
    pub map: PathBuf,
    /// Plan file (mapf-visualizer layout).
    pub plan: PathBuf,
    /// 4 or 8.
    #[arg(long, default_value_t = 4)]
    pub connectivity: u32,
    /// Diagonal moves may pass blocked corners.
    #[arg(long)]
    pub corner_cutting: bool,
    /// List every violation, not only the first.
    #[arg(long)]
    pub verbose: bool,
}

/// Validates; returns whether the plan is valid.
pub fn run(args: &ValidateArgs) -> Result<bool, CliError> {
    let conn = parse_connectivity(args.connectivity)?;
    let grid = read_map(&args.map, conn)?.with_corner_cutting(args.corner_cutting);
    let plan = PlanFile::read(&args.plan)?;
    let report = validate_plan(&grid, &plan);
    if args.verbose {
        for v in &report.violations {
            println!("{v}");
        }
    }
    println!("{}", report.summary());
    Ok(report.is_valid())
}
