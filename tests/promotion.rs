//! Silver's unit priorities: a unit that makes no progress for a few replans
//! is promoted, overrides the reservations in its way, and the units it
//! overrode plan again around it (promoted in turn, two levels deep); when
//! one of them has no way out, every plan is put back. On the maze benchmark
//! map this is what gets crowds through two-wide corridors.

mod common;

use std::sync::Arc;

use throng::engine::{SimConfig, Simulation};
use throng::map::{read_map, read_scenario, Connectivity, Grid, Instance};
use throng::planner::PlannerKind;

fn whca16(max_ticks: u32) -> SimConfig {
    SimConfig {
        planner: PlannerKind::Whca { window: 16 },
        max_ticks,
        ..SimConfig::default()
    }
}

/// Scenarios 1–10 with 100 units each, 300 ticks: without promotions 590
/// of the 1,000 units got home; with them, 963.
#[test]
fn promotions_clear_the_jams_of_a_maze() {
    let dir = common::small_maps();
    let grid = Arc::new(read_map(&dir.join("maze-32-32-2.map"), Connectivity::Four).unwrap());
    let (mut reached, mut kept, mut rolled_back) = (0, 0, 0);
    for k in 1..=10 {
        let scen = read_scenario(&dir.join(format!("scen/maze-32-32-2-random-{k}.scen"))).unwrap();
        let inst = Instance::from_scenario(grid.clone(), &scen, Some(100), "maze-32-32-2").unwrap();
        let s = Simulation::new(&inst, whca16(300))
            .expect("a valid instance")
            .run();
        assert_eq!(s.collisions, 0, "scenario {k}: {s:?}");
        reached += s.reached;
        kept += s.promotions_kept;
        rolled_back += s.promotions_rolled_back;
    }
    assert!(
        kept > 0 && rolled_back > 0,
        "promotions kept {kept}, rolled back {rolled_back}"
    );
    assert!(reached >= 900, "only {reached} of 1,000 units home");
}

/// In a one-wide corridor the blocked unit is promoted again and again;
/// the parked unit can only be pushed along to the dead end, and whatever
/// the promotions do, nobody ever collides and the blocked unit never
/// reaches its goal behind the other.
#[test]
fn promotions_in_a_dead_end_corridor_never_collide() {
    let grid = Arc::new(Grid::from_rows(&["......"], Connectivity::Four));
    let c = |x: u32| grid.cell(x, 0);
    let inst = Instance {
        grid: grid.clone(),
        starts: vec![c(0), c(3)],
        goals: vec![c(5), c(3)],
        map_name: "corridor".into(),
    };
    let s = Simulation::new(&inst, whca16(40))
        .expect("a valid instance")
        .run();
    assert_eq!(s.collisions, 0, "{s:?}");
    assert!(s.promotions > 0, "the blocked unit was never promoted");
    assert!(s.reached <= 1, "{s:?}");
}

/// With a side pocket beyond it, the parked unit steps aside and comes back.
#[test]
fn a_unit_gets_past_a_parked_one_that_can_step_aside() {
    let grid = Arc::new(Grid::from_rows(&["####.#", "......"], Connectivity::Four));
    let inst = Instance {
        grid: grid.clone(),
        starts: vec![grid.cell(0, 1), grid.cell(3, 1)],
        goals: vec![grid.cell(5, 1), grid.cell(3, 1)],
        map_name: "pocket".into(),
    };
    let s = Simulation::new(&inst, whca16(60))
        .expect("a valid instance")
        .run();
    assert_eq!(s.collisions, 0, "{s:?}");
    assert_eq!(s.reached, 2, "{s:?}");
}

/// Promotions inside batches of several units (200 units: batches of 3):
/// a promoted plan changes the table outside the batch's bookkeeping, and
/// every later result of the batch must be checked against it. The
/// validator finds no violation.
#[test]
fn promotions_inside_batches_never_collide() {
    let dir = common::small_maps();
    for (map, units) in [
        ("maze-32-32-2", 200),
        ("room-32-32-4", 250),
        ("random-32-32-20", 250),
    ] {
        let grid = Arc::new(read_map(&dir.join(format!("{map}.map")), Connectivity::Four).unwrap());
        let scen = read_scenario(&dir.join(format!("scen/{map}-random-1.scen"))).unwrap();
        let inst = Instance::from_scenario(grid.clone(), &scen, Some(units), map).unwrap();
        for threads in [1, 2] {
            let s = Simulation::new(
                &inst,
                SimConfig {
                    threads,
                    ..whca16(200)
                },
            )
            .expect("a valid instance")
            .run();
            assert_eq!(
                s.collisions, 0,
                "{map}, {units} units, {threads} threads: {s:?}"
            );
            assert!(s.promotions > 0, "{map}: no promotion");
        }
    }
}
