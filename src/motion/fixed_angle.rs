//! Fixed-angle character art (the seed's Figures 14–15): a curve turned into
//! straight pieces at only 8 or 16 legal headings. Arcs are followed just
//! outside their circle, along the circumscribed polygon whose sides are
//! tangent where the heading is legal (each side pair is r·tan(π/N) long);
//! straight lines become two legal pieces meeting where they intersect.

use std::f64::consts::{FRAC_PI_2, TAU};

use super::curve::{CurvePath, Segment};
use super::pose::{normalize_angle, Point};

/// A polyline whose every piece points along a legal heading.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedAnglePath {
    /// Legal headings in a full turn (8 or 16).
    pub directions: u32,
    /// Vertices, start first.
    pub points: Vec<Point>,
}

impl FixedAnglePath {
    /// Total length.
    pub fn length(&self) -> f64 {
        self.points.windows(2).fold(0.0, |a, w| a + w[0].dist(w[1]))
    }

    /// Heading index (0..directions) of each piece.
    pub fn headings(&self) -> Vec<u32> {
        let step = TAU / self.directions as f64;
        self.points
            .windows(2)
            .map(|w| {
                ((normalize_angle(w[0].angle_to(w[1])) / step).round() as u32) % self.directions
            })
            .collect()
    }
}

/// Appends the way from the last point to `q` as at most two legal pieces.
fn connect(out: &mut Vec<Point>, q: Point, step: f64) {
    let p = *out.last().expect("a start point is pushed first");
    let d = p.dist(q);
    if d < 1e-9 {
        return;
    }
    let a = normalize_angle(p.angle_to(q));
    let k = (a / step).floor();
    let lo = k * step;
    if (a - lo).abs() < 1e-9 || (lo + step - a).abs() < 1e-9 {
        out.push(q);
        return;
    }
    let hi = lo + step;
    // Solve p + s·u(lo) + t·u(hi) = q: a short piece at one heading, then the other.
    let (ux, uy, vx, vy) = (lo.cos(), lo.sin(), hi.cos(), hi.sin());
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    let det = ux * vy - uy * vx;
    let s = (dx * vy - dy * vx) / det;
    out.push(Point::new(p.x + s * ux, p.y + s * uy));
    out.push(q);
}

/// The curve path with only `directions` legal headings (8 or 16).
///
/// # Panics
/// If `directions` is less than 4.
pub fn fixed_angle(path: &CurvePath, directions: u32) -> FixedAnglePath {
    assert!(directions >= 4, "at least four headings");
    let step = TAU / directions as f64;
    let mut out = vec![path.pose_at(0.0).point()];
    for c in &path.curves {
        for s in c.segments() {
            match *s {
                Segment::Line {
                    start,
                    heading,
                    length,
                } => connect(&mut out, start.offset(heading, length), step),
                Segment::Arc {
                    centre,
                    radius,
                    start_angle,
                    turn,
                    sweep,
                } => {
                    let sg = turn.sign();
                    // Radial angle of the tangent point of each side: where the travel heading is legal.
                    let side = |theta: f64| {
                        let k = ((theta + sg * FRAC_PI_2) / step).round();
                        k * step - sg * FRAC_PI_2
                    };
                    let on_polygon = |theta: f64| {
                        let off = theta - side(theta);
                        centre.offset(theta, radius / off.cos())
                    };
                    connect(&mut out, on_polygon(start_angle), step);
                    // Vertices lie half a step from the tangent points.
                    let first = side(start_angle) + sg * step / 2.0;
                    let mut along = sg * (first - start_angle);
                    if along < 0.0 {
                        along += step;
                    }
                    while along < sweep - 1e-9 {
                        let theta = start_angle + sg * along;
                        out.push(centre.offset(theta, radius / (step / 2.0).cos()));
                        along += step;
                    }
                    connect(&mut out, on_polygon(start_angle + sg * sweep), step);
                }
            }
        }
    }
    let end = path.pose_at(path.length()).point();
    connect(&mut out, end, step);
    FixedAnglePath {
        directions,
        points: out,
    }
}
