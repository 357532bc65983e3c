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

use super::entry::{Entry, MAX_AGENTS, MAX_CELLS};
use super::sync::{AtomicU64, Ordering};
use crate::agents::AgentId;
use crate::map::{Cell, Grid};

/// Why a claim failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimError {
    /// Another unit holds the cell at that tick.
    Taken(AgentId),
    /// The tick lies outside the ring `[now, now + horizon)`.
    OutOfHorizon,
    /// The layer's hash table is full.
    Full,
}

struct Layer {
    slots: Box<[AtomicU64]>,
}

/// The shared space-time reservation table. See the module docs.
pub struct ReservationTable {
    layers: Vec<Layer>,
    mask: usize,
    shift: u32,
    horizon: u32,
    horizon_shift: u32,
    now: u32,
    holds: Vec<AtomicU64>,
    requests: Vec<AtomicU64>,
    /// The latest tick ever claimed (never lowered), so [`Self::free_from`]
    /// stops there instead of scanning the whole ring of a sparse table.
    latest: AtomicU64,
}

const NO_OWNER: u64 = 0;

#[inline]
fn pack_hold(from: u32, a: AgentId) -> u64 {
    ((from as u64) << 32) | (a.0 as u64 + 1)
}

#[inline]
fn unpack_hold(word: u64) -> Option<(AgentId, u32)> {
    let owner = word & 0xFFFF_FFFF;
    (owner != NO_OWNER).then(|| (AgentId(owner as u32 - 1), (word >> 32) as u32))
}

impl ReservationTable {
    /// A table for a map of `cells` cells, reserving up to `horizon` ticks ahead
    /// (ticks `now .. now + horizon`), sized for about `claims_per_tick` claims
    /// in any one tick.
    ///
    /// # Panics
    /// If the map or the unit count exceed what a slot can encode.
    pub fn new(cells: usize, horizon: u32, claims_per_tick: usize) -> Self {
        assert!(
            cells as u64 <= MAX_CELLS as u64,
            "map too large for the reservation table"
        );
        assert!(horizon >= 2, "horizon must cover at least two ticks");
        // A power of two, so a tick's layer and tag are a mask and a shift.
        let horizon = horizon.next_power_of_two();
        let capacity = (claims_per_tick.max(16) * 4).next_power_of_two();
        let layers = (0..horizon)
            .map(|_| Layer {
                slots: (0..capacity).map(|_| AtomicU64::new(0)).collect(),
            })
            .collect();
        ReservationTable {
            layers,
            mask: capacity - 1,
            shift: 64 - capacity.trailing_zeros(),
            horizon,
            horizon_shift: horizon.trailing_zeros(),
            now: 0,
            holds: (0..cells).map(|_| AtomicU64::new(0)).collect(),
            requests: (0..cells).map(|_| AtomicU64::new(0)).collect(),
            latest: AtomicU64::new(0),
        }
    }

    /// The current tick.
    #[inline]
    pub fn now(&self) -> u32 {
        self.now
    }

