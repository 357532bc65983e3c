//! A map from cell to a `u32`, dense (one word per map cell: fastest, for small
//! maps or few searches) or paged (memory grows with the cells touched, for
//! big maps with thousands of units).

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
    /// Only the pages of cells written (see `PagedCells`).
    Paged(PagedCells),
}

impl Default for CellMap {
    fn default() -> Self {
        CellMap::Paged(PagedCells::default())
    }
}

impl CellMap {
    /// A dense map for `cells` cells, or a paged one.
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
            CellMap::Paged(PagedCells::default())
        }
    }

    /// The value at `c` (0 if absent).
    #[inline]
    pub fn get(&self, c: Cell) -> u32 {
        match self {
            CellMap::Dense(v) => v[c.index()],
            CellMap::Compact(v) => CellSlots::get(v.as_slice(), c),
            CellMap::Paged(m) => CellSlots::get(m, c),
        }
    }

    /// Sets the value at `c`.
    #[inline]
    pub fn set(&mut self, c: Cell, value: u32) {
        match self {
            CellMap::Dense(v) => v[c.index()] = value,
            CellMap::Compact(v) => CellSlots::set(v.as_mut_slice(), c, value),
            CellMap::Paged(m) => CellSlots::set(m, c, value),
        }
    }

    /// Forgets every value, keeping the memory.
    pub fn clear(&mut self) {
        match self {
            CellMap::Dense(v) => v.fill(0),
            CellMap::Compact(v) => v.fill(0),
            CellMap::Paged(m) => m.clear(),
        }
    }
}

/// `v` with one element of each memory page written (see [`touch_pages`]).
fn touched<T: Copy + Default>(mut v: Vec<T>) -> Vec<T> {
    touch_pages(&mut v);
    v
}

/// Writes the default value into one element of each memory page of `v`
/// (zeroed memory, as allocated), so the pages are mapped now rather than
/// at their first use in a search.
pub(crate) fn touch_pages<T: Copy + Default>(v: &mut [T]) {
    let per_page = (4096 / std::mem::size_of::<T>()).max(1);
    for x in v.iter_mut().step_by(per_page) {
        // Opaque to the compiler, which would drop a store of zero into
        // memory it knows is zeroed.
        *x = std::hint::black_box(T::default());
    }
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

/// Cells in a page of [`PagedCells`]: consecutive cells of a row, so that
/// a cell's horizontal neighbours mostly share its page, and the vertical
/// neighbours of a page's cells lie in one or two pages above and below.
const PAGE: usize = 64;

/// Cell → value, a page of [`PAGE`] consecutive cells at a time: a
/// directory with one word per page of the map (0: none), grown as far as
/// the cells written reach, and the pages written, in order. Two loads a
/// read, where a hash map hashed and probed: on the Iron Harvest map
/// (1800×1912), where a unit's own guided search closes some 27,000 cells,
/// those searches took 28% fewer instructions than with the hash map.
#[derive(Clone, Debug, Default)]
pub struct PagedCells {
    /// Per page of the map, 1 + its index in `pages`, or 0.
    dir: Vec<u32>,
    pages: Vec<[u32; PAGE]>,
    /// Per page made, its place in `dir` (to clear the directory where
    /// pages were made, not all of it).
    made_at: Vec<u32>,
}

impl PagedCells {
    /// Forgets every value, keeping the memory.
    pub fn clear(&mut self) {
        for &d in &self.made_at {
            self.dir[d as usize] = 0;
        }
        self.made_at.clear();
        self.pages.clear();
    }
}

impl CellSlots for PagedCells {
    #[inline]
    fn get(&self, c: Cell) -> u32 {
        match self.dir.get(c.index() / PAGE) {
            Some(&p) if p != 0 => self.pages[p as usize - 1][c.index() % PAGE],
            _ => 0,
        }
    }
    #[inline]
    fn set(&mut self, c: Cell, value: u32) {
        let d = c.index() / PAGE;
        if d >= self.dir.len() {
            self.dir.resize(d + 1, 0);
        }
        let mut p = self.dir[d];
        if p == 0 {
            self.pages.push([0; PAGE]);
            self.made_at.push(d as u32);
            p = self.pages.len() as u32;
            self.dir[d] = p;
        }
        self.pages[p as usize - 1][c.index() % PAGE] = value;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Paged values read back as written, across pages and past the end of
    /// the directory, absent cells read 0, and a cleared map reads 0
    /// everywhere and is written again.
    #[test]
    fn paged_cells_read_back_what_was_written() {
        let mut m = PagedCells::default();
        let cells = [0u32, 1, 63, 64, 65, 1000, 4095, 70_000, 63];
        for (k, &c) in cells.iter().enumerate() {
            m.set(Cell(c), k as u32 + 1);
        }
        let last = |c: u32| {
            cells
                .iter()
                .rposition(|&x| x == c)
                .map_or(0, |k| k as u32 + 1)
        };
        for c in [
            0u32,
            1,
            2,
            62,
            63,
            64,
            65,
            66,
            999,
            1000,
            4095,
            69_999,
            70_000,
            1 << 20,
        ] {
            assert_eq!(m.get(Cell(c)), last(c), "cell {c}");
        }
        assert_eq!(
            m.pages.len(),
            5,
            "pages of 0..63, 64..127, 1000, 4095, 70,000"
        );
        m.clear();
        assert!(cells.iter().all(|&c| m.get(Cell(c)) == 0));
        m.set(Cell(64), 9);
        assert_eq!(m.get(Cell(64)), 9);
        assert_eq!(m.get(Cell(65)), 0);
        assert_eq!(m.pages.len(), 1);
    }
}
