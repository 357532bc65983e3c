//! Buildings on a live map: rectangles of cells blocked and unblocked while
//! the simulation runs. The move table and the connected regions are kept
//! true after every edit, mostly by local work: a block that leaves the
//! cells around it connected to each other cannot split a region, and an
//! unblock that touches a single region only joins it.

use super::grid::{Cell, Grid, NO_REGION};

/// A rectangle of cells, both corners included (`x0 <= x1`, `y0 <= y1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Left column.
    pub x0: u32,
    /// Top row.
    pub y0: u32,
    /// Right column (included).
    pub x1: u32,
    /// Bottom row (included).
    pub y1: u32,
}

impl Rect {
    /// The rectangle between two corners given in any order.
    pub fn new((ax, ay): (u32, u32), (bx, by): (u32, u32)) -> Rect {
        Rect {
            x0: ax.min(bx),
            y0: ay.min(by),
            x1: ax.max(bx),
            y1: ay.max(by),
        }
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.x1 - self.x0 + 1
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.y1 - self.y0 + 1
    }

    /// Whether the cell at `(x, y)` lies inside.
    pub fn contains(&self, (x, y): (u32, u32)) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }

    /// The rectangle grown by `margin` on every side, clipped to a
    /// `width × height` map.
    pub fn grown(&self, margin: u32, width: u32, height: u32) -> Rect {
        Rect {
            x0: self.x0.saturating_sub(margin),
            y0: self.y0.saturating_sub(margin),
            x1: (self.x1 + margin).min(width - 1),
            y1: (self.y1 + margin).min(height - 1),
        }
    }

    /// Its cells on a `width`-wide map, row by row.
    pub fn cells(&self, width: u32) -> impl Iterator<Item = Cell> + '_ {
        (self.y0..=self.y1).flat_map(move |y| (self.x0..=self.x1).map(move |x| Cell(y * width + x)))
    }
}

/// How far around an edit a region check looks before it falls back to
/// relabelling the whole map.
const LOCAL_MARGIN: u32 = 6;

impl Grid {
    /// Whether `rect` lies inside the map.
    pub fn contains_rect(&self, rect: &Rect) -> bool {
        rect.x1 < self.width() && rect.y1 < self.height()
    }

    /// Whether the map itself lets a unit stand on `cell`, blocks aside.
    #[inline]
    pub fn is_open_terrain(&self, cell: Cell) -> bool {
        self.passable[cell.index()] || self.blocks.get(cell.index()).is_some_and(|&n| n > 0)
    }

    /// Whether a block (not a wall of the map) covers `cell`.
    #[inline]
    pub fn is_blocked(&self, cell: Cell) -> bool {
        self.blocks.get(cell.index()).is_some_and(|&n| n > 0)
    }

    /// Places a block over `rect` (inside the map): its open cells become
    /// impassable until as many unblocks have lifted every block covering
    /// them. Appends to `closed` the cells that were passable and are not
    /// any more.
    pub fn block(&mut self, rect: Rect, closed: &mut Vec<Cell>) {
        debug_assert!(self.contains_rect(&rect));
        if self.blocks.is_empty() {
            self.blocks = vec![0; self.cell_count()];
        }
        let from = closed.len();
        for c in rect.cells(self.width()) {
            if !self.is_open_terrain(c) {
                continue;
            }
            let n = &mut self.blocks[c.index()];
            *n = n.saturating_add(1);
            if self.passable[c.index()] {
                self.passable[c.index()] = false;
                closed.push(c);
            }
        }
        if closed.len() == from {
            return;
        }
        self.update_moves_around(rect);
        for &c in &closed[from..] {
            self.region[c.index()] = NO_REGION;
        }
        if !self.block_keeps_regions(rect) {
            self.relabel_regions();
        }
    }

