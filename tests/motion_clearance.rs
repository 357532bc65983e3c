//! Every smoothed or curved path keeps a unit of the given width off blocked
//! cells, as seen by an independent sampler (every 0.01 tile, exact points,
//! positions computed from the segments here), on generated and benchmark maps.

mod common;

use std::path::Path;

use throng::map::{generate_map, read_map, read_scenario, Cell, Connectivity, GeneratorSpec, Grid};
use throng::motion::{Curve, Method, MotionPlanner, MotionQuery, Point, Segment};

/// Position at distance `d` along a segment, computed independently of the library.
fn at(s: &Segment, d: f64) -> Point {
    match *s {
        Segment::Line { start, heading, .. } => {
            Point::new(start.x + d * heading.cos(), start.y + d * heading.sin())
        }
        Segment::Arc {
            centre,
            radius,
            start_angle,
            turn,
            ..
        } => {
            let a = start_angle + turn.sign() * d / radius;
            Point::new(centre.x + radius * a.cos(), centre.y + radius * a.sin())
        }
    }
}

fn free(g: &Grid, x: f64, y: f64) -> bool {
    let (cx, cy) = (x.floor(), y.floor());
    cx >= 0.0
        && cy >= 0.0
        && g.cell_checked(cx as i64, cy as i64)
            .is_some_and(|c| g.is_passable(c))
}

/// The first point where the unit's centre or diamond touches a blocked cell.
fn first_collision(g: &Grid, curves: &[Curve], width: f64) -> Option<Point> {
    let h = width / 2.0;
    for c in curves {
        for s in c.segments() {
            let n = (s.length() / 0.01).ceil() as usize;
            for i in 0..=n {
                let p = at(s, s.length() * i as f64 / n.max(1) as f64);
                for (ox, oy) in [(0.0, 0.0), (h, 0.0), (-h, 0.0), (0.0, h), (0.0, -h)] {
                    if !free(g, p.x + ox, p.y + oy) {
                        return Some(p);
                    }
                }
            }
        }
    }
    None
}

const CURVED: [Method; 6] = [
    Method::Smooth,
    Method::Smooth48,
    Method::Directional(throng::motion::Neighborhood::D8),
    Method::Directional(throng::motion::Neighborhood::D24),
    Method::Directional(throng::motion::Neighborhood::D48),
    Method::Hybrid,
];

/// Plans every query with every curved method; checks each success; returns successes per method.
fn check_all(
    planner: &mut MotionPlanner,
    g: &Grid,
    queries: &[(Cell, Cell)],
    radius: f64,
    width: f64,
) -> Vec<usize> {
    let mut ok = vec![0; CURVED.len()];
    for &(s, t) in queries {
        for (k, &m) in CURVED.iter().enumerate() {
            let q = MotionQuery {
                start: s,
                start_heading: None,
                goal: t,
                radius,
                width,
                reverse_penalty: None,
                // Smooth may slow down to turn tighter: those curves must be clear too.
                min_radius: (m == Method::Smooth).then_some(radius / 3.0),
            };
            if let Ok(plan) = planner.plan(g, &q, m) {
                ok[k] += 1;
                if let Some(p) = first_collision(g, &plan.curve.curves, width) {
                    panic!(
                        "{} from {:?} to {:?}: the unit hits a blocked cell at {p:?}",
                        m.name(),
                        g.xy(s),
                        g.xy(t)
                    );
                }
                let end = plan.curve.pose_at(plan.curve.length()).point();
                assert!(
                    end.dist(Point::centre(g, t)) < 1e-6,
                    "{} ends at {end:?}",
                    m.name()
                );
            }
        }
    }
    ok
}

#[test]
fn generated_maps() {
    let mut total = vec![0; CURVED.len()];
    // One planner for all maps: its tables depend only on the unit.
    let mut planner = MotionPlanner::new();
    for seed in 0..3 {
        let spec = GeneratorSpec {
            width: 40,
            height: 40,
            density: 0.1,
        };
        let g = generate_map(spec, Connectivity::Eight, seed);
        let free: Vec<Cell> = (0..g.cell_count() as u32)
            .map(Cell)
            .filter(|&c| g.is_passable(c))
            .collect();
        let queries: Vec<(Cell, Cell)> = (0..4)
            .map(|i| {
                (
                    free[(i * 397 + seed as usize * 31) % free.len()],
                    free[(i * 911 + 123) % free.len()],
                )
            })
            .filter(|(a, b)| a != b)
            .collect();
        for (t, n) in total
            .iter_mut()
            .zip(check_all(&mut planner, &g, &queries, 1.0, 0.5))
        {
            *t += n;
        }
    }
    eprintln!("successes per method on 12 generated trips: {total:?}");
    for (m, n) in CURVED.iter().zip(&total) {
        assert!(
            *n > 0,
            "{} never succeeded: the check would be vacuous",
            m.name()
        );
    }
}

/// Four short trips from the first random scenario of each map in `dir`,
/// checked with every curved method; every method must succeed somewhere.
fn benchmark_maps(dir: &Path, names: &[&str]) {
    let mut total = vec![0; CURVED.len()];
    // One planner for all maps: its tables depend only on the unit.
    let mut planner = MotionPlanner::new();
    for &name in names {
        let g = read_map(&dir.join(format!("{name}.map")), Connectivity::Eight).unwrap();
        let scen = read_scenario(&dir.join(format!("scen/{name}-random-1.scen"))).unwrap();
        // Short trips keep the directional searches quick.
        let queries: Vec<(Cell, Cell)> = scen
            .entries
            .iter()
            .filter(|e| e.optimal_length > 5.0 && e.optimal_length < 30.0)
            .take(4)
            .map(|e| (g.cell(e.start.0, e.start.1), g.cell(e.goal.0, e.goal.1)))
            .collect();
        for (t, n) in total
            .iter_mut()
            .zip(check_all(&mut planner, &g, &queries, 1.0, 0.5))
        {
            *t += n;
        }
    }
    eprintln!("successes per method on {names:?}: {total:?}");
    for (m, n) in CURVED.iter().zip(&total) {
        assert!(*n > 0, "{} never succeeded on {names:?}", m.name());
    }
}

#[test]
fn small_benchmark_maps() {
    benchmark_maps(
        &common::small_maps(),
        &["random-64-64-20", "maze-32-32-2", "warehouse-10-20-10-2-1"],
    );
}

#[test]
#[ignore = "needs the large benchmark maps: set THRONG_BENCHMARK_MAPS"]
fn large_benchmark_maps() {
    benchmark_maps(&common::benchmark_maps(), &["den520d", "brc202d"]);
}
