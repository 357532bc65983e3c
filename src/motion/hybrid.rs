//! The seed's fast hybrid search, in six steps: (1) a 4-connected spatial A*;
//! (2) Smoothing48 forward, done if it succeeds; otherwise (3) Smoothing48
//! backward from the goal; (4) the stretch between the two failure points,
//! given up if more than 12 tiles across, widened to about 12 tiles; (5) a
//! Directional8 search over that stretch only, in a window around it;
//! (6) the final simple smoothing on the joined route.

use crate::map::{Cell, Grid};
use crate::search::{MoveCosts, SpatialAStar};

use super::curve::{Curve, CurvePath};
use super::directional::{DirectionalAStar, DirectionalQuery, StartHeading};
use super::error::MotionError;
use super::hit_table::HitTable;
use super::pose::{nearest_heading, Pose};
use super::smoothing::{final_smoothing, smoothing48};
use super::turns::shortest_legal;
use super::walkable::{Footprint, TABLE_SAMPLE_STEP};

/// Largest span in x or y of the stretch searched with Directional8 (the seed's 12).
pub const HYBRID_STRETCH: u32 = 12;
/// Tiles of room around the stretch that the local search may use.
pub const HYBRID_MARGIN: u32 = 10;

/// What the hybrid did.
#[derive(Clone, Debug, PartialEq)]
pub struct HybridOutcome {
    /// The 4-connected A* path.
    pub grid_path: Vec<Cell>,
    /// The final curve.
    pub curve: CurvePath,
    /// True when Smoothing48 alone sufficed (no Directional8 search).
    pub fast_path: bool,
    /// Path indices of the stretch searched with Directional8, if any.
    pub stretch: Option<(usize, usize)>,
}

