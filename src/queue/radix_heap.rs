//! A radix heap: the open list of the weighted spatial A*. A* with a
//! consistent heuristic pops f values that never decrease, so a monotone
//! queue suffices: 33 buckets by the highest bit in which a key differs from
//! the last popped one. Push is O(1); each element moves down at most 32
//! buckets over its life. Bucket 0 (keys equal to the last popped) is a stack,
//! so among equal f the most recently reached, deeper node goes first.

/// Monotone priority queue of `(key, value)` pairs, smallest key first.
#[derive(Clone, Debug)]
pub(crate) struct RadixHeap {
    last: u32,
    buckets: [Vec<(u32, u32)>; 33],
}

impl Default for RadixHeap {
    fn default() -> Self {
        RadixHeap {
            last: 0,
            buckets: std::array::from_fn(|_| Vec::new()),
        }
    }
}

impl RadixHeap {
    #[inline]
    fn bucket(&self, key: u32) -> usize {
        (32 - (key ^ self.last).leading_zeros()) as usize
    }

    /// Empties the queue, keeping its memory.
    pub(crate) fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.last = 0;
    }

    /// Adds `value` with `key`. A key below the last popped one (an
    /// inconsistent heuristic) is raised to it, so the queue stays valid.
    #[inline]
    pub(crate) fn push(&mut self, key: u32, value: u32) {
        let key = key.max(self.last);
        let b = self.bucket(key);
        self.buckets[b].push((key, value));
    }

    /// Removes a pair with the smallest key.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u32, u32)> {
        if self.buckets[0].is_empty() {
            let i = (1..33).find(|&i| !self.buckets[i].is_empty())?;
            let mut moved = std::mem::take(&mut self.buckets[i]);
            self.last = moved
                .iter()
                .map(|e| e.0)
                .min()
                .expect("bucket is not empty");
            for e in moved.drain(..) {
                let b = self.bucket(e.0);
                self.buckets[b].push(e);
            }
            // Keep the bucket's memory for the next search.
            self.buckets[i] = moved;
        }
        self.buckets[0].pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_key_order_with_monotone_pushes() {
        let mut h = RadixHeap::default();
        for (k, v) in [(5, 0), (3, 1), (9, 2), (3, 3), (70_000, 4)] {
            h.push(k, v);
        }
        let mut got = vec![];
        while let Some((k, v)) = h.pop() {
            got.push(k);
            if v == 1 {
                h.push(4, 9);
            }
        }
        assert_eq!(got, vec![3, 3, 4, 5, 9, 70_000]);
    }

    #[test]
    fn equal_keys_pop_last_pushed_first() {
        let mut h = RadixHeap::default();
        h.push(7, 1);
        assert_eq!(h.pop(), Some((7, 1)));
        h.push(7, 2);
        h.push(7, 3);
        assert_eq!(h.pop(), Some((7, 3)));
    }
}
