//! One entry point for every method of the `motion` layer, as the CLI and
//! the benches use them: a query (cells, heading, radius, width) and a method
//! give a grid path and a drivable curve, or a [`MotionError`] saying why not.

use std::time::Instant;

use crate::map::{Cell, Grid};
use crate::search::{MoveCosts, SpatialAStar};

use super::curve::{Curve, CurvePath, Segment};
use super::directional::{
    DirectionalAStar, DirectionalConfig, DirectionalQuery, Neighborhood, StartHeading,
};
use super::error::MotionError;
use super::hit_table::HitTable;
use super::hybrid::hybrid;
use super::pose::{Point, Pose};
use super::smoothing::{final_smoothing, simple_smooth, smoothing48};
use super::turns::arc_line;
use super::walkable::Footprint;

/// How a path is planned and made drivable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// 8-connected A*; the curve is the grid path's straight legs (the unit turns on the spot).
    Astar,
    /// A*, Listing 1 smoothing, then arc-line turns at the waypoints (the seed's
    /// "simple solution"); an error when a turn hits a blocked cell.
    Smooth,
    /// A*, Smoothing48, then simple smoothing with curves (the seed's better pass).
    Smooth48,
    /// Directional A* of the given reach, then simple smoothing with curves.
    Directional(Neighborhood),
    /// The six-step hybrid.
    Hybrid,
}

impl Method {
    /// The CLI's name.
    pub fn name(self) -> &'static str {
        match self {
            Method::Astar => "astar",
            Method::Smooth => "smooth",
            Method::Smooth48 => "smooth48",
            Method::Directional(n) => n.name(),
            Method::Hybrid => "hybrid",
        }
    }

    /// Every method, in the CLI's order.
    pub const ALL: [Method; 7] = [
        Method::Astar,
        Method::Smooth,
        Method::Smooth48,
        Method::Directional(Neighborhood::D8),
        Method::Directional(Neighborhood::D24),
        Method::Directional(Neighborhood::D48),
        Method::Hybrid,
    ];
}

impl std::str::FromStr for Method {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown method `{s}`: expected one of astar, smooth, smooth48, directional8, directional24, directional48, hybrid"))
    }
}

/// A unit's trip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionQuery {
    /// Start cell.
    pub start: Cell,
    /// Heading at the start, radians; `None` lets the unit face anywhere.
    pub start_heading: Option<f64>,
    /// Goal cell.
    pub goal: Cell,
    /// Turning radius, tiles.
    pub radius: f64,
    /// Unit width, tiles.
    pub width: f64,
    /// Allow reversing in directional searches at this cost factor.
    pub reverse_penalty: Option<f64>,
    /// Let the `smooth` method tighten an illegal turn, down to this radius:
    /// a unit that slows down can turn tighter (the seed's "making tighter turns").
    pub min_radius: Option<f64>,
}

/// A planned trip.
#[derive(Clone, Debug, PartialEq)]
pub struct MotionPlan {
    /// The grid path the method started from (for directional searches, the cells of its nodes).
    pub grid_path: Vec<Cell>,
    /// The drivable curve.
    pub curve: CurvePath,
    /// Wall time of the whole method, milliseconds.
    pub search_ms: f64,
    /// Whether the hybrid's fast path sufficed (`None` for other methods).
    pub fast_path: Option<bool>,
    /// Turns the `smooth` method had to tighten below the radius (slowing down for them).
    pub tightened_turns: usize,
    /// The tightest radius the curve uses (the radius itself when no turn was tightened).
    pub tightest_radius: f64,
}

/// Reusable searches and tables; tables are rebuilt only when the unit changes.
#[derive(Debug, Default)]
pub struct MotionPlanner {
    spatial: SpatialAStar,
    directional: Vec<DirectionalAStar>,
    table48: Option<HitTable>,
}

impl MotionPlanner {
    /// An empty planner; scratch and tables are made on first use.
    pub fn new() -> Self {
        Self::default()
    }

