//! A map from cell to a `u32`, dense (one word per map cell: fastest, for small
//! maps or few searches) or sparse (a hash map: memory grows with the cells
//! touched, for big maps with thousands of units).

use rustc_hash::FxHashMap;

use crate::map::Cell;

/// Cell → value, 0 meaning absent.
#[derive(Clone, Debug)]
pub enum CellMap {
    /// One slot per map cell.
    Dense(Vec<u32>),
    /// Only the cells written.
    Sparse(FxHashMap<u32, u32>),
}

impl Default for CellMap {
    fn default() -> Self {
        CellMap::Sparse(FxHashMap::default())
    }
}

impl CellMap {
    /// A dense map for `cells` cells, or a sparse one.
    pub fn new(cells: usize, dense: bool) -> Self {
        if dense {
            CellMap::Dense(vec![0; cells])
        } else {
            CellMap::Sparse(FxHashMap::default())
        }
    }

    /// The value at `c` (0 if absent).
    #[inline]
    pub fn get(&self, c: Cell) -> u32 {
        match self {
            CellMap::Dense(v) => v[c.index()],
            CellMap::Sparse(m) => m.get(&c.0).copied().unwrap_or(0),
        }
    }

    /// Sets the value at `c`.
    #[inline]
    pub fn set(&mut self, c: Cell, value: u32) {
        match self {
            CellMap::Dense(v) => v[c.index()] = value,
            CellMap::Sparse(m) => {
                m.insert(c.0, value);
            }
        }
    }

    /// Forgets every value, keeping the memory.
    pub fn clear(&mut self) {
        match self {
            CellMap::Dense(v) => v.fill(0),
            CellMap::Sparse(m) => m.clear(),
        }
    }
}

/// Whether `maps` dense maps over `cells` cells fit the memory budget
/// (32 Mi words, 128 MiB); beyond it, use sparse maps.
pub fn dense_fits(cells: usize, maps: usize) -> bool {
    cells.saturating_mul(maps) <= 1 << 25
}
