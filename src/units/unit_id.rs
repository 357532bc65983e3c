//! Generational unit ids: the handle a game keeps for a unit. A despawned
//! unit's id never names the unit spawned later into its slot, so a stale
//! id is an error, never another unit (as rapier's body handles).

use super::Slot;

/// A unit's handle: its slot in the unit columns and the slot's generation
/// when it was spawned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnitId {
    slot: u32,
    generation: u32,
}

impl UnitId {
    /// The slot: the unit's index into every column while it lives.
    #[inline]
    pub fn slot(self) -> u32 {
        self.slot
    }

    /// How many units lived in the slot before this one.
    #[inline]
    pub fn generation(self) -> u32 {
        self.generation
    }

    /// The id as one word (generation high, slot low), e.g. across FFI.
    #[inline]
    pub fn to_bits(self) -> u64 {
        ((self.generation as u64) << 32) | self.slot as u64
    }

    /// The id [`UnitId::to_bits`] gave.
    #[inline]
    pub fn from_bits(bits: u64) -> UnitId {
        UnitId {
            slot: bits as u32,
            generation: (bits >> 32) as u32,
        }
    }

    /// The slot as the engine's internal index.
    #[inline]
    pub(crate) fn unit(self) -> Slot {
        Slot(self.slot)
    }
}

impl std::fmt::Display for UnitId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.slot, self.generation)
    }
}

/// Hands out slots and checks ids. A freed slot waits until the end of the
/// tick it was freed in before it is handed out again, so its old
/// reservations can never be mistaken for the new unit's.
#[derive(Clone, Debug, Default)]
pub struct UnitIds {
    generation: Vec<u32>,
    live: Vec<bool>,
    free: std::collections::VecDeque<u32>,
    limbo: Vec<u32>,
    live_count: usize,
}

impl UnitIds {
    /// Ids for `n` units in slots `0..n`, generation 0.
    pub fn with_units(n: usize) -> Self {
        UnitIds {
            generation: vec![0; n],
            live: vec![true; n],
            free: std::collections::VecDeque::new(),
            limbo: Vec::new(),
            live_count: n,
        }
    }

    /// A new id: a free slot (the oldest freed first), else a new one.
    pub fn allocate(&mut self) -> UnitId {
        let slot = if self.free.is_empty() {
            self.generation.push(0);
            self.live.push(false);
            self.generation.len() as u32 - 1
        } else {
            self.free.pop_front().expect("not empty")
        };
        self.live[slot as usize] = true;
        self.live_count += 1;
        UnitId {
            slot,
            generation: self.generation[slot as usize],
        }
    }

    /// Ends `id`'s life: it and every copy of it become stale.
    pub fn release(&mut self, id: UnitId) {
        let s = id.slot as usize;
        debug_assert!(self.is_live(id));
        self.live[s] = false;
        self.generation[s] = self.generation[s].wrapping_add(1);
        self.limbo.push(id.slot);
        self.live_count -= 1;
    }

    /// Slots released since the last call become free for new units.
    pub fn recycle(&mut self) {
        self.free.extend(self.limbo.drain(..));
    }

    /// Whether `id` names a living unit.
    #[inline]
    pub fn is_live(&self, id: UnitId) -> bool {
        let s = id.slot as usize;
        s < self.live.len() && self.live[s] && self.generation[s] == id.generation
    }

    /// The id of the unit living in `slot`, if any.
    #[inline]
    pub fn id_of(&self, slot: u32) -> Option<UnitId> {
        let s = slot as usize;
        (s < self.live.len() && self.live[s]).then(|| UnitId {
            slot,
            generation: self.generation[s],
        })
    }

    /// Living units.
    #[inline]
    pub fn live_count(&self) -> usize {
        self.live_count
    }

    /// Slots handed out so far (living or not).
    #[inline]
    pub fn slots(&self) -> usize {
        self.live.len()
    }

    /// Every living unit, by slot.
    pub fn iter(&self) -> impl Iterator<Item = UnitId> + '_ {
        (0..self.live.len() as u32).filter_map(|s| self.id_of(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stale_id_never_names_the_next_unit_in_its_slot() {
        let mut ids = UnitIds::with_units(2);
        let a = ids.id_of(0).unwrap();
        ids.release(a);
        assert!(!ids.is_live(a));
        let b = ids.allocate();
        assert_eq!(b.slot(), 2, "a slot freed this tick is not reused yet");
        ids.recycle();
        let c = ids.allocate();
        assert_eq!((c.slot(), c.generation()), (0, 1));
        assert!(!ids.is_live(a) && ids.is_live(c));
        assert_eq!(UnitId::from_bits(c.to_bits()), c);
        assert_eq!(ids.live_count(), 3);
    }
}
