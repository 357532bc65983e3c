//! The weighted spatial A* finds paths of the same cost as the `pathfinding`
//! crate's `astar` and as the MovingAI scenarios' optimal lengths, with and
//! without time slicing (the bench's check, run as a plain test).

mod common;

use std::path::Path;

use throng::map::{read_map, read_scenario, Cell, Connectivity, Grid};
use throng::search::{MoveCosts, SearchStatus, SpatialAStar};

fn reference(g: &Grid, s: Cell, t: Cell) -> Option<u32> {
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
    .map(|(_, c)| c)
}

/// Checks the first 25 rows of each map's second random scenario in `dir`;
/// returns how many were checked.
fn check(dir: &Path, names: &[&str]) -> usize {
    let mut checked = 0;
    for &name in names {
        let g = read_map(&dir.join(format!("{name}.map")), Connectivity::Eight).unwrap();
        let scen = read_scenario(&dir.join(format!("scen/{name}-random-2.scen"))).unwrap();
        let mut astar = SpatialAStar::new(&g);
        let mut path = Vec::new();
        for e in scen.entries.iter().take(25) {
            let (s, t) = (g.cell(e.start.0, e.start.1), g.cell(e.goal.0, e.goal.1));
            let ours = astar
                .search_weighted(&g, s, t, &MoveCosts::octile(), &mut path)
                .unwrap();
            assert_eq!(Some(ours), reference(&g, s, t), "{name} line {}", e.line);
            let len = ours as f64 / MoveCosts::SCALE as f64;
            assert!(
                (len - e.optimal_length).abs() < 1e-3 * e.optimal_length.max(1.0),
                "{name} line {}: {len} vs {}",
                e.line,
                e.optimal_length
            );
            // The path is a chain of legal moves from s to t.
            assert_eq!((path[0], *path.last().unwrap()), (s, t));
            assert!(path.windows(2).all(|w| g.is_move(w[0], w[1])));
            // Time-sliced: 64 expansions per call give the same cost.
            assert_eq!(
                astar.begin(&g, s, t, &MoveCosts::octile()),
                SearchStatus::InProgress
            );
            let sliced = loop {
                match astar.resume(&g, &MoveCosts::octile(), 64, &mut path) {
                    SearchStatus::InProgress => continue,
                    other => break other,
                }
            };
            assert_eq!(sliced, SearchStatus::Found(ours));
            checked += 1;
        }
    }
    checked
}

#[test]
fn same_costs_as_pathfinding_and_the_scenarios() {
    let names = ["random-64-64-20", "maze-32-32-2", "warehouse-10-20-10-2-1"];
    assert_eq!(check(&common::small_maps(), &names), 75);
}

#[test]
#[ignore = "needs the large benchmark maps: set THRONG_BENCHMARK_MAPS"]
fn same_costs_as_pathfinding_and_the_scenarios_on_den520d() {
    assert_eq!(check(&common::benchmark_maps(), &["den520d"]), 25);
}
