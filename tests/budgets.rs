//! The no-collision invariant holds under any budget, zero included: work
//! that does not fit carries over and units follow their reserved plans.

mod common;

use std::sync::Arc;

use throng::engine::{Budget, SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Connectivity};
use throng::planner::PlannerKind;

#[test]
fn every_budget_is_collision_free() {
    let grid = Arc::new(generate_map(
        "48x48:0.2".parse().unwrap(),
        Connectivity::Four,
        4,
    ));
    let inst = random_instance(grid, 400, 4).unwrap();
    let mut reached = Vec::new();
    for budget in [
        Budget {
            wall_us: None,
            nodes: Some(0),
        },
        Budget {
            wall_us: Some(0),
            nodes: None,
        },
        Budget {
            wall_us: None,
            nodes: Some(500),
        },
        Budget {
            wall_us: Some(50),
            nodes: None,
        },
        Budget::default(),
    ] {
        for threads in [1, 2] {
            let config = SimConfig {
                planner: PlannerKind::Whca { window: 16 },
                max_ticks: 80,
                seed: 4,
                threads,
                budget,
                ..SimConfig::default()
            };
            let s = Simulation::new(&inst, config)
                .expect("a valid instance")
                .run();
            assert_eq!(s.collisions, 0, "{budget:?} on {threads} threads");
            if budget.nodes.is_some_and(|n| n > 0) {
                assert!(s.carried_over > 0, "a 500-node budget must carry work over");
            }
            reached.push(s.reached);
        }
    }
    // Zero budget: the initial plans are followed, nothing is replanned,
    // and an unlimited budget does strictly better.
    assert!(reached[0] < *reached.last().unwrap());
}

/// On a map large enough for the pass of straight windows that comes first
/// under a wall-clock budget (384×384, more than 131,072 cells; see
/// `tiles_under_budget` in `src/planner/whca.rs`), tight and loose budgets
/// on one and two threads stay collision-free, and units keep moving.
#[test]
fn straight_windows_first_on_a_large_map_are_collision_free() {
    let grid = Arc::new(generate_map(
        "384x384:0.1".parse().unwrap(),
        Connectivity::Four,
        6,
    ));
    let inst = random_instance(grid, 3000, 6).unwrap();
    for wall_us in [300, 2000] {
        for threads in [1, 2] {
            let config = SimConfig {
                planner: PlannerKind::Whca { window: 16 },
                max_ticks: 60,
                seed: 6,
                threads,
                budget: Budget {
                    wall_us: Some(wall_us),
                    nodes: None,
                },
                history: throng::engine::History::Full,
                ..SimConfig::default()
            };
            let mut sim = Simulation::new(&inst, config).expect("a valid instance");
            let s = sim.run();
            assert_eq!(s.collisions, 0, "{wall_us} µs on {threads} threads");
            let moved = common::units_moved(sim.trajectory(), inst.len());
            assert!(moved > 0, "{wall_us} µs on {threads} threads: nobody moved");
        }
    }
}
