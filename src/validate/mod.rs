//! The plan validator: checks executed trajectories against the map and the
//! collision rules without using any planner code.
//!
//! Rules: every position in bounds and on a free cell; consecutive positions
//! one legal move apart (or equal); no two units on one cell in a tick; no two
//! units swapping cells; no two diagonal moves through the same 2×2 square.

mod step_check;

pub use step_check::StepChecker;

use std::fmt;

use rustc_hash::FxHashMap;

use crate::io::PlanFile;
use crate::map::{Connectivity, Grid};

/// One broken rule. Fields name the tick, the unit or units, and positions `(x, y)`.
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A position outside the map.
    OutOfBounds {
        tick: usize,
        unit: usize,
        at: (u32, u32),
    },
    /// A position on a blocked cell.
    Blocked {
        tick: usize,
        unit: usize,
        at: (u32, u32),
    },
    /// Two consecutive positions that are not one legal move apart.
    IllegalMove {
        tick: usize,
        unit: usize,
        from: (u32, u32),
        to: (u32, u32),
    },
    /// Two units on one cell.
    SharedCell {
        tick: usize,
        units: (usize, usize),
        at: (u32, u32),
    },
    /// Two units swapping cells between `tick` and `tick + 1`.
    Swap { tick: usize, units: (usize, usize) },
    /// Two diagonal moves through one 2×2 square between `tick` and `tick + 1`.
    DiagonalCrossing { tick: usize, units: (usize, usize) },
    /// The first row differs from the declared starts.
    WrongStart { unit: usize },
    /// A row lists the wrong number of units.
    RowLength {
        tick: usize,
        found: usize,
        expected: usize,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::OutOfBounds { tick, unit, at } => {
                write!(f, "tick {tick}: unit {unit} at {at:?} is outside the map")
            }
            Violation::Blocked { tick, unit, at } => {
                write!(f, "tick {tick}: unit {unit} at {at:?} is on a blocked cell")
            }
            Violation::IllegalMove {
                tick,
                unit,
                from,
                to,
            } => write!(
                f,
                "tick {tick}: unit {unit} jumps from {from:?} to {to:?}, not one legal move"
            ),
            Violation::SharedCell { tick, units, at } => write!(
                f,
                "tick {tick}: units {} and {} share cell {at:?}",
                units.0, units.1
            ),
            Violation::Swap { tick, units } => write!(
                f,
                "tick {tick}->{}: units {} and {} swap cells",
                tick + 1,
                units.0,
                units.1
            ),
            Violation::DiagonalCrossing { tick, units } => write!(
                f,
                "tick {tick}->{}: units {} and {} cross diagonally in one 2x2 square",
                tick + 1,
                units.0,
                units.1
            ),
            Violation::WrongStart { unit } => {
                write!(
                    f,
                    "unit {unit}: first position differs from its declared start"
                )
            }
            Violation::RowLength {
                tick,
                found,
                expected,
            } => {
                write!(f, "tick {tick}: {found} positions, expected {expected}")
            }
        }
    }
}

/// The validator's findings.
#[derive(Clone, Debug, Default)]
pub struct ValidationReport {
    /// Units in the plan.
    pub units: usize,
    /// Ticks (rows) in the plan.
    pub ticks: usize,
    /// Units whose last position is their declared goal.
    pub at_goal: usize,
    /// Every broken rule, in order of tick.
    pub violations: Vec<Violation>,
}

impl ValidationReport {
    /// Whether no rule was broken.
    pub fn is_valid(&self) -> bool {
        self.violations.is_empty()
    }

    /// One line: `valid: 100 units, 57 ticks, 100 at goal` or the first violation.
    pub fn summary(&self) -> String {
        if self.is_valid() {
            format!(
                "valid: {} units, {} ticks, {} at goal, 0 violations",
                self.units, self.ticks, self.at_goal
            )
        } else {
            format!(
                "INVALID: {} violations in {} units over {} ticks; first: {}",
                self.violations.len(),
                self.units,
                self.ticks,
                self.violations[0]
            )
        }
    }
}

fn legal_step(grid: &Grid, a: (u32, u32), b: (u32, u32)) -> bool {
    let dx = a.0 as i64 - b.0 as i64;
    let dy = a.1 as i64 - b.1 as i64;
    match (dx.abs(), dy.abs()) {
        (0, 0) | (1, 0) | (0, 1) => true,
        (1, 1) => {
            grid.connectivity() == Connectivity::Eight
                && (grid.corner_cutting()
                    || (grid.is_passable(grid.cell(a.0, b.1))
                        && grid.is_passable(grid.cell(b.0, a.1))))
        }
        _ => false,
    }
}

