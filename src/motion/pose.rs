//! Continuous positions and headings in tile units: cell (x, y) spans
//! [x, x+1) × [y, y+1), its centre is (x+0.5, y+0.5); heading 0 points along
//! +x and π/2 along +y (the map's rows grow downward, so +y is "south").

use std::f64::consts::{PI, TAU};

use crate::map::{Cell, Grid};

/// A point on the map, in tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    /// Column coordinate.
    pub x: f64,
    /// Row coordinate.
    pub y: f64,
}

impl Point {
    /// The point `(x, y)`.
    pub const fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }

    /// The centre of a cell.
    pub fn centre(grid: &Grid, cell: Cell) -> Self {
        let (x, y) = grid.xy(cell);
        Point::new(x as f64 + 0.5, y as f64 + 0.5)
    }

    /// Euclidean distance.
    pub fn dist(self, o: Point) -> f64 {
        (self.x - o.x).hypot(self.y - o.y)
    }

    /// Direction from `self` to `o`, in radians.
    pub fn angle_to(self, o: Point) -> f64 {
        (o.y - self.y).atan2(o.x - self.x)
    }

    /// `self + d · (cos a, sin a)`.
    pub fn offset(self, a: f64, d: f64) -> Point {
        Point::new(self.x + d * a.cos(), self.y + d * a.sin())
    }
}

/// A position with a heading: what a unit with a turning radius must know.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pose {
    /// Column coordinate.
    pub x: f64,
    /// Row coordinate.
    pub y: f64,
    /// Facing, radians (0 = +x, π/2 = +y).
    pub heading: f64,
}

impl Pose {
    /// The pose `(x, y, heading)`.
    pub const fn new(x: f64, y: f64, heading: f64) -> Self {
        Pose { x, y, heading }
    }

    /// A pose at `p`.
    pub fn at(p: Point, heading: f64) -> Self {
        Pose::new(p.x, p.y, heading)
    }

    /// The position.
    pub fn point(self) -> Point {
        Point::new(self.x, self.y)
    }

    /// The same place facing the other way (driving in reverse).
    pub fn flipped(self) -> Pose {
        Pose::new(self.x, self.y, normalize_angle(self.heading + PI))
    }
}

/// The angle in [0, 2π).
pub fn normalize_angle(a: f64) -> f64 {
    let r = a.rem_euclid(TAU);
    if r >= TAU {
        0.0
    } else {
        r
    }
}

/// The angle in (-π, π].
pub fn wrap_pi(a: f64) -> f64 {
    let r = normalize_angle(a);
    if r > PI {
        r - TAU
    } else {
        r
    }
}

/// Number of compass headings of the directional searches.
pub const HEADINGS: usize = 8;

/// The angle of compass heading `k` (k · 45°).
pub fn heading_angle(k: u8) -> f64 {
    k as f64 * std::f64::consts::FRAC_PI_4
}

/// The compass heading index nearest to `a`.
pub fn nearest_heading(a: f64) -> u8 {
    ((normalize_angle(a) / std::f64::consts::FRAC_PI_4).round() as usize % HEADINGS) as u8
}