/// Runs the hybrid search. `table48` is a reach-3 hit table for the unit;
/// `dir8` a Directional8 search for the same radius and width.
pub fn hybrid(
    grid: &Grid,
    spatial: &mut SpatialAStar,
    table48: &HitTable,
    dir8: &mut DirectionalAStar,
    start: Cell,
    start_heading: StartHeading,
    goal: Cell,
) -> Result<HybridOutcome, MotionError> {
    let fp = Footprint::new(table48.width());
    let r = table48.radius();
    // Step 1.
    let mut path = Vec::new();
    if spatial
        .search_weighted(grid, start, goal, &MoveCosts::four(), &mut path)
        .is_none()
    {
        return Err(if grid.reachable(start, goal) {
            MotionError::NoLegalPath {
                method: "hybrid (4-connected A*)",
                radius: r,
                width: fp.width,
                expanded: spatial.expanded,
                budget: "",
            }
        } else {
            MotionError::Unreachable
        });
    }
    // Step 2.
    let fwd = match smoothing48(grid, table48, &path, start_heading, None) {
        Ok(s) => {
            let curve = final_smoothing(grid, &fp, r, &s.route.poses, &s.route.curve.curves);
            return Ok(HybridOutcome {
                grid_path: path,
                curve,
                fast_path: true,
                stretch: None,
            });
        }
        Err(f) => f,
    };
    // Step 3, with the backward route turned into forward poses and path indices.
    let n = path.len();
    let rev: Vec<Cell> = path.iter().rev().copied().collect();
    let (bposes, bidx) = match smoothing48(grid, table48, &rev, StartHeading::Free, None) {
        Ok(s) => (s.route.poses, s.indices),
        Err(f) => (f.partial.poses, f.indices),
    };
    let back: Vec<(usize, Pose)> = bidx
        .iter()
        .zip(&bposes)
        .rev()
        .map(|(&k, p)| (n - 1 - k, p.flipped()))
        .collect();
    let front: Vec<(usize, Pose)> = fwd
        .indices
        .iter()
        .copied()
        .zip(fwd.partial.poses.iter().copied())
        .collect();
    if back.is_empty() || front.is_empty() {
        return Err(MotionError::SmoothingFailed {
            index: fwd.farthest,
            x: grid.xy(path[fwd.farthest]).0,
            y: grid.xy(path[fwd.farthest]).1,
        });
    }
    // Step 4: a front point strictly before a back point, then widen to about 12 tiles.
    let (mut a, mut b) = (front.len() - 1, 0usize);
    let mut turn = false;
    while front[a].0 >= back[b].0 {
        turn = !turn;
        if (turn || b + 1 == back.len()) && a > 0 {
            a -= 1;
        } else if b + 1 < back.len() {
            b += 1;
        } else {
            return Err(MotionError::SmoothingFailed {
                index: fwd.farthest,
                x: grid.xy(path[fwd.farthest]).0,
                y: grid.xy(path[fwd.farthest]).1,
            });
        }
    }
    let span = |a: usize, b: usize| {
        let (ax, ay) = grid.xy(path[front[a].0]);
        let (bx, by) = grid.xy(path[back[b].0]);
        (ax.abs_diff(bx), ay.abs_diff(by))
    };
    let (dx, dy) = span(a, b);
    if dx > HYBRID_STRETCH || dy > HYBRID_STRETCH {
        return Err(MotionError::StretchTooLong {
            dx,
            dy,
            limit: HYBRID_STRETCH,
        });
    }
    loop {
        let fits = |a: usize, b: usize| {
            let (dx, dy) = span(a, b);
            dx <= HYBRID_STRETCH && dy <= HYBRID_STRETCH
        };
        let mut moved = false;
        if a > 0 && fits(a - 1, b) {
            a -= 1;
            moved = true;
        }
        if b + 1 < back.len() && fits(a, b + 1) {
            b += 1;
            moved = true;
        }
        if !moved {
            break;
        }
    }
    // Step 5.
    let (s_cell, g_cell) = (path[front[a].0], path[back[b].0]);
    let (sx, sy) = grid.xy(s_cell);
    let (gx, gy) = grid.xy(g_cell);
    let window = [
        sx.min(gx).saturating_sub(HYBRID_MARGIN),
        sy.min(gy).saturating_sub(HYBRID_MARGIN),
        (sx.max(gx) + HYBRID_MARGIN).min(grid.width() - 1),
        (sy.max(gy) + HYBRID_MARGIN).min(grid.height() - 1),
    ];
    let q = DirectionalQuery {
        start: s_cell,
        start_heading: StartHeading::Angle(front[a].1.heading),
        goal: g_cell,
        goal_heading: (b + 1 < back.len()).then(|| nearest_heading(back[b].1.heading)),
        window: Some(window),
        terrain: None,
    };
    let mid = dir8.search(grid, &q)?;
    // Join: front legs up to `a`, the local route, back legs recomputed forward from `b`.
    let mut poses: Vec<Pose> = front[..=a].iter().map(|p| p.1).collect();
    let mut legs: Vec<Curve> = fwd.partial.curve.curves[..a].to_vec();
    poses.extend_from_slice(&mid.poses[1..]);
    legs.extend_from_slice(&mid.curve.curves);
    // The backward pass's legs, driven forward: the same curves, checked as finely as the table did.
    let fine = fp.with_step(TABLE_SAMPLE_STEP);
    for w in back[b..].windows(2) {
        let leg = shortest_legal(w[0].1, w[1].1, r, |c| fine.walkable_curve(grid, c)).ok_or(
            MotionError::NoLegalPath {
                method: "hybrid (backward smoothing)",
                radius: r,
                width: fp.width,
                expanded: 0,
                budget: "",
            },
        )?;
        legs.push(leg);
        poses.push(w[1].1);
    }
    // Step 6.
    let curve = final_smoothing(grid, &fp, r, &poses, &legs);
    Ok(HybridOutcome {
        grid_path: path,
        curve,
        fast_path: false,
        stretch: Some((front[a].0, back[b].0)),
    })
}
