//! Lanes: one-way traffic rules for one-cell-wide corridors.
//!
//! In a corridor one cell wide, two units going opposite ways cannot pass:
//! one backs out, or both wait for a joint repair. A warehouse of shelves
//! is made of such corridors, and a crowd of a thousand units spends most
//! of its time in these meetings. With lanes on, each straight corridor
//! has a direction, alternating from one corridor to the next parallel one
//! (by their rank among the rows, or columns, that hold corridor cells), and
//! a move against it costs 2 instead of 1: in the true distances and in the
//! space-time searches. Routes then keep to the corridors that run their
//! way, and opposite flows take neighbouring corridors; a unit whose goal
//! lies a few cells back in a corridor still goes against the lane rather
//! than round the block. These are the "crisscross" guidance of Zhang,
//! Jiang, Bhatt, Nikolaidis and Li, *Guidance Graph Optimization for
//! Lifelong Multi-Agent Path Finding* (2024), found from the map.
//!
//! A corridor cell is a passable cell whose two neighbours across the
//! corridor are blocked (north and south for a corridor along a row, east
//! and west for one along a column) and that opens along it. Lanes follow
//! blocks (buildings): cells near an edited rectangle are recomputed. Only
//! cardinal moves carry the lane cost. Optimal solvers and the validator
//! ignore lanes: they count ticks.

use super::grid::Lanes;
use super::{Cell, Grid, MOVE_OFFSETS};

/// Move indices (in [`MOVE_OFFSETS`]) of the four cardinal directions.
const NORTH: usize = 0;
const EAST: usize = 1;
const SOUTH: usize = 2;
const WEST: usize = 3;

impl Grid {
    /// Returns the grid with lanes in its one-cell-wide corridors turned on
    /// or off (see the module docs): a move against a corridor's lane costs
    /// 2. Directions are set from the corridors open now; later blocks move
    /// lanes but keep the directions.
    pub fn with_lanes(mut self, on: bool) -> Self {
        self.lanes = Lanes::default();
        if on {
            let (w, h) = (self.width() as usize, self.height() as usize);
            let mut rows = vec![false; h];
            let mut cols = vec![false; w];
            for i in 0..self.cell_count() {
                let c = Cell(i as u32);
                let (x, y) = self.xy(c);
                match self.corridor(c) {
                    Some(EAST | WEST) => rows[y as usize] = true,
                    Some(_) => cols[x as usize] = true,
                    None => {}
                }
            }
            let rank = |flags: &[bool]| {
                flags
                    .iter()
                    .scan(0, |seen, &f| {
                        let r = *seen;
                        *seen += u32::from(f);
                        Some(r)
                    })
                    .collect()
            };
            self.lanes.row_rank = rank(&rows);
            self.lanes.col_rank = rank(&cols);
            self.lanes.against = vec![0; self.cell_count()];
            for i in 0..self.cell_count() {
                self.update_lane(Cell(i as u32));
            }
        }
        self
    }

    /// Whether lanes are on.
    #[inline]
    pub fn has_lanes(&self) -> bool {
        !self.lanes.against.is_empty()
    }

    /// The cost of legal move `k` ([`MOVE_OFFSETS`]`[k]`) from `cell`: 2
    /// against a lane, else 1.
    #[inline]
    pub fn move_cost(&self, cell: Cell, k: usize) -> u32 {
        match self.lanes.against.get(cell.index()) {
            Some(&bits) => 1 + u32::from(bits >> k & 1),
            None => 1,
        }
    }

    /// The move that goes against the lane through corridor cell `c`, if
    /// `c` is one (before lanes have ranks: any cardinal move along it).
    fn corridor(&self, c: Cell) -> Option<usize> {
        if !self.is_passable(c) {
            return None;
        }
        let (x, y) = self.xy(c);
        let open = |dx: i64, dy: i64| {
            self.cell_checked(x as i64 + dx, y as i64 + dy)
                .is_some_and(|n| self.is_passable(n))
        };
        let rank = |ranks: &[u32], i: u32| ranks.get(i as usize).copied().unwrap_or(0);
        if !open(0, -1) && !open(0, 1) && (open(-1, 0) || open(1, 0)) {
            // Along a row: even ranks run east, so moving west is against.
            Some(if rank(&self.lanes.row_rank, y) % 2 == 0 {
                WEST
            } else {
                EAST
            })
        } else if !open(-1, 0) && !open(1, 0) && (open(0, -1) || open(0, 1)) {
            Some(if rank(&self.lanes.col_rank, x) % 2 == 0 {
                NORTH
            } else {
                SOUTH
            })
        } else {
            None
        }
    }

    /// Recomputes cell `c`'s lane bits: the moves out of it against its own
    /// lane or into a neighbouring corridor cell against that one's. After
    /// a block, the cells up to two away from it (see `blocks.rs`).
    pub(super) fn update_lane(&mut self, c: Cell) {
        let mut bits = 0u8;
        if self.is_passable(c) {
            if let Some(k) = self.corridor(c) {
                bits |= 1 << k;
            }
            let (x, y) = self.xy(c);
            for k in [NORTH, EAST, SOUTH, WEST] {
                let (dx, dy) = MOVE_OFFSETS[k];
                let next = self.cell_checked(x as i64 + dx as i64, y as i64 + dy as i64);
                if next.is_some_and(|n| self.corridor(n) == Some(k)) {
                    bits |= 1 << k;
                }
            }
        }
        self.lanes.against[c.index()] = bits;
    }
}

/// The move opposite move `k` of [`MOVE_OFFSETS`].
#[inline]
pub fn opposite_move(k: usize) -> usize {
    (k & 4) | ((k + 2) & 3)
}

/// Two shelf rows between three corridors, joined by open ends (for tests).
#[cfg(test)]
pub(super) const SHELVES: [&str; 7] = [
    "@@@@@@@@@@",
    "@........@",
    "@.@@@@@@.@",
    "@........@",
    "@.@@@@@@.@",
    "@........@",
    "@@@@@@@@@@",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    #[test]
    fn neighbouring_corridors_run_opposite_ways() {
        let g = Grid::from_rows(&SHELVES, Connectivity::Four).with_lanes(true);
        let cost = |x, y, k| g.move_cost(g.cell(x, y), k);
        // The first corridor runs east, the second west, the third east.
        assert_eq!((cost(4, 1, EAST), cost(4, 1, WEST)), (1, 2));
        assert_eq!((cost(4, 3, EAST), cost(4, 3, WEST)), (2, 1));
        assert_eq!((cost(4, 5, EAST), cost(4, 5, WEST)), (1, 2));
        // Entering a corridor against its lane costs too; the open ends
        // are no corridor.
        assert_eq!(cost(1, 3, EAST), 2);
        assert_eq!(cost(1, 2, SOUTH), 1);
        let plain = Grid::from_rows(&SHELVES, Connectivity::Four);
        assert!(!plain.has_lanes());
        assert_eq!(plain.move_cost(plain.cell(4, 1), WEST), 1);
    }

    #[test]
    fn opposite_moves_undo_each_other() {
        for k in 0..8 {
            let (a, b) = (MOVE_OFFSETS[k], MOVE_OFFSETS[opposite_move(k)]);
            assert_eq!((a.0 + b.0, a.1 + b.1), (0, 0));
        }
    }
}
