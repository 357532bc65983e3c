//! Open list of a windowed space-time search: buckets by f, and inside each f
//! one slot per depth (deeper first: the terminal edge, then depth `w`, …,
//! then depth 0) and per exactness (a node whose h is already exact before
//! one priced on a lower bound), each slot a FIFO list. Pushing and popping
//! are a few instructions and predictable branches, where a binary heap's
//! pop sifts through a dozen levels on unpredictable compares (on Silver's
//! 32×32 set-up callgrind put up to a quarter of a window search's
//! instructions in the heap; the time saved was 2–3%).
//!
//! A window is at most [`MAX_WINDOW_DEPTH`] ticks deep, so one f level's
//! slots fit the bits of one `u128` mask, which finds the best slot with one
//! trailing-zeros count. f values are kept relative to the first push; the
//! levels grow as the search needs them and are reused by the next search.

/// Deepest window this queue orders (slots: terminal, then two per depth).
pub const MAX_WINDOW_DEPTH: u32 = 62;

/// End of a slot's list.
const NIL: u32 = u32::MAX;

/// One f level: a mask of non-empty slots, and each slot's list ends.
#[derive(Clone, Debug, Default)]
struct Level {
    mask: u128,
    head: Vec<u32>,
    tail: Vec<u32>,
}

/// See the module docs.
#[derive(Clone, Debug, Default)]
pub struct WindowQueue {
    levels: Vec<Level>,
    /// Entries: (node id, next entry in the same slot).
    entries: Vec<(u32, u32)>,
    /// The f of level 0.
    base: u32,
    /// No non-empty level lies below this one.
    lowest: usize,
    /// Levels used since the last reset (their masks need clearing).
    used: usize,
    /// Deepest depth of the current search.
    depth: u32,
    slots: usize,
    len: usize,
}

impl WindowQueue {
    /// Empties the queue for a search `depth` ticks deep whose root has f
    /// `base` (no entry may have a smaller f).
    ///
    /// # Panics
    /// If `depth` exceeds [`MAX_WINDOW_DEPTH`].
    pub fn reset(&mut self, depth: u32, base: u32) {
        assert!(depth <= MAX_WINDOW_DEPTH, "window of {depth} ticks");
        for l in &mut self.levels[..self.used] {
            l.mask = 0;
        }
        self.used = 0;
        self.entries.clear();
        self.base = base;
        self.lowest = 0;
        self.depth = depth;
        self.slots = 2 * depth as usize + 3;
        self.len = 0;
    }

    /// Room for `entries` entries and `levels` f levels, so searches of that
    /// size never allocate.
    pub fn reserve(&mut self, entries: usize, levels: usize, depth: u32) {
        self.entries
            .reserve(entries.saturating_sub(self.entries.len()));
        self.reset(depth, 0);
        self.grow(levels);
    }

    /// Queues node `id` at `f`, for a node at `depth` (`None`: the terminal
    /// edge, which comes first at its f) whose h is exact or a lower bound.
    #[inline]
    pub fn push(&mut self, f: u32, depth: Option<u32>, exact: bool, id: u32) {
        debug_assert!(f >= self.base, "f {f} below the root's {}", self.base);
        let level = f.saturating_sub(self.base) as usize;
        let slot = match depth {
            None => 0,
            Some(d) => {
                debug_assert!(d <= self.depth);
                1 + 2 * (self.depth - d) as usize + usize::from(!exact)
            }
        };
        if level >= self.used {
            self.grow(level + 1);
        }
        let e = self.entries.len() as u32;
        self.entries.push((id, NIL));
        let l = &mut self.levels[level];
        if l.mask & (1 << slot) == 0 {
            l.mask |= 1 << slot;
            l.head[slot] = e;
        } else {
            self.entries[l.tail[slot] as usize].1 = e;
        }
        l.tail[slot] = e;
        self.lowest = self.lowest.min(level);
        self.len += 1;
    }

    /// Makes levels `..levels` usable (cleared, with slots for this depth).
    #[cold]
    fn grow(&mut self, levels: usize) {
        while self.levels.len() < levels {
            self.levels.push(Level::default());
        }
        let slots = self.slots;
        for l in &mut self.levels[self.used..levels] {
            l.mask = 0;
            if l.head.len() < slots {
                l.head.resize(slots, NIL);
                l.tail.resize(slots, NIL);
            }
        }
        self.used = levels;
    }

    /// Removes the first entry of the best slot of the lowest f: its node
    /// id, and whether it is a terminal edge.
    #[inline]
    pub fn pop(&mut self) -> Option<(u32, bool)> {
        if self.len == 0 {
            return None;
        }
        while self.levels[self.lowest].mask == 0 {
            self.lowest += 1;
        }
        let l = &mut self.levels[self.lowest];
        let slot = l.mask.trailing_zeros() as usize;
        let e = l.head[slot];
        let (id, next) = self.entries[e as usize];
        if next == NIL {
            l.mask &= !(1 << slot);
        } else {
            l.head[slot] = next;
        }
        self.len -= 1;
        Some((id, slot == 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Pops come out in the heap's order: f, then deeper first (the
        /// terminal edge deepest), then exact first, then first pushed.
        #[test]
        fn pops_in_key_order(pushes in proptest::collection::vec((0u32..6, 0u32..=16, any::<bool>(), any::<bool>()), 1..200)) {
            let mut q = WindowQueue::default();
            q.reset(16, 10);
            let mut want = Vec::new();
            for (k, &(df, d, exact, terminal)) in pushes.iter().enumerate() {
                let depth = (!terminal).then_some(d);
                q.push(10 + df, depth, exact, k as u32);
                let rank = depth.map_or(0, |d| 1 + 2 * (16 - d) + u32::from(!exact));
                want.push((10 + df, rank, k as u32, terminal));
            }
            want.sort();
            for (_, _, id, terminal) in want {
                prop_assert_eq!(q.pop(), Some((id, terminal)));
            }
            prop_assert_eq!(q.pop(), None);
        }
    }

    #[test]
    fn reuse_after_reset_and_pushes_below_the_lowest_level() {
        let mut q = WindowQueue::default();
        q.reserve(16, 4, 8);
        q.reset(8, 5);
        q.push(9, Some(3), true, 1);
        q.push(7, Some(3), true, 2);
        assert_eq!(q.pop(), Some((2, false)));
        q.push(7, Some(4), false, 3);
        q.push(7, None, true, 4);
        assert_eq!(q.pop(), Some((4, true)));
        assert_eq!(q.pop(), Some((3, false)));
        assert_eq!(q.pop(), Some((1, false)));
        assert_eq!(q.len, 0);
        q.reset(4, 0);
        assert_eq!(q.pop(), None);
        q.push(0, Some(0), true, 9);
        assert_eq!(q.pop(), Some((9, false)));
    }
}
