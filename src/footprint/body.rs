//! A unit's body on the map: the cells it covers, the box a step of it
//! sweeps, and the grid of anchors where it fits, kept true as buildings
//! come and go.

use crate::map::{Cell, Grid, Rect};

/// The cells of a body of side `size` anchored at `at`.
pub fn body(grid: &Grid, at: Cell, size: u32) -> impl Iterator<Item = Cell> + '_ {
    let (x, y) = grid.xy(at);
    (0..size).flat_map(move |dy| (0..size).map(move |dx| grid.cell(x + dx, y + dy)))
}

/// The rectangle a body of side `size` covers moving from anchor `at` by
/// (`dx`, `dy`) (both ends, and everything between on a diagonal); for a
/// wait, the body itself. The move must stay on the map.
#[inline]
pub fn sweep(grid: &Grid, at: Cell, (dx, dy): (i32, i32), size: u32) -> Rect {
    let (x, y) = grid.xy(at);
    let (nx, ny) = ((x as i64 + dx as i64) as u32, (y as i64 + dy as i64) as u32);
    Rect {
        x0: x.min(nx),
        y0: y.min(ny),
        x1: x.max(nx) + size - 1,
        y1: y.max(ny) + size - 1,
    }
}

/// Whether a body of side `size` fits with its anchor at `(x, y)`: on the
/// map, every cell open.
fn fits(grid: &Grid, x: u32, y: u32, size: u32) -> bool {
    x + size <= grid.width()
        && y + size <= grid.height()
        && (0..size).all(|dy| (0..size).all(|dx| grid.is_passable(grid.cell(x + dx, y + dy))))
}

/// The grid of anchors where a body of side `size` fits: a square of open
/// cells. Its moves need no cut corners, so a diagonal step is legal
/// exactly when the box it sweeps is open. Anchors that only a building
/// closes are blocked, not walls, so they open again with it.
pub fn fit_grid(grid: &Grid, size: u32) -> Grid {
    let (w, h) = (grid.width(), grid.height());
    let terrain = |x: u32, y: u32| {
        x + size <= w
            && y + size <= h
            && (0..size)
                .all(|dy| (0..size).all(|dx| grid.is_open_terrain(grid.cell(x + dx, y + dy))))
    };
    let passable = (0..w * h).map(|i| terrain(i % w, i / w)).collect();
    let mut fit = Grid::new(w, h, passable, grid.connectivity());
    let mut closed = Vec::new();
    for i in 0..w * h {
        let (x, y) = (i % w, i / w);
        if fit.is_passable(Cell(i)) && !fits(grid, x, y, size) {
            fit.block(Rect::new((x, y), (x, y)), &mut closed);
        }
    }
    fit
}

/// Brings `fit` (the anchors of bodies of side `size` on `grid`) up to
/// date after cells of `edited` (a rectangle of `grid`) were blocked or
/// unblocked: the anchors whose body meets it are closed or opened again.
pub fn update_fit_grid(fit: &mut Grid, grid: &Grid, size: u32, edited: Rect) {
    let area = Rect {
        x0: edited.x0.saturating_sub(size - 1),
        y0: edited.y0.saturating_sub(size - 1),
        x1: edited.x1,
        y1: edited.y1,
    };
    let mut scratch = Vec::new();
    for y in area.y0..=area.y1 {
        for x in area.x0..=area.x1 {
            let c = fit.cell(x, y);
            if !fit.is_open_terrain(c) {
                continue;
            }
            let open = fits(grid, x, y, size);
            let one = Rect::new((x, y), (x, y));
            if !open && fit.is_passable(c) {
                fit.block(one, &mut scratch);
            }
            while open && fit.is_blocked(c) {
                fit.unblock(one, &mut scratch);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    #[test]
    fn fit_grids_follow_buildings() {
        let mut g = Grid::from_rows(
            &["......", "......", "......", "......"],
            Connectivity::Eight,
        );
        let mut fit = fit_grid(&g, 2);
        assert!(fit.is_passable(g.cell(0, 0)));
        assert!(!fit.is_passable(g.cell(5, 0)), "off the map's edge");
        let r = Rect::new((2, 1), (2, 1));
        g.block(r, &mut Vec::new());
        update_fit_grid(&mut fit, &g, 2, r);
        for (x, y) in [(1, 0), (2, 0), (1, 1), (2, 1)] {
            assert!(!fit.is_passable(g.cell(x, y)), "({x}, {y})");
        }
        assert!(fit.is_passable(g.cell(0, 0)) && fit.is_passable(g.cell(3, 2)));
        g.unblock(r, &mut Vec::new());
        update_fit_grid(&mut fit, &g, 2, r);
        assert!((0..4).all(|x| fit.is_passable(g.cell(x, 1))));
        assert!(fit.reachable(g.cell(0, 0), g.cell(4, 2)));
    }

    #[test]
    fn a_diagonal_sweep_covers_both_ends() {
        let g = Grid::from_rows(&["....", "....", "...."], Connectivity::Eight);
        let r = sweep(&g, g.cell(1, 1), (1, -1), 2);
        assert_eq!((r.x0, r.y0, r.x1, r.y1), (1, 0, 3, 2));
    }
}
