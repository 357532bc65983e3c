//! `throng path`: plan one unit's trip with a motion method, print the path,
//! its length and search time, and optionally draw it (SVG) and write it (JSON).
//! `run` returns its own error enum, every variant of which the binary
//! reports with exit status 2.

use std::path::PathBuf;

use throng::map::{read_map, Cell, Connectivity, Grid};
use throng::motion::{render_svg, Method, MotionPlanner, MotionQuery, SpeedRadius};

/// Arguments of `throng path`.
#[derive(clap::Args, Debug, Clone)]
pub struct PathArgs {
    /// MovingAI `.map` file.
    #[arg(long)]
    pub map: PathBuf,
    /// Start cell `X,Y`, optionally with a heading `X,Y,HEADING` in radians
    /// (0 = +x, π/2 = +y; add `deg` for degrees, e.g. `3,4,90deg`).
    #[arg(long)]
    pub from: String,
    /// Goal cell `X,Y`.
    #[arg(long)]
    pub to: String,
    /// astar, smooth, smooth48, directional8, directional24, directional48 or hybrid.
    #[arg(long, default_value = "hybrid")]
    pub method: String,
    /// Turning radius, tiles.
    #[arg(long, default_value_t = 1.0)]
    pub radius: f64,
    /// Unit width, tiles.
    #[arg(long, default_value_t = 0.5)]
    pub width: f64,
    /// Let directional searches reverse, each reversing leg's length multiplied by this.
    #[arg(long)]
    pub reverse_penalty: Option<f64>,
    /// With `--method smooth`: tighten an illegal turn down to this radius
    /// (the unit slows down for it) instead of failing.
    #[arg(long)]
    pub min_radius: Option<f64>,
    /// Write an SVG picture of the map, the grid path and the curve here.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Write the grid path and the curve (sampled at most 0.1 tile apart) as JSON here.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// What can go wrong in `throng path`.
#[derive(Debug, thiserror::Error)]
pub enum PathCommandError {
    /// A malformed argument.
    #[error("{0}")]
    Argument(String),
    /// The map could not be read.
    #[error(transparent)]
    Map(#[from] throng::map::MapError),
    /// No legal path.
    #[error("no path: {0}")]
    Motion(#[from] throng::motion::MotionError),
    /// An output file could not be written.
    #[error("{path}: cannot write: {source}")]
    Write {
        /// File.
        path: PathBuf,
        /// Cause.
        source: std::io::Error,
    },
}

fn parse_cell(
    grid: &Grid,
    text: &str,
    what: &str,
) -> Result<(Cell, Option<f64>), PathCommandError> {
    let bad =
        || PathCommandError::Argument(format!("--{what} `{text}`: expected X,Y or X,Y,HEADING"));
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() < 2 || parts.len() > 3 {
        return Err(bad());
    }
    let x: i64 = parts[0].parse().map_err(|_| bad())?;
    let y: i64 = parts[1].parse().map_err(|_| bad())?;
    let cell = grid.cell_checked(x, y).ok_or_else(|| {
        PathCommandError::Argument(format!(
            "--{what} ({x}, {y}) is off the {}×{} map",
            grid.width(),
            grid.height()
        ))
    })?;
    let heading = match parts.get(2) {
        None => None,
        Some(h) => Some(match h.strip_suffix("deg") {
            Some(d) => d.trim().parse::<f64>().map_err(|_| bad())?.to_radians(),
            None => h.parse::<f64>().map_err(|_| bad())?,
        }),
    };
    Ok((cell, heading))
}

/// Runs `throng path`.
pub fn run(args: &PathArgs) -> Result<(), PathCommandError> {
    let method: Method = args.method.parse().map_err(PathCommandError::Argument)?;
    if !(args.radius >= 0.0 && args.radius.is_finite()) {
        return Err(PathCommandError::Argument(format!(
            "--radius {}: must be ≥ 0",
            args.radius
        )));
    }
    if !(0.0..1.0).contains(&args.width) {
        return Err(PathCommandError::Argument(format!(
            "--width {}: must be in [0, 1)",
            args.width
        )));
    }
    let grid = read_map(&args.map, Connectivity::Eight)?;
    let (start, start_heading) = parse_cell(&grid, &args.from, "from")?;
    let (goal, goal_heading) = parse_cell(&grid, &args.to, "to")?;
    if goal_heading.is_some() {
        return Err(PathCommandError::Argument(
            "--to takes X,Y only: the goal heading is free".into(),
        ));
    }
    let q = MotionQuery {
        start,
        start_heading,
        goal,
        radius: args.radius,
        width: args.width,
        reverse_penalty: args.reverse_penalty,
        min_radius: args.min_radius,
    };
    let plan = MotionPlanner::new().plan(&grid, &q, method)?;
    let cells: Vec<String> = plan
        .grid_path
        .iter()
        .map(|&c| {
            let (x, y) = grid.xy(c);
            format!("({x},{y})")
        })
        .collect();
    println!("method: {}", method.name());
    println!("grid path ({} cells): {}", cells.len(), cells.join(" "));
    println!("length: {:.3} tiles", plan.curve.length());
    println!("search: {:.3} ms", plan.search_ms);
    if let (Some(r0), Method::Smooth) = (args.min_radius, method) {
        // Radius grows with speed (r = r0 + v²/a, full speed at --radius): how slow the tightest turn is.
        let model = SpeedRadius::through(r0, args.radius, 1.0);
        println!(
            "turns tightened by slowing down: {} (tightest radius {:.2}, taken at {:.0}% of full speed)",
            plan.tightened_turns,
            plan.tightest_radius,
            100.0 * model.speed_for_radius(plan.tightest_radius)
        );
    }
    if let Some(fast) = plan.fast_path {
        println!(
            "hybrid fast path: {}",
            if fast {
                "yes"
            } else {
                "no (Directional8 on the failing stretch)"
            }
        );
    }
    if let Some(path) = &args.svg {
        let title = format!(
            "throng path --method {} --radius {} --width {}",
            method.name(),
            args.radius,
            args.width
        );
        std::fs::write(
            path,
            render_svg(&grid, &plan.grid_path, &plan.curve, &title),
        )
        .map_err(|source| PathCommandError::Write {
            path: path.clone(),
            source,
        })?;
        println!("svg: {}", path.display());
    }
    if let Some(path) = &args.json {
        let grid_path: Vec<[u32; 2]> = plan
            .grid_path
            .iter()
            .map(|&c| {
                let (x, y) = grid.xy(c);
                [x, y]
            })
            .collect();
        let mut curve: Vec<[f64; 3]> = plan
            .curve
            .samples(0.1)
            .iter()
            .map(|p| [p.x, p.y, p.heading])
            .collect();
        if curve.is_empty() {
            // Start and goal coincide: the unit stays where it is.
            let (x, y) = grid.xy(start);
            curve.push([x as f64 + 0.5, y as f64 + 0.5, start_heading.unwrap_or(0.0)]);
        }
        let doc = serde_json::json!({
            "grid_path": grid_path,
            "curve": curve,
            "length": plan.curve.length(),
            "search_ms": plan.search_ms,
        });
        std::fs::write(path, doc.to_string()).map_err(|source| PathCommandError::Write {
            path: path.clone(),
            source,
        })?;
        println!("json: {}", path.display());
    }
    Ok(())
}