    fn directional(&mut self, n: Neighborhood, q: &MotionQuery) -> &mut DirectionalAStar {
        let i = self.directional_index(n, q);
        &mut self.directional[i]
    }

    fn directional_index(&mut self, n: Neighborhood, q: &MotionQuery) -> usize {
        let mut cfg = DirectionalConfig::new(n, q.radius, q.width);
        cfg.reverse_penalty = q.reverse_penalty;
        let i = match self
            .directional
            .iter()
            .position(|d| d.config().neighborhood == n)
        {
            Some(i) => i,
            None => {
                self.directional.push(DirectionalAStar::new(cfg));
                self.directional.len() - 1
            }
        };
        self.directional[i].reconfigure(cfg);
        i
    }

    fn table48(&mut self, q: &MotionQuery) -> &HitTable {
        let stale = self
            .table48
            .as_ref()
            .is_none_or(|t| t.radius() != q.radius || t.width() != q.width);
        if stale {
            self.table48 = Some(HitTable::build(q.radius, q.width, 3));
        }
        self.table48.as_ref().expect("just built")
    }

    fn grid_path(
        &mut self,
        grid: &Grid,
        q: &MotionQuery,
        costs: &MoveCosts,
    ) -> Result<Vec<Cell>, MotionError> {
        let mut path = Vec::new();
        match self
            .spatial
            .search_weighted(grid, q.start, q.goal, costs, &mut path)
        {
            Some(_) => Ok(path),
            None if !grid.reachable(q.start, q.goal) => Err(MotionError::Unreachable),
            None => Err(MotionError::NoLegalPath {
                method: "astar",
                radius: q.radius,
                width: q.width,
                expanded: self.spatial.expanded,
                budget: "",
            }),
        }
    }

    /// Plans `q` with `method`.
    pub fn plan(
        &mut self,
        grid: &Grid,
        q: &MotionQuery,
        method: Method,
    ) -> Result<MotionPlan, MotionError> {
        let t0 = Instant::now();
        for (what, c) in [("start", q.start), ("goal", q.goal)] {
            if c.index() >= grid.cell_count() || !grid.is_passable(c) {
                let (x, y) = if c.index() < grid.cell_count() {
                    grid.xy(c)
                } else {
                    (c.0, 0)
                };
                return Err(MotionError::BlockedEndpoint {
                    what,
                    x: x as i64,
                    y: y as i64,
                });
            }
        }
        if !grid.reachable(q.start, q.goal) {
            return Err(MotionError::Unreachable);
        }
        let fp = Footprint::new(q.width);
        for (what, c) in [("start", q.start), ("goal", q.goal)] {
            if !fp.fits(grid, Point::centre(grid, c), 0.0) {
                let (x, y) = grid.xy(c);
                return Err(MotionError::DoesNotFit {
                    what,
                    x,
                    y,
                    width: q.width,
                });
            }
        }
        if q.start == q.goal {
            return Ok(MotionPlan {
                grid_path: vec![q.start],
                curve: CurvePath::default(),
                search_ms: t0.elapsed().as_secs_f64() * 1000.0,
                fast_path: None,
                tightened_turns: 0,
                tightest_radius: q.radius,
            });
        }
        let heading = q
            .start_heading
            .map_or(StartHeading::Free, StartHeading::Angle);
        let centre = |c: Cell| Point::centre(grid, c);
        let mut fast_path = None;
        let mut tightened_turns = 0;
        let mut tightest_radius = q.radius;
        let (grid_path, curve) = match method {
            Method::Astar => {
                let path = self.grid_path(grid, q, &MoveCosts::octile())?;
                let curves = path
                    .windows(2)
                    .map(|w| Curve::line(centre(w[0]), centre(w[1])))
                    .collect();
                (path, CurvePath { curves })
            }
            Method::Smooth => {
                let path = self.grid_path(grid, q, &MoveCosts::octile())?;
                let pts: Vec<Point> = path.iter().map(|&c| centre(c)).collect();
                let pts = simple_smooth(grid, &fp, &pts);
                let (curve, tightened) = tightening_chain(grid, &fp, &pts, q)?;
                tightened_turns = tightened;
                tightest_radius = curve
                    .curves
                    .iter()
                    .flat_map(|c| c.segments().to_vec())
                    .filter_map(|s| match s {
                        Segment::Arc { radius, .. } => Some(radius),
                        Segment::Line { .. } => None,
                    })
                    .fold(q.radius, f64::min);
                (path, curve)
            }
            Method::Smooth48 => {
                let path = self.grid_path(grid, q, &MoveCosts::octile())?;
                let table = self.table48(q);
                match smoothing48(grid, table, &path, heading, None) {
                    Ok(s) => {
                        let curve = final_smoothing(
                            grid,
                            &fp,
                            q.radius,
                            &s.route.poses,
                            &s.route.curve.curves,
                        );
                        (path, curve)
                    }
                    Err(f) => {
                        let (x, y) = grid.xy(path[f.farthest]);
                        return Err(MotionError::SmoothingFailed {
                            index: f.farthest,
                            x,
                            y,
                        });
                    }
                }
            }
            Method::Directional(n) => {
                let query = DirectionalQuery::new(q.start, heading, q.goal);
                let d = self.directional(n, q).search(grid, &query)?;
                let curve = if d.reversing.iter().any(|&r| r) {
                    d.curve
                } else {
                    final_smoothing(grid, &fp, q.radius, &d.poses, &d.curve.curves)
                };
                (d.cells, curve)
            }
            Method::Hybrid => {
                self.table48(q);
                let i = self.directional_index(Neighborhood::D8, q);
                let table = self.table48.as_ref().expect("built above");
                let d8 = &mut self.directional[i];
                let out = hybrid(grid, &mut self.spatial, table, d8, q.start, heading, q.goal)?;
                fast_path = Some(out.fast_path);
                (out.grid_path, out.curve)
            }
        };
        Ok(MotionPlan {
            grid_path,
            curve,
            search_ms: t0.elapsed().as_secs_f64() * 1000.0,
            fast_path,
            tightened_turns,
            tightest_radius,
        })
    }
}

