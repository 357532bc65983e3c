//! A live world under a game's load: 2,000 units on a generated 256×256
//! map, 2 threads, 300 µs per tick; every 10 ticks 50 units get new orders,
//! every 100 ticks a 6×6 building goes up or comes down, every 50 ticks 10
//! units are replaced. Counts the events the game would react to.
//!
//! `cargo run --release --example live_world -- [TICKS]` (default 1000)

use std::sync::Arc;

use throng::engine::ScriptPlayer;
use throng::io::Load;
use throng::prelude::*;

fn main() {
    let ticks: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let grid = Arc::new(generate_map(
        "256x256:0.1".parse().expect("spec"),
        Connectivity::Four,
        11,
    ));
    let inst = random_instance(grid.clone(), 2_000, 11).expect("instance");
    let config = SimConfig {
        threads: 2,
        budget: Budget {
            wall_us: Some(300),
            nodes: None,
        },
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&inst, config).expect("a valid instance");
    let load = Load::busy_game();
    let mut player = ScriptPlayer::new(load.events(&grid, inst.len(), ticks, 11), &sim);
    let mut counts = std::collections::BTreeMap::new();
    while sim.ticks() < ticks {
        let next = sim.ticks() + 1;
        player
            .apply_due(&mut sim, next, |_, _, _| {})
            .expect("the load names living units");
        sim.step();
        for e in sim.drain_events() {
            *counts.entry(e.kind.name()).or_insert(0u64) += 1;
        }
    }
    let s = sim.summary();
    println!(
        "{} ticks: p99 {:.3} ms, p99.9 {:.3} ms; events {counts:?}; states {:?}; collisions {}",
        s.ticks, s.tick_ms_p99, s.tick_ms_p999, s.states, s.collisions
    );
    assert_eq!(s.collisions, 0);
}
