//! An independent check of what units with footprints did: each unit's
//! actions follow on from each other, every entry of every action lies on a
//! free cell of the map, and no two units share an entry. It recomputes the
//! entries from the actions' geometry and never reads the reservation table.

use rustc_hash::FxHashMap;

use super::action::ActionSet;
use super::planner::PlannedAction;
use crate::map::{Cell, Grid};

/// One thing wrong with a footprint log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FootprintViolation {
    /// An action of `unit` sweeps a blocked or off-map cell.
    OffMap {
        /// The unit.
        unit: usize,
        /// When the action started.
        tick: u32,
    },
    /// An action of `unit` does not start where and when the one before ended.
    Discontinuous {
        /// The unit.
        unit: usize,
        /// When the action started.
        tick: u32,
    },
    /// Two units reserved one cell at one tick.
    Overlap {
        /// The unit whose entry came first.
        first: usize,
        /// The other unit.
        second: usize,
        /// The cell.
        cell: Cell,
        /// The tick.
        tick: u32,
    },
}

/// Checks the `logs` of units starting at `starts`, each with its action
/// set, from tick 0. Returns every violation (none: the units never touched).
pub fn validate_footprints(
    grid: &Grid,
    sets: &[&ActionSet],
    starts: &[Cell],
    logs: &[&[PlannedAction]],
) -> Vec<FootprintViolation> {
    let mut owner: FxHashMap<(u32, u32), usize> = FxHashMap::default();
    let mut out = Vec::new();
    for (u, log) in logs.iter().enumerate() {
        let (mut at, mut tick) = (starts[u], 0);
        for p in log.iter() {
            if p.from != at || p.start != tick {
                out.push(FootprintViolation::Discontinuous {
                    unit: u,
                    tick: p.start,
                });
                break;
            }
            let Some(action) = sets[u].actions.get(p.action as usize) else {
                out.push(FootprintViolation::OffMap {
                    unit: u,
                    tick: p.start,
                });
                break;
            };
            let on_map = action.for_each_entry(grid, p.from, p.start, &mut |c, t| {
                match owner.get(&(c.0, t)) {
                    Some(&v) if v != u => out.push(FootprintViolation::Overlap {
                        first: v,
                        second: u,
                        cell: c,
                        tick: t,
                    }),
                    _ => {
                        owner.insert((c.0, t), u);
                    }
                }
                true
            });
            let Some(to) = action.target(grid, p.from).filter(|_| on_map) else {
                out.push(FootprintViolation::OffMap {
                    unit: u,
                    tick: p.start,
                });
                break;
            };
            at = to;
            tick = p.start + action.duration;
        }
    }
    out
}
