//! A unit's body on the map: the cells it covers, and where it fits.

use crate::map::{Cell, Grid};

/// The cells of a body of side `size` anchored at `at`.
pub(crate) fn body(grid: &Grid, at: Cell, size: u32) -> impl Iterator<Item = Cell> + '_ {
    let (x, y) = grid.xy(at);
    (0..size).flat_map(move |dy| (0..size).map(move |dx| grid.cell(x + dx, y + dy)))
}

/// The grid of anchors where a body of side `size` fits: a square of free
/// cells. Its moves need no cut corners, so a diagonal step is legal exactly
/// when the box it sweeps is free.
pub fn fit_grid(grid: &Grid, size: u32) -> Grid {
    let (w, h) = (grid.width(), grid.height());
    let passable = (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            x + size <= w
                && y + size <= h
                && (0..size)
                    .all(|dy| (0..size).all(|dx| grid.is_passable(grid.cell(x + dx, y + dy))))
        })
        .collect();
    Grid::new(w, h, passable, grid.connectivity())
}
