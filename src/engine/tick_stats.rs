//! Tick times without a per-tick log: a histogram with 1,024 buckets per
//! power of two of nanoseconds (every percentile within 0.1%), allocated
//! once, so a run of any length measures its ticks in constant memory.

/// Times below this many nanoseconds get a bucket each; above, every power
/// of two is split in 1,024 buckets.
const EXACT: u64 = 2048;
/// Powers of two covered (up to 2^42 ns, over an hour; longer ticks share
/// the last bucket).
const MAX_SHIFT: u64 = 32;
const BUCKETS: usize = (EXACT * (MAX_SHIFT + 1)) as usize;

/// Distribution of tick times. See the module docs.
#[derive(Clone, Debug)]
pub struct TickStats {
    buckets: Vec<u32>,
    count: u64,
    sum_ns: u128,
    max_ns: u64,
    over_budget: u64,
    worst_over_ns: u64,
}

impl Default for TickStats {
    fn default() -> Self {
        TickStats {
            buckets: vec![0; BUCKETS],
            count: 0,
            sum_ns: 0,
            max_ns: 0,
            over_budget: 0,
            worst_over_ns: 0,
        }
    }
}

fn bucket(ns: u64) -> usize {
    if ns < EXACT {
        return ns as usize;
    }
    // The top 11 bits: `ns >> shift` lies in [1024, 2048).
    let shift = (63 - ns.leading_zeros() as u64) - 10;
    ((EXACT * shift + (ns >> shift)) as usize).min(BUCKETS - 1)
}

/// The largest time bucket `b` holds.
fn bucket_top(b: usize) -> u64 {
    let b = b as u64;
    if b < EXACT {
        return b;
    }
    let (shift, m) = (b / EXACT, b % EXACT);
    ((m + 1) << shift) - 1
}

impl TickStats {
    /// Records one tick of `ns` nanoseconds, against a budget if any.
    pub fn record(&mut self, ns: u64, budget_ns: Option<u64>) {
        self.buckets[bucket(ns)] += 1;
        self.count += 1;
        self.sum_ns += ns as u128;
        self.max_ns = self.max_ns.max(ns);
        if let Some(b) = budget_ns.filter(|&b| ns > b) {
            self.over_budget += 1;
            self.worst_over_ns = self.worst_over_ns.max(ns - b);
        }
    }

    /// Ticks recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Total time, ms.
    pub fn total_ms(&self) -> f64 {
        self.sum_ns as f64 / 1e6
    }

    /// Mean tick, ms.
    pub fn mean_ms(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.total_ms() / self.count as f64
        }
    }

    /// Longest tick, ms.
    pub fn max_ms(&self) -> f64 {
        self.max_ns as f64 / 1e6
    }

    /// Ticks over the budget, and the worst excess in ms.
    pub fn overruns(&self) -> (u64, f64) {
        (self.over_budget, self.worst_over_ns as f64 / 1e6)
    }

    /// How many ticks took at most each of `bounds_ms` (ascending) and
    /// more than the one before; a last count for the ticks above them all.
    pub fn histogram(&self, bounds_ms: &[f64]) -> Vec<u64> {
        let mut out = vec![0u64; bounds_ms.len() + 1];
        for (b, &n) in self.buckets.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let ms = bucket_top(b) as f64 / 1e6;
            let k = bounds_ms
                .iter()
                .position(|&x| ms <= x)
                .unwrap_or(bounds_ms.len());
            out[k] += n as u64;
        }
        out
    }

    /// The `p`-th percentile tick (0–100), ms: the least time that at
    /// least `p`% of ticks took no longer than (nearest rank, within 0.1%).
    pub fn percentile_ms(&self, p: f64) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        let rank = ((p / 100.0 * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0u64;
        for (b, &n) in self.buckets.iter().enumerate() {
            seen += n as u64;
            if seen >= rank {
                return bucket_top(b).min(self.max_ns) as f64 / 1e6;
            }
        }
        self.max_ms()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_their_values_within_a_thousandth() {
        for ns in (0..5000u64).chain((0..42).map(|k| 1u64 << k).chain([123_456_789, 999_999])) {
            let b = bucket(ns);
            let top = bucket_top(b);
            assert!(top >= ns, "{ns} in bucket {b} topped at {top}");
            assert!(top - ns <= ns / 1000 + 1, "{ns}: top {top}");
            if b > 0 {
                assert!(
                    bucket_top(b - 1) < ns.max(1),
                    "{ns}: previous bucket reaches it"
                );
            }
        }
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let mut s = TickStats::default();
        for us in 1..=1000u64 {
            s.record(us * 1000, Some(900_000));
        }
        assert!((s.percentile_ms(50.0) - 0.5).abs() < 0.001);
        assert!((s.percentile_ms(99.9) - 0.999).abs() < 0.002);
        assert_eq!(s.overruns().0, 100);
        assert!((s.max_ms() - 1.0).abs() < 1e-9);
    }
}
