//! With a node budget or no budget, the executed trajectories are
//! bit-identical for 1, 2, 4 and 8 worker threads: the order of commits, not
//! the timing of threads, decides the outcome.

use std::sync::Arc;

use throng::engine::{Budget, SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Connectivity, Instance};
use throng::planner::PlannerKind;

fn run(inst: &Instance, threads: usize, budget: Budget) -> (Vec<throng::map::Cell>, usize) {
    let mut sim = Simulation::new(
        inst,
        SimConfig {
            history: throng::engine::History::Full,
            planner: PlannerKind::Whca { window: 16 },
            max_ticks: 60,
            seed: 3,
            threads,
            budget,
            ..SimConfig::default()
        },
    )
    .expect("a valid instance");
    let s = sim.run();
    assert_eq!(s.collisions, 0);
    (sim.trajectory().to_vec(), s.reached)
}

#[test]
fn same_trajectories_for_any_thread_count() {
    let grid = Arc::new(generate_map(
        "64x64:0.2".parse().unwrap(),
        Connectivity::Four,
        9,
    ));
    let inst = random_instance(grid, 600, 9).unwrap();
    for budget in [
        Budget::default(),
        Budget {
            wall_us: None,
            nodes: Some(20_000),
        },
    ] {
        let (reference, reached) = run(&inst, 1, budget);
        assert!(
            reached > 200,
            "the run must do real work: {reached} reached"
        );
        for threads in [2, 4, 8] {
            let (t, _) = run(&inst, threads, budget);
            assert!(
                t == reference,
                "{threads} threads diverged from 1 thread under {budget:?}"
            );
        }
    }
}
