//! Units with footprints (Silver's article): large, slow, diagonal and
//! curved movers plan around each other, and an independent validator
//! finds no shared reservation entry, on generated and benchmark maps.

mod common;

use std::sync::Arc;

use throng::footprint::{
    random_units, validate_footprints, Action, FootprintError, FootprintPlanner, FootprintUnit,
    FootprintViolation, PlannedAction, UnitShape,
};
use throng::map::{generate_map, read_map, Cell, Connectivity, Grid};

const SMALL: UnitShape = UnitShape {
    size: 1,
    ticks_per_move: 1,
};
const LARGE: UnitShape = UnitShape {
    size: 2,
    ticks_per_move: 1,
};
const SLOW: UnitShape = UnitShape {
    size: 1,
    ticks_per_move: 3,
};
const LARGE_SLOW: UnitShape = UnitShape {
    size: 2,
    ticks_per_move: 2,
};

/// A mix: half ordinary units, the rest large, slow or both.
fn mix(n: usize) -> Vec<UnitShape> {
    (0..n)
        .map(|i| match i % 8 {
            0 | 1 => LARGE,
            2 => SLOW,
            3 => LARGE_SLOW,
            _ => SMALL,
        })
        .collect()
}

fn no_curves(_: UnitShape) -> Vec<Action> {
    Vec::new()
}

/// A quarter turn for every shape: east, then south-east, in one go.
fn turns(s: UnitShape) -> Vec<Action> {
    vec![
        Action::curve(s, &[(1, 0), (2, 1)]),
        Action::curve(s, &[(0, 1), (-1, 2)]),
    ]
}

/// Runs `units` for `ticks` and returns (validator findings, units home).
fn run(
    grid: Arc<Grid>,
    units: Vec<FootprintUnit>,
    ticks: u32,
    extra: &dyn Fn(UnitShape) -> Vec<Action>,
) -> (Vec<FootprintViolation>, usize, usize) {
    let n = units.len();
    let mut p = FootprintPlanner::new(grid.clone(), units, 16, extra).unwrap();
    p.run(ticks);
    let sets: Vec<_> = (0..n).map(|i| p.action_set(i)).collect();
    let starts: Vec<Cell> = p.units().iter().map(|u| u.start).collect();
    let logs: Vec<&[PlannedAction]> = (0..n).map(|i| p.log(i)).collect();
    let v = validate_footprints(&grid, &sets, &starts, &logs);
    let home = (0..n)
        .filter(|&i| p.position(i) == p.units()[i].goal)
        .count();
    (v, home, n)
}

#[test]
fn mixed_shapes_never_share_an_entry_on_generated_maps() {
    for (conn, seed) in [
        (Connectivity::Four, 1),
        (Connectivity::Eight, 2),
        (Connectivity::Four, 3),
    ] {
        let grid = Arc::new(generate_map("40x40:0.1".parse().unwrap(), conn, seed));
        let units = random_units(&grid, &mix(48), seed);
        assert_eq!(units.len(), 48);
        let (v, home, n) = run(grid, units, 300, &no_curves);
        assert!(
            v.is_empty(),
            "{conn:?} seed {seed}: {:?}",
            &v[..v.len().min(5)]
        );
        assert!(
            home * 10 >= n * 9,
            "{conn:?} seed {seed}: only {home} of {n} home"
        );
    }
}

#[test]
fn curved_moves_never_share_an_entry() {
    let grid = Arc::new(generate_map(
        "32x32:0.1".parse().unwrap(),
        Connectivity::Eight,
        4,
    ));
    let units = random_units(&grid, &mix(32), 4);
    let (v, home, n) = run(grid, units, 300, &turns);
    assert!(v.is_empty(), "{:?}", &v[..v.len().min(5)]);
    assert!(home * 10 >= n * 9, "only {home} of {n} home");
}

#[test]
fn mixed_shapes_on_a_benchmark_map() {
    let path = common::small_maps().join("random-32-32-20.map");
    let grid = Arc::new(read_map(&path, Connectivity::Four).unwrap());
    let units = random_units(&grid, &mix(40), 7);
    let (v, home, n) = run(grid, units, 400, &no_curves);
    assert!(v.is_empty(), "{:?}", &v[..v.len().min(5)]);
    assert!(home * 10 >= n * 8, "only {home} of {n} home");
}

/// `n` units, a quarter 2×2 and another quarter slow, at random places
/// (`seed`) for 80 ticks: the validator's findings.
fn quarters_large_and_slow(grid: Arc<Grid>, n: usize, seed: u64) -> Vec<FootprintViolation> {
    let shapes: Vec<UnitShape> = (0..n)
        .map(|i| UnitShape {
            size: if i % 4 == 3 { 2 } else { 1 },
            ticks_per_move: if i % 4 == 1 { 3 } else { 1 },
        })
        .collect();
    let units = random_units(&grid, &shapes, seed);
    run(grid, units, 80, &no_curves).0
}

