//! Unit kinds in one simulation: 2,000 units on a generated 256×256 map
//! (10% obstacles), two threads, no budget, the first 100 ticks (planning
//! the crowd from scratch, then replanning) timed whole. Three crowds in one
//! run: all one-cell units (the fast path), the army mix of
//! `profiles/mixed-2k.toml` (60% one cell, 20% 2×2, 10% 3×3, 10% one cell at
//! three ticks a move), and the fast path again with a single 2×2 unit
//! added, which must cost nothing measurable. Prints the ratios to the
//! one-cell crowd. Asserts no violation. `kinds/instance` is the one-cell
//! crowd as a fixed instance, code that also runs on the engine before unit
//! kinds, for a comparison across versions:
//!
//!   cargo bench --bench kinds                      # this version
//!   cargo bench --bench kinds -- instance --save-baseline before   # (on the older checkout)
//!   cargo bench --bench kinds -- instance --baseline before

use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use throng::engine::{SimConfig, Simulation, UnitSpec};
use throng::footprint::{army_mix, mixed_crowd};
use throng::map::{generate_map, random_instance, Connectivity, Grid};
use throng::units::UnitKind;

const UNITS: usize = 2_000;
const TICKS: u32 = 100;

fn fresh(grid: &Arc<Grid>, kinds: &[UnitKind]) -> Simulation {
    let cfg = SimConfig {
        threads: 2,
        max_ticks: TICKS,
        max_units: UNITS,
        footprint_claims: throng::engine::claims_of(UnitKind::new(3, 1)) * UNITS,
        ..SimConfig::default()
    };
    let crowd = mixed_crowd(grid, kinds, 7).expect("room for the crowd");
    let mut sim = Simulation::with_map(grid.clone(), cfg).expect("valid settings");
    for (&k, &(s, g)) in kinds.iter().zip(&crowd) {
        sim.spawn(UnitSpec::new(s, g).with_kind(k))
            .expect("a valid unit");
    }
    sim.apply_commands();
    sim
}

/// The one-cell crowd as a fixed instance (the fast path as every game of
/// one-cell units uses it; the same code measures the engine before kinds).
fn fresh_cells(grid: &Arc<Grid>) -> Simulation {
    let cfg = SimConfig {
        threads: 2,
        max_ticks: TICKS,
        ..SimConfig::default()
    };
    let inst = random_instance(grid.clone(), UNITS, 7).expect("room for the crowd");
    Simulation::new(&inst, cfg).expect("valid settings")
}

fn run(mut sim: Simulation) -> Simulation {
    for _ in 0..TICKS {
        sim.step();
    }
    assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
    sim
}

fn bench(c: &mut Criterion) {
    let grid = Arc::new(generate_map(
        "256x256:0.1".parse().unwrap(),
        Connectivity::Eight,
        11,
    ));
    let cells = vec![UnitKind::CELL; UNITS];
    let mut one_tank = cells.clone();
    one_tank[0] = UnitKind::new(2, 1);
    let mixed = army_mix(UNITS);
    let mut g = c.benchmark_group("kinds");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("instance", |b| {
        b.iter_batched(|| fresh_cells(&grid), run, BatchSize::PerIteration)
    });
    for (name, kinds) in [
        ("cells", &cells),
        ("cells+1 tank", &one_tank),
        ("army", &mixed),
    ] {
        g.bench_function(name, |b| {
            b.iter_batched(|| fresh(&grid, kinds), run, BatchSize::PerIteration)
        });
    }
    g.finish();
    report_ratios();
}

/// Criterion's mean estimate (ns) of one benchmark of the group, if measured.
fn mean_ns(function: &str) -> Option<f64> {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let path = dir
        .join("criterion/kinds")
        .join(function.replace(['+', ' '], "_"))
        .join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["mean"]["point_estimate"].as_f64()
}

fn report_ratios() {
    let Some(base) = mean_ns("cells") else {
        return;
    };
    for f in ["cells+1 tank", "army"] {
        if let Some(m) = mean_ns(f) {
            println!("kinds/{f}: {:.3}× the one-cell crowd", m / base);
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
