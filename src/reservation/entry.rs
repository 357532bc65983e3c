//! Bit layout of one reservation-table slot, packed in a `u64` so a claim is a
//! single compare-and-swap.
//!
//! ```text
//! bits 63..36  cell + 1        (28 bits; 0 = empty slot)
//! bits 35..28  generation tag  (8 bits; the slot is stale unless it matches the layer's tick)
//! bits 27..24  priority        (4 bits)
//! bits 23..0   owner + 1       (24 bits; 0 = released, the slot keeps its cell)
//! ```
//!
//! A slot never changes its cell while its tag is current: releasing a claim
//! only clears the owner, so probe chains stay intact without tombstones.

use crate::map::{Cell, MAX_CELLS};
use crate::units::Slot;

/// Largest number of units a slot can name.
pub const MAX_OWNER: u32 = (1 << 24) - 1;

const OWNER_BITS: u32 = 24;
const PRIORITY_SHIFT: u32 = 24;
const TAG_SHIFT: u32 = 28;
const CELL_SHIFT: u32 = 36;

/// A decoded slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Reserved cell.
    pub cell: Cell,
    /// Generation tag of the tick it was written for.
    pub tag: u8,
    /// Priority of the owner's reservation.
    pub priority: u8,
    /// Owner, or `None` once released.
    pub owner: Option<Slot>,
}

impl Entry {
    /// Packs the entry.
    #[inline]
    pub fn pack(self) -> u64 {
        debug_assert!(self.cell.0 < MAX_CELLS);
        debug_assert!(self.priority < 16);
        let owner = self.owner.map_or(0, |a| a.0 as u64 + 1);
        debug_assert!(owner <= MAX_OWNER as u64);
        ((self.cell.0 as u64 + 1) << CELL_SHIFT)
            | ((self.tag as u64) << TAG_SHIFT)
            | ((self.priority as u64 & 0xF) << PRIORITY_SHIFT)
            | owner
    }

    /// Unpacks a non-empty slot; `None` for an empty one.
    #[inline]
    pub fn unpack(word: u64) -> Option<Entry> {
        let cell = word >> CELL_SHIFT;
        if cell == 0 {
            return None;
        }
        let owner = word & ((1 << OWNER_BITS) - 1);
        Some(Entry {
            cell: Cell(cell as u32 - 1),
            tag: (word >> TAG_SHIFT) as u8,
            priority: ((word >> PRIORITY_SHIFT) & 0xF) as u8,
            owner: (owner != 0).then(|| Slot(owner as u32 - 1)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let e = Entry {
            cell: Cell(MAX_CELLS - 1),
            tag: 255,
            priority: 15,
            owner: Some(Slot(MAX_OWNER - 1)),
        };
        assert_eq!(Entry::unpack(e.pack()), Some(e));
        let released = Entry { owner: None, ..e };
        assert_eq!(Entry::unpack(released.pack()), Some(released));
        assert_eq!(Entry::unpack(0), None);
    }
}
