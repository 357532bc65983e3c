//! The hybrid search (the seed's six steps): its fast path alone on easy
//! trips, a Directional8 search on the failing stretch when Smoothing48
//! cannot turn, and immediate failure when that stretch spans more than 12 tiles.

mod common;

use throng::map::{read_map, read_scenario, Cell, Connectivity, Grid};
use throng::motion::{Method, MotionError, MotionPlanner, MotionQuery, HYBRID_STRETCH};

fn query(g: &Grid, s: (u32, u32), t: (u32, u32), radius: f64) -> MotionQuery {
    MotionQuery {
        start: g.cell(s.0, s.1),
        start_heading: None,
        goal: g.cell(t.0, t.1),
        radius,
        width: 0.5,
        reverse_penalty: None,
        min_radius: None,
    }
}

#[test]
fn open_ground_needs_only_the_fast_path() {
    let g = Grid::new(30, 12, vec![true; 360], Connectivity::Eight);
    let plan = MotionPlanner::new()
        .plan(&g, &query(&g, (1, 1), (27, 10), 1.0), Method::Hybrid)
        .unwrap();
    assert_eq!(plan.fast_path, Some(true));
    // Smoothing leaves far fewer legs than the 4-connected grid path has steps.
    assert!(plan.curve.curves.len() < plan.grid_path.len() / 4);
}

#[test]
fn failing_stretches_are_searched_or_refused_by_size() {
    let dir = common::small_maps();
    let g = read_map(&dir.join("random-64-64-20.map"), Connectivity::Eight).unwrap();
    let mut planner = MotionPlanner::new();
    // A trip where Smoothing48 fails and Directional8 repairs the stretch (docs/motion-random64-hybrid.svg).
    let plan = planner
        .plan(&g, &query(&g, (56, 42), (14, 60), 1.0), Method::Hybrid)
        .unwrap();
    assert_eq!(plan.fast_path, Some(false));
    let end = plan.curve.pose_at(plan.curve.length()).point();
    assert!((end.x - 14.5).abs() < 1e-6 && (end.y - 60.5).abs() < 1e-6);
    // With radius 2 some trips fail for a stretch longer than 12 tiles, at once.
    let scen = read_scenario(&dir.join("scen/random-64-64-20-random-1.scen")).unwrap();
    let mut too_long = 0;
    for e in scen
        .entries
        .iter()
        .filter(|e| e.optimal_length > 10.0)
        .take(50)
    {
        let (s, t): (Cell, Cell) = (g.cell(e.start.0, e.start.1), g.cell(e.goal.0, e.goal.1));
        let q = MotionQuery {
            start: s,
            goal: t,
            ..query(&g, (0, 0), (0, 0), 2.0)
        };
        if let Err(MotionError::StretchTooLong { dx, dy, limit }) =
            planner.plan(&g, &q, Method::Hybrid)
        {
            assert_eq!(limit, HYBRID_STRETCH);
            assert!(dx > limit || dy > limit);
            too_long += 1;
        }
    }
    assert!(too_long > 0, "no trip hit the 12-tile rule");
}
