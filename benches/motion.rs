//! Motion benchmarks on the MovingAI maps, each also a test: our spatial A*
//! against the `pathfinding` crate's `astar` on the same scenario rows
//! (equal costs asserted, and equal to the scenario's optimal length),
//! smoothing (Listing 1 and Smoothing48), Directional8/24/48 and the hybrid
//! (how often its fast path sufficed is printed).

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion};
use throng::map::{read_map, read_scenario, Cell, Connectivity, Grid};
use throng::motion::{
    simple_smooth, smoothing48, DirectionalAStar, DirectionalConfig, DirectionalQuery, Footprint,
    HitTable, Method, MotionPlanner, MotionQuery, Neighborhood, Point, StartHeading,
};
use throng::search::{MoveCosts, SpatialAStar};

const RADIUS: f64 = 1.0;
const WIDTH: f64 = 0.5;

fn maps_dir() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        here.join("../shared/maps/movingai"),
        here.join("../../shared/maps/movingai"),
    ];
    match candidates.iter().find(|p| p.is_dir()) {
        Some(dir) => dir.clone(),
        None => panic!(
            "the MovingAI benchmark maps are not beside the repository: looked in {} and {}",
            candidates[0].display(),
            candidates[1].display()
        ),
    }
}

/// The map and the rows of its first random scenario with optimal length in `[lo, hi)`, at most `n`.
fn load(name: &str, lo: f64, hi: f64, n: usize) -> (Grid, Vec<(Cell, Cell, f64)>) {
    let dir = maps_dir();
    let g = read_map(&dir.join(format!("{name}.map")), Connectivity::Eight).expect("map");
    let s = read_scenario(&dir.join(format!("scen/{name}-random-1.scen"))).expect("scenario");
    let rows = s
        .entries
        .iter()
        .filter(|e| e.optimal_length >= lo && e.optimal_length < hi)
        .take(n)
        .map(|e| {
            (
                g.cell(e.start.0, e.start.1),
                g.cell(e.goal.0, e.goal.1),
                e.optimal_length,
            )
        })
        .collect();
    (g, rows)
}

fn reference_astar(g: &Grid, s: Cell, t: Cell) -> Option<(Vec<Cell>, u32)> {
    let (tx, ty) = g.xy(t);
    pathfinding::directed::astar::astar(
        &s,
        |&c| {
            let mut buf = [Cell(0); 8];
            let n = g.neighbors(c, &mut buf);
            let (x, y) = g.xy(c);
            buf[..n]
                .iter()
                .map(|&nb| {
                    let (nx, ny) = g.xy(nb);
                    (
                        nb,
                        if nx != x && ny != y {
                            14_142u32
                        } else {
                            10_000
                        },
                    )
                })
                .collect::<Vec<_>>()
        },
        |&c| {
            let (x, y) = g.xy(c);
            let (dx, dy) = (x.abs_diff(tx), y.abs_diff(ty));
            10_000 * dx.max(dy) + 4_142 * dx.min(dy)
        },
        |&c| c == t,
    )
}

fn astar_vs_pathfinding(c: &mut Criterion) {
    let mut group = c.benchmark_group("astar");
    group.sample_size(10);
    for name in ["den520d", "brc202d", "random-64-64-20", "maze-32-32-2"] {
        let (g, rows) = load(name, 0.0, f64::MAX, 100);
        let mut ours = SpatialAStar::new(&g);
        let mut path = Vec::new();
        // The bench is also a test: the same cost as the reference and as the scenario.
        for &(s, t, opt) in &rows {
            let a = ours
                .search_weighted(&g, s, t, &MoveCosts::octile(), &mut path)
                .expect("our path");
            let (_, b) = reference_astar(&g, s, t).expect("reference path");
            assert_eq!(
                a,
                b,
                "{name}: costs differ from {:?} to {:?}",
                g.xy(s),
                g.xy(t)
            );
            assert!(
                (a as f64 / 10_000.0 - opt).abs() < 1e-3 * opt.max(1.0),
                "{name}: {a} vs optimal {opt}"
            );
        }
        group.bench_function(format!("throng/{name}/{}rows", rows.len()), |b| {
            b.iter(|| {
                for &(s, t, _) in &rows {
                    black_box(ours.search_weighted(&g, s, t, &MoveCosts::octile(), &mut path));
                }
            })
        });
        group.bench_function(format!("pathfinding/{name}/{}rows", rows.len()), |b| {
            b.iter(|| {
                for &(s, t, _) in &rows {
                    black_box(reference_astar(&g, s, t));
                }
            })
        });
    }
    group.finish();
}

