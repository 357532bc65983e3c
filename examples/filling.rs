//! Units filling a packed area: the first to arrive park across the way to
//! the goals behind them, and late comers must get through.
//!
//!     cargo run --release --example filling -- gap ORDER [MAX_TICKS]
//!     cargo run --release --example filling -- group MAP UNITS SEED [MAX_TICKS]
//!
//! `gap`: 300 units on a 64×64 map cross a wall through a gap 8 cells wide
//! to a block of 15×20 goals, each ordered to a goal of its own: ORDER
//! `near` (the unit nearest the block gets the goal nearest its middle),
//! `far` (it gets the farthest column) or `shuffle-N` (goals shuffled
//! with seed N; `shuffle-1` is the scene of the test
//! `units_ordered_one_by_one_fill_a_block_through_a_gap`). `group`: UNITS units from random cells of a MovingAI map (seed
//! SEED) sent to one random open cell by a single `order_group`. Both run
//! on 2 threads without a budget and print how many units are home and
//! when.

use std::sync::Arc;
use std::time::Instant;

use throng::prelude::*;

const USAGE: &str =
    "usage: filling gap near|far|shuffle-N [MAX_TICKS] | filling group MAP UNITS SEED [MAX_TICKS]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    let number = |i: usize, default: u64| match arg(i) {
        None => default,
        Some(s) => s
            .parse()
            .unwrap_or_else(|_| fail(&format!("`{s}` is not a number"))),
    };
    let (sim, units, max_ticks) = match (arg(0), arg(1)) {
        (Some("gap"), order) => {
            let (sim, units) = gap(order.unwrap_or("shuffle-1"));
            (sim, units, number(2, 3000) as u32)
        }
        (Some("group"), Some(map)) => {
            let (sim, units) = group(map, number(2, 500) as usize, number(3, 1));
            (sim, units, number(4, 5000) as u32)
        }
        _ => fail("expected `gap` or `group MAP`"),
    };
    run(sim, &units, max_ticks);
}

/// Says what was wrong with the arguments and exits with status 2.
fn fail(what: &str) -> ! {
    eprintln!("filling: {what}\n{USAGE}");
    std::process::exit(2);
}

fn config(units: usize) -> SimConfig {
    SimConfig {
        threads: 2,
        max_units: units,
        ..SimConfig::default()
    }
}

/// The gap scene, each unit ordered to its own goal in the given order.
fn gap(order: &str) -> (Simulation, Vec<UnitId>) {
    let rows: Vec<String> = (0..64)
        .map(|y| {
            (0..64)
                .map(|x| {
                    if x == 32 && !(28..=35).contains(&y) {
                        '@'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = Arc::new(Grid::from_rows(&rows, Connectivity::Four));
    let mut starts: Vec<(i64, i64)> = (0..5).flat_map(|x| (2..62).map(move |y| (x, y))).collect();
    let mut goals: Vec<(i64, i64)> = (49..64)
        .flat_map(|x| (22..42).map(move |y| (x, y)))
        .collect();
    let middle = (56, 32);
    let dist = |a: (i64, i64), b: (i64, i64)| (a.0 - b.0).abs() + (a.1 - b.1).abs();
    match order {
        "near" => {
            starts.sort_by_key(|&s| (dist(s, middle), s));
            goals.sort_by_key(|&g| (dist(g, middle), g));
        }
        "far" => {
            starts.sort_by_key(|&s| (dist(s, middle), s));
            goals.sort_by_key(|&g| (std::cmp::Reverse(g.0), g.1));
        }
        _ => {
            let seed: u64 = order
                .strip_prefix("shuffle-")
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| fail(&format!("unknown ORDER `{order}`")));
            shuffle(&mut goals, seed);
        }
    }
    let mut sim = Simulation::with_map(grid, config(starts.len())).expect("a valid world");
    let mut units = Vec::new();
    for (s, g) in starts.iter().zip(&goals) {
        let at = sim.cell(s.0, s.1).expect("on the map");
        let id = sim.spawn(UnitSpec::new(at, at)).expect("a free cell");
        sim.set_goal(id, sim.cell(g.0, g.1).expect("on the map"))
            .expect("an open cell");
        units.push(id);
    }
    (sim, units)
}

/// A fixed shuffle (xorshift), the same for a seed on every machine.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..items.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        items.swap(i, (s % (i as u64 + 1)) as usize);
    }
}

/// One group order across a benchmark map.
fn group(map: &str, n: usize, seed: u64) -> (Simulation, Vec<UnitId>) {
    let grid = match read_map(std::path::Path::new(map), Connectivity::Four) {
        Ok(g) => Arc::new(g),
        Err(e) => fail(&e.to_string()),
    };
    let inst = random_instance(grid.clone(), n, seed).unwrap_or_else(|e| fail(&e.to_string()));
    let mut sim = Simulation::with_map(grid, config(n)).expect("a valid world");
    let units: Vec<UnitId> = inst
        .starts
        .iter()
        .map(|&s| sim.spawn(UnitSpec::new(s, s)).expect("a free cell"))
        .collect();
    sim.order_group(&units, inst.goals[0])
        .expect("an open target");
    (sim, units)
}

fn run(mut sim: Simulation, units: &[UnitId], max_ticks: u32) {
    let home = |sim: &Simulation| {
        units
            .iter()
            .filter(|&&u| sim.state(u) == Ok(UnitState::Arrived))
            .count()
    };
    let start = Instant::now();
    let mut ticks = 0;
    while ticks < max_ticks && home(&sim) < units.len() {
        sim.step();
        ticks += 1;
    }
    let summary = sim.summary();
    println!(
        "{} of {} home at tick {ticks}; {:.0} ms; shoves {} ({} moved); collisions {}",
        home(&sim),
        units.len(),
        start.elapsed().as_secs_f64() * 1e3,
        summary.shoves,
        summary.shoves_kept,
        summary.collisions
    );
}
