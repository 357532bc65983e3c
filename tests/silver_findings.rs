//! The seed's findings on its kind of map (32×32, 20% obstacles, 100 units,
//! 100 turns), averaged over generated maps: WHCA*(16) brings at least 98% of
//! units home, LRA* clearly fewer; CA* and HCA* paths within about 20% of the
//! lower bound; WHCA* at most 1.5 cycles per unit and LRA* many times more.

use std::sync::Arc;

use throng::engine::{RunSummary, SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Connectivity};
use throng::planner::PlannerKind;

fn mean(planner: PlannerKind, maps: u64) -> (f64, f64, f64, f64) {
    let mut acc = (0.0, 0.0, 0.0, 0.0);
    for seed in 1..=maps {
        let grid = Arc::new(generate_map(
            "32x32:0.2".parse().unwrap(),
            Connectivity::Four,
            seed,
        ));
        let inst = random_instance(grid, 100, seed * 1000 + 100).unwrap();
        let s: RunSummary = Simulation::new(
            &inst,
            SimConfig {
                history: throng::engine::History::Full,
                planner,
                max_ticks: 100,
                seed,
                ..SimConfig::default()
            },
        )
        .expect("a valid instance")
        .run();
        assert_eq!(s.collisions, 0);
        acc.0 += s.success_rate;
        acc.1 += s.mean_path_len;
        acc.2 += s.lower_bound_path_len;
        acc.3 += s.cycles_per_agent;
    }
    let k = maps as f64;
    (acc.0 / k, acc.1 / k, acc.2 / k, acc.3 / k)
}

#[test]
fn seed_findings_hold_on_generated_32x32_maps() {
    let maps = 10;
    let whca = mean(PlannerKind::Whca { window: 16 }, maps);
    let lra = mean(PlannerKind::Lra, maps);
    let ca = mean(PlannerKind::Ca, maps);
    let hca = mean(PlannerKind::Hca, maps);
    assert!(whca.0 >= 0.98, "WHCA*(16) success {:.3}", whca.0);
    assert!(
        lra.0 < whca.0 - 0.02,
        "LRA* {:.3} should do clearly worse than WHCA* {:.3}",
        lra.0,
        whca.0
    );
    for (name, m) in [("CA*", ca), ("HCA*", hca)] {
        assert!(
            m.1 <= 1.25 * m.2,
            "{name} path {:.2} vs bound {:.2}",
            m.1,
            m.2
        );
    }
    assert!(whca.3 <= 1.5, "WHCA* cycles {:.2}", whca.3);
    assert!(
        lra.3 >= 4.0 * whca.3,
        "LRA* cycles {:.2} vs WHCA* {:.2}",
        lra.3,
        whca.3
    );
}
