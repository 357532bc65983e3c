//! The space-time reservation table: who stands where at which tick.
//!
//! Three parts:
//! - a ring of per-tick *layers*, one open-addressing hash table of packed
//!   slots each (see [`super::entry`]); a tick's layer is recycled for tick
//!   `t + horizon` when `t` passes, by bumping a generation tag, so expiry is
//!   O(1) (a full wipe happens once every 256 reuses of a layer);
//! - *holds*: "unit `a` stays on cell `c` from tick `t` on", one word per
//!   cell, so the end of every plan is a safe place to wait forever;
//! - *requests*: "unit `a` would like to pass cell `c`", one word per cell,
//!   read by the holder at its next replan so it steps aside.
//!
//! Claims are single compare-and-swaps and reads are plain atomic loads, so
//! searches on many threads can read the table while others claim.
//! Memory: layers grow with units × horizon; holds and requests with the map.

use crossbeam::utils::CachePadded;

use super::entry::{Entry, MAX_OWNER};
use super::sync::{AtomicU64, Ordering};
use crate::map::MAX_CELLS;
use crate::map::{Cell, Grid};
use crate::units::Slot;

/// Why a claim failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimError {
    /// Another unit holds the cell at that tick.
    Taken(Slot),
    /// The tick lies outside the ring `[now, now + horizon)`.
    OutOfHorizon,
    /// The layer's hash table is full.
    Full,
}

/// One tick's shard of the table. Padded to a cache line so the shards'
/// headers never share one; slots are contended only by claims on the same
/// cell at the same tick.
struct Layer {
    slots: Box<[AtomicU64]>,
    /// One bit per cell, set by every claim in this layer and cleared only
    /// when the layer is recycled: a clear bit means "no claim here", so
    /// most checks of a search end on one bit test (a set bit may be stale,
    /// after a release, and falls back to the slots).
    claimed: Box<[AtomicU64]>,
}

/// The shared space-time reservation table. See the module docs.
pub struct ReservationTable {
    layers: Vec<CachePadded<Layer>>,
    mask: usize,
    /// Map width, for the spatial hash.
    width: u32,
    /// 0 when every Morton code of the map fits a layer (one slot per cell);
    /// otherwise blocks of Morton codes are hashed.
    morton_shift: u32,
    /// Ticks ahead that may be claimed (`now .. now + horizon`).
    horizon: u32,
    /// Layers in the ring: `horizon` rounded up to a power of two, so a
    /// tick's layer and tag are a mask and a shift.
    ring: u32,
    ring_shift: u32,
    now: u32,
    holds: Vec<AtomicU64>,
    requests: Vec<AtomicU64>,
    /// Each cell's home slot, computed once: a load instead of a division,
    /// two bit spreads and a hash on every lookup.
    homes: Vec<u32>,
    /// The latest tick ever claimed (never lowered), so [`Self::free_from`]
    /// stops there instead of scanning the whole ring of a sparse table.
    latest: AtomicU64,
    /// Whether every cell has a slot of its own in each layer: a lookup is
    /// then one load and one compare, never a probe run.
    direct: bool,
    /// Whether [`Self::prefetch`] does anything: layers that fit the cache
    /// are already there, and the hint only costs instructions.
    prefetch: bool,
    /// Whether [`Self::prefetch_cell`] does anything: the holds (a word a
    /// cell) outgrow the cache only on large maps.
    prefetch_cells: bool,
}

/// Maps up to this many Morton codes get direct-mapped layers.
const DIRECT_SLOTS: usize = 4096;
/// Tables smaller than this (bytes of layers) skip prefetching.
const PREFETCH_ABOVE_BYTES: usize = 1 << 20;

const NO_OWNER: u64 = 0;

/// One step of the table, `tick` to `tick + 1`: see [`ReservationTable::step`].
pub struct StepView<'a> {
    table: &'a ReservationTable,
    tick: u32,
    /// Claim bits of `tick`'s and `tick + 1`'s layers (`None` outside the ring).
    now: Option<&'a [AtomicU64]>,
    next: Option<&'a [AtomicU64]>,
    /// On a direct-mapped table, `tick + 1`'s slots and the head word a
    /// claim there carries without its cell: a set claim bit on the target
    /// is then settled with one load when another unit holds the claim.
    next_direct: Option<(&'a [AtomicU64], u64)>,
}

#[inline(always)]
fn bit_set(bits: Option<&[AtomicU64]>, cell: Cell) -> bool {
    bits.is_some_and(|b| b[cell.index() >> 6].load(Ordering::Acquire) & (1 << (cell.0 & 63)) != 0)
}