fn smoothing(c: &mut Criterion) {
    let mut group = c.benchmark_group("smoothing");
    group.sample_size(10);
    let (g, rows) = load("den520d", 10.0, 60.0, 50);
    let mut astar = SpatialAStar::new(&g);
    let paths: Vec<Vec<Cell>> = rows
        .iter()
        .map(|&(s, t, _)| {
            let mut p = Vec::new();
            astar.search_weighted(&g, s, t, &MoveCosts::octile(), &mut p);
            p
        })
        .collect();
    let fp = Footprint::new(WIDTH);
    let points: Vec<Vec<Point>> = paths
        .iter()
        .map(|p| p.iter().map(|&c| Point::centre(&g, c)).collect())
        .collect();
    let table = HitTable::build(RADIUS, WIDTH, 3);
    let ok48 = paths
        .iter()
        .filter(|p| smoothing48(&g, &table, p, StartHeading::Free, None).is_ok())
        .count();
    eprintln!(
        "smoothing48 succeeded on {ok48} of {} den520d paths",
        paths.len()
    );
    group.bench_function(format!("listing1/den520d/{}paths", paths.len()), |b| {
        b.iter(|| {
            for p in &points {
                black_box(simple_smooth(&g, &fp, p));
            }
        })
    });
    group.bench_function(format!("smoothing48/den520d/{}paths", paths.len()), |b| {
        b.iter(|| {
            for p in &paths {
                let _ = black_box(smoothing48(&g, &table, p, StartHeading::Free, None));
            }
        })
    });
    group.bench_function("tables/hit48+heuristic", |b| {
        b.iter(|| {
            black_box(DirectionalAStar::new(DirectionalConfig::new(
                Neighborhood::D48,
                RADIUS,
                WIDTH,
            )))
        })
    });
    group.finish();
}

fn directional(c: &mut Criterion) {
    let mut group = c.benchmark_group("directional");
    group.sample_size(10);
    for name in ["den520d", "random-64-64-20"] {
        let (g, rows) = load(name, 10.0, 30.0, 10);
        for n in [Neighborhood::D8, Neighborhood::D24, Neighborhood::D48] {
            let mut d = DirectionalAStar::new(DirectionalConfig::new(n, RADIUS, WIDTH));
            let ok = rows
                .iter()
                .filter(|&&(s, t, _)| {
                    d.search(&g, &DirectionalQuery::new(s, StartHeading::Free, t))
                        .is_ok()
                })
                .count();
            eprintln!("{} on {name}: {ok} of {} rows legal", n.name(), rows.len());
            group.bench_function(format!("{}/{name}/{}rows", n.name(), rows.len()), |b| {
                b.iter(|| {
                    for &(s, t, _) in &rows {
                        let _ = black_box(
                            d.search(&g, &DirectionalQuery::new(s, StartHeading::Free, t)),
                        );
                    }
                })
            });
        }
        let mut planner = MotionPlanner::new();
        let query = |s, t| MotionQuery {
            start: s,
            start_heading: None,
            goal: t,
            radius: RADIUS,
            width: WIDTH,
            reverse_penalty: None,
            min_radius: None,
        };
        let (mut fast, mut slow, mut failed) = (0, 0, 0);
        for &(s, t, _) in &rows {
            match planner.plan(&g, &query(s, t), Method::Hybrid) {
                Ok(p) if p.fast_path == Some(true) => fast += 1,
                Ok(_) => slow += 1,
                Err(_) => failed += 1,
            }
        }
        eprintln!(
            "hybrid on {name}: fast path {fast}, Directional8 stretch {slow}, failed {failed}"
        );
        group.bench_function(format!("hybrid/{name}/{}rows", rows.len()), |b| {
            b.iter(|| {
                for &(s, t, _) in &rows {
                    let _ = black_box(planner.plan(&g, &query(s, t), Method::Hybrid));
                }
            })
        });
    }
    group.finish();
}

/// Not timed: how often each method finds a legal route, and how often the
/// hybrid's fast path suffices, over 50 scenario rows of length 10 to 60 per map
/// and radius.
fn success_rates(_: &mut Criterion) {
    let methods = [
        Method::Smooth,
        Method::Smooth48,
        Method::Directional(Neighborhood::D8),
        Method::Directional(Neighborhood::D24),
        Method::Directional(Neighborhood::D48),
        Method::Hybrid,
    ];
    for (name, radius) in [
        ("den520d", RADIUS),
        ("random-64-64-20", RADIUS),
        ("maze-32-32-2", RADIUS),
        ("room-32-32-4", RADIUS),
        ("warehouse-10-20-10-2-1", RADIUS),
        ("den520d", 2.0),
        ("random-64-64-20", 2.0),
        ("maze-32-32-2", 2.0),
        ("room-32-32-4", 2.0),
    ] {
        let (g, rows) = load(name, 10.0, 60.0, 50);
        let mut planner = MotionPlanner::new();
        let mut ok = [0usize; 6];
        let mut fast = 0;
        for &(s, t, _) in &rows {
            let q = MotionQuery {
                start: s,
                start_heading: None,
                goal: t,
                radius,
                width: WIDTH,
                reverse_penalty: None,
                min_radius: None,
            };
            for (k, &m) in methods.iter().enumerate() {
                if let Ok(p) = planner.plan(&g, &q, m) {
                    ok[k] += 1;
                    fast += usize::from(p.fast_path == Some(true));
                }
            }
        }
        let cells: Vec<String> = methods
            .iter()
            .zip(ok)
            .map(|(m, n)| format!("{} {n}", m.name()))
            .collect();
        eprintln!(
            "legal routes on {name} ({} rows, radius {radius}, width {WIDTH}): {}; hybrid fast path {fast}",
            rows.len(),
            cells.join(", ")
        );
    }
}

criterion_group!(
    benches,
    success_rates,
    astar_vs_pathfinding,
    smoothing,
    directional
);
criterion_main!(benches);
