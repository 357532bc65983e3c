//! Planned curves are continuous in position and heading (except at a
//! reversing cusp, where only the position is), never turn tighter than the
//! unit's radius, and run from the start cell's centre to the goal's.

use throng::map::{generate_map, Cell, Connectivity, GeneratorSpec};
use throng::motion::{
    arc_line_arc_all, normalize_angle, Curve, Method, MotionPlanner, MotionQuery, Neighborhood,
    Point, Pose, Segment,
};

fn heading_gap(a: f64, b: f64) -> f64 {
    let d = normalize_angle(a - b);
    d.min(std::f64::consts::TAU - d)
}

fn check_curve(c: &Curve, radius: f64) {
    let mut d = 0.0;
    let segs = c.segments();
    for (i, s) in segs.iter().enumerate() {
        if let Segment::Arc { radius: r, .. } = s {
            assert!(*r >= radius - 1e-9, "arc of radius {r} < {radius}");
        }
        d += s.length();
        if i + 1 < segs.len() {
            let end = s.pose_at(s.length());
            let next = segs[i + 1].pose_at(0.0);
            assert!(
                end.point().dist(next.point()) < 1e-6,
                "position jumps between segments"
            );
            assert!(
                heading_gap(end.heading, next.heading) < 1e-6,
                "heading jumps between segments"
            );
        }
    }
    assert!((d - c.length()).abs() < 1e-9);
}

#[test]
fn planned_curves_are_continuous_and_keep_the_radius() {
    let g = generate_map(
        GeneratorSpec {
            width: 32,
            height: 32,
            density: 0.1,
        },
        Connectivity::Eight,
        7,
    );
    let free: Vec<Cell> = (0..g.cell_count() as u32)
        .map(Cell)
        .filter(|&c| g.is_passable(c))
        .collect();
    let mut planner = MotionPlanner::new();
    let mut checked = 0;
    for i in 0..4 {
        let (s, t) = (
            free[(i * 131) % free.len()],
            free[(free.len() - 1 - i * 57) % free.len()],
        );
        for m in [
            Method::Smooth,
            Method::Smooth48,
            Method::Directional(Neighborhood::D8),
            Method::Directional(Neighborhood::D24),
            Method::Hybrid,
        ] {
            let radius = 1.2;
            let q = MotionQuery {
                start: s,
                start_heading: Some(0.3),
                goal: t,
                radius,
                width: 0.4,
                reverse_penalty: None,
                min_radius: None,
            };
            let Ok(plan) = planner.plan(&g, &q, m) else {
                continue;
            };
            checked += 1;
            let start = plan.curve.pose_at(0.0);
            assert!(
                start.point().dist(Point::centre(&g, s)) < 1e-6,
                "{}",
                m.name()
            );
            assert!(
                heading_gap(start.heading, 0.3) < 1e-6,
                "{} starts facing {}",
                m.name(),
                start.heading
            );
            assert!(
                plan.curve
                    .pose_at(plan.curve.length())
                    .point()
                    .dist(Point::centre(&g, t))
                    < 1e-6
            );
            for c in &plan.curve.curves {
                check_curve(c, radius);
            }
            for w in plan.curve.curves.windows(2) {
                let (a, b) = (w[0].pose_at(w[0].length()), w[1].pose_at(0.0));
                assert!(
                    a.point().dist(b.point()) < 1e-6,
                    "{}: position jumps between legs",
                    m.name()
                );
                if w[0].reverse == w[1].reverse {
                    assert!(
                        heading_gap(a.heading, b.heading) < 1e-6,
                        "{}: heading jumps between legs",
                        m.name()
                    );
                }
            }
            // Samples for the JSON output are at most 0.1 tile apart.
            let samples = plan.curve.samples(0.1);
            assert!(samples
                .windows(2)
                .all(|w| w[0].point().dist(w[1].point()) <= 0.1 + 1e-9));
        }
    }
    assert!(checked >= 10, "only {checked} plans succeeded");
}

#[test]
fn the_four_arc_line_arc_curves_are_continuous_with_the_radius() {
    let from = Pose::new(2.5, 3.5, 1.0);
    for (x, y, h) in [
        (9.5, 1.5, 4.0),
        (2.5, 8.5, 0.0),
        (-4.0, 3.0, 2.5),
        (3.0, 3.6, 3.0),
    ] {
        for c in arc_line_arc_all(from, Pose::new(x, y, h), 1.7)
            .into_iter()
            .flatten()
        {
            check_curve(&c, 1.7);
            let end = c.pose_at(c.length());
            assert!(end.point().dist(Point::new(x, y)) < 1e-6);
            assert!(heading_gap(end.heading, h) < 1e-6);
        }
    }
}

#[test]
fn reversing_search_uses_cusps_legally() {
    // A dead-end bay: facing into it, the unit can only leave by backing out.
    let rows = [
        "@@@@@@@@@@@@",
        "@..........@",
        "@..........@",
        "@@@@@@@@@.@@",
        "@@@@@@@@@.@@",
        "@@@@@@@@@@@@",
    ];
    let p = rows
        .iter()
        .flat_map(|r| r.chars().map(|c| c == '.'))
        .collect();
    let g = throng::map::Grid::new(12, 6, p, Connectivity::Eight);
    let q = MotionQuery {
        start: g.cell(9, 4),
        start_heading: Some(std::f64::consts::FRAC_PI_2),
        goal: g.cell(2, 1),
        radius: 1.0,
        width: 0.4,
        reverse_penalty: Some(2.0),
        min_radius: None,
    };
    let mut planner = MotionPlanner::new();
    let fwd = planner.plan(
        &g,
        &MotionQuery {
            reverse_penalty: None,
            min_radius: None,
            ..q
        },
        Method::Directional(Neighborhood::D24),
    );
    assert!(
        fwd.is_err(),
        "facing into the bay, forward driving cannot get out"
    );
    let plan = planner
        .plan(&g, &q, Method::Directional(Neighborhood::D24))
        .unwrap();
    assert!(plan.curve.curves.iter().any(|c| c.reverse));
    for c in &plan.curve.curves {
        check_curve(c, 1.0);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Any two poses: every one of the four curves that exists starts and ends
    /// at the poses, is continuous and keeps the radius.
    #[test]
    fn random_pose_pairs(
        x in -8.0f64..8.0, y in -8.0f64..8.0, h0 in 0.0f64..std::f64::consts::TAU, h1 in 0.0f64..std::f64::consts::TAU, r in 0.2f64..3.0,
    ) {
        let from = Pose::new(0.0, 0.0, h0);
        let to = Pose::new(x, y, h1);
        let all = arc_line_arc_all(from, to, r);
        // The same-direction curves always exist.
        proptest::prop_assert!(all[0].is_some() && all[1].is_some());
        for c in all.into_iter().flatten() {
            check_curve(&c, r);
            let (s, e) = (c.pose_at(0.0), c.pose_at(c.length()));
            proptest::prop_assert!(s.point().dist(from.point()) < 1e-6 && heading_gap(s.heading, h0) < 1e-6);
            proptest::prop_assert!(e.point().dist(to.point()) < 1e-6 && heading_gap(e.heading, h1) < 1e-6);
        }
    }
}
