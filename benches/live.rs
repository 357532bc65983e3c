//! The live world under a game's load, against the same crowd left alone,
//! in one run: 2,000 units on a generated 256×256 map (10% obstacles), two
//! threads, 300 µs per tick, units planned within the budget from the first
//! tick. The load: every 10 ticks 50 units get new goals, every 100 ticks a
//! 6×6 building goes up or comes down, every 50 ticks 10 units are replaced.
//! Times whole ticks (calls applied, planning, moves, checks) from tick 200
//! on (the simulation restarts, untimed, after 2,000 ticks), and a mass
//! order: 500 units sent to one area in one call, timed over the 20 ticks
//! after it. Asserts no collision in every variant.

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use throng::engine::ScriptPlayer;
use throng::engine::{Budget, SimConfig, Simulation};
use throng::io::Load;
use throng::map::{generate_map, random_instance, Connectivity, Instance};

const TICKS: u32 = 2_000;

fn config() -> SimConfig {
    SimConfig {
        threads: 2,
        budget: Budget {
            wall_us: Some(300),
            nodes: None,
        },
        ..SimConfig::default()
    }
}

fn load() -> Load {
    Load::busy_game()
}

/// A fresh simulation of `inst` warmed up for 200 ticks, with its script
/// player (an empty script for the crowd left alone).
fn fresh(inst: &Instance, loaded: bool) -> (Simulation, ScriptPlayer) {
    let mut sim = Simulation::new(inst, config()).expect("a valid instance");
    let events = if loaded {
        load().events(&inst.grid, inst.len(), TICKS, 11)
    } else {
        Vec::new()
    };
    let mut player = ScriptPlayer::new(events, &sim);
    for _ in 0..200 {
        let next = sim.ticks() + 1;
        player.apply_due(&mut sim, next, |_, _, _| {}).unwrap();
        sim.step();
    }
    (sim, player)
}

fn bench(c: &mut Criterion) {
    let grid = Arc::new(generate_map(
        "256x256:0.1".parse().unwrap(),
        Connectivity::Four,
        11,
    ));
    let inst = random_instance(grid, 2_000, 11).unwrap();
    let mut g = c.benchmark_group("live_256x256_2k_units_300us");
    g.sample_size(10);
    for (name, loaded) in [("alone", false), ("game_load", true)] {
        let (mut sim, mut player) = fresh(&inst, loaded);
        g.bench_function(format!("tick_{name}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    if sim.ticks() >= TICKS {
                        assert_eq!(sim.summary().collisions, 0);
                        (sim, player) = fresh(&inst, loaded);
                    }
                    let next = sim.ticks() + 1;
                    player.apply_due(&mut sim, next, |_, _, _| {}).unwrap();
                    let t = Instant::now();
                    sim.step();
                    total += t.elapsed();
                }
                total
            })
        });
        assert_eq!(sim.summary().collisions, 0, "{name}");
    }
    // 500 units ordered to one area at once: the 20 ticks after the call.
    let (mut sim, _) = fresh(&inst, false);
    let target = sim.cell(128, 128).unwrap();
    let mut order = 0u32;
    g.bench_function("mass_order_500_then_20_ticks", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if sim.ticks() >= TICKS {
                    (sim, _) = fresh(&inst, false);
                }
                let ids: Vec<_> = sim
                    .units()
                    .skip((order as usize * 500) % 1500)
                    .take(500)
                    .collect();
                order += 1;
                let t = Instant::now();
                sim.order_group(&ids, target).unwrap();
                for _ in 0..20 {
                    sim.step();
                }
                total += t.elapsed();
            }
            total
        })
    });
    assert_eq!(sim.summary().collisions, 0, "mass order");
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
