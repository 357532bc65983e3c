//! Silver's footprints: 100 units on a 64×64 map with 10% obstacles, 200
//! ticks of windowed planning, a quarter of them 2×2 and a quarter taking 3
//! ticks a step, against the same starts and goals with every unit 1×1 and
//! quick (the same planner: what large and slow footprints cost).

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use throng::footprint::{
    random_units, validate_footprints, Action, FootprintPlanner, FootprintUnit, PlannedAction,
    UnitShape,
};
use throng::map::{generate_map, Connectivity, Grid};

fn shapes(n: usize) -> Vec<UnitShape> {
    (0..n)
        .map(|i| UnitShape {
            size: if i % 4 == 0 { 2 } else { 1 },
            ticks_per_move: if i % 4 == 1 { 3 } else { 1 },
        })
        .collect()
}

fn planner(grid: &Arc<Grid>, units: &[FootprintUnit]) -> FootprintPlanner {
    FootprintPlanner::new(grid.clone(), units.to_vec(), 16, &|_: UnitShape| {
        Vec::<Action>::new()
    })
    .unwrap()
}

fn bench(c: &mut Criterion) {
    let grid = Arc::new(generate_map(
        "64x64:0.1".parse().unwrap(),
        Connectivity::Eight,
        1,
    ));
    let mixed = random_units(&grid, &shapes(100), 1);
    let plain: Vec<FootprintUnit> = mixed
        .iter()
        .map(|u| FootprintUnit {
            shape: UnitShape::default(),
            ..*u
        })
        .collect();
    let mut g = c.benchmark_group("footprints_64x64_100_units_200_ticks");
    g.sample_size(10);
    for (name, units) in [
        ("mixed_sizes_and_paces", &mixed),
        ("all_1x1_baseline", &plain),
    ] {
        g.bench_function(name, |b| {
            b.iter_batched(
                || planner(&grid, units),
                |mut p| {
                    p.run(200);
                    p
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
    // What was timed is collision-free.
    let mut p = planner(&grid, &mixed);
    p.run(200);
    let n = p.units().len();
    let sets: Vec<_> = (0..n).map(|i| p.action_set(i)).collect();
    let starts: Vec<_> = p.units().iter().map(|u| u.start).collect();
    let logs: Vec<&[PlannedAction]> = (0..n).map(|i| p.log(i)).collect();
    assert!(validate_footprints(&grid, &sets, &starts, &logs).is_empty());
}

criterion_group!(benches, bench);
criterion_main!(benches);
