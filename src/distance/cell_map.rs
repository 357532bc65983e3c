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
    /// One half-word per map cell, for maps of fewer than 2^15 cells: values
    /// below 2^15, plus the top bit (bit 31 of the value) kept in bit 15.
    /// Half the memory to zero and to cache.
    Compact(Vec<u16>),
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
    ///
    /// A dense map's pages are written once here: zeroed memory from the
    /// system is mapped on first touch, and a search that reads a page
    /// before writing it faults twice, the second time flushing the page
    /// from every core's TLB (in a 2,000-unit mixed crowd on 256×256, those
    /// faults were a tenth of all the time, inside the ticks' budgets).
    pub fn new(cells: usize, dense: bool) -> Self {
        if dense && cells < COMPACT_CELLS {
            CellMap::Compact(touched(vec![0; cells]))
        } else if dense {
            CellMap::Dense(touched(vec![0; cells]))
        } else {
            CellMap::Sparse(FxHashMap::default())
        }
    }

    /// The value at `c` (0 if absent).
    #[inline]
    pub fn get(&self, c: Cell) -> u32 {
        match self {
            CellMap::Dense(v) => v[c.index()],
            CellMap::Compact(v) => CellSlots::get(v.as_slice(), c),
            CellMap::Sparse(m) => m.get(&c.0).copied().unwrap_or(0),
        }
    }

    /// Sets the value at `c`.
    #[inline]
    pub fn set(&mut self, c: Cell, value: u32) {
        match self {
            CellMap::Dense(v) => v[c.index()] = value,
            CellMap::Compact(v) => CellSlots::set(v.as_mut_slice(), c, value),
            CellMap::Sparse(m) => {
                m.insert(c.0, value);
            }
        }
    }

    /// Forgets every value, keeping the memory.
    pub fn clear(&mut self) {
        match self {
            CellMap::Dense(v) => v.fill(0),
            CellMap::Compact(v) => v.fill(0),
            CellMap::Sparse(m) => m.clear(),
        }
    }
}

/// `v` with one element of each memory page written, so the pages are
/// mapped now rather than during a search.
fn touched<T: Copy + Default>(mut v: Vec<T>) -> Vec<T> {
    let per_page = (4096 / std::mem::size_of::<T>()).max(1);
    for x in v.iter_mut().step_by(per_page) {
        // Opaque to the compiler, which would drop a store of zero into
        // memory it knows is zeroed.
        *x = std::hint::black_box(T::default());
    }
    v
}

/// Cell → value storage as a search's inner loop uses it, so the loop is
/// compiled once per layout instead of matching on [`CellMap`] per access.
pub trait CellSlots {
    /// The value at `c` (0 if absent).
    fn get(&self, c: Cell) -> u32;
    /// Sets the value at `c`.
    fn set(&mut self, c: Cell, value: u32);

    /// The flag bit of this layout's raw values: bit 31 of a value, kept
    /// where the layout stores it.
    const FLAG: u32 = 1 << 31;
    /// The value at `c` as stored: the value's low bits, with bit 31 moved
    /// to [`Self::FLAG`]. Inner loops that only test the flag and compare
    /// the low bits skip the conversion.
    #[inline]
    fn get_raw(&self, c: Cell) -> u32 {
        self.get(c)
    }
    /// Stores a raw value (see [`Self::get_raw`]).
    #[inline]
    fn set_raw(&mut self, c: Cell, raw: u32) {
        self.set(c, raw)
    }
}

impl CellSlots for [u32] {
    #[inline]
    fn get(&self, c: Cell) -> u32 {
        self[c.index()]
    }
    #[inline]
    fn set(&mut self, c: Cell, value: u32) {
        self[c.index()] = value;
    }
}

/// Maps with fewer cells than this use [`CellMap::Compact`].
const COMPACT_CELLS: usize = 1 << 15;

impl CellSlots for [u16] {
    #[inline]
    fn get(&self, c: Cell) -> u32 {
        let v = self[c.index()] as u32;
        (v & 0x7FFF) | ((v & 0x8000) << 16)
    }
    #[inline]
    fn set(&mut self, c: Cell, value: u32) {
        debug_assert!(value & 0x7FFF_8000 == 0, "value {value:#x} too large");
        self[c.index()] = ((value & 0x7FFF) | ((value >> 16) & 0x8000)) as u16;
    }
    const FLAG: u32 = 0x8000;
    #[inline]
    fn get_raw(&self, c: Cell) -> u32 {
        self[c.index()] as u32
    }
    #[inline]
    fn set_raw(&mut self, c: Cell, raw: u32) {
        debug_assert!(raw <= 0xFFFF, "raw value {raw:#x} too large");
        self[c.index()] = raw as u16;
    }
}

impl CellSlots for FxHashMap<u32, u32> {
    #[inline]
    fn get(&self, c: Cell) -> u32 {
        FxHashMap::get(self, &c.0).copied().unwrap_or(0)
    }
    #[inline]
    fn set(&mut self, c: Cell, value: u32) {
        self.insert(c.0, value);
    }
}

/// Whether `maps` dense maps over `cells` cells fit the memory budget
/// (32 Mi words, 128 MiB); beyond it, use sparse maps.
pub fn dense_fits(cells: usize, maps: usize) -> bool {
    cells.saturating_mul(maps) <= 1 << 25
}

/// How many dense maps over `cells` cells fit the memory budget of
/// [`dense_fits`].
pub fn dense_maps_that_fit(cells: usize) -> usize {
    (1usize << 25) / cells.max(1)
}
