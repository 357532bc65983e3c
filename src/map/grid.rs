//! The static grid: passability, connectivity and connected regions.

use bytemuck::{Pod, Zeroable};

/// Most cells a map may have: a reservation-table slot packs the cell
/// index into 28 bits.
pub const MAX_CELLS: u32 = (1 << 28) - 1;

/// A grid square, stored as the index `y * width + x`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Pod, Zeroable)]
#[repr(transparent)]
pub struct Cell(pub u32);

impl Cell {
    /// The index into per-cell arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Which moves a unit may make in one tick (a wait is always allowed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Connectivity {
    /// North, east, south, west: the MAPF benchmark's rule.
    Four,
    /// The four above plus the diagonals.
    Eight,
}

impl Connectivity {
    /// Parses `4` or `8`.
    pub fn from_number(n: u32) -> Option<Self> {
        match n {
            4 => Some(Self::Four),
            8 => Some(Self::Eight),
            _ => None,
        }
    }

    /// `4` or `8`.
    pub fn number(self) -> u32 {
        match self {
            Self::Four => 4,
            Self::Eight => 8,
        }
    }
}

/// Offsets of the moves, cardinal first (N, E, S, W), then diagonals (NE, SE, SW, NW).
pub const MOVE_OFFSETS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// Region label of a blocked cell.
pub const NO_REGION: u32 = u32::MAX;

/// What lanes remember: per cell, the moves that go against a lane, and
/// the corridors' ranks that set their directions.
#[derive(Clone, Debug, Default)]
pub(super) struct Lanes {
    /// Per cell, bit `k` set when the move [`MOVE_OFFSETS`]`[k]` from it
    /// goes against a lane: out of a corridor cell against its direction,
    /// or into one against it. Empty when lanes are off.
    pub(super) against: Vec<u8>,
    /// Per row, how many rows above it held corridor cells when lanes were
    /// turned on: corridors of even rank run east, of odd rank west.
    pub(super) row_rank: Vec<u32>,
    /// Per column, the same for corridors along columns: even rank runs
    /// south, odd rank north.
    pub(super) col_rank: Vec<u32>,
}

/// A static grid map. Cells are 4- or 8-connected; a diagonal move may be
/// forbidden when it cuts a blocked corner (the default for 8-connectivity).
#[derive(Clone, Debug)]
pub struct Grid {
    width: u32,
    height: u32,
    pub(super) passable: Vec<bool>,
    connectivity: Connectivity,
    corner_cutting: bool,
    pub(super) region: Vec<u32>,
    pub(super) region_count: u32,
    /// Cells per region label (a label emptied by a map edit keeps 0).
    pub(super) region_size: Vec<u32>,
    /// Per cell, how many active blocks (buildings) cover it; empty until
    /// the first block. A covered cell is impassable; the map's own walls
    /// are never counted, so an unblock never opens one.
    pub(super) blocks: Vec<u16>,
    /// Per cell, bit `k` set when the move `MOVE_OFFSETS[k]` is legal: searches
    /// expand neighbours with a table lookup and a few adds.
    pub(super) moves: Vec<u8>,
    /// Index offset of each move, `dx + dy * width`.
    move_delta: [i64; 8],
    /// `ceil(2^48 / width)` (0 for widths above 2^16): `cell / width` as a
    /// multiply and a shift, since searches split cells into coordinates on
    /// every move they price.
    row_magic: u64,
    /// One-way lanes in one-cell-wide corridors (off unless asked for;
    /// see `lanes.rs`).
    pub(super) lanes: Lanes,
}

impl Grid {
    /// Builds a grid from row-major passability and labels its connected regions.
    ///
    /// # Panics
    /// If `passable.len() != width * height` or the grid has more than `u32::MAX` cells.
    pub fn new(width: u32, height: u32, passable: Vec<bool>, connectivity: Connectivity) -> Self {
        assert_eq!(
            passable.len() as u64,
            width as u64 * height as u64,
            "passability has the wrong size"
        );
        let mut grid = Grid {
            width,
            height,
            passable,
            connectivity,
            corner_cutting: false,
            region: Vec::new(),
            region_count: 0,
            region_size: Vec::new(),
            blocks: Vec::new(),
            moves: Vec::new(),
            move_delta: move_deltas(width),
            row_magic: row_magic(width),
            lanes: Default::default(),
        };
        grid.label_regions();
        grid
    }

