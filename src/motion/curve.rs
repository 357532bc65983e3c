//! Curves of up to four segments, each a straight line or an arc (the seed's
//! "line segment" record), and position and heading at any distance or time
//! along them (Listing 2). A [`CurvePath`] chains curves into a whole route.

use std::f64::consts::FRAC_PI_2;

use super::pose::{normalize_angle, Point, Pose};

/// Which way an arc turns: `Ccw` makes the heading angle grow (towards +y from
/// +x, which is clockwise on a screen whose rows grow downward).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Heading angle increases.
    Ccw,
    /// Heading angle decreases.
    Cw,
}

impl Turn {
    /// +1 for `Ccw`, -1 for `Cw`.
    pub fn sign(self) -> f64 {
        match self {
            Turn::Ccw => 1.0,
            Turn::Cw => -1.0,
        }
    }

    /// Centre of the turning circle of radius `r` for a unit at `pose`.
    pub fn centre(self, pose: Pose, r: f64) -> Point {
        pose.point()
            .offset(pose.heading + self.sign() * FRAC_PI_2, r)
    }

    /// Angle, seen from the circle's centre, of a point where the travel heading is `heading`.
    pub fn radial(self, heading: f64) -> f64 {
        heading - self.sign() * FRAC_PI_2
    }
}

/// One piece of a curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Segment {
    /// A straight line.
    Line {
        /// Where it starts.
        start: Point,
        /// Its direction.
        heading: f64,
        /// Its length.
        length: f64,
    },
    /// An arc of a circle.
    Arc {
        /// Centre of the circle.
        centre: Point,
        /// Radius of the circle.
        radius: f64,
        /// Angle, seen from the centre, of the arc's first point.
        start_angle: f64,
        /// Direction of travel.
        turn: Turn,
        /// Radians covered, ≥ 0.
        sweep: f64,
    },
}

impl Segment {
    /// Length along the segment.
    pub fn length(&self) -> f64 {
        match *self {
            Segment::Line { length, .. } => length,
            Segment::Arc { radius, sweep, .. } => radius * sweep,
        }
    }

    /// The segment moved by `(dx, dy)`.
    pub fn translated(self, dx: f64, dy: f64) -> Segment {
        match self {
            Segment::Line {
                start,
                heading,
                length,
            } => Segment::Line {
                start: Point::new(start.x + dx, start.y + dy),
                heading,
                length,
            },
            Segment::Arc {
                centre,
                radius,
                start_angle,
                turn,
                sweep,
            } => Segment::Arc {
                centre: Point::new(centre.x + dx, centre.y + dy),
                radius,
                start_angle,
                turn,
                sweep,
            },
        }
    }

    /// Position and travel heading at distance `d` from the segment's start.
    pub fn pose_at(&self, d: f64) -> Pose {
        match *self {
            Segment::Line { start, heading, .. } => Pose::at(start.offset(heading, d), heading),
            Segment::Arc {
                centre,
                radius,
                start_angle,
                turn,
                ..
            } => {
                let theta = start_angle + turn.sign() * d / radius;
                Pose::at(
                    centre.offset(theta, radius),
                    normalize_angle(theta + turn.sign() * FRAC_PI_2),
                )
            }
        }
    }
}

/// Up to four segments travelled in order, with no allocation, so searches
/// can build and drop them freely. A reversing curve is driven backwards:
/// the unit faces opposite to its direction of travel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    segments: [Segment; 4],
    len: u8,
    /// Driven in reverse.
    pub reverse: bool,
}

impl Default for Curve {
    fn default() -> Self {
        Self::new()
    }
}

impl Curve {
    /// An empty curve.
    pub const fn new() -> Self {
        Curve {
            segments: [Segment::Line {
                start: Point::new(0.0, 0.0),
                heading: 0.0,
                length: 0.0,
            }; 4],
            len: 0,
            reverse: false,
        }
    }

    /// Appends a segment; segments of (near) zero length are dropped.
    ///
    /// # Panics
    /// If the curve already holds four segments.
    pub fn push(&mut self, s: Segment) {
        if s.length() < 1e-12 {
            return;
        }
        assert!(self.len < 4, "a curve holds at most four segments");
        self.segments[self.len as usize] = s;
        self.len += 1;
    }