    /// Lifts one block from `rect`: cells no other block covers (and that
    /// are not walls of the map) become passable again. Appends those to
    /// `opened`.
    pub fn unblock(&mut self, rect: Rect, opened: &mut Vec<Cell>) {
        debug_assert!(self.contains_rect(&rect));
        if self.blocks.is_empty() {
            return;
        }
        let from = opened.len();
        for c in rect.cells(self.width()) {
            let n = &mut self.blocks[c.index()];
            if *n == 0 {
                continue;
            }
            *n -= 1;
            if *n == 0 {
                self.passable[c.index()] = true;
                opened.push(c);
            }
        }
        if opened.len() == from {
            return;
        }
        self.update_moves_around(rect);
        if !self.label_opened(&opened[from..]) {
            self.relabel_regions();
        }
    }

    /// Recomputes the moves of the cells of `rect` and of the ring around
    /// it (their diagonals may pass its corners).
    fn update_moves_around(&mut self, rect: Rect) {
        let area = rect.grown(1, self.width(), self.height());
        for c in area.cells(self.width()).collect::<Vec<_>>() {
            self.update_moves(c);
        }
    }

    /// Whether the passable cells around a new block still reach each other
    /// within a few cells of it: then no region was split (any route through
    /// the block can go round it instead). `false` means "could not tell".
    fn block_keeps_regions(&self, rect: Rect) -> bool {
        let (w, h) = (self.width(), self.height());
        let ring = rect.grown(1, w, h);
        let area = rect.grown(LOCAL_MARGIN, w, h);
        let border: Vec<Cell> = ring
            .cells(w)
            .filter(|&c| !rect.contains(self.xy(c)) && self.passable[c.index()])
            .collect();
        let Some(&first) = border.first() else {
            return true;
        };
        let mut seen = vec![false; (area.width() * area.height()) as usize];
        let local = |c: Cell| {
            let (x, y) = self.xy(c);
            ((y - area.y0) * area.width() + (x - area.x0)) as usize
        };
        let mut stack = vec![first];
        seen[local(first)] = true;
        let mut buf = [Cell(0); 8];
        while let Some(c) = stack.pop() {
            let n = self.neighbors(c, &mut buf);
            for &nb in &buf[..n] {
                if area.contains(self.xy(nb)) && !seen[local(nb)] {
                    seen[local(nb)] = true;
                    stack.push(nb);
                }
            }
        }
        border.iter().all(|&c| seen[local(c)])
    }