/// 200 units on den312d, a quarter 2×2 and another quarter slow. A unit
/// that replanned right after a step released its claim on the cell it had
/// just left, at the tick it left it, and a slow unit stepped in at that
/// very tick (tick 42 here): the validator caught the shared entry.
#[test]
#[ignore = "needs the large benchmark maps: set THRONG_BENCHMARK_MAPS"]
fn a_replan_keeps_the_claims_of_the_step_just_done() {
    let path = common::benchmark_maps().join("den312d.map");
    let grid = Arc::new(read_map(&path, Connectivity::Four).unwrap());
    let v = quarters_large_and_slow(grid, 200, 1);
    assert!(v.is_empty(), "{:?}", &v[..v.len().min(5)]);
}

/// The same fault on the committed maps: without the claims of the step
/// just done, each of these runs had one shared entry (maze-32-32-2 with
/// 40 units at tick 55 and with 200 units at tick 68, random-64-64-20 with
/// 200 units at tick 51).
#[test]
fn a_replan_keeps_the_claims_of_the_step_just_done_on_small_maps() {
    for (name, n, seed) in [
        ("maze-32-32-2", 40, 6),
        ("maze-32-32-2", 200, 17),
        ("random-64-64-20", 200, 10),
    ] {
        let path = common::small_maps().join(format!("{name}.map"));
        let grid = Arc::new(read_map(&path, Connectivity::Four).unwrap());
        let v = quarters_large_and_slow(grid, n, seed);
        assert!(
            v.is_empty(),
            "{name}, {n} units, seed {seed}: {:?}",
            &v[..v.len().min(5)]
        );
    }
}

/// Two units crossing the diagonals of one 2×2 square at the same tick:
/// the validator catches it, because a diagonal step reserves the square.
#[test]
fn the_validator_catches_crossing_diagonals_and_overlapping_bodies() {
    let grid = Grid::from_rows(&["....", "....", "...."], Connectivity::Eight);
    let set = throng::footprint::ActionSet::grid(SMALL, Connectivity::Eight);
    // Actions: 0 wait, 1 N, 2 E, 3 S, 4 W, 5 NE, 6 SE, 7 SW, 8 NW.
    let a = [PlannedAction {
        start: 0,
        from: grid.cell(0, 0),
        action: 6,
    }];
    let b = [PlannedAction {
        start: 0,
        from: grid.cell(1, 0),
        action: 7,
    }];
    let v = validate_footprints(
        &grid,
        &[&set, &set],
        &[grid.cell(0, 0), grid.cell(1, 0)],
        &[&a, &b],
    );
    assert!(
        matches!(
            v[0],
            FootprintViolation::Overlap {
                first: 0,
                second: 1,
                ..
            }
        ),
        "{v:?}"
    );
    // A large body stepping into a small unit's cell.
    let big = throng::footprint::ActionSet::grid(LARGE, Connectivity::Eight);
    let a = [PlannedAction {
        start: 0,
        from: grid.cell(0, 0),
        action: 2,
    }];
    let b = [PlannedAction {
        start: 0,
        from: grid.cell(2, 1),
        action: 0,
    }];
    let v = validate_footprints(
        &grid,
        &[&big, &set],
        &[grid.cell(0, 0), grid.cell(2, 1)],
        &[&a, &b],
    );
    assert!(!v.is_empty(), "the 2×2 body sweeps (2, 1)");
    // Apart, nothing is found; a jump is.
    let b = [PlannedAction {
        start: 0,
        from: grid.cell(3, 2),
        action: 0,
    }];
    assert!(validate_footprints(
        &grid,
        &[&big, &set],
        &[grid.cell(0, 0), grid.cell(3, 2)],
        &[&a, &b]
    )
    .is_empty());
    let jump = [PlannedAction {
        start: 1,
        from: grid.cell(0, 0),
        action: 2,
    }];
    let v = validate_footprints(&grid, &[&set], &[grid.cell(0, 0)], &[&jump]);
    assert!(matches!(
        v[0],
        FootprintViolation::Discontinuous { unit: 0, .. }
    ));
}

/// Slow and large units must cross a narrow map: the small ones get past
/// without ever sharing an entry with them.
#[test]
fn a_slow_large_unit_and_small_ones_pass_in_a_hall() {
    let grid = Arc::new(Grid::from_rows(
        &[
            "..........",
            "..........",
            "..........",
            "...@@@@...",
            "..........",
        ],
        Connectivity::Four,
    ));
    let units = vec![
        FootprintUnit {
            start: grid.cell(0, 0),
            goal: grid.cell(8, 0),
            shape: LARGE_SLOW,
        },
        FootprintUnit {
            start: grid.cell(9, 0),
            goal: grid.cell(0, 2),
            shape: SMALL,
        },
        FootprintUnit {
            start: grid.cell(9, 4),
            goal: grid.cell(0, 4),
            shape: SLOW,
        },
        FootprintUnit {
            start: grid.cell(0, 4),
            goal: grid.cell(9, 3),
            shape: SMALL,
        },
    ];
    let (v, home, n) = run(grid, units, 200, &no_curves);
    assert!(v.is_empty(), "{v:?}");
    assert_eq!(home, n);
}