    /// The segments in travel order.
    pub fn segments(&self) -> &[Segment] {
        &self.segments[..self.len as usize]
    }

    /// Total length.
    pub fn length(&self) -> f64 {
        self.segments().iter().fold(0.0, |a, s| a + s.length())
    }

    /// The curve moved by `(dx, dy)`: tables store curves from the origin cell.
    pub fn translated(&self, dx: f64, dy: f64) -> Curve {
        let mut c = *self;
        for s in &mut c.segments[..self.len as usize] {
            *s = s.translated(dx, dy);
        }
        c
    }

    /// A straight line from `a` to `b` (a unit that turns on the spot).
    pub fn line(a: Point, b: Point) -> Curve {
        let mut c = Curve::new();
        c.push(Segment::Line {
            start: a,
            heading: normalize_angle(a.angle_to(b)),
            length: a.dist(b),
        });
        c
    }

    /// Position and facing at distance `d` along the curve (Listing 2),
    /// clamped to the ends. The facing is flipped for a reversing curve.
    pub fn pose_at(&self, d: f64) -> Pose {
        let p = self.travel_pose_at(d);
        if self.reverse {
            p.flipped()
        } else {
            p
        }
    }

    fn travel_pose_at(&self, mut d: f64) -> Pose {
        let segs = self.segments();
        if segs.is_empty() {
            return Pose::default();
        }
        d = d.max(0.0);
        for s in segs {
            let l = s.length();
            if d < l {
                return s.pose_at(d);
            }
            d -= l;
        }
        let last = segs[segs.len() - 1];
        last.pose_at(last.length())
    }

    /// Position and facing after `elapsed` time units at constant `speed` (Listing 2).
    pub fn pose_at_time(&self, speed: f64, elapsed: f64) -> Pose {
        self.pose_at(speed * elapsed)
    }

    /// Poses at most `step` apart along the curve, both ends included.
    pub fn samples(&self, step: f64) -> impl Iterator<Item = Pose> + '_ {
        let len = self.length();
        let n = ((len / step).ceil() as usize).max(1);
        (0..=n).map(move |i| self.pose_at(len * i as f64 / n as f64))
    }
}

/// A whole route: curves joined end to start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CurvePath {
    /// The pieces in order.
    pub curves: Vec<Curve>,
}

impl CurvePath {
    /// Total length.
    pub fn length(&self) -> f64 {
        self.curves.iter().fold(0.0, |a, c| a + c.length())
    }

    /// Position and facing at distance `d` from the start.
    pub fn pose_at(&self, mut d: f64) -> Pose {
        for c in &self.curves {
            let l = c.length();
            if d < l {
                return c.pose_at(d);
            }
            d -= l;
        }
        self.curves
            .last()
            .map(|c| c.pose_at(c.length()))
            .unwrap_or_default()
    }

    /// Position and facing after `elapsed` time units at constant `speed`.
    pub fn pose_at_time(&self, speed: f64, elapsed: f64) -> Pose {
        self.pose_at(speed * elapsed)
    }

    /// Poses at most `step` apart along the whole route, both ends included.
    pub fn samples(&self, step: f64) -> Vec<Pose> {
        let mut out = Vec::new();
        for (i, c) in self.curves.iter().enumerate() {
            let skip = usize::from(i > 0);
            out.extend(c.samples(step).skip(skip));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quarter_arc_ends_turned_by_ninety_degrees() {
        let start = Pose::new(0.0, 0.0, 0.0);
        let centre = Turn::Ccw.centre(start, 2.0);
        assert!((centre.y - 2.0).abs() < 1e-12);
        let mut c = Curve::new();
        c.push(Segment::Arc {
            centre,
            radius: 2.0,
            start_angle: Turn::Ccw.radial(0.0),
            turn: Turn::Ccw,
            sweep: FRAC_PI_2,
        });
        let end = c.pose_at(c.length());
        assert!(
            (end.x - 2.0).abs() < 1e-9 && (end.y - 2.0).abs() < 1e-9,
            "{end:?}"
        );
        assert!((end.heading - FRAC_PI_2).abs() < 1e-9);
        let p = c.pose_at_time(0.5, 2.0);
        assert!((p.point().dist(centre) - 2.0).abs() < 1e-9);
    }
}
