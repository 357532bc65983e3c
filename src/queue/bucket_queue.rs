//! Open list for A* with move costs of 1 or 2 and a consistent heuristic, where
//! every open entry's f lies in `[f_min, f_min + SPAN)`: a ring of LIFO
//! buckets instead of a binary heap. Push and pop are a few instructions;
//! within one f the newest entry comes first, which is usually the deepest
//! (the tie-break A* wants).

/// How far above the smallest open f an entry may be: one move changes
/// `g + h` by at most 2 when `h` is a consistent estimate in moves, and by
/// at most 3 when a move against a lane costs 2.
const SPAN: usize = 4;

/// A monotone bucket queue of `u32` items keyed by f. See the module docs.
#[derive(Clone, Debug, Default)]
pub struct BucketQueue {
    buckets: [Vec<u32>; SPAN],
    /// No entry has a smaller f; the bucket of `f_min` is searched first.
    /// Set by the first push after a clear, then only ever raised by pops
    /// (a pop that empties the queue keeps it: the children of the last
    /// popped entry may have its f).
    f_min: u32,
    started: bool,
    len: usize,
}

impl BucketQueue {
    /// An empty queue with room for `capacity` entries per bucket.
    pub fn with_capacity(capacity: usize) -> Self {
        BucketQueue {
            buckets: std::array::from_fn(|_| Vec::with_capacity(capacity)),
            f_min: 0,
            started: false,
            len: 0,
        }
    }

    /// Empties the queue; the next push may have any f.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.len = 0;
        self.started = false;
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
    /// `f_min` is the last popped f or, before any pop since the queue was
    /// made or cleared, the first pushed one.
    #[inline]
    pub fn push(&mut self, f: u32, item: u32) {
        if !self.started {
            self.f_min = f;
            self.started = true;
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
            // (Pushes of f, f + 2 and then f again after a pop that emptied
            // the queue once popped f + 2 first: RRA* closed cells at wrong
            // distances.)
            let mut q = BucketQueue::default();
            let mut reference: Vec<(u32, u32)> = Vec::new();
            // The contract: no push below the first push or the last pop,
            // including right after a pop that emptied the queue.
            let mut floor = 10u32;
            let mut pushed = false;
            for (i, (delta, pop)) in steps.into_iter().enumerate() {
                if pop && !reference.is_empty() {
                    let min = reference.iter().map(|e| e.0).min().unwrap();
                    let pos = reference.iter().rposition(|e| e.0 == min).unwrap();
                    let want = reference.remove(pos);
                    prop_assert_eq!(q.pop(), Some(want));
                    floor = want.0;
                } else {
                    let f = floor + delta;
                    if !pushed {
                        floor = f;
                        pushed = true;
                    }
                    q.push(f, i as u32);
                    reference.push((f, i as u32));
                }
                prop_assert_eq!(q.len(), reference.len());
            }
        }
    }
}