    /// A small grid drawn as text, one string per row: `.` is free, any other
    /// character blocked. Handy for tests and examples.
    ///
    /// # Panics
    /// If the rows are empty or of unequal length.
    pub fn from_rows(rows: &[&str], connectivity: Connectivity) -> Self {
        let width = rows.first().map_or(0, |r| r.chars().count());
        assert!(
            width > 0 && rows.iter().all(|r| r.chars().count() == width),
            "rows must be non-empty and equally long"
        );
        let passable = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '.'))
            .collect();
        Grid::new(width as u32, rows.len() as u32, passable, connectivity)
    }

    /// Returns the grid with diagonal corner cutting allowed or forbidden
    /// (only matters for 8-connectivity). Regions are relabelled if the
    /// setting changes (on a map of 3.4 million cells a labelling takes
    /// about 0.1 s).
    pub fn with_corner_cutting(mut self, allowed: bool) -> Self {
        if self.corner_cutting != allowed {
            self.corner_cutting = allowed;
            self.label_regions();
        }
        self
    }

    /// Returns the same map with another connectivity (relabelled if it
    /// changes).
    pub fn with_connectivity(mut self, connectivity: Connectivity) -> Self {
        if self.connectivity != connectivity {
            self.connectivity = connectivity;
            self.label_regions();
        }
        self
    }

    /// Width in cells.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    #[inline]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells, passable or not.
    #[inline]
    pub fn cell_count(&self) -> usize {
        self.passable.len()
    }

    /// The move rule.
    #[inline]
    pub fn connectivity(&self) -> Connectivity {
        self.connectivity
    }

    /// Whether a diagonal move may pass a blocked corner cell.
    #[inline]
    pub fn corner_cutting(&self) -> bool {
        self.corner_cutting
    }

    /// The cell at column `x`, row `y`.
    #[inline]
    pub fn cell(&self, x: u32, y: u32) -> Cell {
        debug_assert!(x < self.width && y < self.height);
        Cell(y * self.width + x)
    }

    /// The cell at `(x, y)` if it lies on the map.
    #[inline]
    pub fn cell_checked(&self, x: i64, y: i64) -> Option<Cell> {
        if x >= 0 && y >= 0 && x < self.width as i64 && y < self.height as i64 {
            Some(self.cell(x as u32, y as u32))
        } else {
            None
        }
    }

    /// Column and row of a cell.
    #[inline]
    pub fn xy(&self, cell: Cell) -> (u32, u32) {
        if self.row_magic == 0 {
            return (cell.0 % self.width, cell.0 / self.width);
        }
        // Exact: with `row_magic = (2^48 + e) / width`, `e < width <= 2^16`,
        // the error `cell * e / (width * 2^48)` stays below `1 / width`.
        let y = ((cell.0 as u128 * self.row_magic as u128) >> 48) as u32;
        (cell.0 - y * self.width, y)
    }

    /// Whether a unit may stand on the cell.
    #[inline]
    pub fn is_passable(&self, cell: Cell) -> bool {
        self.passable[cell.index()]
    }

    /// Row-major passability.
    pub fn passability(&self) -> &[bool] {
        &self.passable
    }

    /// Number of passable cells.
    pub fn passable_count(&self) -> usize {
        self.passable.iter().filter(|&&p| p).count()
    }

    /// Connected-region label of a passable cell ([`NO_REGION`] for a blocked one).
    #[inline]
    pub fn region(&self, cell: Cell) -> u32 {
        self.region[cell.index()]
    }

    /// Number of region labels: the connected regions of a map as loaded
    /// (after blocks and unblocks, some labels may have emptied).
    pub fn region_count(&self) -> u32 {
        self.region_count
    }

    /// Whether `to` can be reached from `from` at all (ignoring other units). O(1).
    #[inline]
    pub fn reachable(&self, from: Cell, to: Cell) -> bool {
        let r = self.region(from);
        r != NO_REGION && r == self.region(to)
    }

    /// Writes the passable neighbours of `cell` into `out` and returns how many.
    /// Cardinal moves come first, in the order of [`MOVE_OFFSETS`].
    #[inline]
    pub fn neighbors(&self, cell: Cell, out: &mut [Cell; 8]) -> usize {
        let mut bits = self.moves[cell.index()];
        let mut n = 0;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out[n] = Cell((cell.0 as i64 + self.move_delta[k]) as u32);
            n += 1;
        }
        n
    }

    /// The legal moves of `cell` as a bit set: bit `k` stands for
    /// [`MOVE_OFFSETS`]`[k]`, reached by adding [`Grid::move_delta`]`(k)` to
    /// the cell. For inner loops that track coordinates as they move (a
    /// neighbour's coordinates are its parent's plus the offset, with no
    /// division).
    #[inline]
    pub fn move_bits(&self, cell: Cell) -> u8 {
        self.moves[cell.index()]
    }

    /// The index offset of move `k`: `dx + dy * width`.
    #[inline]
    pub fn move_delta(&self, k: usize) -> i64 {
        self.move_delta[k]
    }

    /// The grid distance ([`Grid::grid_distance`]) between two cells given
    /// by their coordinates.
    #[inline]
    pub fn grid_distance_xy(&self, (ax, ay): (u32, u32), (bx, by): (u32, u32)) -> u32 {
        let dx = ax.abs_diff(bx);
        let dy = ay.abs_diff(by);
        match self.connectivity {
            Connectivity::Four => dx + dy,
            Connectivity::Eight => dx.max(dy),
        }
    }

    /// The legal moves of `cell` from the passability around it, as a bit
    /// set over [`MOVE_OFFSETS`] (none for an impassable cell): the open
    /// cardinal neighbours, and with 8-connectivity the open diagonal ones
    /// whose two corners are open too (or any, with corner cutting).
    fn compute_moves(&self, cell: Cell) -> u8 {
        if !self.passable[cell.index()] {
            return 0;
        }
        let (x, y) = self.xy(cell);
        let (x, y) = (x as i64, y as i64);
        let open = |k: usize| {
            let (dx, dy) = MOVE_OFFSETS[k];
            self.cell_checked(x + dx as i64, y + dy as i64)
                .is_some_and(|c| self.passable[c.index()])
        };
        let mut moves = 0u8;
        for k in 0..4 {
            moves |= u8::from(open(k)) << k;
        }
        if self.connectivity == Connectivity::Eight {
            for k in 0..4 {
                // Diagonal k (NE, SE, SW, NW) touches cardinals k and k+1 (mod 4).
                let corners = 1 << k | 1 << ((k + 1) % 4);
                if open(4 + k) && (self.corner_cutting || moves & corners == corners) {
                    moves |= 1 << (4 + k);
                }
            }
        }
        moves
    }

    /// Whether one tick can take a unit from `a` to `b` (a wait counts).
    pub fn is_move(&self, a: Cell, b: Cell) -> bool {
        if a == b {
            return self.is_passable(a);
        }
        // A legal move's index offset names its neighbour (the offsets
        // differ from each other, and the move table keeps moves on the map).
        let d = b.0 as i64 - a.0 as i64;
        let mut bits = self.moves[a.index()];
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            if self.move_delta[k] == d {
                return true;
            }
            bits &= bits - 1;
        }
        false
    }

    /// Whether one tick can take a unit from `a` by `(dx, dy)`: a legal
    /// move's bit looked up by its direction, with no loop over the moves
    /// (the validator's per-unit check). `(0, 0)` is no move.
    #[inline]
    pub fn has_step(&self, a: Cell, dx: i32, dy: i32) -> bool {
        // MOVE_OFFSETS' index of each (dx, dy), row by row from (-1, -1);
        // 8 marks no move.
        const BIT: [u8; 9] = [7, 0, 4, 3, 8, 1, 6, 2, 5];
        if dx.unsigned_abs() > 1 || dy.unsigned_abs() > 1 {
            return false;
        }
        let k = BIT[((dy + 1) * 3 + dx + 1) as usize];
        k < 8 && self.moves[a.index()] >> k & 1 == 1
    }

    /// A lower bound on the number of moves from `a` to `b`: Manhattan for
    /// 4-connectivity, Chebyshev for 8 (every move costs one tick).
    #[inline]
    pub fn grid_distance(&self, a: Cell, b: Cell) -> u32 {
        self.grid_distance_xy(self.xy(a), self.xy(b))
    }

    fn label_regions(&mut self) {
        self.label_regions_with(&mut Vec::new());
    }

    /// [`Self::label_regions`] with `stack` as the fill's scratch.
    fn label_regions_with(&mut self, stack: &mut Vec<Cell>) {
        self.moves.clear();
        self.moves.resize(self.passable.len(), 0);
        for i in 0..self.passable.len() {
            self.update_moves(Cell(i as u32));
        }
        self.relabel_regions_with(stack);
    }

    /// Rebuilds this grid in place as a `width`×`height` map, open where
    /// `open` says (row-major), with `connectivity` and `corner_cutting`,
    /// and no blocks or lanes; `stack` is scratch. Reuses the grid's
    /// memory, so a scratch map rebuilt again and again (a joint repair's
    /// window) allocates nothing once its buffers are large enough.
    ///
    /// # Panics
    /// If `open` does not yield `width * height` cells.
    pub fn rebuild(
        &mut self,
        width: u32,
        height: u32,
        connectivity: Connectivity,
        corner_cutting: bool,
        open: impl Iterator<Item = bool>,
        stack: &mut Vec<Cell>,
    ) {
        self.passable.clear();
        self.passable.extend(open);
        assert_eq!(
            self.passable.len() as u64,
            width as u64 * height as u64,
            "passability has the wrong size"
        );
        self.width = width;
        self.height = height;
        self.connectivity = connectivity;
        self.corner_cutting = corner_cutting;
        self.blocks.clear();
        self.lanes.against.clear();
        self.move_delta = move_deltas(width);
        self.row_magic = row_magic(width);
        self.label_regions_with(stack);
    }

    /// Recomputes the legal moves of `cell` from the passability around it
    /// (none for an impassable cell).
    pub(super) fn update_moves(&mut self, c: Cell) {
        self.moves[c.index()] = self.compute_moves(c);
    }

    /// Labels every connected region afresh, from the move table, with
    /// `stack` as the fill's scratch.
    pub(super) fn relabel_regions_with(&mut self, stack: &mut Vec<Cell>) {
        let mut region = std::mem::take(&mut self.region);
        region.clear();
        region.resize(self.passable.len(), NO_REGION);
        let mut next = 0u32;
        stack.clear();
        let mut buf = [Cell(0); 8];
        for start in 0..self.passable.len() {
            if !self.passable[start] || region[start] != NO_REGION {
                continue;
            }
            region[start] = next;
            stack.push(Cell(start as u32));
            while let Some(c) = stack.pop() {
                let n = self.neighbors(c, &mut buf);
                for &nb in &buf[..n] {
                    if region[nb.index()] == NO_REGION {
                        region[nb.index()] = next;
                        stack.push(nb);
                    }
                }
            }
            next += 1;
        }
        self.region_size.clear();
        self.region_size.resize(next as usize, 0);
        for &r in &region {
            if r != NO_REGION {
                self.region_size[r as usize] += 1;
            }
        }
        self.region = region;
        self.region_count = next;
    }

    /// Sizes of the connected regions, indexed by label.
    pub fn region_sizes(&self) -> Vec<usize> {
        let mut sizes = vec![0usize; self.region_count as usize];
        for &r in &self.region {
            if r != NO_REGION {
                sizes[r as usize] += 1;
            }
        }
        sizes
    }
}

