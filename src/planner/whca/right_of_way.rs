//! A body's right of way: one-cell units give way to units larger than a
//! cell, as infantry steps aside for a tank. A body's window search may
//! pass through the reservations of one-cell units of no higher priority
//! (at a price, see `RIGHT_OF_WAY_COST`); its commit then takes their
//! plans from them and plans each again around the body's, pushing others
//! in turn as a promotion does. If any of them finds no way out, every
//! plan goes back as it was. A body planning last, around every one-cell
//! unit's window, waited for a gap in the crowd at every crossing: on
//! `profiles/mixed-2k.toml` 3×3 bodies stood still through most of their
//! trips.

use super::{save_plan, WindowedHca, MAX_INVOLVED, PUSH_DEPTH};
use crate::footprint::{body, for_each_claim};
use crate::units::{Slot, UnitFlags, Units};
use crate::world::World;
use std::time::Instant;

/// Whether one-cell unit `b` gives way to body `a` at tick `now`: it is of
/// no higher priority, follows no joint plan (`scripted`: per unit, the
/// tick its joint plan runs to) and is active and able to reach its goal.
pub(super) fn gives_way(units: &Units, scripted: &[u32], now: u32, a: Slot, b: Slot) -> bool {
    let j = b.index();
    units.kind[j].is_cell()
        && scripted[j] <= now
        && units.priority[j] <= units.priority[a.index()]
        && !units.flags[j].has(UnitFlags::UNREACHABLE)
        && !units.flags[j].any(UnitFlags::INACTIVE)
}

impl WindowedHca {
    /// Commits the body plan in `promotion.body_path` and `body_motions`
    /// (from the current tick) of unit `a` by moving the one-cell units
    /// whose reservations it passes through: their plans are released and
    /// each plans again around it (see [`Self::push`]). Returns whether the
    /// plan was kept; if not, every plan is as it was.
    pub(super) fn take_right_of_way(
        &mut self,
        world: &mut World,
        a: Slot,
        deadline: Option<Instant>,
    ) -> bool {
        crate::profile_zone!("right of way");
        let now = world.now();
        let i = a.index();
        let size = world.units.kind[i].size as u32;
        let p = &mut self.promotion;
        if p.body_path.first() != Some(&world.units.position[i]) {
            return false;
        }
        // The units holding any entry of the plan, or its last body after it.
        let yielded = &mut p.yielded;
        yielded.clear();
        let table = &world.table;
        let mut note = |b: Slot| {
            if b != a && !yielded.contains(&b) {
                yielded.push(b);
            }
        };
        for_each_claim(
            &world.grid,
            size,
            now,
            &p.body_path,
            &p.body_motions,
            now,
            &mut |c, t| {
                if let Some(b) = table.occupant(c, t) {
                    note(b);
                }
            },
        );
        let end = now + p.body_path.len() as u32 - 1;
        let last = *p.body_path.last().expect("non-empty");
        for c in body(&world.grid, last, size) {
            table.stay_blockers(c, end, a, &mut note);
        }
        if yielded.is_empty() {
            return false;
        }
        self.stats.right_of_way += 1;
        let (units, scripted) = (&world.units, &self.scripted_until);
        if yielded.len() >= MAX_INVOLVED
            || !yielded
                .iter()
                .all(|&b| gives_way(units, scripted, now, a, b))
        {
            return false;
        }
        let p = &mut self.promotion;
        p.clear();
        p.rank = None;
        save_plan(p, world, a);
        for k in 0..p.yielded.len() {
            let b = p.yielded[k];
            save_plan(p, world, b);
            world.release_plan(b);
        }
        // Their cells now stay theirs: the plan must keep off them.
        if !world.footprint_plan_is_free(a, &p.body_path, &p.body_motions) {
            p.restore(world);
            return false;
        }
        world.release_plan(a);
        world.commit_footprint_plan(a, now, &p.body_path, &p.body_motions);
        p.moved.push(a);
        for k in 0..self.promotion.yielded.len() {
            let b = self.promotion.yielded[k];
            if !self.push(world, b, PUSH_DEPTH - 1, deadline) {
                self.promotion.restore(world);
                return false;
            }
        }
        self.settle_moved(world);
        self.stats.right_of_way_kept += 1;
        self.stats.right_of_way_moved += self.promotion.moved.len() as u64 - 1;
        true
    }
}
