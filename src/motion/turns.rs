//! Shortest curves for a unit with turning radius r: arc-then-line from a
//! pose to a point (the seed's Figures 5–6), the four arc-line-arc curves
//! between two poses (Figures 9–11), slowing down for a tighter turn, and
//! reversing at a cost.

use super::curve::{Curve, Segment, Turn};
use super::pose::{normalize_angle, Point, Pose};

/// Sweep from radial angle `a` to `b` travelling `turn`, in [0, 2π).
fn sweep(turn: Turn, a: f64, b: f64) -> f64 {
    let s = normalize_angle(turn.sign() * (b - a));
    // A full turn from rounding is no turn.
    if s > std::f64::consts::TAU - 1e-9 {
        0.0
    } else {
        s
    }
}

fn arc(pose: Pose, r: f64, turn: Turn, to_heading: f64) -> Segment {
    let a = turn.radial(pose.heading);
    Segment::Arc {
        centre: turn.centre(pose, r),
        radius: r,
        start_angle: a,
        turn,
        sweep: sweep(turn, a, turn.radial(to_heading)),
    }
}

/// The arc-then-line curve turning `turn` first, or `None` when `to` lies
/// inside that turning circle.
pub fn arc_line_turning(from: Pose, to: Point, r: f64, turn: Turn) -> Option<Curve> {
    let p = turn.centre(from, r);
    let h = p.dist(to);
    if h < r - 1e-9 {
        return None;
    }
    let d = (h * h - r * r).max(0.0).sqrt();
    let theta = (r / h).min(1.0).acos();
    let phi = p.angle_to(to);
    // Tangent point Q, whose travel direction points at `to`.
    let q_angle = phi - turn.sign() * theta;
    let heading = q_angle + turn.sign() * std::f64::consts::FRAC_PI_2;
    let mut c = Curve::new();
    c.push(arc(from, r, turn, heading));
    c.push(Segment::Line {
        start: p.offset(q_angle, r),
        heading: normalize_angle(heading),
        length: d,
    });
    Some(c)
}

