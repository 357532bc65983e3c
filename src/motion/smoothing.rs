//! Smoothing passes. [`simple_smooth`] is Listing 1 on straight lines: drop a
//! waypoint whenever the unit can walk straight past it. [`smooth_legs`] is
//! the same pass on posed waypoints with curved `Walkable(A, dirA, B, dirB)`.
//! [`smoothing48`] is the better pre-smoothing pass: a Directional48 search
//! restricted to the grid path's own waypoints, each node's successors being
//! the waypoints 1, 2 or 3 ahead, guided by the path's remaining length, and
//! failing once it backs up six or more waypoints behind the farthest reached.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::map::{Cell, Grid};

use super::curve::{Curve, CurvePath};
use super::directional::{DirectionalAStar, DirectionalPath, StartHeading};
use super::hit_table::{block_bit, HitTable};
use super::pose::{heading_angle, nearest_heading, wrap_pi, Point, Pose, HEADINGS};
use super::turns::{arc_line, shortest_legal};
use super::walkable::Footprint;

/// Listing 1: from each kept waypoint, skip every following waypoint that can
/// be reached in a straight line clear of blocked cells for the unit's width.
/// Stretches that cannot be walked are left as they are.
pub fn simple_smooth(grid: &Grid, fp: &Footprint, points: &[Point]) -> Vec<Point> {
    if points.len() < 3 {
        return points.to_vec();
    }
    let mut out = vec![points[0]];
    let mut check = points[0];
    let mut cur = 1;
    while cur + 1 < points.len() {
        if fp.walkable_line(grid, check, points[cur + 1]) {
            cur += 1;
        } else {
            out.push(points[cur]);
            check = points[cur];
            cur += 1;
        }
    }
    out.push(points[points.len() - 1]);
    out
}

/// Listing 1 on posed waypoints joined by `legs` (`legs[i]` from `poses[i]`
/// to `poses[i + 1]`): a waypoint is dropped when the shortest legal
/// arc-line-arc curve from the last kept pose to the next one is walkable.
/// Reversing legs are kept as they are. Returns the joined curve.
pub fn smooth_legs(
    grid: &Grid,
    fp: &Footprint,
    radius: f64,
    poses: &[Pose],
    legs: &[Curve],
) -> CurvePath {
    debug_assert_eq!(legs.len() + 1, poses.len().max(1));
    let mut out = Vec::new();
    if legs.is_empty() {
        return CurvePath { curves: out };
    }
    let mut check = 0;
    let mut leg = legs[0];
    let mut cur = 1;
    while cur < legs.len() {
        let shortcut = if leg.reverse || legs[cur].reverse {
            None
        } else {
            shortest_legal(poses[check], poses[cur + 1], radius, |c| {
                fp.walkable_curve(grid, c)
            })
        };
        match shortcut {
            Some(c) => leg = c,
            None => {
                out.push(leg);
                check = cur;
                leg = legs[cur];
            }
        }
        cur += 1;
    }
    out.push(leg);
    CurvePath { curves: out }
}

/// How many waypoints ahead [`smooth_free_headings`] looks for a shortcut.
pub const SHORTCUT_LOOKAHEAD: usize = 24;

