//! A stress run: 10,000 units with random goals on a generated 512×512 map
//! (10% obstacles), two threads, 2 ms per tick, planned within the budget
//! from the first tick. Prints the tick-time percentiles and the validator's
//! count.
//!
//! `cargo run --release --example stress -- [TICKS]` (default 300)

use std::sync::Arc;

use throng::prelude::*;

fn main() {
    let ticks: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let grid = Arc::new(generate_map(
        "512x512:0.1".parse().expect("spec"),
        Connectivity::Four,
        1,
    ));
    let inst = random_instance(grid, 10_000, 1).expect("instance");
    let config = SimConfig {
        threads: 2,
        budget: Budget {
            wall_us: Some(2_000),
            nodes: None,
        },
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&inst, config).expect("a valid instance");
    for _ in 0..ticks {
        sim.step();
    }
    let s = sim.summary();
    let t = sim.tick_stats();
    println!(
        "{} ticks: mean {:.3} ms, p99 {:.3} ms, p99.9 {:.3} ms, worst {:.3} ms; {} of 10,000 home; {} searches carried over; collisions {}",
        s.ticks,
        t.mean_ms(),
        t.percentile_ms(99.0),
        t.percentile_ms(99.9),
        t.max_ms(),
        s.at_goal_at_end,
        s.carried_over,
        s.collisions
    );
    assert_eq!(s.collisions, 0);
}