/// Checks `steps[t][i]` (unit `i` at tick `t`) against `grid` and the collision rules.
pub fn validate_steps(
    grid: &Grid,
    steps: &[Vec<(u32, u32)>],
    starts: &[(u32, u32)],
) -> ValidationReport {
    let units = steps.first().map_or(starts.len(), |r| r.len());
    let mut report = ValidationReport {
        units,
        ticks: steps.len(),
        ..Default::default()
    };
    let v = &mut report.violations;
    if let Some(first) = steps.first() {
        for (i, (&p, &s)) in first.iter().zip(starts).enumerate() {
            if p != s {
                v.push(Violation::WrongStart { unit: i });
            }
        }
    }
    let mut occupied: FxHashMap<(u32, u32), usize> = FxHashMap::default();
    let mut diagonal: FxHashMap<(u32, u32), usize> = FxHashMap::default();
    for (t, row) in steps.iter().enumerate() {
        if row.len() != units {
            v.push(Violation::RowLength {
                tick: t,
                found: row.len(),
                expected: units,
            });
            continue;
        }
        occupied.clear();
        let mut on_map = true;
        for (i, &p) in row.iter().enumerate() {
            if p.0 >= grid.width() || p.1 >= grid.height() {
                v.push(Violation::OutOfBounds {
                    tick: t,
                    unit: i,
                    at: p,
                });
                on_map = false;
                continue;
            }
            if !grid.is_passable(grid.cell(p.0, p.1)) {
                v.push(Violation::Blocked {
                    tick: t,
                    unit: i,
                    at: p,
                });
            }
            if let Some(j) = occupied.insert(p, i) {
                v.push(Violation::SharedCell {
                    tick: t,
                    units: (j, i),
                    at: p,
                });
            }
        }
        let Some(prev) = t.checked_sub(1).map(|p| &steps[p]) else {
            continue;
        };
        if prev.len() != units || !on_map {
            continue;
        }
        // Positions at t-1 by cell, for swap detection.
        let mut before: FxHashMap<(u32, u32), usize> = FxHashMap::default();
        for (i, &p) in prev.iter().enumerate() {
            before.insert(p, i);
        }
        diagonal.clear();
        for i in 0..units {
            let (a, b) = (prev[i], row[i]);
            if a.0 >= grid.width() || a.1 >= grid.height() {
                continue;
            }
            if !legal_step(grid, a, b) {
                v.push(Violation::IllegalMove {
                    tick: t - 1,
                    unit: i,
                    from: a,
                    to: b,
                });
            }
            if a != b {
                if let Some(&j) = before.get(&b) {
                    if j != i && row[j] == a && i < j {
                        v.push(Violation::Swap {
                            tick: t - 1,
                            units: (i, j),
                        });
                    }
                }
                if a.0 != b.0 && a.1 != b.1 {
                    let square = (a.0.min(b.0), a.1.min(b.1));
                    if let Some(j) = diagonal.insert(square, i) {
                        v.push(Violation::DiagonalCrossing {
                            tick: t - 1,
                            units: (j, i),
                        });
                    }
                }
            }
        }
    }
    report
}

/// Checks a plan file against `grid`.
pub fn validate_plan(grid: &Grid, plan: &PlanFile) -> ValidationReport {
    let mut report = validate_steps(grid, &plan.steps, &plan.starts);
    if let Some(last) = plan.steps.last() {
        report.at_goal = last.iter().zip(&plan.goals).filter(|(p, g)| p == g).count();
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(w: u32, h: u32, c: Connectivity) -> Grid {
        Grid::new(w, h, vec![true; (w * h) as usize], c)
    }

    #[test]
    fn catches_swap_and_shared_cell() {
        let g = open(3, 1, Connectivity::Four);
        let steps = vec![vec![(0, 0), (1, 0)], vec![(1, 0), (0, 0)]];
        let r = validate_steps(&g, &steps, &[(0, 0), (1, 0)]);
        assert_eq!(
            r.violations,
            vec![Violation::Swap {
                tick: 0,
                units: (0, 1)
            }]
        );
        let steps = vec![vec![(0, 0), (2, 0)], vec![(1, 0), (1, 0)]];
        let r = validate_steps(&g, &steps, &[(0, 0), (2, 0)]);
        assert!(matches!(
            r.violations[0],
            Violation::SharedCell { tick: 1, .. }
        ));
    }

    #[test]
    fn catches_diagonal_crossing_and_jump() {
        let g = open(3, 3, Connectivity::Eight);
        let steps = vec![vec![(0, 0), (1, 0)], vec![(1, 1), (0, 1)]];
        let r = validate_steps(&g, &steps, &[(0, 0), (1, 0)]);
        assert_eq!(
            r.violations,
            vec![Violation::DiagonalCrossing {
                tick: 0,
                units: (0, 1)
            }]
        );
        let steps = vec![vec![(0, 0)], vec![(2, 0)]];
        let r = validate_steps(&g, &steps, &[(0, 0)]);
        assert!(matches!(r.violations[0], Violation::IllegalMove { .. }));
    }

    #[test]
    fn following_is_legal() {
        let g = open(4, 1, Connectivity::Four);
        let steps = vec![vec![(0, 0), (1, 0)], vec![(1, 0), (2, 0)]];
        assert!(validate_steps(&g, &steps, &[(0, 0), (1, 0)]).is_valid());
    }
}
