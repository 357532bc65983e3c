//! Group orders: many units sent to one place each get a cell of their own
//! around it, so they do not all fight over one goal; a unit with a body
//! gets an anchor where its body fits, clear of the others' goals. The
//! goals are handed out back to front, as a hall fills from its far rows.

use crate::map::{Cell, Grid};

/// Goals around `target` for units whose bodies have sides `sizes` (in
/// that order): each takes the first cell, in breadth-first order from the
/// target, on which it can centre its body (`fits(size, anchor)`: the body
/// anchored at its top-left cell lies on open ground) without covering a
/// cell given to an earlier unit; the goal is the anchor. A one-cell unit
/// takes the cell itself. Units left without room (a region too small)
/// share the last goal given. With one unit it snaps a body's goal to a
/// place it fits, the target under it where possible.
pub fn place_goals(
    grid: &Grid,
    target: Cell,
    sizes: &[u32],
    fits: &dyn Fn(u32, Cell) -> bool,
) -> Vec<Cell> {
    let mut out: Vec<Cell> = Vec::with_capacity(sizes.len());
    if !grid.is_passable(target) {
        out.resize(sizes.len(), target);
        return out;
    }
    // The region around the target, breadth first, grown as needed.
    let mut order: Vec<Cell> = vec![target];
    let mut seen = rustc_hash::FxHashSet::default();
    seen.insert(target);
    let mut next = 0;
    let mut grow = |order: &mut Vec<Cell>, next: &mut usize| -> bool {
        let mut buf = [Cell(0); 8];
        while *next < order.len() {
            let c = order[*next];
            *next += 1;
            let k = grid.neighbors(c, &mut buf);
            let before = order.len();
            order.extend(buf[..k].iter().filter(|&&nb| seen.insert(nb)));
            if order.len() > before {
                return true;
            }
        }
        false
    };
    let mut taken = rustc_hash::FxHashSet::default();
    // Cells before `first` are all taken.
    let mut first = 0;
    for &size in sizes {
        let half = (size.max(1) - 1) / 2;
        let mut k = first;
        let goal = loop {
            if k == order.len() && !grow(&mut order, &mut next) {
                break None;
            }
            let c = order[k];
            k += 1;
            let (x, y) = grid.xy(c);
            let Some(anchor) = grid.cell_checked(x as i64 - half as i64, y as i64 - half as i64)
            else {
                continue;
            };
            if taken.contains(&c) || !fits(size, anchor) {
                continue;
            }
            if crate::footprint::body(grid, anchor, size).any(|b| taken.contains(&b)) {
                continue;
            }
            taken.extend(crate::footprint::body(grid, anchor, size));
            break Some(anchor);
        };
        while first < order.len() && taken.contains(&order[first]) {
            first += 1;
        }
        let goal = goal.or(out.last().copied()).unwrap_or(target);
        out.push(goal);
    }
    out
}

/// Hands a group's goals out back to front: the units nearest the target
/// (`units` comes in that order, standing on `from`), which arrive first,
/// take the goals farthest along the way the group comes, so that those
/// still coming never have to pass through units already home. Goals move
/// only between units of one size (each was placed to fit its unit's body).
/// A group already around its target has no way it comes from: the goals
/// stay as placed, nearest the target first.
///
/// (300 units sent through an 8-cell gap to a target on the far side, the
/// goals handed out nearest the target first: the first to arrive filled
/// the middle of the block, and 40 of those coming later, bound for its
/// far side, were still off their goals at tick 3,000.)
pub fn back_to_front(grid: &Grid, target: Cell, from: &[Cell], sizes: &[u32], goals: &mut [Cell]) {
    debug_assert!(from.len() == goals.len() && sizes.len() == goals.len());
    if goals.is_empty() {
        return;
    }
    let xy = |c: Cell| {
        let (x, y) = grid.xy(c);
        (x as f64, y as f64)
    };
    let n = from.len() as f64;
    let (cx, cy) = from.iter().fold((0.0, 0.0), |(sx, sy), &c| {
        let (x, y) = xy(c);
        (sx + x / n, sy + y / n)
    });
    let (tx, ty) = xy(target);
    let (dx, dy) = (tx - cx, ty - cy);
    let reach = goals
        .iter()
        .map(|&g| {
            let (x, y) = xy(g);
            (x - tx).hypot(y - ty)
        })
        .fold(0.0, f64::max);
    let length = dx.hypot(dy);
    if length <= reach.max(1.0) {
        return;
    }
    // How far along the way in each goal lies.
    let depth = |g: Cell| {
        let (x, y) = xy(g);
        ((x - tx) * dx + (y - ty) * dy) / length
    };
    let mut sizes_seen: Vec<u32> = sizes.to_vec();
    sizes_seen.sort_unstable();
    sizes_seen.dedup();
    let mut ranked: Vec<(usize, Cell)> = Vec::new();
    for size in sizes_seen {
        ranked.clear();
        ranked.extend(
            (0..goals.len())
                .filter(|&k| sizes[k] == size)
                .map(|k| (k, goals[k])),
        );
        let mut by_depth: Vec<Cell> = ranked.iter().map(|&(_, g)| g).collect();
        // Deepest first; a stable sort keeps the placing order among equals.
        by_depth.sort_by(|&a, &b| depth(b).total_cmp(&depth(a)));
        for (&(k, _), g) in ranked.iter().zip(by_depth) {
            goals[k] = g;
        }
    }
}
