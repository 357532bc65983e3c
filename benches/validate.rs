//! The validator's tick-by-tick check (`StepChecker`), which runs inside
//! every step of a simulation with `check_moves` on (the default): the
//! one-cell units of a WHCA*(16) run, their first ticks recorded once and
//! then checked tick by tick. Two crowds: 2,000 units on a generated 256×256
//! map (against the baseline of reading the same positions without checking
//! them), and the stress crowd, 10,000 units on 512×512. The check runs on
//! the simulation's thread: on a pool of two workers it measured slower
//! (10,000 units, 30 ticks: 22–27 ms against 16–20 ms on one thread).

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use throng::engine::{History, SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Cell, Connectivity, Grid};
use throng::planner::PlannerKind;
use throng::validate::StepChecker;

/// The first `ticks` ticks of `units` units' WHCA*(16) run on a generated
/// map of `size`: the map and every tick's positions, unit by unit.
fn recorded(size: &str, units: usize, ticks: u32) -> (Arc<Grid>, Vec<Cell>) {
    let grid = Arc::new(generate_map(size.parse().unwrap(), Connectivity::Four, 11));
    let inst = random_instance(grid.clone(), units, 11).unwrap();
    let config = SimConfig {
        planner: PlannerKind::Whca { window: 16 },
        history: History::Full,
        max_ticks: ticks,
        threads: 2,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&inst, config).expect("a valid instance");
    sim.run();
    (grid, sim.trajectory().to_vec())
}

/// Checks every tick of `trajectory` (`units` a tick).
fn check_all(grid: &Grid, trajectory: &[Cell], units: usize) {
    let mut checker = StepChecker::new(grid);
    for (t, row) in trajectory.chunks(units).enumerate() {
        let rects = row.iter().enumerate().map(|(s, &c)| {
            let (x, y) = grid.xy(c);
            (s as u32, throng::map::Rect::new((x, y), (x, y)))
        });
        checker.check(grid, t as u32, rects);
    }
    assert_eq!(checker.count, 0, "{:?}", checker.first);
}

fn bench(c: &mut Criterion) {
    const UNITS: usize = 2000;
    let (grid, trajectory) = recorded("256x256:0.1", UNITS, 100);
    let mut g = c.benchmark_group("validate_2k_units_100_ticks");
    g.sample_size(20);
    g.bench_function("read positions", |b| {
        b.iter(|| {
            let sum: u64 = trajectory.iter().map(|c| u64::from(c.0)).sum();
            std::hint::black_box(sum)
        })
    });
    g.bench_function("check", |b| {
        b.iter(|| {
            let mut checker = StepChecker::new(&grid);
            for (t, row) in trajectory.chunks(UNITS).enumerate() {
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

    const STRESS: usize = 10_000;
    let (grid, trajectory) = recorded("512x512:0.1", STRESS, 30);
    let mut g = c.benchmark_group("validate_10k_units_30_ticks");
    g.sample_size(20);
    g.bench_function("check", |b| {
        b.iter(|| check_all(&grid, &trajectory, STRESS))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
