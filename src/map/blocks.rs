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
            let r = self.region[c.index()];
            if r != NO_REGION {
                self.region_size[r as usize] -= 1;
            }
            self.region[c.index()] = NO_REGION;
        }
        if !self.block_keeps_regions(rect) {
            self.split_regions(rect);
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
        let mut opened_now = opened[from..].to_vec();
        opened_now.sort_unstable();
        self.join_opened(&opened_now);
    }

    /// Recomputes the moves of the cells of `rect` and of the ring around
    /// it (their diagonals may pass its corners), and the lanes near it.
    fn update_moves_around(&mut self, rect: Rect) {
        let area = rect.grown(1, self.width(), self.height());
        for c in area.cells(self.width()).collect::<Vec<_>>() {
            self.update_moves(c);
        }
        if self.has_lanes() {
            // A cell's lane bits read cells up to two away.
            let area = rect.grown(2, self.width(), self.height());
            for c in area.cells(self.width()).collect::<Vec<_>>() {
                self.update_lane(c);
            }
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

    /// Gives newly opened cells (`opened`, sorted) the region they join.
    /// A piece of them touching several regions joins them: the smaller
    /// ones are relabelled to the largest's label, so the work is the size
    /// of the smaller regions, not of the map.
    fn join_opened(&mut self, opened: &[Cell]) {
        let is_opened = |c: &Cell| opened.binary_search(c).is_ok();
        let mut done = vec![false; opened.len()];
        let mut buf = [Cell(0); 8];
        let mut piece: Vec<Cell> = Vec::new();
        // Labels around the piece, each with one of its cells.
        let mut labels: Vec<(u32, Cell)> = Vec::new();
        for k in 0..opened.len() {
            if done[k] {
                continue;
            }
            // One connected piece of the opened cells, and the labels
            // around it.
            piece.clear();
            labels.clear();
            piece.push(opened[k]);
            done[k] = true;
            let mut i = 0;
            while i < piece.len() {
                let c = piece[i];
                i += 1;
                let n = self.neighbors(c, &mut buf);
                for &nb in &buf[..n] {
                    if let Ok(j) = opened.binary_search(&nb) {
                        if !done[j] {
                            done[j] = true;
                            piece.push(nb);
                        }
                    } else if !is_opened(&nb) {
                        let r = self.region[nb.index()];
                        if r != NO_REGION && !labels.iter().any(|&(l, _)| l == r) {
                            labels.push((r, nb));
                        }
                    }
                }
            }
            let label = match labels
                .iter()
                .map(|&(r, _)| r)
                .max_by_key(|&r| (self.region_size[r as usize], r))
            {
                Some(big) => big,
                None => {
                    self.region_size.push(0);
                    self.region_count += 1;
                    self.region_count - 1
                }
            };
            for &(r, at) in labels.iter().filter(|&&(r, _)| r != label) {
                self.relabel_region(r, at, label);
            }
            for &c in &piece {
                self.region[c.index()] = label;
            }
            self.region_size[label as usize] += piece.len() as u32;
        }
    }

    /// Gives every cell of region `from` (which holds `start`) the label `to`.
    fn relabel_region(&mut self, from: u32, start: Cell, to: u32) {
        let mut stack = vec![start];
        self.region[start.index()] = to;
        let mut buf = [Cell(0); 8];
        while let Some(c) = stack.pop() {
            let n = self.neighbors(c, &mut buf);
            for &nb in &buf[..n] {
                if self.region[nb.index()] == from {
                    self.region[nb.index()] = to;
                    stack.push(nb);
                }
            }
        }
        self.region_size[to as usize] += self.region_size[from as usize];
        self.region_size[from as usize] = 0;
    }

    /// After a block that may have split regions: from the open cells
    /// around it, one search per cell runs in turn, searches that meet
    /// merge, and once a single one is still going every finished one is a
    /// region cut off: it gets a label of its own. The work is the size of
    /// the parts cut off, not of the map.
    fn split_regions(&mut self, rect: Rect) {
        let (w, h) = (self.width(), self.height());
        let ring = rect.grown(1, w, h);
        let mut border: Vec<Cell> = ring
            .cells(w)
            .filter(|&c| !rect.contains(self.xy(c)) && self.passable[c.index()])
            .collect();
        border.sort_unstable_by_key(|&c| self.region[c.index()]);
        let mut start = 0;
        while start < border.len() {
            let r = self.region[border[start].index()];
            let end = start
                + border[start..]
                    .iter()
                    .take_while(|&&c| self.region[c.index()] == r)
                    .count();
            if end - start > 1 {
                self.split_region(r, &border[start..end]);
            }
            start = end;
        }
    }

    /// [`Grid::split_regions`] for the border cells `seeds` of region `r`.
    fn split_region(&mut self, r: u32, seeds: &[Cell]) {
        let k = seeds.len();
        let mut group: Vec<usize> = (0..k).collect();
        fn root(group: &mut [usize], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        let mut owner: rustc_hash::FxHashMap<u32, usize> = rustc_hash::FxHashMap::default();
        let mut queues: Vec<std::collections::VecDeque<Cell>> = vec![Default::default(); k];
        for (i, &c) in seeds.iter().enumerate() {
            match owner.get(&c.0) {
                Some(&j) => {
                    let (a, b) = (root(&mut group, i), root(&mut group, j));
                    group[a] = b;
                }
                None => {
                    owner.insert(c.0, i);
                    queues[i].push_back(c);
                }
            }
        }
        let mut buf = [Cell(0); 8];
        loop {
            // Groups still searching.
            let mut alive: Vec<usize> = (0..k)
                .filter(|&i| !queues[i].is_empty())
                .map(|i| root(&mut group, i))
                .collect();
            alive.sort_unstable();
            alive.dedup();
            if alive.len() <= 1 {
                break;
            }
            for (i, queue) in queues.iter_mut().enumerate() {
                let Some(c) = queue.pop_front() else {
                    continue;
                };
                let n = self.neighbors(c, &mut buf);
                for &nb in &buf[..n] {
                    match owner.get(&nb.0) {
                        Some(&j) => {
                            let (a, b) = (root(&mut group, i), root(&mut group, j));
                            if a != b {
                                group[a] = b;
                            }
                        }
                        None => {
                            owner.insert(nb.0, i);
                            queue.push_back(nb);
                        }
                    }
                }
            }
        }
        // Every group but the one still searching (or, if all finished,
        // the largest) is a region of its own now.
        let mut roots: Vec<usize> = (0..k).map(|i| root(&mut group, i)).collect();
        roots.sort_unstable();
        roots.dedup();
        if roots.len() <= 1 {
            return;
        }
        let mut size: rustc_hash::FxHashMap<usize, u32> = rustc_hash::FxHashMap::default();
        let going = (0..k)
            .find(|&i| !queues[i].is_empty())
            .map(|i| root(&mut group, i));
        for (_, &i) in owner.iter() {
            *size.entry(root(&mut group, i)).or_default() += 1;
        }
        let keep = going.unwrap_or_else(|| {
            *roots
                .iter()
                .max_by_key(|&&g| (size[&g], g))
                .expect("groups")
        });
        let mut new_label: rustc_hash::FxHashMap<usize, u32> = rustc_hash::FxHashMap::default();
        for &g in roots.iter().filter(|&&g| g != keep) {
            new_label.insert(g, self.region_count);
            self.region_count += 1;
            self.region_size.push(size[&g]);
            self.region_size[r as usize] -= size[&g];
        }
        for (&c, &i) in owner.iter() {
            if let Some(&l) = new_label.get(&root(&mut group, i)) {
                self.region[c as usize] = l;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    fn fresh(g: &Grid) -> Grid {
        let mut f = g.clone();
        f.relabel_regions_with(&mut Vec::new());
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
        for seed in 0..60u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let conn = if seed % 2 == 0 {
                Connectivity::Four
            } else {
                Connectivity::Eight
            };
            let spec = "24x24:0.3".parse().unwrap();
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

    #[test]
    fn blocks_move_lanes_as_a_fresh_grid_would_have_them() {
        // A block that narrows an open end makes corridors of it; lifting
        // it restores the old lanes. The directions stay those set when
        // lanes were turned on.
        let shelves = crate::map::lanes::SHELVES;
        let mut g = Grid::from_rows(&shelves, Connectivity::Four).with_lanes(true);
        let before = g.lanes.against.clone();
        let rect = Rect::new((8, 2), (8, 2));
        g.block(rect, &mut Vec::new());
        let mut fresh = g.clone();
        for i in 0..fresh.cell_count() {
            fresh.update_lane(Cell(i as u32));
        }
        assert_eq!(g.lanes.against, fresh.lanes.against);
        assert_ne!(g.lanes.against, before);
        g.unblock(rect, &mut Vec::new());
        assert_eq!(g.lanes.against, before);
    }
}
