//! Silver (2005)'s set-up: WHCA*(16) with 100 units on a generated 32×32 map
//! with 20% obstacles. Times the initial planning of all units and one turn of
//! ongoing planning, beside HCA*'s initial planning as the same-run baseline
//! (on one thread, and the initial planning on every core too).
//! Also asserts that every timed run stays collision-free.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use throng::engine::{SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Connectivity, Instance};
use throng::planner::PlannerKind;

fn instance() -> Instance {
    let grid = Arc::new(generate_map(
        "32x32:0.2".parse().unwrap(),
        Connectivity::Four,
        1,
    ));
    random_instance(grid, 100, 1100).unwrap()
}

fn config(planner: PlannerKind) -> SimConfig {
    SimConfig {
        planner,
        max_ticks: 100,
        seed: 1,
        ..SimConfig::default()
    }
}

/// The same on every core (the default is one thread).
fn all_cores(planner: PlannerKind) -> SimConfig {
    SimConfig {
        threads: 0,
        ..config(planner)
    }
}

fn bench(c: &mut Criterion) {
    let inst = instance();
    let whca = PlannerKind::Whca { window: 16 };
    let mut g = c.benchmark_group("silver_32x32_100_units");
    // The initial planning right after the simulation is built, as a game
    // does it (`PerIteration`: one simulation built, then timed; a 1 ms
    // routine dwarfs the timer's overhead). `SmallInput` builds a batch of
    // simulations before timing any, so each is planned from a cold cache:
    // kept beside it for comparison.
    for (name, cfg, batch) in [
        (
            "whca16_initial_planning",
            config(whca),
            BatchSize::PerIteration,
        ),
        (
            "whca16_initial_planning_all_cores",
            all_cores(whca),
            BatchSize::PerIteration,
        ),
        (
            "whca16_initial_planning_cold_cache",
            config(whca),
            BatchSize::SmallInput,
        ),
    ] {
        g.bench_function(name, |b| {
            b.iter_batched(
                || Simulation::new(&inst, cfg).expect("a valid instance"),
                |mut sim| {
                    sim.initialize();
                    sim
                },
                batch,
            )
        });
    }
    g.bench_function("hca_initial_planning_baseline", |b| {
        b.iter_batched(
            || Simulation::new(&inst, config(PlannerKind::Hca)).expect("a valid instance"),
            |mut sim| {
                sim.initialize();
                sim
            },
            BatchSize::SmallInput,
        )
    });
    // One turn of ongoing planning, taken 10 turns into the run.
    g.bench_function("whca16_one_turn", |b| {
        b.iter_batched(
            || {
                let mut sim = Simulation::new(&inst, config(whca)).expect("a valid instance");
                sim.initialize();
                for _ in 0..10 {
                    sim.step();
                }
                sim
            },
            |mut sim| {
                sim.step();
                sim
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
    let s = Simulation::new(&inst, config(whca))
        .expect("a valid instance")
        .run();
    assert_eq!(s.collisions, 0);
}

criterion_group!(benches, bench);
criterion_main!(benches);
