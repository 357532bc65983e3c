//! Planning time of a whole run, CO-WHCA*(16) against WHCA*(16) on the same
//! instances: the seed's set-up (crowded 32×32 map, 20% obstacles, 40 and 70
//! units) and den520d with 10 units. Each timed iteration plans and executes
//! a run from a fresh simulation (built outside the timing) until every unit
//! is home or the turn limit; the validator's summary is left out of the
//! timing but checked afterwards: every run must be collision-free. Prints
//! the CO-WHCA* / WHCA* ratio of criterion's mean estimates at the end.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use throng::engine::{SimConfig, Simulation};
use throng::map::{
    crowded_instance, generate_map, read_map, read_scenario, Connectivity, Instance,
};
use throng::planner::{CoVariant, PlannerKind};

const CO: PlannerKind = PlannerKind::Co {
    window: 16,
    variant: CoVariant::Whca,
    offline: false,
};
const WHCA: PlannerKind = PlannerKind::Whca { window: 16 };

fn generated(units: usize) -> Instance {
    let grid = Arc::new(generate_map(
        "32x32:0.2".parse().unwrap(),
        Connectivity::Four,
        1,
    ));
    crowded_instance(grid, units, 2, 1000 + units as u64).unwrap()
}

fn den520d() -> Instance {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/maps/movingai");
    assert!(
        dir.is_dir(),
        "the MovingAI benchmark maps are not beside the repository: {} is missing",
        dir.display()
    );
    let grid = Arc::new(read_map(&dir.join("den520d.map"), Connectivity::Four).unwrap());
    let scen = read_scenario(&dir.join("scen/den520d-random-1.scen")).unwrap();
    Instance::from_scenario(grid, &scen, Some(10), "den520d.map").unwrap()
}

fn config(planner: PlannerKind, max_ticks: u32) -> SimConfig {
    SimConfig {
        planner,
        max_ticks,
        seed: 1,
        ..SimConfig::default()
    }
}

/// Plans and executes the whole run.
fn run_to_end(sim: &mut Simulation, max_ticks: u32) {
    sim.initialize();
    while sim.ticks() < max_ticks && !sim.all_home() {
        sim.step();
    }
}

fn cases() -> Vec<(&'static str, Instance, u32)> {
    vec![
        ("crowded32_40", generated(40), 256),
        ("crowded32_70", generated(70), 256),
        ("den520d_10", den520d(), 1024),
    ]
}

fn bench(c: &mut Criterion) {
    for (name, inst, max_ticks) in cases() {
        let mut g = c.benchmark_group(format!("co_whca_{name}"));
        for (label, planner) in [("co_whca16", CO), ("whca16", WHCA)] {
            g.bench_function(label, |b| {
                b.iter_batched(
                    || {
                        Simulation::new(&inst, config(planner, max_ticks))
                            .expect("a valid instance")
                    },
                    |mut sim| {
                        run_to_end(&mut sim, max_ticks);
                        sim
                    },
                    BatchSize::SmallInput,
                )
            });
            let mut sim =
                Simulation::new(&inst, config(planner, max_ticks)).expect("a valid instance");
            run_to_end(&mut sim, max_ticks);
            let s = sim.summary();
            assert_eq!(s.collisions, 0, "{name} {label}");
            eprintln!(
                "{name} {label}: {} of {} units home, sum of costs {}",
                s.reached, s.units, s.soc
            );
        }
        g.finish();
    }
    report_ratios();
}

/// Criterion's mean estimate (ns) of one benchmark, if it has been measured.
fn mean_ns(group: &str, function: &str) -> Option<f64> {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let path = dir
        .join("criterion")
        .join(group)
        .join(function)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["mean"]["point_estimate"].as_f64()
}

fn report_ratios() {
    for (name, _, _) in cases() {
        let group = format!("co_whca_{name}");
        if let (Some(co), Some(w)) = (mean_ns(&group, "co_whca16"), mean_ns(&group, "whca16")) {
            println!(
                "{name}: CO-WHCA*(16) {:.3} ms, WHCA*(16) {:.3} ms, ratio CO/WHCA {:.3}",
                co / 1e6,
                w / 1e6,
                co / w
            );
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
