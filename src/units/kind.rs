//! What kind of unit a unit is: its body, its pace and the moves it makes.
//! Infantry is one cell and one move a tick; a tank is a 2×2 square, a
//! siege engine a 3×3 one taking three ticks a cell, a vehicle turns on
//! curves. Every kind shares one map and one reservation table.

use bytemuck::{Pod, Zeroable};

/// Largest body side, in cells.
pub const MAX_SIZE: u8 = 8;
/// Slowest pace, in ticks per cell.
pub const MAX_PACE: u8 = 8;

/// A unit's kind: a `size` × `size` square (anchored at its top-left cell)
/// taking `pace` ticks for a step of one cell, stepping in the map's
/// directions (or only the four straight ones), with curved turns or not.
/// The default, one cell at one tick a move, is the planner's fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Pod, Zeroable)]
#[repr(C)]
pub struct UnitKind {
    /// Side of the body's square, in cells (1..=[`MAX_SIZE`]).
    pub size: u8,
    /// Ticks one step of one cell takes (1..=[`MAX_PACE`]).
    pub pace: u8,
    /// 1: only the four straight steps, even on an 8-connected map.
    pub four_way: u8,
    /// 1: curved turns too (a straight cell and a diagonal one in a
    /// single move that cannot stop half-way, as a vehicle turns).
    pub curves: u8,
}

impl Default for UnitKind {
    fn default() -> Self {
        UnitKind::CELL
    }
}

impl UnitKind {
    /// One cell, one tick a move, the map's steps: the fast path.
    pub const CELL: UnitKind = UnitKind {
        size: 1,
        pace: 1,
        four_way: 0,
        curves: 0,
    };

    /// A `size` × `size` body taking `pace` ticks a cell.
    pub fn new(size: u8, pace: u8) -> Self {
        UnitKind {
            size,
            pace,
            ..UnitKind::CELL
        }
    }

    /// The same kind, turning on curves.
    pub fn with_curves(mut self) -> Self {
        self.curves = 1;
        self
    }

    /// The same kind, stepping only straight.
    pub fn four_way(mut self) -> Self {
        self.four_way = 1;
        self
    }

    /// Whether this is the one-cell, one-tick kind (planned on the fast
    /// path, with cell-per-tick plans).
    #[inline]
    pub fn is_cell(self) -> bool {
        self == UnitKind::CELL
    }

    /// Whether size and pace are in range.
    pub fn is_valid(self) -> bool {
        (1..=MAX_SIZE).contains(&self.size)
            && (1..=MAX_PACE).contains(&self.pace)
            && self.four_way <= 1
            && self.curves <= 1
    }

    /// Cells of the box a step of this body sweeps (its size plus one,
    /// squared): what one unit of the kind claims per tick at most.
    pub fn claims_per_tick(self) -> usize {
        let side = self.size as usize + 1;
        side * side
    }
}
