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
        for (spec, agents) in [("16x16:0.2", 60), ("32x32:0.2", 100), ("24x24:0.3", 40)] {
            for seed in 1..=3 {
                let spec: GeneratorSpec = spec.parse().unwrap();
                let grid = Arc::new(generate_map(spec, conn, seed));
                let inst = random_instance(grid, agents, seed).unwrap();
                for planner in planners() {
                    let mut sim = Simulation::new(
                        &inst,
                        SimConfig {
                            planner,
                            max_ticks: 100,
                            seed,
                            ..SimConfig::default()
                        },
                    );
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
                planner,
                max_ticks: 80,
                seed: 5,
                ..SimConfig::default()
            },
        )
        .run();
        assert_eq!(s.collisions, 0, "{}", planner.label());
    }
}