impl StepView<'_> {
    /// Whether unit `a` may move from `from` (at the step's tick) to `to`
    /// (at the next): `to` free, no swap with another unit, no diagonal
    /// crossing. Most answers come from the claim bits and `to`'s hold;
    /// a set bit or a hold falls back to the slots.
    #[inline(always)]
    pub fn move_is_free(&self, grid: &Grid, a: Slot, from: Cell, to: Cell) -> bool {
        let t = self.table;
        // A hold on `to` matters only once it has begun: a unit parks there
        // for good from its hold's first tick, so before it the cell is
        // free of it (and a holder never swaps or crosses).
        let hold = t.holds[to.index()].load(Ordering::Acquire);
        let held = hold & 0xFFFF_FFFF != NO_OWNER && (hold >> 32) as u32 <= self.tick + 1;
        let next_bit = bit_set(self.next, to);
        if next_bit {
            if let Some((slots, tag)) = self.next_direct {
                // Another unit's claim on `to` next: blocked, whatever else.
                let word = slots[t.home(to)].load(Ordering::Acquire);
                let owner = word & 0xFF_FFFF;
                if word >> 28 == (((to.0 as u64 + 1) << 8) | tag)
                    && owner != NO_OWNER
                    && owner != a.0 as u64 + 1
                {
                    return false;
                }
            }
        }
        if !held && !next_bit {
            if from == to {
                return true;
            }
            if !bit_set(self.now, to) {
                let step = from.0.abs_diff(to.0);
                if step == 1 || step == grid.width() {
                    return true;
                }
                // A crossing needs a unit on a corner now that is not parked:
                // a holder has no claims after its hold begins (every plan
                // ends in its hold), so clear corner bits rule one out.
                let ((fx, fy), (tx, ty)) = (grid.xy(from), grid.xy(to));
                if !bit_set(self.now, grid.cell(tx, fy)) && !bit_set(self.now, grid.cell(fx, ty)) {
                    return true;
                }
            }
        }
        t.move_is_free_exact(grid, a, from, to, self.tick)
    }
}

/// Spreads the bits of `v` to the even bit positions (for Morton codes).
#[inline]
fn spread_bits(v: u32) -> u64 {
    let mut x = v as u64;
    x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF;
    x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF;
    x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | (x << 2)) & 0x3333_3333_3333_3333;
    (x | (x << 1)) & 0x5555_5555_5555_5555
}

#[inline]
fn pack_hold(from: u32, a: Slot) -> u64 {
    ((from as u64) << 32) | (a.0 as u64 + 1)
}

#[inline]
fn unpack_hold(word: u64) -> Option<(Slot, u32)> {
    let owner = word & 0xFFFF_FFFF;
    (owner != NO_OWNER).then(|| (Slot(owner as u32 - 1), (word >> 32) as u32))
}

/// Longest horizon a table accepts, in ticks (`2^24`, about 16.8 million):
/// the ring's length, `horizon` rounded up to a power of two, then always
/// fits a `u32`, and `now + horizon` cannot wrap in any run shorter than
/// four billion ticks. Every layer costs memory, so callers bound their
/// horizons well below this (see [`ReservationTable::memory_for`]).
pub const MAX_HORIZON: u32 = 1 << 24;

/// The sizes a table's constructor picks, shared with its memory estimate.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// Map cells.
    cells: u32,
    /// Layers in the ring.
    ring: u32,
    /// Slots per layer.
    capacity: usize,
    /// Bits of the map's larger side, rounded up to a power of two.
    side_bits: u32,
}

impl Layout {
    /// `horizon` in `2..=MAX_HORIZON`, `cells <= MAX_CELLS`.
    fn new(cells: u32, width: u32, horizon: u32, claims_per_tick: usize) -> Self {
        debug_assert!((2..=MAX_HORIZON).contains(&horizon) && cells <= MAX_CELLS);
        // A real map is never wider than its cell count; the clamp keeps
        // the power-of-two rounding below from overflowing on any input.
        let width = width.clamp(1, cells.max(1));
        let height = cells.div_ceil(width).max(1);
        let ring = horizon.next_power_of_two();
        // Load at most one half. Denser layers measured faster than sparser
        // ones (fewer cache misses) on the 10,000-unit stress run: 2× the
        // claims beat 4× by 13% per tick. (Never more slots than a layer
        // can address: a cell's claim is one slot.)
        let hashed = (claims_per_tick.clamp(16, 1 << 30) * 2).next_power_of_two();
        // A small map gets one slot per Morton code: every lookup is a single
        // load, never a probe run (Silver's 32×32 set-up: 1,024 slots a layer).
        let side_bits = width.max(height).next_power_of_two().trailing_zeros();
        let direct = 1usize << (2 * side_bits);
        let capacity = if direct <= hashed.max(DIRECT_SLOTS) {
            direct.max(hashed)
        } else {
            hashed
        };
        Layout {
            cells,
            ring,
            capacity,
            side_bits,
        }
    }

    /// Bytes of the layers, holds, requests and home slots (saturating).
    fn bytes(self) -> u64 {
        let cells = self.cells as u64;
        let padded = std::mem::size_of::<CachePadded<Layer>>() as u64;
        let layer = (self.capacity as u64 + cells.div_ceil(64))
            .saturating_mul(8)
            .saturating_add(padded);
        (self.ring as u64)
            .saturating_mul(layer)
            .saturating_add(cells.saturating_mul(8 + 8 + 4))
    }
}

impl ReservationTable {
    /// A table for a map of `cells` cells, reserving up to `horizon` ticks ahead
    /// (ticks `now .. now + horizon`), sized for about `claims_per_tick` claims
    /// in any one tick. `horizon` is clamped to `2..=`[`MAX_HORIZON`].
    ///
    /// # Panics
    /// If the map has more than [`MAX_CELLS`] cells.
    pub fn new(cells: usize, horizon: u32, claims_per_tick: usize) -> Self {
        let cells = u32::try_from(cells).unwrap_or(u32::MAX);
        Self::for_map(cells, 1.max(cells), horizon, claims_per_tick)
    }

