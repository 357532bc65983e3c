//! Lanes on a warehouse: 1,000 units with random distinct starts and goals
//! on warehouse-10-20-10-2-1 (one-cell aisles between shelves), planned
//! once without lanes and once with them (`Grid::with_lanes`). Prints how
//! many units stand on their goals as the run goes on and the sum of
//! costs. With `--svg FILE` it draws the west half of the warehouse at one
//! tick for both runs, each unit coloured by the way it moved in that tick:
//! without lanes every aisle carries both ways and units meet head-on;
//! with lanes each aisle carries one.
//!
//! `cargo run --release --example lanes [TICKS] [--svg FILE]`

use std::fmt::Write as _;
use std::sync::Arc;

use throng::map::MOVE_OFFSETS;
use throng::prelude::*;

const MAP: &str = "tests/data/movingai/warehouse-10-20-10-2-1.map";
const UNITS: usize = 1000;
/// The tick the picture shows (the crowd is still crossing).
const SNAPSHOT: u32 = 120;
/// The part of the map drawn: columns and rows.
const CROP: (u32, u32) = (80, 40);

/// One run's outcome: units on their goals at some ticks, the sum of
/// costs, and every unit's cell at the snapshot tick and the one before.
struct Outcome {
    on_goal: Vec<(u32, usize)>,
    soc: u64,
    before: Vec<Cell>,
    at: Vec<Cell>,
}

fn run(grid: Arc<Grid>, ticks: u32) -> Outcome {
    let instance = random_instance(grid, UNITS, 1).expect("room for the units");
    let config = SimConfig {
        planner: PlannerKind::Whca { window: 16 },
        threads: 2,
        max_ticks: ticks,
        check_moves: true,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&instance, config).expect("a valid instance");
    sim.initialize();
    let mut out = Outcome {
        on_goal: Vec::new(),
        soc: 0,
        before: Vec::new(),
        at: Vec::new(),
    };
    while sim.ticks() < ticks && !sim.all_home() {
        if sim.ticks() + 1 == SNAPSHOT {
            out.before = sim.positions()[..UNITS].to_vec();
        }
        sim.step();
        if sim.ticks() == SNAPSHOT {
            out.at = sim.positions()[..UNITS].to_vec();
        }
        if sim.ticks() % 100 == 0 {
            out.on_goal.push((sim.ticks(), on_goal(&sim)));
        }
    }
    let summary = sim.summary();
    assert_eq!(summary.collisions, 0, "the validator found a collision");
    if sim.ticks() % 100 != 0 {
        out.on_goal.push((sim.ticks(), summary.at_goal_at_end));
    }
    out.soc = summary.soc;
    out
}

/// Units standing on their goals now.
fn on_goal(sim: &Simulation) -> usize {
    sim.units()
        .filter(|&id| sim.position(id).ok() == sim.goal(id).ok())
        .count()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut ticks = 1000;
    let mut svg = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--svg" => svg = args.next(),
            n => ticks = n.parse().expect("TICKS is a number"),
        }
    }
    let map = read_map(std::path::Path::new(MAP), Connectivity::Four).expect("the map");
    let plain = Arc::new(map.clone());
    let laned = Arc::new(map.with_lanes(true));
    let mut outcomes = Vec::new();
    for (name, grid) in [("no lanes", plain.clone()), ("lanes", laned.clone())] {
        let o = run(grid, ticks);
        let line: Vec<String> = o
            .on_goal
            .iter()
            .map(|(t, n)| format!("{n} at {t}"))
            .collect();
        println!(
            "{name:>8}: on their goals {}; sum of costs {}",
            line.join(", "),
            o.soc
        );
        outcomes.push(o);
    }
    if let Some(path) = svg {
        let picture = picture(&[(&plain, &outcomes[0]), (&laned, &outcomes[1])]);
        std::fs::write(&path, picture).expect("the SVG file is writable");
        println!("wrote {path}");
    }
}

/// The crop of both runs at the snapshot, one above the other: walls,
/// the lanes' directions (with lanes), and each unit as a dot coloured by
/// its move in that tick.
fn picture(runs: &[(&Grid, &Outcome)]) -> String {
    const S: u32 = 9;
    const GAP: u32 = 4;
    let (w, h) = CROP;
    let total_h = runs.len() as u32 * (h + GAP) - GAP;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}"><rect width="100%" height="100%" fill="#f4f1ea"/>"##,
        w * S,
        total_h * S,
        w * S,
        total_h * S
    );
    for (k, (grid, o)) in runs.iter().enumerate() {
        let oy = k as u32 * (h + GAP) * S;
        if k > 0 {
            let _ = write!(
                out,
                r##"<text x="{}" y="{}" font-family="sans-serif" font-size="{}" fill="#333">above: no lanes; below: lanes. Blue: east, orange: west, green: up or down, grey: waiting</text>"##,
                S,
                oy - S,
                S + 4
            );
        }
        for y in 0..h {
            for x in 0..w {
                let c = grid.cell(x, y);
                let (px, py) = (x * S, oy + y * S);
                if !grid.is_passable(c) {
                    let _ = write!(
                        out,
                        r##"<rect x="{px}" y="{py}" width="{S}" height="{S}" fill="#666"/>"##
                    );
                    continue;
                }
                // The lane: opposite the one move that costs 2 from here.
                let against: Vec<usize> = (0..4).filter(|&k| grid.move_cost(c, k) == 2).collect();
                let lane = (against.len() == 1).then(|| {
                    let (dx, dy) = MOVE_OFFSETS[against[0]];
                    (-dx, -dy)
                });
                if let Some((dx, dy)) = lane {
                    let (cx, cy) = (px as f32 + S as f32 / 2.0, py as f32 + S as f32 / 2.0);
                    let r = S as f32 * 0.42;
                    let (tx, ty) = (cx + dx as f32 * r, cy + dy as f32 * r);
                    let (bx, by) = (cx - dx as f32 * r, cy - dy as f32 * r);
                    let (sx, sy) = (-dy as f32 * r * 0.7, dx as f32 * r * 0.7);
                    let _ = write!(
                        out,
                        r##"<polygon points="{tx:.1},{ty:.1} {:.1},{:.1} {:.1},{:.1}" fill="#b9ae98"/>"##,
                        bx + sx,
                        by + sy,
                        bx - sx,
                        by - sy
                    );
                }
            }
        }
        for (&from, &to) in o.before.iter().zip(&o.at) {
            let ((fx, fy), (x, y)) = (grid.xy(from), grid.xy(to));
            if x >= w || y >= h {
                continue;
            }
            let colour = match (x as i64 - fx as i64, y as i64 - fy as i64) {
                (1, 0) => "#2c6fbb",
                (-1, 0) => "#e67e22",
                (0, 0) => "#999",
                _ => "#27ae60",
            };
            let _ = write!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{colour}"/>"#,
                x * S + S / 2,
                oy + y * S + S / 2,
                S as f32 * 0.4
            );
        }
    }
    out.push_str("</svg>\n");
    out
}
