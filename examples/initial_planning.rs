//! Times WHCA*(16)'s initial planning on Silver's set-up (100 units, a
//! generated 32×32 map with 20% obstacles), one freshly built simulation per
//! run, and prints the percentiles: the same work as `cargo bench --bench
//! silver`'s initial-planning benchmark, as a plain loop for profilers
//! (`perf record`, `valgrind --tool=callgrind --toggle-collect='*initialize*'`).
//!
//! `cargo run --release --example initial_planning -- [THREADS] [RUNS]`
//! (THREADS 0 = every core, the default; RUNS 400).

use std::sync::Arc;
use std::time::Instant;

use throng::engine::{SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Connectivity};
use throng::planner::PlannerKind;

fn main() {
    let mut args = std::env::args().skip(1);
    let threads: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let runs: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400)
        .max(1);
    let grid = Arc::new(generate_map(
        "32x32:0.2".parse().expect("spec"),
        Connectivity::Four,
        1,
    ));
    let inst = random_instance(grid, 100, 1100).expect("instance");
    let cfg = SimConfig {
        planner: PlannerKind::Whca { window: 16 },
        max_ticks: 100,
        seed: 1,
        threads,
        ..SimConfig::default()
    };
    let mut ms: Vec<f64> = (0..runs)
        .map(|_| {
            let mut sim = Simulation::new(&inst, cfg).expect("a valid instance");
            let t = Instant::now();
            sim.initialize();
            let e = t.elapsed().as_secs_f64() * 1e3;
            std::hint::black_box(&sim);
            e
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    let q = |f: f64| ms[((ms.len() - 1) as f64 * f) as usize];
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    let sim = {
        let mut s = Simulation::new(&inst, cfg).expect("a valid instance");
        s.initialize();
        s
    };
    println!(
        "WHCA*(16) initial planning, 100 units, 32x32, {} thread(s), {runs} runs: \
         mean {mean:.3} ms, p10 {:.3}, median {:.3}, p90 {:.3}",
        sim_threads(&cfg),
        q(0.1),
        q(0.5),
        q(0.9)
    );
    println!("{:?}", sim.planner_stats());
}

fn sim_threads(cfg: &SimConfig) -> usize {
    if cfg.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        cfg.threads
    }
}
