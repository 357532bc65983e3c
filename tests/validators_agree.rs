//! The two validators agree: the tick-by-tick `StepChecker` (inside every
//! simulation step) and the whole-plan `validate_steps` (behind `throng
//! validate`) are written independently, so random trajectories full of
//! broken rules, checked by both, must give the same shared cells, swaps,
//! diagonal crossings and jumps.

use std::collections::BTreeSet;

use proptest::prelude::*;
use throng::map::{Connectivity, Grid};
use throng::validate::{validate_steps, StepChecker, Violation};

/// What a violation says, in one form for both validators: its kind, the
/// tick of the move (or of the shared cell) and the units (or the cell).
type Finding = (&'static str, usize, usize, usize);

fn finding(v: &Violation, step_checker: bool) -> Option<Finding> {
    Some(match *v {
        // Three units on one cell: one validator pairs each with the first,
        // the other each with the one before, so the cell is what compares.
        Violation::SharedCell { tick, at, .. } => ("shared", tick, at.0 as usize, at.1 as usize),
        Violation::Swap { tick, units } => {
            ("swap", tick, units.0.min(units.1), units.0.max(units.1))
        }
        Violation::DiagonalCrossing { tick, units } => {
            ("crossing", tick, units.0.min(units.1), units.0.max(units.1))
        }
        // The step checker names the tick a jump ends at; the plan
        // validator, the tick it starts from.
        Violation::IllegalMove { tick, unit, .. } => {
            ("jump", tick - usize::from(step_checker), unit, unit)
        }
        _ => return None,
    })
}

/// Units walking at random on an open `side`×`side` map: each tick each
/// unit stays, steps to one of its 8 neighbours, or (rarely) jumps two
/// cells, clamped to the map.
fn trajectories(
    side: u32,
    units: usize,
    ticks: usize,
) -> impl Strategy<Value = Vec<Vec<(u32, u32)>>> {
    let starts = prop::collection::vec((0..side, 0..side), units);
    let moves = prop::collection::vec(
        prop::collection::vec((-2i32..=2, -2i32..=2, 0u8..8), units),
        ticks,
    );
    (starts, moves).prop_map(move |(starts, moves)| {
        let mut rows = vec![starts];
        for tick in moves {
            let last = rows.last().unwrap().clone();
            let row = last
                .iter()
                .zip(tick)
                .map(|(&(x, y), (dx, dy, r))| {
                    // Jumps of two cells in one move of eight.
                    let (dx, dy) = if r == 0 {
                        (dx, dy)
                    } else {
                        (dx.signum(), dy.signum())
                    };
                    let clamp = |v: u32, d: i32| (v as i32 + d).clamp(0, side as i32 - 1) as u32;
                    (clamp(x, dx), clamp(y, dy))
                })
                .collect();
            rows.push(row);
        }
        rows
    })
}

/// Ticks at which some cell holds two units: there the two validators
/// remember different owners of the cell, so swaps and crossings into and
/// out of those ticks are not compared.
fn crowded_ticks(rows: &[Vec<(u32, u32)>]) -> BTreeSet<usize> {
    rows.iter()
        .enumerate()
        .filter(|(_, row)| row.iter().collect::<BTreeSet<_>>().len() < row.len())
        .map(|(t, _)| t)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn both_validators_find_the_same_broken_rules(
        rows in trajectories(6, 8, 12),
        eight in any::<bool>(),
    ) {
        let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
        let grid = Grid::new(6, 6, vec![true; 36], connectivity);
        let whole = validate_steps(&grid, &rows, &rows[0]);
        let mut step = StepChecker::new(&grid);
        let mut step_found = Vec::new();
        for (t, row) in rows.iter().enumerate() {
            let before = step.count;
            step.check_cells(
                &grid,
                t as u32,
                row.iter().enumerate().map(|(i, &(x, y))| (i as u32, grid.cell(x, y))),
            );
            // Every violation of the tick is in `first` (it keeps only the
            // first few): else the case proves nothing.
            prop_assume!(step.count - before == step.first.len() as u64);
            step_found.append(&mut step.first);
        }
        let crowded = crowded_ticks(&rows);
        // Units in a swap or a jump at a tick.
        let swapping: BTreeSet<(usize, usize)> = whole
            .violations
            .iter()
            .filter_map(|v| finding(v, false))
            .filter(|f| f.0 == "swap" || f.0 == "jump")
            .flat_map(|f| [(f.1, f.2), (f.1, f.3)])
            .collect();
        let compared = |f: &Finding| match f.0 {
            "swap" => !crowded.contains(&f.1) && !crowded.contains(&(f.1 + 1)),
            // A diagonal swap is a crossing of one square to the plan
            // validator too, and it pairs a third unit crossing that square
            // with only one of the two; a jump's "square" is its corners':
            // crossings of swapping or jumping units are left out.
            "crossing" => {
                !crowded.contains(&f.1)
                    && !crowded.contains(&(f.1 + 1))
                    && !swapping.contains(&(f.1, f.2))
                    && !swapping.contains(&(f.1, f.3))
            }
            _ => true,
        };
        let plan: BTreeSet<Finding> = whole
            .violations
            .iter()
            .filter_map(|v| finding(v, false))
            .filter(compared)
            .collect();
        let stepped: BTreeSet<Finding> = step_found
            .iter()
            .filter_map(|v| finding(v, true))
            .filter(compared)
            .collect();
        prop_assert_eq!(plan, stepped);
    }
}
