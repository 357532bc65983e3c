//! A minimal game loop: a squad spawned on one edge, sent as a group to a
//! spot across the map while a building goes up in the way; events read
//! every frame, waypoints drawn from the planned path.
//!
//! `cargo run --release --example game_loop [FRAMES]`

use std::sync::Arc;

use throng::prelude::*;

fn main() {
    let frames: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let grid = Arc::new(generate_map(
        "64x64:0.1".parse().unwrap(),
        Connectivity::Four,
        7,
    ));
    let config = SimConfig {
        threads: 2,
        budget: Budget {
            wall_us: Some(1_000),
            nodes: None,
        },
        ..SimConfig::default()
    };
    let mut sim = Simulation::with_map(grid, config).expect("valid settings");
    let mut squad = Vec::new();
    for y in 0..64 {
        let (Ok(at), Ok(goal)) = (sim.cell(0, y), sim.cell(63, 63)) else {
            continue;
        };
        if sim.grid().is_passable(at) && squad.len() < 20 {
            squad.push(sim.spawn(UnitSpec::new(at, goal)).expect("an open cell"));
        }
    }
    let target = (0..64)
        .find_map(|x| sim.cell(x, 32).ok().filter(|&c| sim.grid().is_passable(c)))
        .expect("an open cell on row 32");
    sim.order_group(&squad, target).expect("living units");
    sim.block(Rect::new((30, 10), (35, 15)))
        .expect("on the map");
    let mut path = Vec::new();
    let mut arrived = 0;
    for frame in 0..frames {
        sim.step();
        for event in sim.drain_events() {
            if matches!(event.kind, EventKind::Arrived(_)) {
                arrived += 1;
            } else {
                println!(
                    "tick {}: unit {} {}",
                    event.tick,
                    event.unit,
                    event.kind.name()
                );
            }
        }
        sim.planned_path(squad[0], &mut path)
            .expect("a living unit");
        if frame % 50 == 0 {
            println!(
                "frame {frame}: {arrived} arrived, unit 0 has {} waypoints left",
                path.len()
            );
        }
    }
    let s = sim.summary();
    println!(
        "{arrived} of {} arrived; states {:?}; collisions {}",
        squad.len(),
        s.states,
        s.collisions
    );
    assert_eq!(s.collisions, 0);
}
