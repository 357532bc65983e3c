//! The seed's move rules. A unit waits or moves to a free neighbour. Two
//! moves in one tick conflict when they end on one cell, swap two cells, or
//! cross diagonally through one 2×2 square. Following and rotations (a cycle
//! of three or more units each stepping into the cell the next one leaves)
//! are legal.

use crate::map::{Cell, Grid};

/// Whether two units' moves in the same tick conflict (`a` from `af` to `at`,
/// `b` from `bf` to `bt`; the units start on distinct cells).
#[inline]
pub fn moves_conflict(grid: &Grid, af: Cell, at: Cell, bf: Cell, bt: Cell) -> bool {
    if at == bt {
        return true;
    }
    if at == bf && bt == af && af != at {
        return true;
    }
    diagonal_crossing(grid, af, at, bf, bt)
}

/// Whether both moves are diagonal through the same 2×2 square.
#[inline]
pub fn diagonal_crossing(grid: &Grid, af: Cell, at: Cell, bf: Cell, bt: Cell) -> bool {
    if !is_diagonal(grid, af, at) || !is_diagonal(grid, bf, bt) {
        return false;
    }
    diagonal_square(grid, af, at) == diagonal_square(grid, bf, bt)
}

/// Whether a legal move (a wait or a step to a neighbour) is diagonal. On maps
/// at least three wide this needs no division: only a diagonal step changes
/// the cell index by `width ± 1`.
#[inline]
pub(crate) fn is_diagonal(grid: &Grid, from: Cell, to: Cell) -> bool {
    let w = grid.width();
    if w <= 2 {
        let (fx, fy) = grid.xy(from);
        let (tx, ty) = grid.xy(to);
        return fx != tx && fy != ty;
    }
    let d = from.0.abs_diff(to.0);
    d == w - 1 || d == w + 1
}

/// The top-left corner of the 2×2 square a diagonal move passes through.
#[inline]
fn diagonal_square(grid: &Grid, from: Cell, to: Cell) -> Option<(u32, u32)> {
    let (fx, fy) = grid.xy(from);
    let (tx, ty) = grid.xy(to);
    (fx != tx && fy != ty).then_some((fx.min(tx), fy.min(ty)))
}

/// The other two corners of a diagonal move's 2×2 square, if the move is diagonal.
#[inline]
pub(crate) fn diagonal_corners(grid: &Grid, from: Cell, to: Cell) -> Option<(Cell, Cell)> {
    if !is_diagonal(grid, from, to) {
        return None;
    }
    let (fx, fy) = grid.xy(from);
    let (tx, ty) = grid.xy(to);
    (fx != tx && fy != ty).then(|| (grid.cell(fx, ty), grid.cell(tx, fy)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    fn open(w: u32, h: u32) -> Grid {
        Grid::new(w, h, vec![true; (w * h) as usize], Connectivity::Eight).with_corner_cutting(true)
    }

    #[test]
    fn conflicts_match_the_rules() {
        let g = open(3, 3);
        let c = |x, y| g.cell(x, y);
        // Shared cell.
        assert!(moves_conflict(&g, c(0, 0), c(1, 0), c(2, 0), c(1, 0)));
        // Swap.
        assert!(moves_conflict(&g, c(0, 0), c(1, 0), c(1, 0), c(0, 0)));
        // Diagonal crossing.
        assert!(moves_conflict(&g, c(0, 0), c(1, 1), c(1, 0), c(0, 1)));
        // Following is legal.
        assert!(!moves_conflict(&g, c(0, 0), c(1, 0), c(1, 0), c(2, 0)));
        // Parallel diagonals in different squares are legal.
        assert!(!moves_conflict(&g, c(0, 0), c(1, 1), c(1, 0), c(2, 1)));
    }
}
