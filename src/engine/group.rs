//! Group orders: many units sent to one place each get a cell of their own
//! around it, so they do not all fight over one goal.

use std::collections::VecDeque;

use crate::map::{Cell, Grid};

/// Up to `n` open cells around `target`, in breadth-first order from it
/// (the target first), all in its region. Never empty: on a region smaller
/// than `n` the last cells are repeated by the caller.
pub fn spread_goals(grid: &Grid, target: Cell, n: usize) -> Vec<Cell> {
    let mut out = Vec::with_capacity(n);
    if !grid.is_passable(target) {
        // A blocked target: its goals are unreachable until the block goes.
        out.push(target);
        return out;
    }
    let mut seen = rustc_hash::FxHashSet::default();
    let mut open = VecDeque::from([target]);
    seen.insert(target);
    let mut buf = [Cell(0); 8];
    while let Some(c) = open.pop_front() {
        out.push(c);
        if out.len() == n {
            break;
        }
        let k = grid.neighbors(c, &mut buf);
        for &nb in &buf[..k] {
            if seen.insert(nb) {
                open.push_back(nb);
            }
        }
    }
    out
}