#[test]
fn bad_footprint_input_is_an_error() {
    let grid = Arc::new(Grid::from_rows(&["...", ".@.", "..."], Connectivity::Four));
    let unit = |s: (u32, u32), g: (u32, u32), shape| FootprintUnit {
        start: grid.cell(s.0, s.1),
        goal: grid.cell(g.0, g.1),
        shape,
    };
    let new = |units| FootprintPlanner::new(grid.clone(), units, 8, &no_curves).err();
    assert_eq!(
        new(vec![unit((0, 0), (2, 2), LARGE)]),
        Some(FootprintError::DoesNotFit {
            unit: 0,
            what: "start"
        })
    );
    assert_eq!(
        new(vec![
            unit((0, 0), (2, 2), SMALL),
            unit((1, 0), (2, 2), SMALL)
        ]),
        Some(FootprintError::Overlap {
            first: 0,
            second: 1,
            what: "goal"
        })
    );
    assert_eq!(
        new(vec![
            unit((0, 0), (2, 1), SMALL),
            unit((0, 0), (2, 2), SMALL)
        ]),
        Some(FootprintError::Overlap {
            first: 0,
            second: 1,
            what: "start"
        })
    );
    assert!(matches!(
        new(vec![unit(
            (0, 0),
            (2, 2),
            UnitShape {
                size: 1,
                ticks_per_move: 0
            }
        )]),
        Some(FootprintError::BadShape { unit: 0, .. })
    ));
    let msg = new(vec![unit((0, 0), (2, 2), LARGE)]).unwrap().to_string();
    assert!(msg.contains("unit 0") && msg.contains("start"), "{msg}");
}

mod property {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
        /// Crowded narrow maps where quick and slow units of both sizes meet
        /// and replan often. (It does not find the den312d case above,
        /// which needs a unit to step back and forth in a jam.)
        #[test]
        fn quick_and_slow_units_in_crowded_maps_never_overlap(
            seed in 0u64..1000,
            density in 0.2f64..0.32,
            kinds in prop::collection::vec((1u32..3, prop_oneof![Just(1u32), Just(3u32)]), 30..60),
        ) {
            let spec = format!("24x24:{density:.2}");
            let grid = Arc::new(generate_map(spec.parse().unwrap(), Connectivity::Four, seed));
            let shapes: Vec<UnitShape> = kinds
                .iter()
                .map(|&(size, pace)| UnitShape { size, ticks_per_move: pace })
                .collect();
            let units = random_units(&grid, &shapes, seed);
            let (v, _, _) = run(grid, units, 150, &no_curves);
            prop_assert!(v.is_empty(), "{:?}", &v[..v.len().min(3)]);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        /// Any map, any mix of sizes 1–3 and paces 1–3, 4- or 8-connected,
        /// with or without curves: no two units ever share an entry.
        #[test]
        fn footprints_never_overlap(
            seed in 0u64..1000,
            side in 12u32..28,
            density in 0.0f64..0.2,
            eight in any::<bool>(),
            curves in any::<bool>(),
            kinds in prop::collection::vec((1u32..4, 1u32..4), 4..20),
        ) {
            let conn = if eight { Connectivity::Eight } else { Connectivity::Four };
            let spec = format!("{side}x{side}:{density:.2}");
            let grid = Arc::new(generate_map(spec.parse().unwrap(), conn, seed));
            let shapes: Vec<UnitShape> = kinds
                .iter()
                .map(|&(size, pace)| UnitShape { size, ticks_per_move: pace })
                .collect();
            let units = random_units(&grid, &shapes, seed);
            let extra: &dyn Fn(UnitShape) -> Vec<Action> = if curves { &turns } else { &no_curves };
            let (v, _, _) = run(grid, units, 120, extra);
            prop_assert!(v.is_empty(), "{:?}", &v[..v.len().min(3)]);
        }
    }
}

#[test]
fn a_window_beyond_the_range_is_an_error() {
    let grid = Arc::new(Grid::from_rows(&["...", "...", "..."], Connectivity::Four));
    let units = || {
        vec![FootprintUnit {
            start: grid.cell(0, 0),
            goal: grid.cell(2, 2),
            shape: SMALL,
        }]
    };
    for window in [throng::footprint::MAX_WINDOW + 1, u32::MAX] {
        assert_eq!(
            FootprintPlanner::new(grid.clone(), units(), window, &no_curves).err(),
            Some(FootprintError::BadWindow { window })
        );
    }
    assert!(FootprintPlanner::new(
        grid.clone(),
        units(),
        throng::footprint::MAX_WINDOW,
        &no_curves
    )
    .is_ok());
}
