//! Units ordered to one place share one true-distance table instead of each
//! running its own search, and still never collide.

use std::sync::Arc;

use throng::engine::{SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Cell, Connectivity};
use throng::planner::PlannerKind;

#[test]
fn a_group_with_one_goal_shares_one_table() {
    let grid = Arc::new(generate_map(
        "40x40:0.15".parse().unwrap(),
        Connectivity::Four,
        2,
    ));
    let mut inst = random_instance(grid.clone(), 150, 2).unwrap();
    let rally: Cell = inst.goals[0];
    for g in inst.goals.iter_mut().take(100) {
        *g = rally;
    }
    let mut sim = Simulation::new(
        &inst,
        SimConfig {
            history: throng::engine::History::Full,
            planner: PlannerKind::Whca { window: 16 },
            max_ticks: 120,
            ..SimConfig::default()
        },
    )
    .expect("a valid instance");
    let s = sim.run();
    assert_eq!(s.collisions, 0);
    let stats = s.searches;
    assert!(stats > 0);
    let summary_tables = sim.planner_stats().shared_distance_tables;
    assert_eq!(
        summary_tables, 1,
        "100 units bound for one cell share one table"
    );
    // One of the group stands on the rally point at the end; the others crowd near it.
    let last = &sim.trajectory()[sim.trajectory().len() - inst.len()..];
    assert_eq!(last[..100].iter().filter(|&&c| c == rally).count(), 1);
    let near = last[..100]
        .iter()
        .filter(|&&c| grid.grid_distance(c, rally) <= 12)
        .count();
    assert!(
        near >= 80,
        "only {near} of the group gathered near the rally point"
    );
}