    /// How many ticks ahead claims may go (exclusive); the requested horizon
    /// rounded up to a power of two.
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
        8 * (self.layers.len() * (self.mask + 1) + self.holds.len() + self.requests.len())
    }

    /// Moves to the next tick: the layer of the tick that passed is recycled.
    pub fn advance(&mut self) {
        let old = self.now;
        self.now += 1;
        let recycled = old + self.horizon;
        if self.tag(recycled) == 0 {
            // Tags repeat every 256 generations: wipe before they could alias.
            for s in self.layers[(old & (self.horizon - 1)) as usize]
                .slots
                .iter()
            {
                s.store(0, Ordering::Relaxed);
            }
        }
    }

    #[inline]
    fn tag(&self, tick: u32) -> u8 {
        (tick >> self.horizon_shift) as u8
    }

    #[inline]
    fn home(&self, cell: Cell) -> usize {
        ((cell.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize & self.mask
    }

    #[inline]
    fn in_ring(&self, tick: u32) -> bool {
        tick >= self.now && tick - self.now < self.horizon
    }

    /// Finds the slot of `cell` in tick `tick`'s layer: `Ok(index, word)` if the
    /// cell has a current slot, `Err(index, word)` with the first free or stale
    /// slot otherwise (`None` if the layer is full).
    #[inline]
    fn probe(&self, cell: Cell, tick: u32) -> Result<(usize, Entry), Option<(usize, u64)>> {
        let slots = &self.layers[(tick & (self.horizon - 1)) as usize].slots;
        let tag = self.tag(tick);
        let mut i = self.home(cell);
        for _ in 0..=self.mask {
            // Acquire pairs with the Release half of the claiming CAS, so a
            // reader that sees a claim also sees everything before it.
            let word = slots[i].load(Ordering::Acquire);
            match Entry::unpack(word) {
                Some(e) if e.tag == tag => {
                    if e.cell == cell {
                        return Ok((i, e));
                    }
                }
                _ => return Err(Some((i, word))),
            }
            i = (i + 1) & self.mask;
        }
        Err(None)
    }

    /// The unit that reserved `cell` at `tick` in the layers (holds not included).
    #[inline]
    pub fn layer_owner(&self, cell: Cell, tick: u32) -> Option<AgentId> {
        if !self.in_ring(tick) {
            return None;
        }
        self.probe(cell, tick).ok().and_then(|(_, e)| e.owner)
    }

    /// Reserves `cell` at `tick` for unit `a` at `priority` (0..16). Claiming a
    /// cell one already owns succeeds.
    pub fn claim(&self, cell: Cell, tick: u32, a: AgentId, priority: u8) -> Result<(), ClaimError> {
        debug_assert!(a.0 < MAX_AGENTS);
        if !self.in_ring(tick) {
            return Err(ClaimError::OutOfHorizon);
        }
        let slots = &self.layers[(tick & (self.horizon - 1)) as usize].slots;
        let mine = Entry {
            cell,
            tag: self.tag(tick),
            priority: priority.min(15),
            owner: Some(a),
        }
        .pack();
        loop {
            let (i, expected) = match self.probe(cell, tick) {
                Ok((_, e)) if e.owner == Some(a) => return Ok(()),
                Ok((_, e)) if e.owner.is_some() => return Err(ClaimError::Taken(e.owner.unwrap())),
                Ok((i, e)) => (i, e.pack()),
                Err(Some((i, word))) => (i, word),
                Err(None) => return Err(ClaimError::Full),
            };
            // AcqRel: Release publishes the claim; Acquire on failure lets the
            // retry see the winner's slot. A lost race re-probes and finds it.
            if slots[i]
                .compare_exchange(expected, mine, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                self.latest.fetch_max(tick as u64, Ordering::AcqRel);
                return Ok(());
            }
        }
    }

    /// Drops unit `a`'s claim on `cell` at `tick`, if it has one.
    pub fn release(&self, cell: Cell, tick: u32, a: AgentId) {
        if !self.in_ring(tick) {
            return;
        }
        let slots = &self.layers[(tick & (self.horizon - 1)) as usize].slots;
        if let Ok((i, e)) = self.probe(cell, tick) {
            if e.owner == Some(a) {
                let released = Entry { owner: None, ..e }.pack();
                // Only the owner releases its own claim, so a failed CAS means a
                // concurrent release of the same claim: nothing left to do.
                let _ = slots[i].compare_exchange(
                    e.pack(),
                    released,
                    Ordering::AcqRel,
                    Ordering::Relaxed,
                );
            }
        }
    }

    /// The hold on `cell`: who, and from which tick.
    #[inline]
    pub fn hold(&self, cell: Cell) -> Option<(AgentId, u32)> {
        unpack_hold(self.holds[cell.index()].load(Ordering::Acquire))
    }

    /// Unit `a` holds `cell` from tick `from` on. Fails with the holder if
    /// another unit holds it.
    pub fn set_hold(&self, cell: Cell, from: u32, a: AgentId) -> Result<(), AgentId> {
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
    pub fn release_hold(&self, cell: Cell, a: AgentId) {
        let slot = &self.holds[cell.index()];
        let cur = slot.load(Ordering::Acquire);
        if matches!(unpack_hold(cur), Some((b, _)) if b == a) {
            let _ = slot.compare_exchange(cur, 0, Ordering::AcqRel, Ordering::Relaxed);
        }
    }

    /// Who stands on `cell` at `tick`: a layer claim, or a hold that has begun.
    #[inline]
    pub fn occupant(&self, cell: Cell, tick: u32) -> Option<AgentId> {
        if let Some(a) = self.layer_owner(cell, tick) {
            return Some(a);
        }
        match self.hold(cell) {
            Some((a, from)) if from <= tick => Some(a),
            _ => None,
        }
    }

    /// Whether `cell` is free for unit `a` at `tick` (free or its own).
    #[inline]
    pub fn is_free(&self, cell: Cell, tick: u32, a: AgentId) -> bool {
        self.occupant(cell, tick).is_none_or(|b| b == a)
    }

    /// Whether unit `a` may move from `from` (at `tick`) to `to` (at `tick + 1`):
    /// `to` free, no swap with another unit, no diagonal crossing.
    #[inline]
    pub fn move_is_free(&self, grid: &Grid, a: AgentId, from: Cell, to: Cell, tick: u32) -> bool {
        if !self.is_free(to, tick + 1, a) {
            return false;
        }
        if from == to {
            return true;
        }
        // Swap: whoever is on `to` now would be on `from` next.
        if let Some(b) = self.occupant(to, tick) {
            if b != a && self.occupant(from, tick + 1) == Some(b) {
                return false;
            }
        }
        let (fx, fy) = grid.xy(from);
        let (tx, ty) = grid.xy(to);
        if fx != tx && fy != ty {
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

    /// Whether unit `a` could stay on `cell` forever from `tick` on: no other
    /// unit's claim in any later layer and no other unit's hold.
    pub fn free_from(&self, cell: Cell, tick: u32, a: AgentId) -> bool {
        if matches!(self.hold(cell), Some((b, _)) if b != a) {
            return false;
        }
        let last = self
            .last_tick()
            .min(self.latest.load(Ordering::Acquire) as u32);
        (tick.max(self.now)..=last).all(|t| self.layer_owner(cell, t).is_none_or(|b| b == a))
    }

    /// Unit `a` asks the holder of `cell` to make way (`tick`: when asked).
    pub fn request(&self, cell: Cell, a: AgentId, tick: u32) {
        self.requests[cell.index()].store(pack_hold(tick, a), Ordering::Relaxed);
    }

    /// The latest request on `cell`: who asked and when.
    #[inline]
    pub fn request_on(&self, cell: Cell) -> Option<(AgentId, u32)> {
        unpack_hold(self.requests[cell.index()].load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_conflict_release_and_expiry() {
        let mut t = ReservationTable::new(100, 4, 8);
        let (a, b) = (AgentId(0), AgentId(1));
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

    #[test]
    fn holds_and_swaps() {
        let g = Grid::new(3, 1, vec![true; 3], crate::map::Connectivity::Four);
        let t = ReservationTable::new(3, 8, 8);
        let (a, b) = (AgentId(0), AgentId(1));
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
        let (a, b) = (AgentId(0), AgentId(1));
        assert!(t.free_from(Cell(2), 0, b));
        t.claim(Cell(2), 7, a, 0).unwrap();
        assert!(!t.free_from(Cell(2), 0, b));
        assert!(t.free_from(Cell(2), 0, a));
        assert!(t.free_from(Cell(3), 0, b));
    }

    #[test]
    fn many_generations_never_alias() {
        let mut t = ReservationTable::new(10, 2, 4);
        t.claim(Cell(3), 1, AgentId(7), 0).unwrap();
        for _ in 0..2000 {
            t.advance();
            assert_eq!(t.layer_owner(Cell(3), t.now() + 1), None);
        }
    }
}
