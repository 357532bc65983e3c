//! Every planner's executed plans pass the independent validator on generated
//! maps, 4- and 8-connected, crowded and sparse, and none leaves a unit stranded
//! by a collision (the engine counts validator violations as collisions).

use std::sync::Arc;

use throng::engine::{SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Connectivity, GeneratorSpec};
use throng::planner::PlannerKind;

fn planners() -> [PlannerKind; 6] {
    [
        PlannerKind::Lra,
        PlannerKind::Ca,
        PlannerKind::Hca,
        PlannerKind::Whca { window: 4 },
        PlannerKind::Whca { window: 8 },
        PlannerKind::Whca { window: 16 },
    ]
}

#[test]
fn all_planners_produce_valid_plans_on_generated_maps() {
    for conn in [Connectivity::Four, Connectivity::Eight] {
        for (spec, units) in [("16x16:0.2", 60), ("32x32:0.2", 100), ("24x24:0.3", 40)] {
            for seed in 1..=3 {
                let spec: GeneratorSpec = spec.parse().unwrap();
                let grid = Arc::new(generate_map(spec, conn, seed));
                let inst = random_instance(grid, units, seed).unwrap();
                for planner in planners() {
                    let mut sim = Simulation::new(
                        &inst,
                        SimConfig {
                            history: throng::engine::History::Full,
                            planner,
                            max_ticks: 100,
                            seed,
                            ..SimConfig::default()
                        },
                    )
                    .expect("a valid instance");
                    let s = sim.run();
                    assert_eq!(
                        s.collisions,
                        0,
                        "{} {conn:?} seed {seed}: {s:?}",
                        planner.label()
                    );
                    assert!(s.reached > 0, "{} made no progress", planner.label());
                }
            }
        }
    }
}

#[test]
fn corner_cutting_maps_stay_valid() {
    let grid = Arc::new(
        generate_map("20x20:0.25".parse().unwrap(), Connectivity::Eight, 5)
            .with_corner_cutting(true),
    );
    let inst = random_instance(grid, 50, 5).unwrap();
    for planner in planners() {
        let s = Simulation::new(
            &inst,
            SimConfig {
                history: throng::engine::History::Full,
                planner,
                max_ticks: 80,
                seed: 5,
                ..SimConfig::default()
            },
        )
        .expect("a valid instance")
        .run();
        assert_eq!(s.collisions, 0, "{}", planner.label());
    }
}

/// WHCA*'s initial planning lets earlier units route through later units'
/// starts. Here unit 0 plans straight along a one-wide corridor through
/// unit 1's start, and unit 1, parked on its goal, cannot get out of the
/// way: its start must be pinned and unit 0 must plan again around it. No
/// collision, whatever the window.
#[test]
fn a_unit_that_cannot_leave_its_start_is_pinned_there() {
    use throng::map::{Grid, Instance};
    let grid = Arc::new(Grid::from_rows(&["......"], Connectivity::Four));
    let c = |x: u32| grid.cell(x, 0);
    let inst = Instance {
        grid: grid.clone(),
        starts: vec![c(0), c(3)],
        goals: vec![c(5), c(3)],
        map_name: "corridor".into(),
    };
    for window in [2, 4, 8, 16] {
        let mut sim = Simulation::new(
            &inst,
            SimConfig {
                history: throng::engine::History::Full,
                planner: PlannerKind::Whca { window },
                max_ticks: 30,
                ..SimConfig::default()
            },
        )
        .expect("a valid instance");
        let s = sim.run();
        assert_eq!(s.collisions, 0, "window {window}: {s:?}");
        let trajectory = sim.trajectory();
        for tick in trajectory.chunks(2) {
            assert_ne!(tick[0], tick[1], "window {window}: shared cell");
        }
    }
}
