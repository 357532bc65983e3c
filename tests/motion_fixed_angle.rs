//! Fixed-angle art: a planned curve turned into pieces at only 8 or 16 legal
//! headings, starting and ending where the curve does, following arcs from
//! just outside the circle and staying close to the curve.

use throng::map::{Connectivity, Grid};
use throng::motion::{fixed_angle, Method, MotionPlanner, MotionQuery, Neighborhood, Segment};

#[test]
fn pieces_point_along_legal_headings_and_follow_the_curve() {
    let rows = [
        "....................",
        "....................",
        "........@@@@........",
        "........@@@@........",
        "....................",
        "....................",
    ];
    let p = rows
        .iter()
        .flat_map(|r| r.chars().map(|c| c == '.'))
        .collect();
    let g = Grid::new(20, 6, p, Connectivity::Eight);
    let q = MotionQuery {
        start: g.cell(1, 3),
        start_heading: Some(0.0),
        goal: g.cell(18, 0),
        radius: 2.0,
        width: 0.4,
        reverse_penalty: None,
        min_radius: None,
    };
    let plan = MotionPlanner::new()
        .plan(&g, &q, Method::Directional(Neighborhood::D24))
        .unwrap();
    let curve_pts: Vec<_> = plan.curve.samples(0.05).iter().map(|s| s.point()).collect();
    for n in [8u32, 16] {
        let f = fixed_angle(&plan.curve, n);
        let step = std::f64::consts::TAU / n as f64;
        for w in f.points.windows(2) {
            if w[0].dist(w[1]) < 1e-9 {
                continue;
            }
            let a = w[0].angle_to(w[1]).rem_euclid(std::f64::consts::TAU) / step;
            assert!(
                (a - a.round()).abs() < 1e-6,
                "piece at {} steps is not a legal heading",
                a
            );
        }
        assert!(f.points[0].dist(curve_pts[0]) < 1e-9);
        assert!(f.points.last().unwrap().dist(*curve_pts.last().unwrap()) < 1e-9);
        assert_eq!(f.headings().len(), f.points.len() - 1);
        // Every vertex lies near the curve: within the polygon's overhang r(1/cos(π/N) - 1)
        // or a straight line's two-piece detour, at most L·tan(π/N)/2 for a line of length L.
        let longest = plan
            .curve
            .curves
            .iter()
            .flat_map(|c| c.segments().to_vec())
            .filter(|s| matches!(s, Segment::Line { .. }))
            .map(|s| s.length())
            .fold(0.0, f64::max);
        let half = std::f64::consts::PI / n as f64;
        let bound = 2.0 * (1.0 / half.cos() - 1.0) + longest * half.tan() / 2.0 + 0.05;
        for v in &f.points {
            let d = curve_pts
                .iter()
                .map(|c| c.dist(*v))
                .fold(f64::MAX, f64::min);
            assert!(
                d < bound,
                "{n} directions: vertex {v:?} is {d} from the curve (bound {bound})"
            );
        }
        let ratio = f.length() / plan.curve.length();
        assert!(
            ratio >= 1.0 - 1e-9 && ratio < if n == 8 { 1.15 } else { 1.05 },
            "{n}: length ratio {ratio}"
        );
    }
}
