//! What the machine offers: the speed of one thread on a fixed piece of
//! the engine's work, and for two threads the round trip of a cache line
//! between two cores. On a virtual machine it moves with where the host puts
//! the virtual cores (seen on one 2-core machine: 70–100 ns, then 320–370
//! ns for minutes), and every two-thread figure moves with it: the engine's
//! serial commit writes the reservation table's lines that the other worker
//! has just read. And how often the other core is away: a thread spinning
//! on it misses a hand-over for milliseconds when the host runs something
//! else there, and a worker of the engine then joins its tick (or its
//! initial planning) that late. `throng report` prints both beside its
//! figures.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Spins before a waiting thread yields its core (when the two threads
/// share one, the other can then run instead of waiting a time slice).
const SPINS_BEFORE_YIELD: u32 = 4096;

/// Nanoseconds for one round trip of a cache line between two threads
/// (each waits for the other's write before writing back), the mean of
/// `trips`, or `None` on a machine with one core.
pub fn core_round_trip_ns(trips: u64) -> Option<f64> {
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        return None;
    }
    let flag = AtomicU64::new(0);
    let started = std::thread::scope(|s| {
        s.spawn(|| {
            for i in 0..trips {
                wait_for(&flag, 2 * i + 1);
                flag.store(2 * i + 2, Ordering::Release);
            }
        });
        let started = Instant::now();
        for i in 0..trips {
            flag.store(2 * i + 1, Ordering::Release);
            wait_for(&flag, 2 * i + 2);
        }
        started
    });
    Some(started.elapsed().as_nanos() as f64 / trips.max(1) as f64)
}

/// Microseconds between two hand-overs of [`core_handovers`]: a tick's
/// worth of work apart, not back to back.
const HANDOVER_GAP_US: u64 = 500;

/// How a thread spinning on another core answered hand-overs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Handovers {
    /// Hand-overs made.
    pub count: usize,
    /// The median time from a write to the other thread's answer, µs.
    pub median_us: f64,
    /// Hand-overs answered after more than a millisecond.
    pub over_1ms: usize,
    /// The slowest answer, ms.
    pub longest_ms: f64,
}

/// Makes `count` hand-overs, one every [`HANDOVER_GAP_US`] (the calling
/// thread busy in between), to a thread that spins on another core
/// without ever sleeping or yielding, and times each answer. With both
/// cores the process's own, every answer comes within a microsecond or
/// so; a slower one is time the other core spent on something else.
/// `None` on a machine with one core.
pub fn core_handovers(count: usize) -> Option<Handovers> {
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 || count == 0 {
        return None;
    }
    let (token, answer) = (AtomicU64::new(0), AtomicU64::new(0));
    let mut waits: Vec<u64> = Vec::with_capacity(count);
    std::thread::scope(|s| {
        s.spawn(|| loop {
            let t = token.load(Ordering::Acquire);
            if t == u64::MAX {
                return;
            }
            if answer.load(Ordering::Relaxed) != t {
                answer.store(t, Ordering::Release);
            }
            std::hint::spin_loop();
        });
        for i in 1..=count as u64 {
            let gap = Instant::now();
            while gap.elapsed().as_micros() < HANDOVER_GAP_US as u128 {
                std::hint::spin_loop();
            }
            let sent = Instant::now();
            token.store(i, Ordering::Release);
            while answer.load(Ordering::Acquire) != i {
                std::hint::spin_loop();
            }
            waits.push(sent.elapsed().as_nanos() as u64);
        }
        token.store(u64::MAX, Ordering::Release);
    });
    waits.sort_unstable();
    Some(Handovers {
        count,
        median_us: waits[count / 2] as f64 / 1e3,
        over_1ms: waits.iter().filter(|&&w| w > 1_000_000).count(),
        longest_ms: waits[count - 1] as f64 / 1e6,
    })
}

/// Milliseconds one thread takes for a fixed piece of work: 20
/// breadth-first distance tables over a generated 512×512 map with 10%
/// obstacles, the best of three tries. Every timing of a benchmark page
/// moves with it: pages written on different machines compare through it.
pub fn single_thread_ms() -> f64 {
    use throng::distance::bfs_distances_into;
    use throng::map::{generate_map, Cell, Connectivity};
    let grid = generate_map(
        "512x512:0.1".parse().expect("a valid spec"),
        Connectivity::Four,
        1,
    );
    let from = (0..grid.cell_count() as u32)
        .map(Cell)
        .find(|&c| grid.is_passable(c))
        .expect("an open cell");
    let (mut dist, mut queue) = (Vec::new(), Vec::new());
    (0..3)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..20 {
                bfs_distances_into(&grid, from, &mut dist, &mut queue);
                std::hint::black_box(&dist);
            }
            started.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

fn wait_for(flag: &AtomicU64, value: u64) {
    let mut spins = 0u32;
    while flag.load(Ordering::Acquire) != value {
        spins += 1;
        if spins == SPINS_BEFORE_YIELD {
            spins = 0;
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_overs_are_all_counted_and_ordered() {
        if let Some(h) = core_handovers(200) {
            assert_eq!(h.count, 200);
            assert!(h.over_1ms <= h.count);
            assert!(
                h.median_us > 0.0 && h.median_us <= h.longest_ms * 1e3,
                "{h:?}"
            );
        }
        assert_eq!(core_handovers(0), None);
    }

    #[test]
    fn a_round_trip_takes_time_and_ends() {
        if let Some(ns) = core_round_trip_ns(1_000) {
            assert!(ns > 0.0 && ns.is_finite(), "{ns}");
        }
    }
}
