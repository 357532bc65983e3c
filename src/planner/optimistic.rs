//! Optimistic starts for a planner's initial round: every unit stands on its
//! start at tick 0, but holding every start for good until its unit has
//! planned makes the first plans detour round phantom obstacles (100 of them
//! among 820 free cells in Silver's set-up). So the units about to plan hold
//! their starts at tick 0 only; a unit that then finds no plan is pinned to
//! its start for good, and whoever planned through it plans again. Pinning
//! only adds holds, so the rounds end: at worst every start is held, as
//! without optimism.

use crate::units::{Slot, UnitFlags};
use crate::world::World;

/// Lets the units in `units` (all on their starts, none planned yet) hold
/// their starts at tick 0 only.
pub fn release_starts(world: &mut World, units: &[Slot]) {
    // Bodies larger or slower than a cell keep their starts held: their
    // starts are never optimistic.
    for &a in units
        .iter()
        .filter(|a| world.units.kind[a.index()].is_cell())
    {
        world.table.release_hold(world.units.start[a.index()], a);
    }
}

/// After an optimistic initial round: holds the start of every unit in
/// `units` that found no plan (its search failed, or it is still queued), so
/// it can wait there safely, and drops the plans of the units that claimed
/// that start after tick 0 or hold it; returns those, which must plan again.
/// Pinning only adds holds, so the rounds end: at worst every start is held,
/// as if the start had not been optimistic.
pub fn pin_unplanned_starts(world: &mut World, units: &[Slot]) -> Vec<Slot> {
    let mut replan: Vec<Slot> = Vec::new();
    let mut through: Vec<Slot> = Vec::new();
    for &b in units {
        let i = b.index();
        if !world.units.kind[i].is_cell() {
            continue;
        }
        let start = world.units.start[i];
        let last = *world.units.plan(b).last().expect("plans are never empty");
        let stuck = world.units.flags[i].has(UnitFlags::STUCK);
        if !stuck && world.table.hold(last).is_some_and(|(h, _)| h == b) {
            continue;
        }
        debug_assert_eq!(last, start, "an unplanned unit's plan is its start");
        through.clear();
        through.extend(
            (1..=world.table.last_tick())
                .filter_map(|t| world.table.layer_owner(start, t))
                .chain(world.table.hold(start).map(|(h, _)| h))
                .filter(|&v| v != b),
        );
        for v in through.drain(..) {
            if replan.contains(&v) {
                continue;
            }
            world.release_plan(v);
            let vs = world.units.start[v.index()];
            world.units.set_plan(v, 0, &[vs]);
            replan.push(v);
        }
        let pinned = world.table.set_hold(start, 0, b);
        debug_assert!(pinned.is_ok(), "every other claim on the start was dropped");
    }
    replan
}