/// Listing 1 with free headings at the kept waypoints: from the current pose,
/// the farthest waypoint reachable by a walkable arc-then-line curve (the
/// seed's Figure 5 turn) from which the route can rejoin the next posed
/// waypoint legally; failing that, the original leg (or the rejoining curve).
/// Drops the zigzag that compass headings at every waypoint leave behind,
/// and is legal by construction: every piece is checked or was legal before.
pub fn smooth_free_headings(
    grid: &Grid,
    fp: &Footprint,
    radius: f64,
    poses: &[Pose],
    legs: &[Curve],
) -> CurvePath {
    let mut out: Vec<Curve> = Vec::new();
    if legs.is_empty() || legs.iter().any(|l| l.reverse) {
        return CurvePath {
            curves: legs.to_vec(),
        };
    }
    let last = poses.len() - 1;
    let walkable = |c: &Curve| fp.walkable_curve(grid, c);
    // The unit is at waypoint `i` with pose `pose`; `on_track` when that pose is the original one.
    let (mut i, mut pose, mut on_track) = (0usize, poses[0], true);
    while i < last {
        let mut next = None;
        for j in ((i + 2).min(last)..=(i + SHORTCUT_LOOKAHEAD).min(last)).rev() {
            let Some(c) = arc_line(pose, poses[j].point(), radius) else {
                continue;
            };
            if !walkable(&c) {
                continue;
            }
            let end = c.pose_at(c.length());
            if j == last || shortest_legal(end, poses[j + 1], radius, walkable).is_some() {
                next = Some((j, c, end));
                break;
            }
        }
        match next {
            Some((j, c, end)) => {
                out.push(c);
                (i, pose, on_track) = (j, end, j == last);
            }
            None if on_track => {
                out.push(legs[i]);
                (i, pose) = (i + 1, poses[i + 1]);
            }
            None => {
                // Checked when this waypoint was reached: the rejoining curve exists.
                let c = shortest_legal(pose, poses[i + 1], radius, walkable)
                    .expect("rejoin was checked");
                out.push(c);
                (i, pose, on_track) = (i + 1, poses[i + 1], true);
            }
        }
    }
    CurvePath { curves: out }
}

/// The final smoothing pass: [`smooth_legs`], then [`smooth_free_headings`]
/// over the waypoints it kept, whichever of the two is shorter.
pub fn final_smoothing(
    grid: &Grid,
    fp: &Footprint,
    radius: f64,
    poses: &[Pose],
    legs: &[Curve],
) -> CurvePath {
    let a = smooth_legs(grid, fp, radius, poses, legs);
    let mut kept: Vec<Pose> = a.curves.iter().map(|c| c.pose_at(0.0)).collect();
    if let Some(c) = a.curves.last() {
        kept.push(c.pose_at(c.length()));
    }
    let b = smooth_free_headings(grid, fp, radius, &kept, &a.curves);
    if b.length() < a.length() - 1e-9 {
        b
    } else {
        a
    }
}

/// A Smoothing48 pass that found no legal way to the end of the path.
#[derive(Clone, Debug)]
pub struct Smoothing48Failure {
    /// Farthest path index any node reached.
    pub farthest: usize,
    /// The best route to that index, with the path index of each pose.
    pub partial: DirectionalPath,
    /// Path index of each pose of `partial`.
    pub indices: Vec<usize>,
}

/// A successful Smoothing48 pass.
#[derive(Clone, Debug)]
pub struct Smoothed48 {
    /// The legal route through a subset of the path's waypoints.
    pub route: DirectionalPath,
    /// Path index of each pose of `route`.
    pub indices: Vec<usize>,
}

/// How far back behind the farthest waypoint the pass may search before failing (the seed's six).
pub const SMOOTHING48_BACKTRACK: usize = 6;