/// The seed's simple turning solution, legal or an error: from the start
/// pose an arc-then-line curve to each waypoint in turn. A leg that hits a
/// blocked cell is retried with a tighter radius, in tenths of the way down
/// to `q.min_radius` (if set), as a unit slowing down for the turn would.
/// Returns the curve and how many legs were tightened.
pub fn tightening_chain(
    grid: &Grid,
    fp: &Footprint,
    points: &[Point],
    q: &MotionQuery,
) -> Result<(CurvePath, usize), MotionError> {
    let mut curves = Vec::new();
    let mut tightened = 0;
    let Some(&first) = points.first() else {
        return Ok((CurvePath { curves }, 0));
    };
    let initial = q
        .start_heading
        .unwrap_or_else(|| points.get(1).map_or(0.0, |&p| first.angle_to(p)));
    let mut pose = Pose::at(first, initial);
    let floor = q.min_radius.unwrap_or(q.radius).min(q.radius);
    for &p in &points[1..] {
        let mut hit = None;
        let leg = (0..=10).find_map(|k| {
            let r = q.radius - (q.radius - floor) * k as f64 / 10.0;
            if k > 0 && floor == q.radius {
                return None;
            }
            let c = arc_line(pose, p, r)?;
            match fp.first_hit(grid, &c) {
                None => Some((c, k > 0)),
                Some(h) => {
                    hit.get_or_insert(h);
                    None
                }
            }
        });
        let Some((c, tight)) = leg else {
            let h = hit.unwrap_or(p);
            return Err(MotionError::IllegalTurn {
                x: h.x,
                y: h.y,
                radius: floor,
                width: q.width,
            });
        };
        tightened += usize::from(tight);
        pose = c.pose_at(c.length());
        curves.push(c);
    }
    Ok((CurvePath { curves }, tightened))
}