/// The shortest arc-then-line curve from `from` to the point `to` (left and
/// right tried, the shorter kept); `None` if `to` is inside both circles.
pub fn arc_line(from: Pose, to: Point, r: f64) -> Option<Curve> {
    let a = arc_line_turning(from, to, r, Turn::Ccw);
    let b = arc_line_turning(from, to, r, Turn::Cw);
    match (a, b) {
        (Some(a), Some(b)) => Some(if a.length() <= b.length() { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// The arc-line-arc curve turning `t1` then `t2`; `None` when the circles are
/// too close for a crossing tangent.
pub fn arc_line_arc_turning(from: Pose, to: Pose, r: f64, t1: Turn, t2: Turn) -> Option<Curve> {
    let c1 = t1.centre(from, r);
    let c2 = t2.centre(to, r);
    let dist = c1.dist(c2);
    let psi = if dist < 1e-12 {
        from.heading
    } else {
        c1.angle_to(c2)
    };
    let (beta, len) = if t1 == t2 {
        // Case 1 (Figure 10): the tangent is parallel to the line of centres.
        (psi, dist)
    } else {
        // Case 2 (Figure 11): a crossing tangent, possible only if the circles are apart.
        if dist < 2.0 * r - 1e-9 {
            return None;
        }
        let l = (dist * dist - 4.0 * r * r).max(0.0).sqrt();
        (psi + t1.sign() * (2.0 * r).atan2(l), l)
    };
    let mut c = Curve::new();
    c.push(arc(from, r, t1, beta));
    c.push(Segment::Line {
        start: c1.offset(t1.radial(beta), r),
        heading: normalize_angle(beta),
        length: len,
    });
    let q2 = Pose::at(c2.offset(t2.radial(beta), r), beta);
    c.push(arc(q2, r, t2, to.heading));
    Some(c)
}

/// The four arc-line-arc curves (CCW-CCW, CW-CW, CCW-CW, CW-CCW), each `None` where impossible.
pub fn arc_line_arc_all(from: Pose, to: Pose, r: f64) -> [Option<Curve>; 4] {
    [
        arc_line_arc_turning(from, to, r, Turn::Ccw, Turn::Ccw),
        arc_line_arc_turning(from, to, r, Turn::Cw, Turn::Cw),
        arc_line_arc_turning(from, to, r, Turn::Ccw, Turn::Cw),
        arc_line_arc_turning(from, to, r, Turn::Cw, Turn::Ccw),
    ]
}

/// The shortest of the four arc-line-arc curves from `from` to `to`.
pub fn arc_line_arc(from: Pose, to: Pose, r: f64) -> Option<Curve> {
    arc_line_arc_all(from, to, r)
        .into_iter()
        .flatten()
        .min_by(|a, b| a.length().total_cmp(&b.length()))
}

/// The shortest of the four arc-line-arc curves for which `legal` holds.
pub fn shortest_legal(
    from: Pose,
    to: Pose,
    r: f64,
    mut legal: impl FnMut(&Curve) -> bool,
) -> Option<Curve> {
    let mut all: Vec<Curve> = arc_line_arc_all(from, to, r)
        .into_iter()
        .flatten()
        .collect();
    all.sort_by(|a, b| a.length().total_cmp(&b.length()));
    all.into_iter().find(|c| legal(c))
}

/// The shortest curve between two poses allowing reverse driving at a cost:
/// the reversing candidate is the forward curve between the flipped poses,
/// driven backwards, its length multiplied by `reverse_penalty` (> 1 keeps
/// reversing for when it is needed). Returns the curve and its cost.
pub fn arc_line_arc_with_reverse(
    from: Pose,
    to: Pose,
    r: f64,
    reverse_penalty: f64,
    mut legal: impl FnMut(&Curve) -> bool,
) -> Option<(Curve, f64)> {
    let fwd = shortest_legal(from, to, r, &mut legal).map(|c| (c, c.length()));
    let rev = shortest_legal(from.flipped(), to.flipped(), r, &mut legal).map(|mut c| {
        c.reverse = true;
        (c, c.length() * reverse_penalty)
    });
    match (fwd, rev) {
        (Some(f), Some(b)) => Some(if f.1 <= b.1 { f } else { b }),
        (f, b) => f.or(b),
    }
}

/// A unit whose turning radius grows with speed: `r(v) = min_radius + v² / lateral_accel`
/// (a fixed sideways grip), so it can turn tighter by slowing down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpeedRadius {
    /// Radius when creeping, tiles.
    pub min_radius: f64,
    /// Largest sideways acceleration, tiles per time².
    pub lateral_accel: f64,
}

impl SpeedRadius {
    /// Turning radius at speed `v`.
    pub fn radius(&self, v: f64) -> f64 {
        self.min_radius + v * v / self.lateral_accel
    }

    /// The model whose radius is `min_radius` at rest and `radius` at `full_speed`.
    pub fn through(min_radius: f64, radius: f64, full_speed: f64) -> Self {
        SpeedRadius {
            min_radius,
            lateral_accel: full_speed * full_speed / (radius - min_radius).max(1e-12),
        }
    }

    /// The fastest speed at which the unit can turn with radius `r`.
    pub fn speed_for_radius(&self, r: f64) -> f64 {
        ((r - self.min_radius).max(0.0) * self.lateral_accel).sqrt()
    }

    /// The fastest speed, out of `max_speed` slowed in tenths, at which a
    /// legal arc-line-arc curve from `from` to `to` exists; returns that curve
    /// and speed. This is "decelerate before the turn" instead of failing.
    pub fn slow_for_turn(
        &self,
        from: Pose,
        to: Pose,
        max_speed: f64,
        mut legal: impl FnMut(&Curve) -> bool,
    ) -> Option<(Curve, f64)> {
        (0..=10).rev().find_map(|k| {
            let v = max_speed * k as f64 / 10.0;
            shortest_legal(from, to, self.radius(v), &mut legal).map(|c| (c, v))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    fn close(a: Pose, b: Pose) -> bool {
        a.point().dist(b.point()) < 1e-6 && (normalize_angle(a.heading - b.heading + 1e-9)) < 1e-6
    }

    #[test]
    fn arc_line_reaches_the_point_and_prefers_the_near_side() {
        let from = Pose::new(0.0, 0.0, 0.0);
        let to = Point::new(3.0, 3.0);
        let c = arc_line(from, to, 1.0).unwrap();
        let end = c.pose_at(c.length());
        assert!(end.point().dist(to) < 1e-9);
        // +y is the Ccw side.
        assert!(matches!(
            c.segments()[0],
            Segment::Arc {
                turn: Turn::Ccw,
                ..
            }
        ));
        assert!(arc_line(from, Point::new(0.0, 1.0), 1.0).is_some());
        assert!(arc_line_turning(from, Point::new(0.0, 0.5), 1.0, Turn::Ccw).is_none());
    }

    #[test]
    fn all_four_arc_line_arc_curves_end_at_the_pose() {
        let from = Pose::new(0.5, 0.5, 0.3);
        for to in [
            Pose::new(6.0, 2.0, PI),
            Pose::new(-4.0, 3.0, FRAC_PI_2),
            Pose::new(5.0, -5.0, 5.0),
        ] {
            let all = arc_line_arc_all(from, to, 1.3);
            assert!(all.iter().all(Option::is_some));
            for c in all.into_iter().flatten() {
                assert!(close(c.pose_at(0.0), from));
                assert!(
                    close(c.pose_at(c.length()), to),
                    "{:?} vs {to:?}",
                    c.pose_at(c.length())
                );
            }
        }
    }

    #[test]
    fn straight_ahead_is_a_straight_line() {
        let c = arc_line_arc(Pose::new(0.0, 0.0, 0.0), Pose::new(5.0, 0.0, 0.0), 2.0).unwrap();
        assert!((c.length() - 5.0).abs() < 1e-9);
    }

    #[test]
    fn reversing_wins_when_the_goal_is_just_behind() {
        let from = Pose::new(0.0, 0.0, 0.0);
        let to = Pose::new(-2.0, 0.0, 0.0);
        let (c, cost) = arc_line_arc_with_reverse(from, to, 1.0, 1.5, |_| true).unwrap();
        assert!(c.reverse);
        assert!((cost - 3.0).abs() < 1e-9);
        assert!(close(c.pose_at(c.length()), to));
    }

    #[test]
    fn slowing_down_tightens_the_turn() {
        let m = SpeedRadius {
            min_radius: 0.5,
            lateral_accel: 1.0,
        };
        let from = Pose::new(0.0, 0.0, 0.0);
        let to = Pose::new(2.0, 2.0, FRAC_PI_2);
        // Legal only if the radius is at most 1.2.
        let (_, v) = m
            .slow_for_turn(from, to, 2.0, |c| {
                c.segments().iter().all(|s| match s {
                    Segment::Arc { radius, .. } => *radius <= 1.2,
                    _ => true,
                })
            })
            .unwrap();
        assert!(m.radius(v) <= 1.2 && v > 0.0 && v < 2.0);
        let t = SpeedRadius::through(0.5, 2.0, 3.0);
        assert!((t.radius(3.0) - 2.0).abs() < 1e-9 && (t.speed_for_radius(2.0) - 3.0).abs() < 1e-9);
        assert!((t.speed_for_radius(t.radius(1.7)) - 1.7).abs() < 1e-9);
    }
}
