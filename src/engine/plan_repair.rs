//! Cutting reserved plans short, safely. When the map changes under a plan
//! (a building placed across it) the plan must end before the change; but a
//! unit that stops early holds its new last cell for good, which other units
//! may have planned to pass after it left. They are cut short in turn,
//! before they reach that cell, and so on. Plans only ever get shorter, so
//! this ends; at worst every unit holds the cell it stands on now, which is
//! always safe.

use crate::map::Cell;
use crate::units::Slot;

use super::World;

/// Scratch for [`PlanCutter::cut_plans`], reused across calls.
#[derive(Default)]
pub struct PlanCutter {
    work: Vec<(Slot, usize)>,
    cut: Vec<Slot>,
    ends: Vec<Cell>,
}

impl PlanCutter {
    /// Asks for unit `a`'s plan to keep only its first `keep` cells (at
    /// least up to the current tick; a longer `keep` than the plan is a
    /// no-op).
    pub fn request(&mut self, a: Slot, keep: usize) {
        self.work.push((a, keep));
    }

    /// Whether no cut was asked for.
    pub fn is_empty(&self) -> bool {
        self.work.is_empty()
    }

    /// Carries out every requested cut and the cuts they cause; each cut
    /// unit holds its new last cell. Returns the units whose plans changed
    /// (they should plan again soon).
    pub fn cut_plans(&mut self, world: &mut World) -> &[Slot] {
        let now = world.now();
        self.cut.clear();
        while let Some((a, keep)) = self.work.pop() {
            let i = a.index();
            let start = world.units.plan_start[i];
            // The plan must keep the unit's cell at the current tick.
            let keep = keep.max((now.saturating_sub(start)) as usize + 1);
            if keep >= world.units.plan_len[i] as usize {
                continue;
            }
            world.truncate_plan(a, keep);
            let end_tick = start + keep as u32 - 1;
            self.ends.clear();
            self.ends.extend(world.end_cells(a));
            let mut parks_later = false;
            for &end in &self.ends {
                // Whoever planned to be on `end` after `end_tick` must stop
                // before getting there.
                for t in end_tick..=world.table.last_tick() {
                    if let Some(b) = world.table.layer_owner(end, t).filter(|&b| b != a) {
                        let b_start = world.units.plan_start[b.index()];
                        self.work.push((b, (t - b_start) as usize));
                    }
                }
                if let Some((b, from)) = world.table.hold(end).filter(|&(b, _)| b != a) {
                    if from > end_tick {
                        // `b` parks there later: it stops before, and its
                        // hold goes now (its cut holds its new last cells).
                        let b_start = world.units.plan_start[b.index()];
                        self.work.push((b, from.saturating_sub(b_start) as usize));
                        for c in world.end_cells(b).collect::<Vec<_>>() {
                            world.table.release_hold(c, b);
                        }
                    } else {
                        // `b` parks there first: `a` must leave before.
                        self.work.push((a, from.saturating_sub(start) as usize));
                        parks_later = true;
                    }
                }
            }
            if parks_later {
                continue;
            }
            for &end in &self.ends {
                let held = world.table.set_hold(end, end_tick, a);
                debug_assert!(held.is_ok(), "the cell's other holder was released");
            }
            if !self.cut.contains(&a) {
                self.cut.push(a);
            }
        }
        &self.cut
    }
}
