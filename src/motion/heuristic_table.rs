//! The curve-distance heuristic table: the length of the shortest arc-line
//! curve from a pose to a point, by distance (1/64 tile up to 10 tiles) and
//! angle relative to the heading, so the search favours headings that point
//! at the goal without trigonometry per node. Beyond 10 tiles the 10-tile
//! value plus the extra distance is used, a close approximation (the seed's).
//! Rebuilt whenever the radius changes.

use std::f64::consts::PI;

use super::pose::{wrap_pi, Point, Pose};
use super::turns::arc_line;

const DIST_BINS: usize = 640;
const PER_TILE: f64 = 64.0;
const ANGLE_BINS: usize = 32;

/// Arc-line distance table for one turning radius.
#[derive(Clone, Debug)]
pub struct HeuristicTable {
    radius: f64,
    /// `values[d * ANGLE_BINS + a]`, tiles: the least of the exact lengths at
    /// the bin's four corners, so a lookup rarely overestimates.
    values: Vec<f32>,
}

fn exact(r: f64, d: f64, a: f64) -> f64 {
    let to = Point::new(d * a.cos(), d * a.sin());
    arc_line(Pose::new(0.0, 0.0, 0.0), to, r).map_or(d, |c| c.length())
}

impl HeuristicTable {
    /// Builds the table for turning radius `radius`.
    pub fn build(radius: f64) -> Self {
        let corner: Vec<f64> = (0..=DIST_BINS)
            .flat_map(|i| (0..=ANGLE_BINS).map(move |j| (i, j)))
            .map(|(i, j)| {
                exact(
                    radius,
                    i as f64 / PER_TILE,
                    j as f64 * PI / ANGLE_BINS as f64,
                )
            })
            .collect();
        let at = |i: usize, j: usize| corner[i * (ANGLE_BINS + 1) + j];
        let mut values = Vec::with_capacity(DIST_BINS * ANGLE_BINS);
        for i in 0..DIST_BINS {
            for j in 0..ANGLE_BINS {
                let v = at(i, j)
                    .min(at(i + 1, j))
                    .min(at(i, j + 1))
                    .min(at(i + 1, j + 1));
                values.push(v as f32);
            }
        }
        HeuristicTable { radius, values }
    }

    /// Turning radius the table was built for.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Estimated curve length from `from` to `to`, tiles.
    #[inline]
    pub fn estimate(&self, from: Pose, to: Point) -> f64 {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        let d = dx.hypot(dy);
        if d < 1e-9 {
            return 0.0;
        }
        let rel = wrap_pi(dy.atan2(dx) - from.heading).abs();
        let i = ((d * PER_TILE) as usize).min(DIST_BINS - 1);
        let j = ((rel / PI * ANGLE_BINS as f64) as usize).min(ANGLE_BINS - 1);
        let extra = (d - DIST_BINS as f64 / PER_TILE).max(0.0);
        self.values[i * ANGLE_BINS + j] as f64 + extra
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_is_close_to_the_exact_length_and_grows_behind() {
        let t = HeuristicTable::build(2.0);
        let from = Pose::new(0.0, 0.0, 0.0);
        let ahead = t.estimate(from, Point::new(5.0, 0.0));
        assert!((ahead - 5.0).abs() < 0.05, "{ahead}");
        let behind = t.estimate(from, Point::new(-5.0, 0.0));
        let exact_behind = exact(2.0, 5.0, PI);
        // One angle bin (π/32) of turning at radius 2 is about 0.4 tiles.
        assert!(
            behind <= exact_behind + 1e-6 && behind > exact_behind - 0.45,
            "{behind} vs {exact_behind}"
        );
        assert!(behind > ahead + 3.0);
        let far = t.estimate(from, Point::new(30.0, 0.0));
        assert!((far - 30.0).abs() < 0.05);
    }
}
