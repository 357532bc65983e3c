//! The validator's tick-by-tick check (`StepChecker`), which runs inside
//! every step of a simulation with `check_moves` on (the default): 2,000
//! one-cell units of a WHCA*(16) run on a generated 256×256 map, their
//! first 100 ticks recorded once and then checked tick by tick. Against
//! the baseline of reading the same positions without checking them.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use throng::engine::{History, SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Cell, Connectivity};
use throng::planner::PlannerKind;
use throng::validate::StepChecker;

const UNITS: usize = 2000;
const TICKS: usize = 100;

fn bench(c: &mut Criterion) {
    let grid = Arc::new(generate_map(
        "256x256:0.1".parse().unwrap(),
        Connectivity::Four,
        11,
    ));
    let inst = random_instance(grid.clone(), UNITS, 11).unwrap();
    let config = SimConfig {
        planner: PlannerKind::Whca { window: 16 },
        history: History::Full,
        max_ticks: TICKS as u32,
        threads: 2,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&inst, config).expect("a valid instance");
    sim.run();
    let trajectory: Vec<Cell> = sim.trajectory().to_vec();
    let ticks = trajectory.len() / UNITS;
    let mut g = c.benchmark_group("validate_2k_units_100_ticks");
    g.sample_size(20);
    g.bench_function("read positions", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for t in 0..ticks {
                let row = &trajectory[t * UNITS..(t + 1) * UNITS];
                sum += row.iter().map(|c| u64::from(c.0)).sum::<u64>();
            }
            std::hint::black_box(sum)
        })
    });
    g.bench_function("check", |b| {
        b.iter(|| {
            let mut checker = StepChecker::new(&grid);
            for t in 0..ticks {
                let row = &trajectory[t * UNITS..(t + 1) * UNITS];
                checker.check_cells(
                    &grid,
                    t as u32,
                    row.iter().enumerate().map(|(s, &c)| (s as u32, c)),
                );
            }
            assert_eq!(checker.count, 0, "{:?}", checker.first);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
