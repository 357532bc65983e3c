//! Smoothing for display of a cooperative planner's executed trajectory: one
//! cell per tick, as the space-time reservation table held them. Each tick
//! `k` gets a quadratic Bézier from the midpoint of the move into its cell,
//! through the cell's centre as control point, to the midpoint of the move
//! out, over times `[k - ½, k + ½]`. The curve stays in the convex hull of
//! those three points, which is inside cell `k`, so at any time in `[k, k+1]`
//! the unit is inside the cells it holds at ticks `k` and `k+1`: smoothing
//! never cuts through another unit's reservation. Consecutive pieces meet
//! with the same tangent, so position and heading are continuous.

use crate::io::PlanFile;
use crate::map::{Cell, Grid};

use super::pose::Point;

/// A grid trajectory smoothed per tick.
#[derive(Clone, Debug, PartialEq)]
pub struct SmoothedTrajectory {
    centres: Vec<Point>,
}

impl SmoothedTrajectory {
    /// Smooths `cells[t]` = the cell held at tick `t` (repeats are waits).
    pub fn new(grid: &Grid, cells: &[Cell]) -> Self {
        SmoothedTrajectory {
            centres: cells.iter().map(|&c| Point::centre(grid, c)).collect(),
        }
    }

    /// Unit `unit`'s executed trajectory in a plan file, or `None` if the plan
    /// has no such unit or a position off the map.
    pub fn from_plan(grid: &Grid, plan: &PlanFile, unit: usize) -> Option<Self> {
        let cells: Option<Vec<Cell>> = plan
            .steps
            .iter()
            .map(|row| {
                row.get(unit)
                    .and_then(|&(x, y)| grid.cell_checked(x as i64, y as i64))
            })
            .collect();
        Some(Self::new(grid, &cells?))
    }

    /// Ticks covered (the last tick is `len - 1`).
    pub fn len(&self) -> usize {
        self.centres.len()
    }

    /// Whether the trajectory is empty.
    pub fn is_empty(&self) -> bool {
        self.centres.is_empty()
    }

    fn mid(&self, a: usize, b: usize) -> Point {
        let (p, q) = (self.centres[a], self.centres[b]);
        Point::new((p.x + q.x) / 2.0, (p.y + q.y) / 2.0)
    }

    /// The Bézier control points of tick `k` and the parameter for time `t`.
    fn piece(&self, t: f64) -> ([Point; 3], f64) {
        let last = self.centres.len() - 1;
        let t = t.clamp(0.0, last as f64);
        let k = (t.round() as usize).min(last);
        let p0 = if k == 0 {
            self.centres[0]
        } else {
            self.mid(k - 1, k)
        };
        let p2 = if k == last {
            self.centres[k]
        } else {
            self.mid(k, k + 1)
        };
        (
            [p0, self.centres[k], p2],
            (t - k as f64 + 0.5).clamp(0.0, 1.0),
        )
    }

    /// Position at time `t` (ticks), clamped to the trajectory's span.
    ///
    /// # Panics
    /// If the trajectory is empty.
    pub fn position_at(&self, t: f64) -> Point {
        let ([p0, p1, p2], u) = self.piece(t);
        let (a, b, c) = ((1.0 - u) * (1.0 - u), 2.0 * u * (1.0 - u), u * u);
        Point::new(
            a * p0.x + b * p1.x + c * p2.x,
            a * p0.y + b * p1.y + c * p2.y,
        )
    }

    /// Direction of motion at time `t`, or `None` while waiting.
    pub fn heading_at(&self, t: f64) -> Option<f64> {
        let ([p0, p1, p2], u) = self.piece(t);
        let dx = 2.0 * (1.0 - u) * (p1.x - p0.x) + 2.0 * u * (p2.x - p1.x);
        let dy = 2.0 * (1.0 - u) * (p1.y - p0.y) + 2.0 * u * (p2.y - p1.y);
        (dx.hypot(dy) > 1e-12).then(|| dy.atan2(dx))
    }

    /// Positions at `per_tick` evenly spaced times per tick, with their times.
    pub fn samples(&self, per_tick: usize) -> Vec<(f64, Point)> {
        if self.centres.is_empty() {
            return Vec::new();
        }
        let n = (self.centres.len() - 1) * per_tick.max(1);
        (0..=n)
            .map(|i| {
                let t = i as f64 / per_tick.max(1) as f64;
                (t, self.position_at(t))
            })
            .collect()
    }
}
