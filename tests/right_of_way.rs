//! Right of way (Silver's unit priorities, set by the game): a unit of
//! higher priority crossing a crowd in a corridor has the lower units make
//! room, and arrives no later than 1.3× its time through the empty
//! corridor; without priority it is held up. No collision either way.

use std::sync::Arc;

use throng::prelude::*;

const LEN: u32 = 40;

/// A corridor three cells wide and `LEN` long, walled all round.
fn corridor() -> Arc<Grid> {
    let wall = "@".repeat(LEN as usize + 2);
    let row = format!("@{}@", ".".repeat(LEN as usize));
    Arc::new(Grid::from_rows(
        &[&wall, &row, &row, &row, &wall],
        Connectivity::Four,
    ))
}

/// Ticks the crossing unit takes from (1,2) to (LEN,2) with `crowd` units
/// parked on the cells given, the crosser at `priority`.
fn crossing(crowd: &[(u32, u32)], counterflow: bool, priority: u8) -> (u32, usize) {
    let grid = corridor();
    let config = SimConfig {
        threads: 1,
        stuck_after: 1000,
        ..SimConfig::default()
    };
    let mut sim = Simulation::with_map(grid, config).unwrap();
    for &(x, y) in crowd {
        let at = sim.cell(x as i64, y as i64).unwrap();
        // Parked units stay; a counterflow walks to the mirrored cell.
        let goal = if counterflow {
            sim.cell((LEN + 1 - x) as i64, y as i64).unwrap()
        } else {
            at
        };
        sim.spawn(UnitSpec::new(at, goal)).unwrap();
    }
    sim.apply_commands();
    for _ in 0..3 {
        sim.step();
    }
    let (from, to) = (sim.cell(1, 2).unwrap(), sim.cell(LEN as i64, 2).unwrap());
    let crosser = sim
        .spawn(UnitSpec::new(from, to).with_priority(priority))
        .unwrap();
    let start = sim.ticks() + 1;
    let mut arrived = None;
    for _ in 0..400 {
        sim.step();
        if arrived.is_none() && sim.position(crosser).unwrap() == to {
            arrived = Some(sim.ticks() - start);
        }
    }
    (arrived.unwrap_or(u32::MAX), sim.summary().collisions)
}

/// Two cells of every three across the corridor, away from its ends: a
/// dense crowd with one gap per column, never in a straight line.
fn parked_crowd() -> Vec<(u32, u32)> {
    (4..LEN - 2)
        .flat_map(|x| {
            (1..=3)
                .filter(move |&y| y != 1 + x % 3)
                .map(move |y| (x, y))
        })
        .collect()
}

#[test]
fn a_ranked_unit_crosses_a_parked_crowd_almost_as_if_alone() {
    let (alone, _) = crossing(&[], false, 0);
    assert_eq!(alone, LEN - 1, "the empty corridor is a straight run");
    let crowd = parked_crowd();
    let (ranked, collisions) = crossing(&crowd, false, 3);
    assert_eq!(collisions, 0);
    assert!(
        ranked as f64 <= 1.3 * alone as f64,
        "ranked crosser took {ranked} ticks, alone {alone}"
    );
    let (plain, collisions) = crossing(&crowd, false, 0);
    assert_eq!(collisions, 0);
    assert!(plain > ranked, "without priority the crowd holds it up");
    eprintln!("alone {alone}, ranked {ranked}, unranked {plain} ticks");
}

#[test]
fn a_ranked_unit_crosses_a_crowd_walking_the_other_way() {
    let (alone, _) = crossing(&[], true, 0);
    let crowd: Vec<(u32, u32)> = (LEN - 12..LEN).flat_map(|x| [(x, 1), (x, 3)]).collect();
    let (ranked, collisions) = crossing(&crowd, true, 3);
    assert_eq!(collisions, 0);
    assert!(
        ranked as f64 <= 1.3 * alone as f64,
        "ranked crosser took {ranked} ticks, alone {alone}"
    );
    let (plain, _) = crossing(&crowd, true, 0);
    eprintln!("alone {alone}, ranked {ranked}, unranked {plain} ticks");
}
