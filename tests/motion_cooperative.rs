//! Smoothing an executed grid trajectory (one cell per tick) never leaves the
//! cells the unit holds: at any time between ticks k and k+1 the unit's centre
//! is inside cell k or cell k+1 (and for 4-connected moves so is a diamond of
//! width 0.5), and the motion is continuous in position and heading. So a
//! unit turning round a corner never cuts through the cell another unit holds there.

use throng::map::{generate_map, Cell, Connectivity, GeneratorSpec, Grid};
use throng::motion::{wrap_pi, Point, SmoothedTrajectory};
use throng::search::{MoveCosts, SpatialAStar};

fn inside_closed(g: &Grid, c: Cell, p: Point) -> bool {
    let (x, y) = g.xy(c);
    let eps = 1e-9;
    p.x >= x as f64 - eps
        && p.x <= x as f64 + 1.0 + eps
        && p.y >= y as f64 - eps
        && p.y <= y as f64 + 1.0 + eps
}

fn trajectories(g: &Grid, costs: &MoveCosts) -> Vec<Vec<Cell>> {
    let free: Vec<Cell> = (0..g.cell_count() as u32)
        .map(Cell)
        .filter(|&c| g.is_passable(c))
        .collect();
    let mut astar = SpatialAStar::new(g);
    let mut out = Vec::new();
    for i in 0..6 {
        let (s, t) = (
            free[(i * 211) % free.len()],
            free[(free.len() - 1 - i * 97) % free.len()],
        );
        let mut path = Vec::new();
        if astar.search_weighted(g, s, t, costs, &mut path).is_some() {
            // Waits, as a cooperative planner inserts them to let others pass.
            let mut traj = Vec::new();
            for (k, &c) in path.iter().enumerate() {
                traj.push(c);
                if k % 5 == 2 {
                    traj.push(c);
                    traj.push(c);
                }
            }
            out.push(traj);
        }
    }
    out
}

fn check(g: &Grid, traj: &[Cell], width: f64) {
    let s = SmoothedTrajectory::new(g, traj);
    let samples = s.samples(100);
    let h = width / 2.0;
    for w in samples.windows(2) {
        let ((t0, p0), (_, p1)) = (w[0], w[1]);
        assert!(p0.dist(p1) < 0.03, "position jumps at t = {t0}");
    }
    for &(t, p) in &samples {
        let (a, b) = (
            traj[t.floor() as usize],
            traj[(t.ceil() as usize).min(traj.len() - 1)],
        );
        for (ox, oy) in [(0.0, 0.0), (h, 0.0), (-h, 0.0), (0.0, h), (0.0, -h)] {
            let q = Point::new(p.x + ox, p.y + oy);
            assert!(
                inside_closed(g, a, q) || inside_closed(g, b, q),
                "at t = {t} the point {q:?} is outside the held cells {:?} and {:?}",
                g.xy(a),
                g.xy(b)
            );
        }
    }
    // Heading turns smoothly: no jump between samples 1/100 tick apart while moving.
    let mut last = None;
    for &(t, _) in &samples {
        let now = s.heading_at(t);
        if let (Some(a), Some(b)) = (last, now) {
            assert!(wrap_pi(b - a).abs() < 0.2, "heading jumps at t = {t}");
        }
        last = now;
    }
    // Ticks are exact: at tick k the unit is at cell k's centre or on its way through it.
    for (k, &c) in traj.iter().enumerate() {
        assert!(inside_closed(g, c, s.position_at(k as f64)));
    }
}

#[test]
fn smoothed_trajectories_stay_in_held_cells() {
    let g = generate_map(
        GeneratorSpec {
            width: 32,
            height: 32,
            density: 0.2,
        },
        Connectivity::Eight,
        3,
    );
    let four = trajectories(&g, &MoveCosts::four());
    let eight = trajectories(&g, &MoveCosts::octile());
    assert!(four.len() >= 4 && eight.len() >= 4);
    for t in &four {
        check(&g, t, 0.5);
    }
    for t in &eight {
        check(&g, t, 0.0);
    }
}

#[test]
fn a_turn_never_cuts_the_corner_another_unit_holds() {
    let g = Grid::new(3, 3, vec![true; 9], Connectivity::Four);
    // Unit 0 goes (0,1) -> (1,1) -> (1,0) -> (2,0); unit 1 waits on the inside corner (0,0).
    let plan = throng::io::PlanFile {
        starts: vec![(0, 1), (0, 0)],
        goals: vec![(2, 0), (0, 0)],
        steps: vec![
            vec![(0, 1), (0, 0)],
            vec![(1, 1), (0, 0)],
            vec![(1, 0), (0, 0)],
            vec![(2, 0), (0, 0)],
        ],
        ..Default::default()
    };
    let turning = SmoothedTrajectory::from_plan(&g, &plan, 0).unwrap();
    let waiting = SmoothedTrajectory::from_plan(&g, &plan, 1).unwrap();
    assert!(SmoothedTrajectory::from_plan(&g, &plan, 2).is_none());
    let mut curved = false;
    for (t, p) in turning.samples(200) {
        assert!(
            !(p.x < 1.0 && p.y < 1.0),
            "at t = {t} unit 0 is inside unit 1's cell: {p:?}"
        );
        let w = waiting.position_at(t);
        assert!((w.x - 0.5).abs() < 1e-12 && (w.y - 0.5).abs() < 1e-12);
        // The corner is rounded, not taken at a right angle through the centre.
        curved |= (t - 1.25).abs() < 1e-9 && p.x > 1.0 && p.x < 1.5 && p.y > 1.0 && p.y < 1.5;
    }
    assert!(curved);
}