    /// Gives newly opened cells the region they join. Returns `false` when
    /// they join two regions (or more), which needs a relabel.
    fn label_opened(&mut self, opened: &[Cell]) -> bool {
        let mut label = NO_REGION;
        let mut buf = [Cell(0); 8];
        for &c in opened {
            let n = self.neighbors(c, &mut buf);
            for &nb in &buf[..n] {
                let r = self.region[nb.index()];
                if r == NO_REGION {
                    continue;
                }
                if label == NO_REGION {
                    label = r;
                } else if r != label {
                    return false;
                }
            }
        }
        // The opened cells must form one piece (else two of them could join
        // different regions through each other, or be islands apart).
        let mut stack = vec![opened[0]];
        let mut mark: Vec<Cell> = vec![opened[0]];
        while let Some(c) = stack.pop() {
            let n = self.neighbors(c, &mut buf);
            for &nb in &buf[..n] {
                if opened.contains(&nb) && !mark.contains(&nb) {
                    mark.push(nb);
                    stack.push(nb);
                }
            }
        }
        if mark.len() != opened.len() {
            return false;
        }
        if label == NO_REGION {
            // An island of its own.
            label = self.region_count;
            self.region_count += 1;
        }
        for &c in opened {
            self.region[c.index()] = label;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    fn fresh(g: &Grid) -> Grid {
        let mut f = g.clone();
        f.relabel_regions();
        f
    }

    /// Same partition of cells into regions (labels may differ).
    fn same_regions(a: &Grid, b: &Grid) -> bool {
        let n = a.cell_count();
        let mut map = std::collections::HashMap::new();
        (0..n).all(|i| {
            let (ra, rb) = (a.region[i], b.region[i]);
            (ra == NO_REGION) == (rb == NO_REGION)
                && (ra == NO_REGION || *map.entry(ra).or_insert(rb) == rb)
        }) && {
            let mut back = std::collections::HashMap::new();
            map.iter().all(|(&x, &y)| *back.entry(y).or_insert(x) == x)
        }
    }

    #[test]
    fn a_block_across_a_corridor_splits_it_and_an_unblock_joins_it() {
        let mut g = Grid::from_rows(&["......", "@@..@@", "......"], Connectivity::Four);
        assert!(g.reachable(g.cell(0, 0), g.cell(0, 2)));
        let mut closed = Vec::new();
        g.block(Rect::new((2, 1), (3, 1)), &mut closed);
        assert_eq!(closed.len(), 2);
        assert!(!g.reachable(g.cell(0, 0), g.cell(0, 2)));
        assert!(!g.is_passable(g.cell(2, 1)) && g.is_blocked(g.cell(2, 1)));
        assert!(same_regions(&g, &fresh(&g)));
        let mut opened = Vec::new();
        g.unblock(Rect::new((2, 1), (3, 1)), &mut opened);
        assert_eq!(opened.len(), 2);
        assert!(g.reachable(g.cell(0, 0), g.cell(0, 2)));
        assert!(same_regions(&g, &fresh(&g)));
    }

    #[test]
    fn walls_stay_walls_and_overlapping_blocks_count() {
        let mut g = Grid::from_rows(&["..@", "...", "..."], Connectivity::Eight);
        let (mut closed, mut opened) = (Vec::new(), Vec::new());
        g.block(Rect::new((1, 0), (2, 1)), &mut closed);
        g.block(Rect::new((1, 1), (1, 1)), &mut closed);
        assert_eq!(closed.len(), 3, "the wall at (2,0) is not a closed cell");
        g.unblock(Rect::new((1, 0), (2, 1)), &mut opened);
        assert!(!g.is_passable(g.cell(1, 1)), "still under the second block");
        assert!(!g.is_passable(g.cell(2, 0)), "a wall of the map");
        assert!(g.is_passable(g.cell(2, 1)) && g.is_passable(g.cell(1, 0)));
        g.unblock(Rect::new((1, 1), (1, 1)), &mut opened);
        assert!(g.is_passable(g.cell(1, 1)));
        assert!(!g.is_move(g.cell(1, 1), g.cell(2, 0)));
        assert!(same_regions(&g, &fresh(&g)));
    }

    #[test]
    fn random_edits_keep_regions_and_moves_true() {
        use rand::{Rng, SeedableRng};
        for seed in 0..20u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let conn = if seed % 2 == 0 {
                Connectivity::Four
            } else {
                Connectivity::Eight
            };
            let spec = "24x24:0.2".parse().unwrap();
            let mut g = crate::map::generate_map(spec, conn, seed);
            let mut placed: Vec<Rect> = Vec::new();
            let mut buf = Vec::new();
            for _ in 0..60 {
                if !placed.is_empty() && rng.gen_bool(0.4) {
                    let r = placed.swap_remove(rng.gen_range(0..placed.len()));
                    g.unblock(r, &mut buf);
                } else {
                    let (x, y) = (rng.gen_range(0..24), rng.gen_range(0..24));
                    let (w, h) = (rng.gen_range(0..5), rng.gen_range(0..5));
                    let r = Rect::new((x, y), ((x + w).min(23), (y + h).min(23)));
                    g.block(r, &mut buf);
                    placed.push(r);
                }
                let f = fresh(&g);
                assert!(same_regions(&g, &f), "seed {seed}");
                let mut rebuilt = g.clone();
                for i in 0..g.cell_count() {
                    rebuilt.update_moves(Cell(i as u32));
                    assert_eq!(rebuilt.moves[i], g.moves[i], "seed {seed}, cell {i}");
                }
            }
            for r in placed.drain(..) {
                g.unblock(r, &mut buf);
            }
            let original = crate::map::generate_map(spec, conn, seed);
            assert_eq!(g.passability(), original.passability(), "seed {seed}");
        }
    }
}
