//! (cell, depth) → node id for space-time searches, and each cell's
//! distance estimate, with generation stamps so a search starts without
//! clearing: dense over the box of cells a window search can reach, hashed
//! beyond. Shared by the one-cell search ([`super::SpaceTimeAStar`]) and the
//! search of units with footprints.

use rustc_hash::FxHashMap;

use crate::distance::DistanceOracle;
use crate::map::{Cell, Grid};

/// Dense node indexes up to this many (cell, depth) slots (1 MiB, cache-sized);
/// a hash map beyond, which stays small and hot where a big dense array misses.
const DENSE_SLOTS: usize = 1 << 18;
/// Bits of a dense slot that hold the node id; the rest hold the low bits
/// of the search's generation, so a slot is a word of 4 bytes (a window
/// search's slots, 139 KB on a 32×32 map at 8 bytes, miss the first-level
/// cache on nearly every new node).
const ID_BITS: u32 = 22;
const ID_MASK: u32 = (1 << ID_BITS) - 1;
/// Generations a slot tells apart before the slots are cleared.
const SLOT_GENERATIONS: u32 = 1 << (32 - ID_BITS);

/// (cell, depth) → node id: dense with generation stamps when it fits, else
/// hashed. A window search only reaches cells within `w` moves of its start,
/// so it indexes a box around the start densely, however big the map (on
/// the 512×512 stress map, hashing every node was a tenth of the search).
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeIndex {
    /// Per slot, the low bits of the generation that wrote it (above
    /// [`ID_BITS`]) and the node id.
    slots: Vec<u32>,
    generation: u32,
    /// Slots per depth layer.
    layer: usize,
    /// Depths indexed. Slots are cell-major, every depth of one cell side
    /// by side: a search's nodes cluster on few cells, and a wait's
    /// successor shares its parent's cache line (depth-major, a cold
    /// search missed the cache on nearly every new node).
    depths: usize,
    dense: bool,
    /// The indexed box: `None` for the whole map.
    boxed: Option<IndexBox>,
    sparse: FxHashMap<u64, u32>,
    /// Per cell of the box, the generation that wrote it (high half) and
    /// the cell's distance estimate: a window search meets the same cell
    /// at many depths, and each estimate from landmarks is a cache miss
    /// into a table of the whole map.
    estimates: Vec<u64>,
}

#[derive(Clone, Copy, Debug)]
struct IndexBox {
    x0: u32,
    y0: u32,
    width: u32,
    height: u32,
}

impl NodeIndex {
    /// Gets ready for a search over `depths` ticks, of the whole map of
    /// `grid` or, for a window search, the box of cells within `reach` moves
    /// of `start`.
    pub(crate) fn reset(&mut self, grid: &Grid, start: Cell, reach: Option<u32>, depths: usize) {
        self.boxed = reach.map(|r| {
            let (x, y) = grid.xy(start);
            let (x0, y0) = (x.saturating_sub(r), y.saturating_sub(r));
            let (x1, y1) = (
                (x + r).min(grid.width() - 1),
                (y + r).min(grid.height() - 1),
            );
            IndexBox {
                x0,
                y0,
                width: x1 - x0 + 1,
                height: y1 - y0 + 1,
            }
        });
        self.layer = self
            .boxed
            .map_or(grid.cell_count(), |b| (b.width * b.height) as usize);
        self.depths = depths;
        let slots = self.layer.saturating_mul(depths);
        self.dense = slots <= DENSE_SLOTS;
        if self.dense {
            if self.slots.len() < slots {
                // Room for the largest box of this reach at once, so boxes
                // clipped by the map's edge do not make later ones grow it.
                let largest = reach.map_or(slots, |r| {
                    let side = 2 * r as usize + 1;
                    (side * side)
                        .min(grid.cell_count())
                        .saturating_mul(depths)
                        .max(slots)
                });
                // (Fresh slots read as empty at any generation: it runs on,
                // so the estimates kept stay stamped with theirs.)
                self.slots = vec![0; largest.min(DENSE_SLOTS.max(slots))];
            }
            if self.estimates.len() < self.layer {
                self.estimates = vec![0; self.slots.len() / depths.max(1)];
                self.estimates
                    .resize(self.estimates.len().max(self.layer), 0);
            }
            self.generation = self.generation.wrapping_add(1);
            if self.generation % SLOT_GENERATIONS == 0 {
                // The slots' stamps come round again (once every thousand
                // searches; the generation's own wrap to 0 is one of them):
                // clear them, and skip the stamp 0 of a cleared slot.
                self.slots.fill(0);
                if self.generation == 0 {
                    self.estimates.fill(0);
                }
                self.generation += 1;
            }
        } else {
            self.sparse.clear();
        }
    }

