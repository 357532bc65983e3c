//! Group orders: many units sent to one place each get a cell of their own
//! around it, so they do not all fight over one goal; a unit with a body
//! gets an anchor where its body fits, clear of the others' goals.

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
