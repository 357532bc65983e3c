//! Constructed maps like the seed's Figures 8 and 12: where plain A* with
//! smoothing makes an illegal turn, Directional A* finds a legal route (a
//! different one), and Directional24 succeeds where Directional8 fails.

use throng::map::{Connectivity, Grid};
use throng::motion::{Method, MotionError, MotionPlanner, MotionQuery, Neighborhood};

fn grid(rows: &[&str]) -> Grid {
    let p = rows
        .iter()
        .flat_map(|r| r.chars().map(|c| c == '.'))
        .collect();
    Grid::new(
        rows[0].len() as u32,
        rows.len() as u32,
        p,
        Connectivity::Eight,
    )
}

/// Figure 8's situation: the goal lies just behind the start, one tile-wide
/// link away, but a unit heading east with radius 1.5 cannot turn in the
/// corridors; the only legal route drives on to the room and loops back.
const HAIRPIN: [&str; 9] = [
    "@@@@@@@@@@@@@@@@@@@@@",
    "@@@@@@@@@@@@@@......@",
    "@@..................@",
    "@@.@@@@@@@@@@@......@",
    "@@.@@@@@@@@@@@......@",
    "@@.@@@@@@@@@@@......@",
    "@@..................@",
    "@@@@@@@@@@@@@@......@",
    "@@@@@@@@@@@@@@@@@@@@@",
];

#[test]
fn smoothing_turns_illegally_where_directional_loops_through_the_room() {
    let g = grid(&HAIRPIN);
    let q = MotionQuery {
        start: g.cell(4, 2),
        start_heading: Some(0.0),
        goal: g.cell(4, 6),
        radius: 1.5,
        width: 0.5,
        reverse_penalty: None,
        min_radius: None,
    };
    let mut p = MotionPlanner::new();
    // A* goes back west through the link; smoothing then needs an impossible U-turn.
    let astar = p.plan(&g, &q, Method::Astar).unwrap();
    assert!(astar.grid_path.len() < 10, "{:?}", astar.grid_path);
    match p.plan(&g, &q, Method::Smooth) {
        Err(MotionError::IllegalTurn { .. }) => {}
        other => panic!("expected an illegal turn, got {other:?}"),
    }
    for n in [Neighborhood::D24, Neighborhood::D48] {
        let d = p.plan(&g, &q, Method::Directional(n)).unwrap();
        // Rows 3-5 connect the corridors only through the link at x = 2 and the room at x >= 14.
        let samples = d.curve.samples(0.1);
        assert!(
            samples.iter().any(|s| s.y > 3.5 && s.y < 5.5 && s.x > 13.0),
            "{n:?} should loop through the room"
        );
        assert!(
            samples.iter().all(|s| s.x > 3.0),
            "{n:?} must not use the link"
        );
        assert!(d.curve.length() > 20.0, "{}", d.curve.length());
    }
}

/// Figure 12's situation: a two-tile-wide corridor with a right-angle bend.
/// With radius 1.5 no chain of one-tile hops between cell centres at compass
/// headings gets round, but a two-tile hop does.
fn bend(k: u32) -> Grid {
    let mut rows = vec![vec!['@'; 24]; 24];
    for y in 2..2 + k {
        for x in 2..20 {
            rows[y as usize][x as usize] = '.';
        }
    }
    for row in rows.iter_mut().take(20).skip(2) {
        for c in row.iter_mut().take(20).skip((20 - k) as usize) {
            *c = '.';
        }
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    grid(&rows)
}

#[test]
fn directional24_gets_round_a_bend_directional8_cannot() {
    let g = bend(2);
    let q = MotionQuery {
        start: g.cell(3, 2),
        start_heading: Some(0.0),
        goal: g.cell(18, 18),
        radius: 1.5,
        width: 0.5,
        reverse_penalty: None,
        min_radius: None,
    };
    let mut p = MotionPlanner::new();
    match p.plan(&g, &q, Method::Directional(Neighborhood::D8)) {
        Err(MotionError::NoLegalPath {
            method: "directional8",
            ..
        }) => {}
        other => panic!("Directional8 should fail, got {other:?}"),
    }
    let d24 = p
        .plan(&g, &q, Method::Directional(Neighborhood::D24))
        .unwrap();
    let d48 = p
        .plan(&g, &q, Method::Directional(Neighborhood::D48))
        .unwrap();
    assert!(
        d24.curve.length() > 28.0 && d24.curve.length() < 32.0,
        "{}",
        d24.curve.length()
    );
    assert!(d48.curve.length() <= d24.curve.length() + 1e-6);
    // Plain smoothing cannot turn at the bend; slowing down to turn tighter can.
    assert!(matches!(
        p.plan(&g, &q, Method::Smooth),
        Err(MotionError::IllegalTurn { .. })
    ));
    let slow = MotionQuery {
        min_radius: Some(0.5),
        ..q
    };
    let tight = p.plan(&g, &slow, Method::Smooth).unwrap();
    assert!(tight.tightened_turns >= 1);
    for c in &tight.curve.curves {
        for s in c.segments() {
            if let throng::motion::Segment::Arc { radius, .. } = s {
                assert!(*radius >= 0.5 - 1e-9 && *radius <= 1.5 + 1e-9);
            }
        }
    }
    // With a tighter radius the one-tile hops suffice again.
    let q1 = MotionQuery { radius: 1.0, ..q };
    assert!(p
        .plan(&g, &q1, Method::Directional(Neighborhood::D8))
        .is_ok());
}

#[test]
fn unreachable_goal_is_answered_before_any_search() {
    let g = grid(&["....@....", "....@....", "....@...."]);
    let q = MotionQuery {
        start: g.cell(0, 0),
        start_heading: None,
        goal: g.cell(8, 2),
        radius: 1.0,
        width: 0.5,
        reverse_penalty: None,
        min_radius: None,
    };
    let mut p = MotionPlanner::new();
    for m in Method::ALL {
        assert_eq!(
            p.plan(&g, &q, m).unwrap_err(),
            MotionError::Unreachable,
            "{}",
            m.name()
        );
    }
}