    /// Where (cell, depth) lives: a slot, or a hash key. `(x, y)` are the
    /// cell's coordinates (the search carries them from move to move).
    #[inline(always)]
    pub(crate) fn key(&self, cell: Cell, (x, y): (u32, u32), depth: u32) -> u64 {
        if !self.dense {
            return ((depth as u64) << 32) | cell.0 as u64;
        }
        let local = match self.boxed {
            Some(b) => ((y - b.y0) * b.width + (x - b.x0)) as usize,
            None => cell.index(),
        };
        (local * self.depths + depth as usize) as u64
    }

    /// Where a cell's estimate is kept, if the index is dense.
    #[inline(always)]
    pub(crate) fn local(&self, cell: Cell, (x, y): (u32, u32)) -> Option<usize> {
        self.dense.then(|| match self.boxed {
            Some(b) => ((y - b.y0) * b.width + (x - b.x0)) as usize,
            None => cell.index(),
        })
    }

    /// `h.known(cell)`, from this search's memory when it has asked before.
    #[inline(always)]
    pub(crate) fn estimate<H: DistanceOracle + ?Sized>(
        &mut self,
        h: &H,
        cell: Cell,
        xy: (u32, u32),
    ) -> Option<u32> {
        self.remember(cell, xy, || h.known(cell))
    }

    /// `value()`, a cell's distance estimate, from this search's memory
    /// when it has been asked for this cell before (`None` is not kept).
    #[inline(always)]
    pub(crate) fn remember(
        &mut self,
        cell: Cell,
        xy: (u32, u32),
        value: impl FnOnce() -> Option<u32>,
    ) -> Option<u32> {
        let Some(i) = self.local(cell, xy) else {
            return value();
        };
        let word = self.estimates[i];
        if (word >> 32) as u32 == self.generation {
            return Some(word as u32);
        }
        let d = value()?;
        self.estimates[i] = ((self.generation as u64) << 32) | d as u64;
        Some(d)
    }

    /// Whether the cell at `(x, y)` lies in the indexed box.
    #[inline(always)]
    pub(crate) fn covers(&self, (x, y): (u32, u32)) -> bool {
        self.boxed
            .is_none_or(|b| x.wrapping_sub(b.x0) < b.width && y.wrapping_sub(b.y0) < b.height)
    }

    /// Writes one word of each page of the slots, so that the first
    /// searches (a game's initial planning) do not fault them in.
    pub(crate) fn touch(&mut self) {
        crate::distance::touch_pages(&mut self.slots);
    }

    /// The generation's stamp in a slot (never 0, the stamp of a cleared
    /// slot).
    #[inline(always)]
    fn slot_stamp(&self) -> u32 {
        self.generation % SLOT_GENERATIONS
    }

    #[inline(always)]
    pub(crate) fn get(&self, key: u64) -> Option<u32> {
        if self.dense {
            let word = self.slots[key as usize];
            (word >> ID_BITS == self.slot_stamp()).then_some(word & ID_MASK)
        } else {
            self.sparse.get(&key).copied()
        }
    }

    #[inline(always)]
    pub(crate) fn insert(&mut self, key: u64, id: u32) {
        if self.dense {
            debug_assert!(id <= ID_MASK, "node ids fit {ID_BITS} bits");
            self.slots[key as usize] = (self.slot_stamp() << ID_BITS) | id;
        } else {
            self.sparse.insert(key, id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    /// A slot written by one search is never read by a later one, however
    /// many searches later (the slots' stamps come round every
    /// [`SLOT_GENERATIONS`] searches), and ids up to the largest fit.
    #[test]
    fn slots_of_earlier_searches_read_as_empty() {
        let g = Grid::from_rows(&["........"; 8], Connectivity::Four);
        let start = g.cell(3, 3);
        let mut index = NodeIndex::default();
        let (cell, xy) = (g.cell(4, 3), (4, 3));
        index.reset(&g, start, Some(4), 5);
        let once = index.key(g.cell(2, 3), (2, 3), 1);
        index.insert(once, ID_MASK);
        assert_eq!(index.get(once), Some(ID_MASK));
        for search in 1..3 * SLOT_GENERATIONS + 5 {
            index.reset(&g, start, Some(4), 5);
            assert_eq!(index.get(once), None, "search {search}");
            let key = index.key(cell, xy, 2);
            assert_eq!(index.get(key), None, "search {search}");
            index.insert(key, search);
            assert_eq!(index.get(key), Some(search));
            assert_eq!(index.get(index.key(cell, xy, 3)), None);
        }
    }

    /// A search whose slots outgrow the index's reads no distance estimate
    /// of the searches before it.
    #[test]
    fn estimates_of_earlier_searches_are_not_read_after_the_slots_grow() {
        let g = Grid::from_rows(&["........"; 8], Connectivity::Four);
        let (cell, xy) = (g.cell(4, 3), (4, 3));
        let mut index = NodeIndex::default();
        index.reset(&g, cell, None, 5);
        assert_eq!(index.remember(cell, xy, || Some(7)), Some(7));
        index.reset(&g, cell, None, 50);
        assert_eq!(index.remember(cell, xy, || Some(9)), Some(9));
    }
}