/// Smoothing48 along `path` (contiguous cells) with a reach-3 hit table.
/// `goal_heading` fixes the heading at the last waypoint.
pub fn smoothing48(
    grid: &Grid,
    table: &HitTable,
    path: &[Cell],
    start: StartHeading,
    goal_heading: Option<u8>,
) -> Result<Smoothed48, Box<Smoothing48Failure>> {
    let n = path.len();
    let fp = Footprint::new(table.width());
    let radius = table.radius();
    let xy: Vec<(i32, i32)> = path
        .iter()
        .map(|&c| {
            let (x, y) = grid.xy(c);
            (x as i32, y as i32)
        })
        .collect();
    // Remaining length along the grid path: the heuristic favours the path's own direction.
    let mut rest = vec![0u32; n];
    for i in (0..n.saturating_sub(1)).rev() {
        let (a, b) = (xy[i], xy[i + 1]);
        rest[i] = rest[i + 1] + (((a.0 - b.0) as f64).hypot((a.1 - b.1) as f64) * 1000.0) as u32;
    }
    let nodes = n * HEADINGS;
    let mut g = vec![u32::MAX; nodes];
    let mut parent = vec![u32::MAX; nodes];
    let mut closed = vec![false; nodes];
    let mut blocked: Vec<Option<u128>> = vec![None; n];
    let mut exact_legs: Vec<(u32, Curve)> = Vec::new();
    let mut open = BinaryHeap::new();
    let root = u32::MAX - 1;
    let start_pose = |a: f64| Pose::at(Point::centre(grid, path[0]), a);
    let mut exact_angle = None;
    match start {
        StartHeading::Free => {
            for h in 0..HEADINGS as u32 {
                g[h as usize] = 0;
                parent[h as usize] = root;
                open.push(Reverse((rest[0] as u64, h)));
            }
        }
        StartHeading::Angle(a) => {
            let k = nearest_heading(a);
            if wrap_pi(a - heading_angle(k)).abs() < 1e-9 {
                g[k as usize] = 0;
                parent[k as usize] = root;
                open.push(Reverse((rest[0] as u64, k as u32)));
            } else {
                exact_angle = Some(a);
                for j in 1..n.min(4) {
                    for h1 in 0..HEADINGS as u8 {
                        let to = Pose::at(Point::centre(grid, path[j]), heading_angle(h1));
                        if let Some(c) = shortest_legal(start_pose(a), to, radius, |c| {
                            fp.walkable_curve(grid, c)
                        }) {
                            let node = (j * HEADINGS) as u32 + h1 as u32;
                            let cost = (c.length() * 1000.0) as u32;
                            if cost < g[node as usize] {
                                g[node as usize] = cost;
                                parent[node as usize] = u32::MAX;
                                exact_legs.retain(|(nd, _)| *nd != node);
                                exact_legs.push((node, c));
                                open.push(Reverse(((cost + rest[j]) as u64, node)));
                            }
                        }
                    }
                }
            }
        }
    }
    let mut farthest = 0usize;
    let mut farthest_node: Option<u32> = None;
    let mut found = None;
    while let Some(Reverse((_, node))) = open.pop() {
        let nd = node as usize;
        if closed[nd] {
            continue;
        }
        closed[nd] = true;
        let i = nd / HEADINGS;
        let h0 = (nd % HEADINGS) as u8;
        if farthest_node.is_none() || i > farthest {
            farthest = i;
            farthest_node = Some(node);
        }
        if i + SMOOTHING48_BACKTRACK <= farthest {
            break;
        }
        if i + 1 == n && goal_heading.is_none_or(|gh| gh == h0) {
            found = Some(node);
            break;
        }
        let bm = *blocked[i].get_or_insert_with(|| {
            DirectionalAStar::blocked_block(grid, xy[i].0 as u32, xy[i].1 as u32)
        });
        for j in i + 1..n.min(i + 4) {
            let (dx, dy) = (xy[j].0 - xy[i].0, xy[j].1 - xy[i].1);
            let Some(o) = table.offset_number(dx, dy) else {
                continue;
            };
            if bm & (1u128 << block_bit(dx, dy)) != 0 {
                continue;
            }
            for h1 in 0..HEADINGS as u8 {
                let next = (j * HEADINGS) as u32 + h1 as u32;
                if closed[next as usize] {
                    continue;
                }
                let tr = table.get(h0, h1, o);
                if tr.cost == u32::MAX || tr.mask & bm != 0 {
                    continue;
                }
                let ng = g[nd] + tr.cost;
                if ng < g[next as usize] {
                    g[next as usize] = ng;
                    parent[next as usize] = node;
                    open.push(Reverse(((ng + rest[j]) as u64, next)));
                }
            }
        }
    }
    let end = found.or(farthest_node);
    // Walk back: parent u32::MAX marks an exact-start leg, `root` a start node.
    let mut chain = Vec::new();
    let mut cur = end;
    while let Some(c) = cur {
        chain.push(c);
        let p = parent[c as usize];
        cur = (p != root && p != u32::MAX).then_some(p);
    }
    chain.reverse();
    let pose_of = |nd: u32| {
        let i = nd as usize / HEADINGS;
        Pose::at(
            Point::centre(grid, path[i]),
            heading_angle((nd as usize % HEADINGS) as u8),
        )
    };
    let mut poses = Vec::new();
    let mut indices = Vec::new();
    let mut curves = Vec::new();
    if let Some(a) = exact_angle {
        poses.push(start_pose(a));
        indices.push(0);
        if let Some(&first) = chain.first() {
            let leg = exact_legs
                .iter()
                .find(|(nd, _)| *nd == first)
                .map(|(_, c)| *c);
            curves.push(leg.expect("exact-start successors keep their legs"));
        }
    }
    if let Some(&first) = chain.first() {
        poses.push(pose_of(first));
        indices.push(first as usize / HEADINGS);
    }
    for w in chain.windows(2) {
        let (a, b) = (w[0] as usize, w[1] as usize);
        let (i, j) = (a / HEADINGS, b / HEADINGS);
        let o = table
            .offset_number(xy[j].0 - xy[i].0, xy[j].1 - xy[i].1)
            .expect("within reach");
        let (h0, h1) = ((a % HEADINGS) as u8, (b % HEADINGS) as u8);
        let bm = blocked[i].expect("an expanded waypoint has its block mask");
        let (k, _) = table
            .legal(h0, h1, o, bm)
            .expect("the pass used a legal candidate");
        curves.push(table.curve(h0, h1, o, k, xy[i].0 as u32, xy[i].1 as u32));
        poses.push(pose_of(w[1]));
        indices.push(j);
    }
    let route = DirectionalPath {
        cells: indices.iter().map(|&i| path[i]).collect(),
        reversing: vec![false; curves.len()],
        poses,
        curve: CurvePath { curves },
        cost: end.map_or(0.0, |e| g[e as usize] as f64 / 1000.0),
    };
    if found.is_some() {
        Ok(Smoothed48 { route, indices })
    } else {
        Err(Box::new(Smoothing48Failure {
            farthest,
            partial: route,
            indices,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    fn grid(rows: &[&str]) -> Grid {
        Grid::from_rows(rows, Connectivity::Eight)
    }

    #[test]
    fn listing1_drops_waypoints_only_where_the_line_is_clear() {
        let g = grid(&["......", "..@...", "......"]);
        let fp = Footprint::new(0.4);
        let row: Vec<Point> = (0..6).map(|x| Point::centre(&g, g.cell(x, 0))).collect();
        assert_eq!(simple_smooth(&g, &fp, &row), vec![row[0], row[5]]);
        // Round the block at (2, 1): from (0, 2) up to (2, 0) and on to (5, 0).
        let bend: Vec<Point> = [
            (0, 2),
            (1, 2),
            (1, 1),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (5, 0),
        ]
        .iter()
        .map(|&(x, y)| Point::centre(&g, g.cell(x, y)))
        .collect();
        let s = simple_smooth(&g, &fp, &bend);
        assert!(s.len() > 2 && s.len() < bend.len(), "{s:?}");
        assert!(s.windows(2).all(|w| fp.walkable_line(&g, w[0], w[1])));
    }

    #[test]
    fn smoothing48_fails_at_an_impossible_corner_and_reports_how_far_it_got() {
        // A one-tile corridor with a right-angle corner: radius 1.5 cannot take it.
        let g = grid(&["..........@", "@@@@@@@@@.@", "@@@@@@@@@.@", "@@@@@@@@@.@"]);
        let path: Vec<Cell> = (0..10)
            .map(|x| g.cell(x, 0))
            .chain((1..4).map(|y| g.cell(9, y)))
            .collect();
        let tight = HitTable::build(0.5, 0.4, 3);
        let ok = smoothing48(&g, &tight, &path, StartHeading::Angle(0.0), None).unwrap();
        assert_eq!(*ok.indices.last().unwrap(), path.len() - 1);
        assert!(ok
            .indices
            .windows(2)
            .all(|w| w[0] < w[1] && w[1] - w[0] <= 3));
        assert_eq!(ok.route.curve.curves.len() + 1, ok.route.poses.len());
        let wide = HitTable::build(1.5, 0.4, 3);
        let f = smoothing48(&g, &wide, &path, StartHeading::Angle(0.0), None).unwrap_err();
        assert!(
            f.farthest >= 6 && f.farthest < path.len() - 1,
            "farthest {}",
            f.farthest
        );
        assert_eq!(f.partial.curve.curves.len() + 1, f.partial.poses.len());
        assert_eq!(*f.indices.last().unwrap(), f.farthest);
    }
}
