//! What the machine offers: the speed of one thread on a fixed piece of
//! the engine's work, and for two threads the round trip of a cache line
//! between two cores. On a virtual machine it moves with where the host puts
//! the virtual cores (seen on one 2-core machine: 70–100 ns, then 320–370
//! ns for minutes), and every two-thread figure moves with it: the engine's
//! serial commit writes the reservation table's lines that the other worker
//! has just read. `throng report` prints it beside its figures.

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
    fn a_round_trip_takes_time_and_ends() {
        if let Some(ns) = core_round_trip_ns(1_000) {
            assert!(ns > 0.0 && ns.is_finite(), "{ns}");
        }
    }
}
