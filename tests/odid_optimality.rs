//! OD, OD with simple and full ID (also with the constraint tree over merges,
//! `odid-split`), and the joint A* find plans of the same
//! (optimal) cost on small random instances, 4- and 8-connected, and every
//! plan passes the independent validator. On the rare instance with no plan
//! at all (units that cannot pass each other in a corridor) they all agree.

use std::sync::Arc;

use proptest::prelude::*;
use throng::map::{generate_map, random_instance, Connectivity, GeneratorSpec, Instance};
use throng::planner::odid::{
    plan_cost, solve, Limits, OptimalAlgorithm, SolveOutcome, SolveStatus,
};
use throng::validate::validate_steps;

fn instance(w: u32, h: u32, eight: bool, units: usize, seed: u64) -> Option<Instance> {
    let spec = GeneratorSpec {
        width: w,
        height: h,
        density: 0.2,
    };
    let conn = if eight {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    let grid = generate_map(spec, conn, seed).with_corner_cutting(eight);
    if grid.passable_count() < units + 2 {
        return None;
    }
    random_instance(Arc::new(grid), units, seed).ok()
}

/// Checks a solved outcome's plan and returns its cost; `None` for "no plan exists".
fn check_plan(inst: &Instance, out: &SolveOutcome, algorithm: OptimalAlgorithm) -> Option<u64> {
    if out.status == SolveStatus::NoSolution {
        assert!(out.paths.is_none() && out.cost.is_none());
        return None;
    }
    assert!(out.is_solved(), "{algorithm}: {:?}", out.status);
    let steps = out.steps(&inst.grid).expect("a solved outcome has a plan");
    let starts: Vec<(u32, u32)> = inst.starts.iter().map(|&c| inst.grid.xy(c)).collect();
    let report = validate_steps(&inst.grid, &steps, &starts);
    assert!(report.is_valid(), "{algorithm}: {}", report.summary());
    let paths = out.paths.as_ref().expect("paths");
    for (p, &g) in paths.iter().zip(&inst.goals) {
        assert_eq!(
            *p.last().expect("non-empty path"),
            g,
            "{algorithm}: unit off its goal"
        );
    }
    let cost = out.cost.expect("cost");
    assert_eq!(
        cost,
        plan_cost(paths, &inst.goals),
        "{algorithm}: reported cost differs"
    );
    Some(cost)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn all_optimal_algorithms_agree(
        w in 3u32..=8,
        h in 3u32..=8,
        eight in any::<bool>(),
        units in 2usize..=4,
        seed in any::<u64>(),
    ) {
        let Some(inst) = instance(w, h, eight, units, seed) else {
            return Ok(());
        };
        let reference = solve(&inst, OptimalAlgorithm::Od, &Limits::none()).expect("valid instance");
        let cost = check_plan(&inst, &reference, OptimalAlgorithm::Od);
        for algorithm in [
            OptimalAlgorithm::OdSimpleId,
            OptimalAlgorithm::OdId,
            OptimalAlgorithm::AStarJointId,
            OptimalAlgorithm::OdIdSplit,
        ] {
            let out = solve(&inst, algorithm, &Limits::none()).expect("valid instance");
            prop_assert_eq!(check_plan(&inst, &out, algorithm), cost, "{}", algorithm);
        }
        // The joint A* has 9^4 successors per node: cap its memory, and compare
        // whenever it finishes (it does on most of these instances).
        let limits = Limits { nodes: Some(2_000_000), ..Limits::none() };
        let joint = solve(&inst, OptimalAlgorithm::AStarJoint, &limits).expect("valid instance");
        if joint.is_solved() || units < 4 {
            prop_assert_eq!(check_plan(&inst, &joint, OptimalAlgorithm::AStarJoint), cost);
        }
    }
}
