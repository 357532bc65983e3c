//! Open list for A* with unit move costs and a consistent heuristic, where
//! every open entry's f lies in `[f_min, f_min + SPAN)`: a ring of LIFO
//! buckets instead of a binary heap. Push and pop are a few instructions;
//! within one f the newest entry comes first, which is usually the deepest
//! (the tie-break A* wants).

/// How far above the smallest open f an entry may be: one move changes
/// `g + h` by at most 2 when `h` is a consistent estimate in moves.
const SPAN: usize = 4;

/// A monotone bucket queue of `u32` items keyed by f. See the module docs.
#[derive(Clone, Debug, Default)]
pub struct BucketQueue {
    buckets: [Vec<u32>; SPAN],
    /// No entry has a smaller f; the bucket of `f_min` is searched first.
    f_min: u32,
    len: usize,
}

impl BucketQueue {
    /// An empty queue with room for `capacity` entries per bucket.
    pub fn with_capacity(capacity: usize) -> Self {
        BucketQueue {
            buckets: std::array::from_fn(|_| Vec::with_capacity(capacity)),
            f_min: 0,
            len: 0,
        }
    }

    /// Empties the queue; the next push may have any f.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.len = 0;
    }

    /// Entries queued.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is queued.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Queues `item` at `f`, which must lie in `[f_min, f_min + SPAN)`, where
    /// `f_min` is the last popped f or, in a queue that was empty since, the
    /// first pushed one.
    #[inline]
    pub fn push(&mut self, f: u32, item: u32) {
        if self.len == 0 {
            self.f_min = f;
        }
        debug_assert!(
            f >= self.f_min && ((f - self.f_min) as usize) < SPAN,
            "f {f} outside [{}, {}+{SPAN})",
            self.f_min,
            self.f_min
        );
        self.buckets[f as usize % SPAN].push(item);
        self.len += 1;
    }

    /// Removes and returns an entry of the smallest f, with that f.
    #[inline]
    pub fn pop(&mut self) -> Option<(u32, u32)> {
        if self.len == 0 {
            return None;
        }
        loop {
            if let Some(item) = self.buckets[self.f_min as usize % SPAN].pop() {
                self.len -= 1;
                return Some((self.f_min, item));
            }
            self.f_min += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Against a sorted reference: pops come out in f order, newest first
        /// within an f, for any push sequence that keeps the span.
        #[test]
        fn pops_in_f_order(steps in prop::collection::vec((0u32..3, any::<bool>()), 1..300)) {
            let mut q = BucketQueue::default();
            let mut reference: Vec<(u32, u32)> = Vec::new();
            // The contract: no push below the queue's first entry or the last pop.
            let mut floor = 10u32;
            for (i, (delta, pop)) in steps.into_iter().enumerate() {
                if pop && !reference.is_empty() {
                    let min = reference.iter().map(|e| e.0).min().unwrap();
                    let pos = reference.iter().rposition(|e| e.0 == min).unwrap();
                    let want = reference.remove(pos);
                    prop_assert_eq!(q.pop(), Some(want));
                    floor = want.0;
                } else {
                    let f = floor + delta;
                    if reference.is_empty() {
                        floor = f;
                    }
                    q.push(f, i as u32);
                    reference.push((f, i as u32));
                }
                prop_assert_eq!(q.len(), reference.len());
            }
        }
    }
}
