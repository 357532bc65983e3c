//! The stress scenario: 10,000 units, WHCA*(16), a generated 512×512 map with
//! 10% obstacles. Times whole ticks (replanning the due units, moving every
//! unit, checking the moves) on 1 and 2 worker
//! threads in the same run, over ticks 100 to 300 of the scenario (the
//! simulation restarts, untimed, when it gets there), so the ratio is the
//! parallel speed-up on the CLI run's ticks; and asserts the ticks stayed
//! collision-free. Times the initial planning of the same 10,000 units on
//! 1 and 2 threads too (a fresh simulation each time, built untimed), and
//! the initial planning and first 50 ticks of a game that spawns the same
//! units into a world built empty, against the world built with them (2
//! threads).

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use throng::engine::{SimConfig, Simulation, UnitSpec};
use throng::map::{generate_map, random_instance, Connectivity, Instance};
use throng::planner::PlannerKind;

/// 10,000 units on the generated 512×512 map of `profiles/stress-10k.toml`.
fn stress_instance() -> Instance {
    let grid = Arc::new(generate_map(
        "512x512:0.1".parse().unwrap(),
        Connectivity::Four,
        1,
    ));
    random_instance(grid, 10_000, 1).unwrap()
}

fn bench(c: &mut Criterion) {
    let inst = stress_instance();
    let mut g = c.benchmark_group("stress_512x512_10k_units");
    g.sample_size(10);
    for threads in [1, 2] {
        let config = SimConfig {
            planner: PlannerKind::Whca { window: 16 },
            max_ticks: 100_000,
            threads,
            ..SimConfig::default()
        };
        let fresh = || {
            let mut sim = Simulation::new(&inst, config).expect("a valid instance");
            sim.initialize();
            for _ in 0..100 {
                sim.step();
            }
            sim
        };
        let mut sim = fresh();
        g.bench_function(format!("whca16_tick_planning_{threads}_threads"), |b| {
            b.iter_custom(|iters| {
                let mut planning = Duration::ZERO;
                for _ in 0..iters {
                    if sim.ticks() >= 300 {
                        assert_eq!(sim.summary().collisions, 0);
                        sim = fresh();
                    }
                    let t = Instant::now();
                    sim.step();
                    planning += t.elapsed();
                }
                planning
            })
        });
        let s = sim.summary();
        assert_eq!(s.collisions, 0, "{threads} threads");
    }
    g.finish();
}

fn bench_initial(c: &mut Criterion) {
    let inst = stress_instance();
    let mut g = c.benchmark_group("stress_512x512_10k_units");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(8));
    for threads in [1, 2] {
        let config = SimConfig {
            planner: PlannerKind::Whca { window: 16 },
            threads,
            ..SimConfig::default()
        };
        g.bench_function(format!("whca16_initial_planning_{threads}_threads"), |b| {
            b.iter_custom(|iters| {
                let mut planning = Duration::ZERO;
                for _ in 0..iters {
                    let mut sim = Simulation::new(&inst, config).expect("a valid instance");
                    let t = Instant::now();
                    sim.initialize();
                    planning += t.elapsed();
                    assert_eq!(sim.summary().collisions, 0);
                }
                planning
            })
        });
    }
    g.finish();
}

/// Ticks timed from the start in [`bench_spawned`].
const FIRST_TICKS: u32 = 50;

fn bench_spawned(c: &mut Criterion) {
    let inst = stress_instance();
    let mut g = c.benchmark_group("stress_512x512_10k_units");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    let config = SimConfig {
        planner: PlannerKind::Whca { window: 16 },
        threads: 2,
        max_units: inst.len(),
        ..SimConfig::default()
    };
    // The baseline: the units in the world from its start.
    let built = || Simulation::new(&inst, config).expect("a valid instance");
    // A game's way: an empty world, then a spawn per unit.
    let spawned = || {
        let mut sim = Simulation::with_map(inst.grid.clone(), config).expect("a valid map");
        for (&s, &g) in inst.starts.iter().zip(&inst.goals) {
            sim.spawn(UnitSpec::new(s, g)).expect("room for every unit");
        }
        sim.apply_commands();
        sim
    };
    for (name, make) in [
        ("built_with_its_units", &built as &dyn Fn() -> Simulation),
        ("filled_by_spawns", &spawned),
    ] {
        g.bench_function(
            format!("whca16_first_{FIRST_TICKS}_ticks_world_{name}"),
            |b| {
                b.iter_custom(|iters| {
                    let mut took = Duration::ZERO;
                    for _ in 0..iters {
                        let mut sim = make();
                        let t = Instant::now();
                        sim.initialize();
                        for _ in 0..FIRST_TICKS {
                            sim.step();
                        }
                        took += t.elapsed();
                        let s = sim.summary();
                        assert_eq!(s.collisions, 0, "{name}");
                        // Landmarks, not a true-distance search per unit (which
                        // took 284 million nodes in 300 ticks, and 4.3 GiB).
                        assert!(s.heuristic_expanded < 1_000_000, "{name}: {s:?}");
                    }
                    took
                })
            },
        );
    }
    g.finish();
}

criterion_group!(benches, bench, bench_initial, bench_spawned);
criterion_main!(benches);
