//! `Walkable`: does a unit of a given width, moving along a line or a curve,
//! stay off every blocked cell? The path is sampled at a fifth of a tile (the
//! seed's granularity) and at each sample five points are checked: the
//! centre and the seed's diamond of four points `width / 2` away along the
//! axes. So that nothing between two samples can slip through, each point is
//! checked as a small box of half-side half the sampling step: every
//! position between samples lies within that box of a sample, because the
//! diamond translates with the centre without turning.

use crate::map::Grid;

use super::curve::Curve;
use super::pose::Point;

/// Sampling step along a path, in tiles (a fifth of a tile).
pub const SAMPLE_STEP: f64 = 0.2;

/// Sampling step used when building the hit-check table: the table is built
/// once, so it can afford a finer step, which makes its boxes smaller and the
/// check less conservative than the runtime one.
pub const TABLE_SAMPLE_STEP: f64 = 0.05;

/// The unit's body as the checks see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Footprint {
    /// Width in tiles: the diamond's points lie `width / 2` from the centre.
    pub width: f64,
    /// Largest distance between samples along a path, tiles.
    pub step: f64,
}

impl Footprint {
    /// A unit `width` tiles wide, sampled every [`SAMPLE_STEP`].
    pub fn new(width: f64) -> Self {
        Footprint {
            width,
            step: SAMPLE_STEP,
        }
    }

    /// The same unit sampled every `step` tiles.
    pub fn with_step(self, step: f64) -> Self {
        Footprint { step, ..self }
    }

    /// Calls `visit(cx, cy)` for every cell the footprint at `p` may touch
    /// when `p` stands for everything within `margin` of it (each cell may
    /// come more than once). Stops early and returns false when `visit` does.
    pub fn cells_near(
        &self,
        p: Point,
        margin: f64,
        mut visit: impl FnMut(i64, i64) -> bool,
    ) -> bool {
        let h = self.width / 2.0;
        let m = margin + 1e-9;
        for (ox, oy) in [(0.0, 0.0), (h, 0.0), (-h, 0.0), (0.0, h), (0.0, -h)] {
            let (x, y) = (p.x + ox, p.y + oy);
            let (x0, x1) = ((x - m).floor() as i64, (x + m).floor() as i64);
            let (y0, y1) = ((y - m).floor() as i64, (y + m).floor() as i64);
            for cy in y0..=y1 {
                for cx in x0..=x1 {
                    if !visit(cx, cy) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Whether the footprint at `p` (grown by `margin`) touches only passable cells.
    pub fn fits(&self, grid: &Grid, p: Point, margin: f64) -> bool {
        self.cells_near(p, margin, |x, y| free(grid, x, y))
    }

    /// `Walkable(A, B)`: the straight segment from `a` to `b`.
    pub fn walkable_line(&self, grid: &Grid, a: Point, b: Point) -> bool {
        let len = a.dist(b);
        let n = ((len / self.step).ceil() as usize).max(1);
        let margin = len / n as f64 / 2.0;
        (0..=n).all(|i| {
            let t = i as f64 / n as f64;
            let p = Point::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
            self.fits(grid, p, margin)
        })
    }

    /// `Walkable(A, dirA, B, dirB)`: the curve, or the first point where it hits.
    pub fn first_hit(&self, grid: &Grid, curve: &Curve) -> Option<Point> {
        let mut hit = None;
        self.curve_cells(curve, |x, y, p| {
            if free(grid, x, y) {
                true
            } else {
                hit = Some(p);
                false
            }
        });
        hit
    }

    /// Whether the curve stays off blocked cells.
    pub fn walkable_curve(&self, grid: &Grid, curve: &Curve) -> bool {
        self.first_hit(grid, curve).is_none()
    }

    /// Calls `visit(cx, cy, sample)` for every cell the unit may touch along
    /// the curve (the cells the hit-check table records); stops when it returns false.
    pub fn curve_cells(
        &self,
        curve: &Curve,
        mut visit: impl FnMut(i64, i64, Point) -> bool,
    ) -> bool {
        let len = curve.length();
        let n = ((len / self.step).ceil() as usize).max(1);
        let margin = len / n as f64 / 2.0;
        (0..=n).all(|i| {
            let p = curve.pose_at(len * i as f64 / n as f64).point();
            self.cells_near(p, margin, |x, y| visit(x, y, p))
        })
    }
}

/// Whether `(x, y)` is on the map and passable.
#[inline]
pub fn free(grid: &Grid, x: i64, y: i64) -> bool {
    grid.cell_checked(x, y).is_some_and(|c| grid.is_passable(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    fn grid(rows: &[&str]) -> Grid {
        Grid::from_rows(rows, Connectivity::Eight)
    }

    #[test]
    fn width_decides_whether_a_corner_is_clipped() {
        let g = grid(&["...", ".@.", "..."]);
        // Straight along the top row's centre line: clear for a thin unit, not a wide one.
        let (a, b) = (Point::new(0.5, 0.5), Point::new(2.5, 0.5));
        assert!(Footprint::new(0.4).walkable_line(&g, a, b));
        assert!(!Footprint::new(0.9).walkable_line(&g, a, b));
        // The diagonal through the blocked cell is never walkable.
        assert!(!Footprint::new(0.0).walkable_line(&g, Point::new(0.5, 0.5), Point::new(2.5, 2.5)));
    }
}
