//! With a node budget or no budget, the executed trajectories are
//! bit-identical for 1, 2, 4 and 8 worker threads: the order of commits, not
//! the timing of threads, decides the outcome.

mod common;

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

/// On a map wide enough for tiles (a 160×160 map is five tiles across for
/// a window of 16), an unbudgeted run with 2,500 units (over 300 due a
/// tick) plans its one-cell units tile by tile: still the same
/// trajectories for any thread count, with four and with eight neighbours
/// (diagonal steps reach as far across a tile's edge as straight ones), and
/// no collision (`run` asserts it).
#[test]
fn tiled_ticks_give_the_same_trajectories_for_any_thread_count() {
    for connectivity in [Connectivity::Four, Connectivity::Eight] {
        let grid = Arc::new(generate_map(
            "160x160:0.2".parse().unwrap(),
            connectivity,
            4,
        ));
        let inst = random_instance(grid, 2500, 4).unwrap();
        let (reference, reached) = run(&inst, 1, Budget::default());
        assert!(
            reached > 300,
            "the run must do real work: {reached} reached"
        );
        for threads in [2, 4, 8] {
            let (t, _) = run(&inst, threads, Budget::default());
            assert!(
                t == reference,
                "{threads} threads diverged from 1 thread ({connectivity:?})"
            );
        }
    }
}

/// A game's own rayon pool plans the same as the engine's own threads.
#[test]
fn a_games_own_pool_gives_the_same_trajectories() {
    let grid = Arc::new(generate_map(
        "48x48:0.2".parse().unwrap(),
        Connectivity::Four,
        5,
    ));
    let inst = random_instance(grid, 300, 5).unwrap();
    let config = SimConfig {
        history: throng::engine::History::Full,
        planner: PlannerKind::Whca { window: 16 },
        max_ticks: 40,
        threads: 1,
        budget: Budget {
            wall_us: None,
            nodes: Some(10_000),
        },
        ..SimConfig::default()
    };
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap(),
    );
    let mut own = Simulation::new(&inst, config).unwrap();
    let mut shared = Simulation::in_pool(&inst, config, pool.clone()).unwrap();
    assert_eq!(
        shared.summary().threads,
        3,
        "it searches on the game's pool"
    );
    own.run();
    shared.run();
    assert!(own.trajectory() == shared.trajectory());
    // The pool stays the game's: still usable after the simulation is gone.
    drop(shared);
    assert_eq!(pool.install(rayon::current_num_threads), 3);
}

/// On a map whose per-cell tables outgrow the cache (384×384, more than
/// 131,072 cells), a unit whose straight window goes down its current
/// plan keeps that plan without checking it against the table (see
/// `straight_window` in `src/planner/whca.rs`): still the same
/// trajectories on one and two threads, and no collision (`run` asserts
/// it), with units moving along kept plans for the whole run.
#[test]
fn kept_plans_on_a_large_map_give_the_same_trajectories_for_any_thread_count() {
    let grid = Arc::new(generate_map(
        "384x384:0.1".parse().unwrap(),
        Connectivity::Four,
        5,
    ));
    let inst = random_instance(grid, 3000, 5).unwrap();
    let (reference, _) = run(&inst, 1, Budget::default());
    let units = inst.len();
    let moved = common::units_moved(&reference, units);
    assert!(
        moved > units / 2,
        "the run must move most units: {moved} of {units} moved"
    );
    let (t, _) = run(&inst, 2, Budget::default());
    assert!(t == reference, "2 threads diverged from 1 thread");
}
