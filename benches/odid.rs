//! OD against the standard joint-move A* on the same small instances: time per
//! solve (criterion) and nodes expanded and stored (printed once per instance).
//! Both must return the same optimal cost, or the bench panics.

use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use throng::map::{generate_map, random_instance, Connectivity, GeneratorSpec, Instance};
use throng::planner::odid::{lower_bound, solve, Limits, OptimalAlgorithm};

/// Seeded 8-connected maps with 20% obstacles and corner cutting, as in the
/// seed: for each size and unit count, the first seed whose units interact
/// (optimal cost above the sum of single-unit distances), so neither search
/// gets a perfect heuristic, and whose joint A* fits in a few million nodes.
fn instances() -> Vec<(String, Instance)> {
    // A node cap only (no clock), so the chosen instances do not depend on load.
    let limits = Limits {
        nodes: Some(3_000_000),
        ..Limits::none()
    };
    [(8u32, 3usize), (8, 4), (6, 4), (10, 5)]
        .into_iter()
        .filter_map(|(side, units)| {
            let spec = GeneratorSpec {
                width: side,
                height: side,
                density: 0.2,
            };
            (0..500u64).find_map(|seed| {
                let grid = generate_map(spec, Connectivity::Eight, seed).with_corner_cutting(true);
                let inst = random_instance(Arc::new(grid), units, seed).ok()?;
                let od = solve(&inst, OptimalAlgorithm::Od, &limits).ok()?;
                let bound = lower_bound(&inst.grid, &inst.starts, &inst.goals);
                if od.cost? <= bound + 1 {
                    return None;
                }
                solve(&inst, OptimalAlgorithm::AStarJoint, &limits)
                    .ok()?
                    .cost?;
                Some((format!("{side}x{side}-{units}u-s{seed}"), inst))
            })
        })
        .collect()
}

fn od_vs_joint(c: &mut Criterion) {
    let mut group = c.benchmark_group("od_vs_joint");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    for (name, inst) in instances() {
        let od = solve(&inst, OptimalAlgorithm::Od, &Limits::none()).expect("valid instance");
        let joint =
            solve(&inst, OptimalAlgorithm::AStarJoint, &Limits::none()).expect("valid instance");
        assert!(
            od.is_solved() && joint.is_solved(),
            "{name}: {:?} {:?}",
            od.status,
            joint.status
        );
        assert_eq!(od.cost, joint.cost, "{name}: OD and joint A* disagree");
        println!(
            "{name}: cost {:?}; OD expanded {} stored {}; joint A* expanded {} stored {}",
            od.cost,
            od.stats.expanded,
            od.stats.generated,
            joint.stats.expanded,
            joint.stats.generated
        );
        for algorithm in [OptimalAlgorithm::Od, OptimalAlgorithm::AStarJoint] {
            group.bench_with_input(
                BenchmarkId::new(algorithm.name(), &name),
                &inst,
                |b, inst| {
                    b.iter(|| solve(inst, algorithm, &Limits::none()).expect("valid instance"))
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, od_vs_joint);
criterion_main!(benches);
