//! The check of the moves on a thread of its own (`SimConfig::check_beside`)
//! changes nothing but where it runs: the same trajectories and the same
//! count of violations as the check inside each tick, with buildings going
//! up and coming down (map edits wait for the check of the tick before),
//! and the last tick counted once `finish_checks` has waited for it.

use std::sync::Arc;

use throng::prelude::*;

/// 400 units on a generated 64×64 map, under a node budget (the same plans
/// on any machine), with three buildings placed and lifted on the way.
fn run(check_beside: bool) -> (Vec<Cell>, u64, u64, usize) {
    let grid = Arc::new(generate_map(
        "64x64:0.1".parse().unwrap(),
        Connectivity::Four,
        5,
    ));
    let instance = random_instance(grid, 400, 5).unwrap();
    let config = SimConfig {
        threads: 2,
        max_ticks: 120,
        history: History::Full,
        budget: Budget {
            wall_us: None,
            nodes: Some(4_000),
        },
        check_beside,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&instance, config).expect("a valid instance");
    let buildings = [
        (10, Rect::new((8, 8), (13, 13))),
        (30, Rect::new((40, 20), (45, 25))),
        (50, Rect::new((20, 44), (25, 49))),
    ];
    for tick in 0..120u32 {
        for &(at, rect) in &buildings {
            if tick == at {
                sim.block(rect).expect("a rectangle on the map");
            }
            if tick == at + 25 {
                sim.unblock(rect).expect("a rectangle on the map");
            }
        }
        sim.step();
    }
    let before = sim.violations().0;
    sim.finish_checks();
    let after = sim.violations().0;
    let summary = sim.summary();
    (sim.trajectory().to_vec(), before, after, summary.collisions)
}

#[test]
fn checking_beside_changes_nothing_but_where_the_check_runs() {
    let (inside, before_inside, inside_count, inside_collisions) = run(false);
    let (beside, before_beside, beside_count, beside_collisions) = run(true);
    assert_eq!(inside, beside, "the same trajectories");
    assert_eq!(inside_count, beside_count);
    assert_eq!(inside_collisions, beside_collisions);
    assert_eq!(inside_count, 0, "no collision either way");
    // Inside, every tick is counted at once; beside, up to the tick before
    // until `finish_checks`.
    assert_eq!(before_inside, inside_count);
    assert!(before_beside <= beside_count);
}