    /// Like [`ReservationTable::new`] for a `width`-wide map of `cells` cells:
    /// slots are placed by the cells' Morton (Z-order) codes, so the lookups
    /// of one search, all around one spot, land in a few cache lines (a
    /// random hash made four in five of the searches' time cache misses on
    /// a 512×512 map). On a map no larger than a layer, no two cells share a
    /// home slot.
    ///
    /// `horizon` is clamped to `2..=`[`MAX_HORIZON`]: a table always covers
    /// the current tick and the next, and never allocates more layers than
    /// the largest horizon (see [`ReservationTable::memory_for`] for what a
    /// horizon costs).
    ///
    /// # Panics
    /// If the map has more than [`MAX_CELLS`] cells.
    pub fn for_map(cells: u32, width: u32, horizon: u32, claims_per_tick: usize) -> Self {
        assert!(
            cells <= MAX_CELLS,
            "map too large for the reservation table"
        );
        let horizon = horizon.clamp(2, MAX_HORIZON);
        let layout = Layout::new(cells, width, horizon, claims_per_tick);
        let Layout {
            ring,
            capacity,
            side_bits,
            ..
        } = layout;
        let cells = cells as usize;
        let width = width.max(1);
        let layers = (0..ring)
            .map(|_| {
                CachePadded::new(Layer {
                    slots: (0..capacity).map(|_| AtomicU64::new(0)).collect(),
                    claimed: (0..cells.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
                })
            })
            .collect();
        let mut table = ReservationTable {
            layers,
            mask: capacity - 1,
            width,
            morton_shift: (2 * side_bits).saturating_sub(capacity.trailing_zeros()),
            direct: 2 * side_bits <= capacity.trailing_zeros(),
            // A direct-mapped table serves a map of a few thousand cells,
            // all of whose tables stay in cache.
            prefetch: 2 * side_bits > capacity.trailing_zeros()
                && ring as usize * capacity * 8 > PREFETCH_ABOVE_BYTES,
            prefetch_cells: cells * 8 > PREFETCH_ABOVE_BYTES,
            horizon,
            ring,
            ring_shift: ring.trailing_zeros(),
            now: 0,
            holds: (0..cells).map(|_| AtomicU64::new(0)).collect(),
            requests: (0..cells).map(|_| AtomicU64::new(0)).collect(),
            latest: AtomicU64::new(0),
            homes: Vec::new(),
        };
        table.homes = (0..cells as u32)
            .map(|c| table.compute_home(Cell(c)) as u32)
            .collect();
        table.touch_pages();
        table
    }

    /// Writes a word of every page of the per-cell words and claim bits.
    /// Allocated zeroed, they are mapped lazily: each first read of a page
    /// is a page fault, and 10,000 units' first searches on a large map
    /// read thousands of pages (on two threads, faults wait for each
    /// other in the kernel). Taken here, at set-up, instead.
    fn touch_pages(&self) {
        const WORDS_PER_PAGE: usize = 4096 / 8;
        let words = self
            .holds
            .iter()
            .chain(&self.requests)
            .step_by(WORDS_PER_PAGE)
            .chain(
                self.layers
                    .iter()
                    .flat_map(|l| l.claimed.iter().step_by(WORDS_PER_PAGE)),
            );
        for w in words {
            w.store(0, Ordering::Relaxed);
        }
    }

    /// The current tick.
    #[inline]
    pub fn now(&self) -> u32 {
        self.now
    }

    /// How many ticks ahead claims may go (exclusive).
    #[inline]
    pub fn horizon(&self) -> u32 {
        self.horizon
    }

    /// Last tick a claim may name.
    #[inline]
    pub fn last_tick(&self) -> u32 {
        self.now + self.horizon - 1
    }

    /// Slots per layer.
    pub fn layer_capacity(&self) -> usize {
        self.mask + 1
    }

    /// Bytes of memory the table holds.
    pub fn memory_bytes(&self) -> usize {
        8 * (self.layers.len() * (self.mask + 1 + self.holds.len().div_ceil(64))
            + self.holds.len()
            + self.requests.len())
            + 4 * self.homes.len()
    }

    /// Bytes a table built by [`ReservationTable::for_map`] with these
    /// arguments would hold, computed without building it (saturating, so
    /// any arguments give an answer): what a caller checks against its
    /// memory budget before asking for a long horizon on a large map.
    pub fn memory_for(cells: u32, width: u32, horizon: u32, claims_per_tick: usize) -> u64 {
        let layout = Layout::new(
            cells.min(MAX_CELLS),
            width,
            horizon.clamp(2, MAX_HORIZON),
            claims_per_tick,
        );
        layout.bytes()
    }

    /// Moves to the next tick: the layer of the tick that passed is recycled.
    pub fn advance(&mut self) {
        let old = self.now;
        self.now += 1;
        let recycled = old + self.ring;
        for w in self.layers[(old & (self.ring - 1)) as usize].claimed.iter() {
            w.store(0, Ordering::Relaxed);
        }
        if self.tag(recycled) == 0 {
            // Tags repeat every 256 generations: wipe before they could alias.
            for s in self.layers[(old & (self.ring - 1)) as usize].slots.iter() {
                s.store(0, Ordering::Relaxed);
            }
        }
    }

    #[inline]
    fn tag(&self, tick: u32) -> u8 {
        (tick >> self.ring_shift) as u8
    }

    /// Whether the map is large: its per-cell words (a hold a cell) outgrow
    /// the cache, and every read of them is likely a miss.
    #[inline]
    pub fn large_map(&self) -> bool {
        self.prefetch_cells
    }

    /// Whether [`Self::prefetch`] or [`Self::prefetch_cell`] does anything:
    /// only for layers or maps too big to stay in cache (a search skips
    /// gathering what to prefetch otherwise).
    #[inline]
    pub fn wants_prefetch(&self) -> bool {
        self.prefetch || self.prefetch_cells
    }

    /// Hints the CPU to fetch the slot where `cell`'s claim at `tick` would
    /// start; a search calls it for all successors before checking them.
    #[inline]
    pub fn prefetch(&self, cell: Cell, tick: u32) {
        if !self.prefetch || !self.in_ring(tick) {
            return;
        }
        crate::map::prefetch(
            &self.layers[(tick & (self.ring - 1)) as usize].slots[self.home(cell)],
        );
    }

    /// Hints the CPU to fetch what [`StepView::move_is_free`] reads of
    /// `cell` first: its hold and its claim bit at `tick`.
    #[inline]
    pub fn prefetch_cell(&self, cell: Cell, tick: u32) {
        if !self.prefetch_cells {
            return;
        }
        crate::map::prefetch(&self.holds[cell.index()]);
        if self.in_ring(tick) {
            crate::map::prefetch(
                &self.layers[(tick & (self.ring - 1)) as usize].claimed[cell.index() >> 6],
            );
        }
    }

    /// A cell's home slot, precomputed (see [`Self::compute_home`]).
    #[inline]
    fn home(&self, cell: Cell) -> usize {
        self.homes[cell.index()] as usize
    }

    fn compute_home(&self, cell: Cell) -> usize {
        let y = cell.0 / self.width;
        let x = cell.0 - y * self.width;
        let z = spread_bits(x) | (spread_bits(y) << 1);
        if self.morton_shift == 0 {
            // The map fits a layer: every cell has a slot of its own.
            return z as usize & self.mask;
        }
        // Blocks of 8 Morton-neighbouring cells (a 4×2 patch) share a cache
        // line of slots; the blocks themselves are scattered by a
        // multiplicative hash, so a crowded area does not grow one long
        // probe run (a purely spatial placement did, on den520d).
        let block = (z >> 3).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        ((block << 3) | (z & 7)) as usize & self.mask
    }

    #[inline]
    fn in_ring(&self, tick: u32) -> bool {
        tick >= self.now && tick - self.now < self.horizon
    }

    /// Finds the slot of `cell` in tick `tick`'s layer: `Ok(index, word)` if the
    /// cell has a current slot, `Err(index, word)` with the first free or stale
    /// slot otherwise (`None` if the layer is full). Compares raw words.
    #[inline]
    fn probe(&self, cell: Cell, tick: u32) -> Result<(usize, u64), Option<(usize, u64)>> {
        let slots = &self.layers[(tick & (self.ring - 1)) as usize].slots;
        let tag = self.tag(tick) as u64;
        let want = ((cell.0 as u64 + 1) << 8) | tag;
        let mut i = self.home(cell);
        for _ in 0..=self.mask {
            // Acquire pairs with the Release half of the claiming CAS, so a
            // reader that sees a claim also sees everything before it.
            let word = slots[i].load(Ordering::Acquire);
            let head = word >> 28; // cell + 1 and tag
            if head == want {
                return Ok((i, word));
            }
            if head >> 8 == 0 || head & 0xFF != tag {
                return Err(Some((i, word)));
            }
            i = (i + 1) & self.mask;
        }
        Err(None)
    }

    /// The unit that reserved `cell` at `tick` in the layers (holds not included).
    #[inline]
    pub fn layer_owner(&self, cell: Cell, tick: u32) -> Option<Slot> {
        self.layer_owner_at(cell, self.home(cell), tick)
    }

    /// [`Self::layer_owner`] with the cell's home slot already computed, so
    /// the checks of one move share it.
    #[inline(always)]
    fn layer_owner_at(&self, cell: Cell, home: usize, tick: u32) -> Option<Slot> {
        if !self.in_ring(tick) {
            return None;
        }
        let layer = &self.layers[(tick & (self.ring - 1)) as usize];
        // A clear claim bit: no claim (the bit goes up before the claim).
        // A bit of a dense bitmap instead of a slot of the hashed layer:
        // more than half the lookups of the stress run's searches (the
        // swap and crossing checks read cells whose bits are clear) end
        // here.
        if !bit_set(Some(&layer.claimed), cell) {
            return None;
        }
        // The hot path of every search: compare raw words, decode only a hit.
        let slots = &layer.slots;
        let tag = self.tag(tick) as u64;
        let want = ((cell.0 as u64 + 1) << 8) | tag;
        if self.direct {
            // The cell's own slot: its current claim or nothing.
            let word = slots[home].load(Ordering::Acquire);
            let owner = word & 0xFF_FFFF;
            return (word >> 28 == want && owner != 0).then(|| Slot(owner as u32 - 1));
        }
        let mut i = home;
        for _ in 0..=self.mask {
            let word = slots[i].load(Ordering::Acquire);
            let head = word >> 28; // cell + 1 and tag
            if head == want {
                let owner = word & 0xFF_FFFF;
                return (owner != 0).then(|| Slot(owner as u32 - 1));
            }
            if head >> 8 == 0 || head & 0xFF != tag {
                return None;
            }
            i = (i + 1) & self.mask;
        }
        None
    }

    #[inline]
    fn occupant_at(&self, cell: Cell, home: usize, tick: u32) -> Option<Slot> {
        if let Some(a) = self.layer_owner_at(cell, home, tick) {
            return Some(a);
        }
        self.holder_at(cell, tick)
    }

    /// Who holds `cell` at `tick`: a hold that has begun by then.
    #[inline]
    fn holder_at(&self, cell: Cell, tick: u32) -> Option<Slot> {
        self.hold(cell)
            .filter(|&(_, from)| from <= tick)
            .map(|(a, _)| a)
    }

    /// Reserves `cell` at `tick` for unit `a` at `priority` (0..16). Claiming a
    /// cell one already owns succeeds.
    pub fn claim(&self, cell: Cell, tick: u32, a: Slot, priority: u8) -> Result<(), ClaimError> {
        debug_assert!(a.0 < MAX_OWNER);
        if !self.in_ring(tick) {
            return Err(ClaimError::OutOfHorizon);
        }
        let slots = &self.layers[(tick & (self.ring - 1)) as usize].slots;
        let mine = Entry {
            cell,
            tag: self.tag(tick),
            priority: priority.min(15),
            owner: Some(a),
        }
        .pack();
        let owner_bits = a.0 as u64 + 1;
        // The bit goes up before the claim, so a reader that sees no bit
        // sees no claim either.
        let bits = &self.layers[(tick & (self.ring - 1)) as usize].claimed[cell.index() >> 6];
        let bit = 1u64 << (cell.0 & 63);
        if bits.load(Ordering::Relaxed) & bit == 0 {
            bits.fetch_or(bit, Ordering::AcqRel);
        }
        loop {
            let (i, expected) = match self.probe(cell, tick) {
                Ok((i, word)) => match word & 0xFF_FFFF {
                    o if o == owner_bits => return Ok(()),
                    0 => (i, word),
                    o => return Err(ClaimError::Taken(Slot(o as u32 - 1))),
                },
                Err(Some((i, word))) => (i, word),
                Err(None) => return Err(ClaimError::Full),
            };
            // AcqRel: Release publishes the claim; Acquire on failure lets the
            // retry see the winner's slot. A lost race re-probes and finds it.
            if slots[i]
                .compare_exchange(expected, mine, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                // Most claims are not the latest: skip the locked update then.
                if self.latest.load(Ordering::Relaxed) < tick as u64 {
                    self.latest.fetch_max(tick as u64, Ordering::AcqRel);
                }
                return Ok(());
            }
        }
    }

    /// Drops unit `a`'s claim on `cell` at `tick`, if it has one.
    pub fn release(&self, cell: Cell, tick: u32, a: Slot) {
        if !self.in_ring(tick) {
            return;
        }
        let slots = &self.layers[(tick & (self.ring - 1)) as usize].slots;
        if let Ok((i, word)) = self.probe(cell, tick) {
            if word & 0xFF_FFFF == a.0 as u64 + 1 {
                // Only the owner releases its own claim, so a failed CAS means a
                // concurrent release of the same claim: nothing left to do. The
                // slot keeps its cell, so probe runs through it stay intact.
                let _ = slots[i].compare_exchange(
                    word,
                    word & !0xFF_FFFF,
                    Ordering::AcqRel,
                    Ordering::Relaxed,
                );
            }
        }
    }

    /// The hold on `cell`: who, and from which tick.
    #[inline]
    pub fn hold(&self, cell: Cell) -> Option<(Slot, u32)> {
        unpack_hold(self.holds[cell.index()].load(Ordering::Acquire))
    }

    /// Unit `a` holds `cell` from tick `from` on. Fails with the holder if
    /// another unit holds it.
    pub fn set_hold(&self, cell: Cell, from: u32, a: Slot) -> Result<(), Slot> {
        let slot = &self.holds[cell.index()];
        let mut cur = slot.load(Ordering::Acquire);
        loop {
            if let Some((b, _)) = unpack_hold(cur) {
                if b != a {
                    return Err(b);
                }
            }
            match slot.compare_exchange(
                cur,
                pack_hold(from, a),
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Ok(()),
                Err(now) => cur = now,
            }
        }
    }

    /// Drops unit `a`'s hold on `cell`, if it has it.
    pub fn release_hold(&self, cell: Cell, a: Slot) {
        let slot = &self.holds[cell.index()];
        let cur = slot.load(Ordering::Acquire);
        if matches!(unpack_hold(cur), Some((b, _)) if b == a) {
            let _ = slot.compare_exchange(cur, 0, Ordering::AcqRel, Ordering::Relaxed);
        }
    }

    /// Who stands on `cell` at `tick`: a layer claim, or a hold that has begun.
    #[inline]
    pub fn occupant(&self, cell: Cell, tick: u32) -> Option<Slot> {
        self.occupant_at(cell, self.home(cell), tick)
    }

    /// Whether `cell` is free for unit `a` at `tick` (free or its own).
    /// Most cells carry no claim: their layer's claim bit answers (with the
    /// cell's hold), and only a set bit reads the slots.
    #[inline]
    pub fn is_free(&self, cell: Cell, tick: u32, a: Slot) -> bool {
        if self.in_ring(tick)
            && !bit_set(
                Some(&self.layers[(tick & (self.ring - 1)) as usize].claimed),
                cell,
            )
        {
            return self.holder_at(cell, tick).is_none_or(|b| b == a);
        }
        self.occupant(cell, tick).is_none_or(|b| b == a)
    }

    /// The claim bits of the `len` cells `first, first + 1, ..` (at most 64,
    /// all on the map) in tick `tick`'s layer, bit `i` for cell `first + i`:
    /// a clear bit means no claim on that cell then (a set one may be
    /// stale; [`Self::layer_owner`] settles it). 0 outside the ring. One or
    /// two loads for a row of a body's surroundings, where
    /// [`Self::is_free`] tests a bit per cell.
    #[inline]
    pub fn claim_bits(&self, first: Cell, len: u32, tick: u32) -> u64 {
        debug_assert!((1..=64).contains(&len) && first.index() + len as usize <= self.holds.len());
        if !self.in_ring(tick) {
            return 0;
        }
        let bits = &self.layers[(tick & (self.ring - 1)) as usize].claimed;
        let (word, shift) = (first.index() >> 6, first.0 & 63);
        let mut v = bits[word].load(Ordering::Acquire) >> shift;
        if shift + len > 64 {
            // `shift > 0` here, as `len <= 64`.
            v |= bits[word + 1].load(Ordering::Acquire) << (64 - shift);
        }
        if len < 64 {
            v &= (1 << len) - 1;
        }
        v
    }

    /// Whether unit `a` may move from `from` (at `tick`) to `to` (at `tick + 1`):
    /// `to` free, no swap with another unit, no diagonal crossing.
    #[inline]
    pub fn move_is_free(&self, grid: &Grid, a: Slot, from: Cell, to: Cell, tick: u32) -> bool {
        self.step(tick).move_is_free(grid, a, from, to)
    }

    /// The view of one step, `tick` to `tick + 1`, that a search checks all
    /// of one node's moves against: the two layers' claim bits are looked up
    /// once, so most checks are a few bit tests.
    #[inline]
    pub fn step(&self, tick: u32) -> StepView<'_> {
        let bits = |t: u32| {
            self.in_ring(t)
                .then(|| &*self.layers[(t & (self.ring - 1)) as usize].claimed)
        };
        let next = tick + 1;
        StepView {
            table: self,
            tick,
            now: bits(tick),
            next: bits(next),
            next_direct: (self.direct && self.in_ring(next)).then(|| {
                (
                    &*self.layers[(next & (self.ring - 1)) as usize].slots,
                    self.tag(next) as u64,
                )
            }),
        }
    }

