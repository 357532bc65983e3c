//! Dense crowds brought home: WHCA*(16) on 2 threads runs each instance
//! from its initial planning until every unit stands on its goal, with the
//! validator checking every tick, as `throng run` does:
//!
//! - random-32-32-20 with the first 100, 200 and 409 units of its
//!   random-1 scenario (the map and scenario are in `tests/data`);
//! - warehouse-10-20-10-2-1 with 1,000 random units (seed 1), with and
//!   without one-way aisles (`Grid::with_lanes`).
//!
//! Each run is timed beside its own initial planning (one search per unit)
//! as the same-run baseline: the ratio is what bringing everyone home
//! costs over planning them once. Setting a simulation up is not timed.
//! Every timed instance is checked once: all home, no violation.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use throng::engine::{SimConfig, Simulation};
use throng::map::{random_instance, read_map, read_scenario, Connectivity, Instance};

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/movingai")
        .join(rel)
}

/// The first `units` rows of random-32-32-20's random-1 scenario.
fn random_32(units: usize) -> Instance {
    let grid = Arc::new(
        read_map(&data("random-32-32-20.map"), Connectivity::Four).expect("committed map"),
    );
    let scen = read_scenario(&data("scen/random-32-32-20-random-1.scen")).expect("committed");
    Instance::from_scenario(grid, &scen, Some(units), "random-32-32-20").expect("valid rows")
}

/// 1,000 random distinct starts and goals on the warehouse map (as
/// `throng run --map … --units 1000`, seed 1).
fn warehouse(lanes: bool) -> Instance {
    let grid = read_map(&data("warehouse-10-20-10-2-1.map"), Connectivity::Four)
        .expect("committed map")
        .with_lanes(lanes);
    random_instance(Arc::new(grid), 1000, 1).expect("room for 1,000 units")
}

fn config(max_ticks: u32) -> SimConfig {
    SimConfig {
        threads: 2,
        max_ticks,
        ..SimConfig::default()
    }
}

/// Times instance `inst` brought home (initial planning and every tick,
/// the validator's checks included, the run's summary not) and its initial
/// planning alone, after checking that it gets home.
fn bench_instance(c: &mut Criterion, group: &str, inst: &Instance, max_ticks: u32, samples: usize) {
    let summary = Simulation::new(inst, config(max_ticks))
        .expect("a valid instance")
        .run();
    assert_eq!(
        summary.at_goal_at_end,
        inst.len(),
        "{group}: every unit home"
    );
    assert_eq!(summary.collisions, 0, "{group}: no violation");
    let mut g = c.benchmark_group(group);
    g.sample_size(samples);
    for (name, to_the_end) in [("initial_planning_baseline", false), ("all_home", true)] {
        g.bench_function(name, |b| {
            b.iter_batched(
                || Simulation::new(inst, config(max_ticks)).expect("a valid instance"),
                |mut sim| {
                    // As `Simulation::run`, without its summary (a lower
                    // bound searched for every unit is no planning).
                    sim.initialize();
                    while to_the_end && sim.ticks() < max_ticks && !sim.all_home() {
                        sim.step();
                    }
                    sim
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    for units in [100, 200, 409] {
        let inst = random_32(units);
        let samples = if units > 200 { 10 } else { 50 };
        bench_instance(
            c,
            &format!("random_32_32_20_{units}_units"),
            &inst,
            1000,
            samples,
        );
    }
    for (lanes, name) in [
        (true, "warehouse_1000_units_lanes"),
        (false, "warehouse_1000_units"),
    ] {
        bench_instance(c, name, &warehouse(lanes), 3000, 10);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
