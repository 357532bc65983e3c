//! The optimal solver follows the seed's rules (following and rotations are
//! legal, a unit may enter a cell its neighbour leaves in the same tick) and
//! ends cleanly with a status when a limit passes or an instance is malformed.

use std::sync::Arc;
use std::time::Duration;

use throng::map::{generate_map, random_instance, Cell, Connectivity, Grid, Instance};
use throng::planner::odid::{solve, Limits, OdidError, OptimalAlgorithm, SolveStatus};
use throng::validate::validate_plan;

fn open_instance(
    w: u32,
    h: u32,
    conn: Connectivity,
    starts: &[(u32, u32)],
    goals: &[(u32, u32)],
) -> Instance {
    let grid = Arc::new(Grid::new(w, h, vec![true; (w * h) as usize], conn));
    let cells = |v: &[(u32, u32)]| {
        v.iter()
            .map(|&(x, y)| grid.cell(x, y))
            .collect::<Vec<Cell>>()
    };
    Instance {
        starts: cells(starts),
        goals: cells(goals),
        grid: grid.clone(),
        map_name: "test".into(),
    }
}

#[test]
fn units_follow_each_other_in_one_tick() {
    // The seed's figure 3 point: unit 0 must move into the cell unit 1 leaves.
    let inst = open_instance(
        3,
        1,
        Connectivity::Four,
        &[(0, 0), (1, 0)],
        &[(1, 0), (2, 0)],
    );
    for algorithm in OptimalAlgorithm::ALL {
        let out = solve(&inst, algorithm, &Limits::none()).unwrap();
        assert_eq!(out.cost, Some(2), "{algorithm}");
    }
}

#[test]
fn four_units_rotate_in_a_square() {
    let cycle = [(0, 0), (1, 0), (1, 1), (0, 1)];
    let goals = [cycle[1], cycle[2], cycle[3], cycle[0]];
    let inst = open_instance(2, 2, Connectivity::Four, &cycle, &goals);
    for algorithm in OptimalAlgorithm::ALL {
        let out = solve(&inst, algorithm, &Limits::none()).unwrap();
        assert_eq!(out.cost, Some(4), "{algorithm}");
        assert_eq!(
            out.paths.as_ref().unwrap()[0].len(),
            2,
            "{algorithm}: one tick"
        );
        let plan = out.to_plan_file(&inst, algorithm.name()).unwrap();
        assert_eq!((plan.soc, plan.makespan, plan.steps.len()), (4, 1, 2));
        assert!(validate_plan(&inst.grid, &plan).is_valid());
    }
}

#[test]
fn time_limit_ends_a_hard_search_cleanly() {
    let grid = generate_map("32x32:0.2".parse().unwrap(), Connectivity::Eight, 5)
        .with_corner_cutting(true);
    let inst = random_instance(Arc::new(grid), 40, 5).unwrap();
    let limits = Limits::time(Duration::from_millis(30));
    let out = solve(&inst, OptimalAlgorithm::Od, &limits).unwrap();
    assert_eq!(out.status, SolveStatus::TimeLimit);
    assert!(out.paths.is_none() && out.cost.is_none());
    assert_eq!(out.largest_group, 40);
    assert!(
        out.elapsed < Duration::from_millis(500),
        "{:?}",
        out.elapsed
    );
}

#[test]
fn node_limit_bounds_memory() {
    let grid = generate_map("32x32:0.2".parse().unwrap(), Connectivity::Eight, 6)
        .with_corner_cutting(true);
    let inst = random_instance(Arc::new(grid), 30, 6).unwrap();
    let limits = Limits {
        time: None,
        nodes: Some(10_000),
        ..Limits::none()
    };
    let out = solve(&inst, OptimalAlgorithm::AStarJoint, &limits).unwrap();
    assert_eq!(out.status, SolveStatus::NodeLimit);
    assert!(out.stats.peak_nodes <= 10_001, "{:?}", out.stats);
}

#[test]
fn id_reports_independent_groups() {
    // Two far-apart pairs: full ID keeps all four units in singleton groups.
    let inst = open_instance(
        9,
        3,
        Connectivity::Four,
        &[(0, 0), (0, 2), (8, 0), (8, 2)],
        &[(2, 0), (2, 2), (6, 0), (6, 2)],
    );
    let out = solve(&inst, OptimalAlgorithm::OdId, &Limits::none()).unwrap();
    assert_eq!(out.cost, Some(8));
    assert_eq!(out.largest_group, 1);
    assert_eq!(out.groups.len(), 4);
}

#[test]
fn malformed_instances_are_errors() {
    let mut inst = open_instance(
        3,
        1,
        Connectivity::Four,
        &[(0, 0), (1, 0)],
        &[(2, 0), (2, 0)],
    );
    assert!(matches!(
        solve(&inst, OptimalAlgorithm::OdId, &Limits::none()),
        Err(OdidError::NotDistinct { unit: 1, .. })
    ));
    let grid = Arc::new(Grid::new(3, 1, vec![true, false, true], Connectivity::Four));
    inst.grid = grid.clone();
    inst.starts = vec![grid.cell(0, 0)];
    inst.goals = vec![grid.cell(2, 0)];
    assert_eq!(
        solve(&inst, OptimalAlgorithm::Od, &Limits::none()).unwrap_err(),
        OdidError::Unreachable { unit: 0 }
    );
}
