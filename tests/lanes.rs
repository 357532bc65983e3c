//! Lanes in one-cell-wide corridors (`Grid::with_lanes`): a unit keeps to
//! the corridor that runs its way, and a dense crowd on a small warehouse
//! of shelves plays clean (every tick checked by the validator), gets
//! home, and moves the same for any thread count under a node budget.

use std::sync::Arc;

use throng::engine::{Budget, History, SimConfig, Simulation};
use throng::map::{random_instance, Cell, Connectivity, Grid, Instance};
use throng::planner::PlannerKind;

/// A warehouse of `rows` × `cols` shelves (each 1 cell high and 6 long),
/// with one-cell corridors between shelf rows, one-cell gaps between
/// shelves and open aisles at both ends, walled round.
fn warehouse(rows: u32, cols: u32) -> Grid {
    let (aisle, shelf) = (3, 6);
    let width = 2 + 2 * aisle + cols * shelf + (cols - 1);
    let height = 2 + 2 * rows + 1;
    let passable = (0..width * height)
        .map(|i| {
            let (x, y) = (i % width, i / width);
            if x == 0 || y == 0 || x == width - 1 || y == height - 1 {
                return false;
            }
            let in_shelves = x > aisle && x < width - 1 - aisle;
            let shelf_row = y % 2 == 0;
            !(in_shelves && shelf_row && (x - 1 - aisle) % (shelf + 1) != shelf)
        })
        .collect();
    Grid::new(width, height, passable, Connectivity::Four)
}

fn config(threads: usize, budget: Budget, max_ticks: u32) -> SimConfig {
    SimConfig {
        planner: PlannerKind::Whca { window: 16 },
        history: History::Full,
        max_ticks,
        threads,
        budget,
        check_moves: true,
        ..SimConfig::default()
    }
}

#[test]
fn a_unit_takes_the_corridor_that_runs_its_way() {
    // Three corridors (rows 1, 3, 5): the middle one runs west. A unit
    // crossing the warehouse eastwards along it goes round by a corridor
    // that runs east, four moves longer than the straight run.
    let grid = Arc::new(warehouse(2, 2).with_lanes(true));
    let (w, _) = (grid.width(), grid.height());
    let (from, to) = (grid.cell(1, 3), grid.cell(w - 2, 3));
    let instance = Instance {
        starts: vec![from],
        goals: vec![to],
        grid: grid.clone(),
        map_name: "warehouse".into(),
    };
    let mut sim = Simulation::new(&instance, config(1, Budget::default(), 100)).unwrap();
    let summary = sim.run();
    assert_eq!(summary.at_goal_at_end, 1);
    let rows: Vec<u32> = sim.trajectory().iter().map(|&c| grid.xy(c).1).collect();
    let in_shelves = |c: &Cell| {
        let x = grid.xy(*c).0;
        x > 3 && x < w - 4
    };
    assert!(
        sim.trajectory()
            .iter()
            .filter(|c| in_shelves(c))
            .all(|&c| grid.xy(c).1 != 3),
        "the unit went against the lane: rows {rows:?}"
    );
    // Without lanes the straight run is shortest.
    let plain = Arc::new(warehouse(2, 2));
    let instance = Instance {
        grid: plain.clone(),
        ..instance
    };
    let mut sim = Simulation::new(&instance, config(1, Budget::default(), 100)).unwrap();
    sim.run();
    assert!(sim.trajectory().iter().all(|&c| plain.xy(c).1 == 3));
}

#[test]
fn a_crowd_on_lanes_plays_clean_and_gets_home() {
    // 50 units on 285 open cells. (Without lanes, 2 of them are still
    // out after 600 ticks; with lanes all are home by tick 125.)
    let grid = Arc::new(warehouse(6, 4).with_lanes(true));
    let instance = random_instance(grid, 50, 3).unwrap();
    let budget = Budget {
        wall_us: None,
        nodes: Some(20_000),
    };
    let mut reference = None;
    for threads in [1, 2] {
        let mut sim = Simulation::new(&instance, config(threads, budget, 600)).unwrap();
        let summary = sim.run();
        assert_eq!(summary.collisions, 0, "{summary:?}");
        assert_eq!(
            summary.at_goal_at_end, 50,
            "{threads} thread(s): {} of 50 home after {} ticks",
            summary.at_goal_at_end, summary.ticks
        );
        let trajectory = sim.trajectory().to_vec();
        match &reference {
            None => reference = Some(trajectory),
            Some(r) => assert!(*r == trajectory, "{threads} threads diverged"),
        }
    }
}