    /// [`Self::move_is_free`] read from the slots and holds.
    #[inline(never)]
    pub fn move_is_free_exact(
        &self,
        grid: &Grid,
        a: Slot,
        from: Cell,
        to: Cell,
        tick: u32,
    ) -> bool {
        let to_home = self.home(to);
        // Read `to`'s hold once for both ticks.
        let hold = self.hold(to);
        let held_at = |t: u32| hold.and_then(|(b, from)| (from <= t).then_some(b));
        if self
            .layer_owner_at(to, to_home, tick + 1)
            .or_else(|| held_at(tick + 1))
            .is_some_and(|b| b != a)
        {
            return false;
        }
        if from == to {
            return true;
        }
        // Swap: whoever is on `to` now would be on `from` next.
        if let Some(b) = self
            .layer_owner_at(to, to_home, tick)
            .or_else(|| held_at(tick))
        {
            if b != a && self.occupant(from, tick + 1) == Some(b) {
                return false;
            }
        }
        let step = from.0.abs_diff(to.0);
        if step != 1 && step != grid.width() {
            let (fx, fy) = grid.xy(from);
            let (tx, ty) = grid.xy(to);
            // Diagonal: a unit moving between the other two cells of the square crosses us.
            let c1 = grid.cell(tx, fy);
            let c2 = grid.cell(fx, ty);
            for (p, q) in [(c1, c2), (c2, c1)] {
                if let Some(b) = self.occupant(p, tick) {
                    if b != a && self.occupant(q, tick + 1) == Some(b) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Calls `blocker` with every unit (other than `a`) that makes the move
    /// of `a` from `from` (at `tick`) to `to` (at `tick + 1`) illegal: the
    /// unit on `to` next, a unit swapping with it, a unit crossing its
    /// diagonal. A unit may be named more than once.
    pub fn move_blockers(
        &self,
        grid: &Grid,
        a: Slot,
        from: Cell,
        to: Cell,
        tick: u32,
        blocker: &mut dyn FnMut(Slot),
    ) {
        let mut report = |b: Option<Slot>| {
            if let Some(b) = b.filter(|&b| b != a) {
                blocker(b);
            }
        };
        report(self.occupant(to, tick + 1));
        if from == to {
            return;
        }
        if let Some(b) = self.occupant(to, tick) {
            if self.occupant(from, tick + 1) == Some(b) {
                report(Some(b));
            }
        }
        let step = from.0.abs_diff(to.0);
        if step != 1 && step != grid.width() {
            let ((fx, fy), (tx, ty)) = (grid.xy(from), grid.xy(to));
            let (c1, c2) = (grid.cell(tx, fy), grid.cell(fx, ty));
            for (p, q) in [(c1, c2), (c2, c1)] {
                if let Some(b) = self.occupant(p, tick) {
                    if self.occupant(q, tick + 1) == Some(b) {
                        report(Some(b));
                    }
                }
            }
        }
    }

    /// Calls `blocker` with every unit (other than `a`) that keeps `a` from
    /// staying on `cell` for good from `tick` on: its holder, and whoever
    /// claims it later.
    pub fn stay_blockers(&self, cell: Cell, tick: u32, a: Slot, blocker: &mut dyn FnMut(Slot)) {
        if let Some((b, _)) = self.hold(cell).filter(|&(b, _)| b != a) {
            blocker(b);
        }
        let last = self
            .last_tick()
            .min(self.latest.load(Ordering::Acquire) as u32);
        for t in tick.max(self.now)..=last {
            if let Some(b) = self.layer_owner(cell, t).filter(|&b| b != a) {
                blocker(b);
            }
        }
    }

    /// Whether unit `a` could stay on `cell` forever from `tick` on: no other
    /// unit's claim in any later layer and no other unit's hold.
    pub fn free_from(&self, cell: Cell, tick: u32, a: Slot) -> bool {
        if matches!(self.hold(cell), Some((b, _)) if b != a) {
            return false;
        }
        let last = self
            .last_tick()
            .min(self.latest.load(Ordering::Acquire) as u32);
        (tick.max(self.now)..=last).all(|t| self.layer_owner(cell, t).is_none_or(|b| b == a))
    }

    /// Unit `a` asks the holder of `cell` to make way (`tick`: when asked).
    pub fn request(&self, cell: Cell, a: Slot, tick: u32) {
        self.requests[cell.index()].store(pack_hold(tick, a), Ordering::Relaxed);
    }

    /// The latest request on `cell`: who asked and when.
    #[inline]
    pub fn request_on(&self, cell: Cell) -> Option<(Slot, u32)> {
        unpack_hold(self.requests[cell.index()].load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_conflict_release_and_expiry() {
        let mut t = ReservationTable::new(100, 4, 8);
        let (a, b) = (Slot(0), Slot(1));
        assert_eq!(t.claim(Cell(5), 2, a, 0), Ok(()));
        assert_eq!(t.claim(Cell(5), 2, a, 0), Ok(()));
        assert_eq!(t.claim(Cell(5), 2, b, 0), Err(ClaimError::Taken(a)));
        t.release(Cell(5), 2, a);
        assert_eq!(t.claim(Cell(5), 2, b, 0), Ok(()));
        assert_eq!(t.claim(Cell(5), 9, b, 0), Err(ClaimError::OutOfHorizon));
        for _ in 0..3 {
            t.advance();
        }
        // Tick 2 has passed; its layer now serves tick 6 and is empty.
        assert_eq!(t.layer_owner(Cell(5), 6), None);
        assert_eq!(t.claim(Cell(5), 6, a, 0), Ok(()));
    }

    /// The promoted searches' blockers follow the same rules as the
    /// ordinary checks: a move (or a stay for good) has no blocker exactly
    /// when it is free. Units walk random plans, as the planners reserve
    /// them (claims, then a hold on the last cell from its tick), some
    /// claims are released again, on 8-connected maps with both table
    /// layouts (direct on 8×8, hashed on 40×40).
    #[test]
    fn blockers_agree_with_the_checks() {
        use crate::map::{generate_map, Connectivity};
        let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: u32| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as u32
        };
        for (spec, units) in [("8x8:0.1", 10u32), ("40x40:0.1", 120)] {
            let g = generate_map(spec.parse().unwrap(), Connectivity::Eight, 3);
            let t = ReservationTable::for_map(g.cell_count() as u32, g.width(), 10, 256);
            let free: Vec<Cell> = (0..g.cell_count() as u32)
                .map(Cell)
                .filter(|&c| g.is_passable(c))
                .collect();
            let mut buf = [Cell(0); 8];
            for u in 0..units {
                let a = Slot(u);
                let mut cell = free[next(free.len() as u32) as usize];
                let mut last = None;
                for tick in 0..=next(9) {
                    if t.claim(cell, tick, a, 0).is_err() {
                        break;
                    }
                    last = Some((cell, tick));
                    let n = g.neighbors(cell, &mut buf);
                    if n > 0 && next(3) > 0 {
                        cell = buf[next(n as u32) as usize];
                    }
                }
                if let Some((c, tick)) = last {
                    if next(4) == 0 && tick > 0 {
                        // A replan that dropped its last tick: a stale bit.
                        t.release(c, tick, a);
                    } else {
                        let _ = t.set_hold(c, tick, a);
                    }
                }
            }
            for _ in 0..5_000 {
                let from = free[next(free.len() as u32) as usize];
                let (tick, a) = (next(9), Slot(next(units)));
                let n = g.neighbors(from, &mut buf);
                let to = if n == 0 || next(4) == 0 {
                    from
                } else {
                    buf[next(n as u32) as usize]
                };
                let mut blocked = false;
                t.move_blockers(&g, a, from, to, tick, &mut |_| blocked = true);
                assert_eq!(
                    t.move_is_free(&g, a, from, to, tick),
                    !blocked,
                    "{from:?}->{to:?} at {tick}"
                );
                let mut stay_blocked = false;
                t.stay_blockers(to, tick, a, &mut |_| stay_blocked = true);
                assert_eq!(
                    t.free_from(to, tick, a),
                    !stay_blocked,
                    "stay on {to:?} from {tick}"
                );
            }
        }
    }

    #[test]
    fn holds_and_swaps() {
        let g = Grid::new(3, 1, vec![true; 3], crate::map::Connectivity::Four);
        let t = ReservationTable::new(3, 8, 8);
        let (a, b) = (Slot(0), Slot(1));
        t.claim(Cell(0), 0, a, 0).unwrap();
        t.claim(Cell(1), 1, a, 0).unwrap();
        t.claim(Cell(1), 0, b, 0).unwrap();
        assert!(!t.move_is_free(&g, b, Cell(1), Cell(0), 0), "swap");
        t.set_hold(Cell(2), 3, b).unwrap();
        assert!(t.is_free(Cell(2), 2, a));
        assert!(!t.is_free(Cell(2), 3, a));
        assert!(!t.free_from(Cell(1), 1, b));
        assert_eq!(t.set_hold(Cell(2), 0, a), Err(b));
    }

    #[test]
    fn free_from_sees_the_latest_claim() {
        let t = ReservationTable::new(10, 8, 4);
        let (a, b) = (Slot(0), Slot(1));
        assert!(t.free_from(Cell(2), 0, b));
        t.claim(Cell(2), 7, a, 0).unwrap();
        assert!(!t.free_from(Cell(2), 0, b));
        assert!(t.free_from(Cell(2), 0, a));
        assert!(t.free_from(Cell(3), 0, b));
    }

    #[test]
    fn any_horizon_is_clamped_not_a_panic() {
        assert_eq!(ReservationTable::new(10, 0, 4).horizon(), 2);
        assert_eq!(ReservationTable::new(10, 1, 4).horizon(), 2);
        // The largest horizon is priced, not built: 2^24 layers.
        let most = ReservationTable::memory_for(100, 10, MAX_HORIZON, 8);
        assert_eq!(ReservationTable::memory_for(100, 10, u32::MAX, 8), most);
        assert!(most > (MAX_HORIZON as u64) * 256, "{most}");
        // Absurd arguments saturate instead of wrapping.
        let huge = ReservationTable::memory_for(u32::MAX, u32::MAX, u32::MAX, usize::MAX);
        assert!(huge >= most);
    }

    #[test]
    fn the_estimate_covers_what_a_table_holds() {
        // The largest case only outside Miri, where building it is slow.
        let cases: &[(u32, u32, u32, usize)] = if cfg!(miri) {
            &[(100, 10, 4, 8), (4096, 64, 18, 200)]
        } else {
            &[
                (100, 10, 4, 8),
                (4096, 64, 18, 200),
                (90_000, 300, 33, 4000),
            ]
        };
        for &(cells, width, horizon, claims) in cases {
            let t = ReservationTable::for_map(cells, width, horizon, claims);
            let estimate = ReservationTable::memory_for(cells, width, horizon, claims);
            let held = t.memory_bytes() as u64;
            assert!(estimate >= held, "{estimate} < {held}");
            assert!(estimate <= held + held / 4 + 4096, "{estimate} vs {held}");
        }
    }

    /// Threads claim and release the same few cells at the same ticks:
    /// whenever a claim succeeds, its thread is the cell's only owner at
    /// that tick until it releases it. A counter per (cell, tick) checks
    /// it, and the table must name the claimant as owner meanwhile. The
    /// cells share home slots on a hashed layer (a 1-row map too wide for
    /// direct slots), so claims race on probe runs, not only on one slot.
    /// Small enough for Miri (`.ci/miri`).
    #[test]
    fn concurrent_claims_have_one_claimant() {
        use std::sync::atomic::AtomicU32;
        #[cfg(miri)]
        const ROUNDS: u32 = 2;
        #[cfg(not(miri))]
        const ROUNDS: u32 = 20;
        #[cfg(miri)]
        const STEPS: u32 = 100;
        #[cfg(not(miri))]
        const STEPS: u32 = 5_000;
        const THREADS: u32 = 3;
        const HORIZON: u32 = 4;
        let cells = [Cell(0), Cell(1), Cell(32), Cell(33), Cell(64)];
        let mut t = ReservationTable::for_map(1024, 1024, HORIZON, 4);
        assert!(!t.direct, "the test wants probe runs");
        let holders: Vec<AtomicU32> = (0..cells.len() * HORIZON as usize)
            .map(|_| AtomicU32::new(0))
            .collect();
        let claimed = AtomicU32::new(0);
        for round in 0..ROUNDS {
            let now = t.now();
            std::thread::scope(|scope| {
                for thread in 0..THREADS {
                    let (t, holders, claimed) = (&t, &holders, &claimed);
                    scope.spawn(move || {
                        let a = Slot(thread);
                        let mut rng =
                            0x9E37_79B9_7F4A_7C15u64 ^ ((thread as u64 + 1) << 17) ^ round as u64;
                        let mut next = |n: usize| {
                            rng ^= rng << 13;
                            rng ^= rng >> 7;
                            rng ^= rng << 17;
                            (rng % n as u64) as usize
                        };
                        for _ in 0..STEPS {
                            let (c, dt) = (next(cells.len()), next(HORIZON as usize));
                            let (cell, tick) = (cells[c], now + dt as u32);
                            let count = &holders[c * HORIZON as usize + dt];
                            match t.claim(cell, tick, a, 0) {
                                Ok(()) => {
                                    claimed.fetch_add(1, Ordering::Relaxed);
                                    assert_eq!(
                                        count.fetch_add(1, Ordering::AcqRel),
                                        0,
                                        "two owners of {cell:?} at {tick}"
                                    );
                                    assert_eq!(t.layer_owner(cell, tick), Some(a));
                                    assert!(!t.is_free(cell, tick, Slot(THREADS)));
                                    count.fetch_sub(1, Ordering::AcqRel);
                                    t.release(cell, tick, a);
                                }
                                Err(ClaimError::Taken(b)) => assert_ne!(a, b),
                                Err(e) => panic!("claim of {cell:?} at {tick}: {e:?}"),
                            }
                        }
                    });
                }
            });
            // Every claim was released: the cells are free again.
            for &cell in &cells {
                for tick in now..now + HORIZON {
                    assert_eq!(t.layer_owner(cell, tick), None);
                }
            }
            t.advance();
        }
        assert!(claimed.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn many_generations_never_alias() {
        let mut t = ReservationTable::new(10, 2, 4);
        t.claim(Cell(3), 1, Slot(7), 0).unwrap();
        for _ in 0..2000 {
            t.advance();
            assert_eq!(t.layer_owner(Cell(3), t.now() + 1), None);
        }
    }
}