/// Index offset of each move on a map `width` cells wide.
fn move_deltas(width: u32) -> [i64; 8] {
    MOVE_OFFSETS.map(|(dx, dy)| dx as i64 + dy as i64 * width as i64)
}

/// `ceil(2^48 / width)` (0 for widths above 2^16), for [`Grid::xy`].
fn row_magic(width: u32) -> u64 {
    if width <= 1 << 16 {
        (1u64 << 48).div_ceil(width.max(1) as u64)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_a_step_to_a_neighbour() {
        // Edges and corners included (an offset that wraps a row is no move).
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let g = Grid::from_rows(&["..#....", ".#..#..", "...#...", "#.....#"], conn);
            let mut buf = [Cell(0); 8];
            for a in (0..g.cell_count() as u32).map(Cell) {
                let n = g.neighbors(a, &mut buf);
                for b in (0..g.cell_count() as u32).map(Cell) {
                    let want = if a == b {
                        g.is_passable(a)
                    } else {
                        buf[..n].contains(&b)
                    };
                    assert_eq!(g.is_move(a, b), want, "{a:?} -> {b:?} ({conn:?})");
                }
            }
        }
    }

    #[test]
    fn coordinates_match_division() {
        for width in [
            1u32,
            3,
            7,
            32,
            100,
            481,
            1000,
            65_535,
            65_536,
            65_537,
            1 << 20,
        ] {
            let g = Grid::new(width, 1, vec![true; width as usize], Connectivity::Four);
            let cells = [
                0u32,
                1,
                width - 1,
                width,
                width + 1,
                12_345_678,
                u32::MAX / 2,
                u32::MAX,
            ];
            for c in cells
                .into_iter()
                .chain((0..20_000).map(|i| i * 214_013 + 2_531_011))
            {
                assert_eq!(
                    g.xy(Cell(c)),
                    (c % width, c / width),
                    "width {width}, cell {c}"
                );
            }
        }
    }

    fn grid(rows: &[&str], c: Connectivity) -> Grid {
        let h = rows.len() as u32;
        let w = rows[0].len() as u32;
        let p = rows
            .iter()
            .flat_map(|r| r.chars().map(|ch| ch == '.'))
            .collect();
        Grid::new(w, h, p, c)
    }

    #[test]
    fn corner_cutting_rule_controls_diagonals() {
        let g = grid(&[".@", ".."], Connectivity::Eight);
        // (0,0) -> (1,1) passes the blocked corner (1,0).
        assert!(!g.is_move(g.cell(0, 0), g.cell(1, 1)));
        let g = g.with_corner_cutting(true);
        assert!(g.is_move(g.cell(0, 0), g.cell(1, 1)));
    }

    #[test]
    fn regions_split_by_walls() {
        let g = grid(&[".@.", ".@.", ".@."], Connectivity::Four);
        assert_eq!(g.region_count(), 2);
        assert!(!g.reachable(g.cell(0, 0), g.cell(2, 2)));
        assert!(g.reachable(g.cell(0, 0), g.cell(0, 2)));
    }

    #[test]
    fn diagonal_only_link_counts_with_corner_cutting() {
        let g = grid(&[".@", "@."], Connectivity::Eight);
        assert_eq!(g.region_count(), 2);
        let g = g.with_corner_cutting(true);
        assert_eq!(g.region_count(), 1);
    }

    /// Every cell's move bits follow the rule, written plainly: a step to
    /// an open cell on the map, a diagonal one only past two open corners
    /// (or any, with corner cutting); and changing the setting back and
    /// forth gives the same table and regions.
    #[test]
    fn move_bits_follow_the_rule() {
        let rows = [
            "..#....#..",
            ".#.#..##..",
            "#...#....#",
            "..##.#.#..",
            ".#....#..#",
            "...#.#..#.",
        ];
        for (conn, cutting) in [
            (Connectivity::Four, false),
            (Connectivity::Eight, false),
            (Connectivity::Eight, true),
        ] {
            let g = Grid::from_rows(&rows, conn).with_corner_cutting(cutting);
            let open = |x: i64, y: i64| g.cell_checked(x, y).is_some_and(|c| g.is_passable(c));
            for c in (0..g.cell_count() as u32).map(Cell) {
                let (x, y) = g.xy(c);
                let (x, y) = (x as i64, y as i64);
                for (k, &(dx, dy)) in MOVE_OFFSETS.iter().enumerate() {
                    let (dx, dy) = (dx as i64, dy as i64);
                    let diagonal = dx != 0 && dy != 0;
                    let legal = g.is_passable(c)
                        && open(x + dx, y + dy)
                        && (!diagonal
                            || conn == Connectivity::Eight
                                && (cutting || open(x + dx, y) && open(x, y + dy)));
                    assert_eq!(
                        g.move_bits(c) >> k & 1 == 1,
                        legal,
                        "{conn:?} {cutting}: ({x},{y}) move {k}"
                    );
                }
            }
            let back = g
                .clone()
                .with_corner_cutting(!cutting)
                .with_corner_cutting(cutting);
            let cells = (0..g.cell_count() as u32).map(Cell);
            assert!(cells.clone().all(|c| back.move_bits(c) == g.move_bits(c)));
            assert!(cells.clone().all(|c| back.region(c) == g.region(c)));
        }
    }
}
