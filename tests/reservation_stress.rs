//! The lock-free reservation table under many threads: millions of claims on
//! contended (cell, tick) pairs from all threads, and afterwards every pair
//! has exactly one winner, the one the table names (no lost claim, no double
//! claim); releases and re-claims race the same way.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Barrier;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use throng::map::Cell;
use throng::reservation::{ClaimError, ReservationTable};
use throng::units::Slot;

const THREADS: usize = 8;
const CELLS: u32 = 4096;
const TICKS: u32 = 8;

#[test]
fn concurrent_claims_have_exactly_one_winner() {
    let claims_per_thread: usize = if cfg!(debug_assertions) {
        50_000
    } else {
        400_000
    };
    let table = ReservationTable::new(CELLS as usize, TICKS, CELLS as usize * 2);
    // winners[t * CELLS + c] = 1 + the unit that won (cell c, tick t).
    let winners: Vec<AtomicU32> = (0..CELLS * TICKS).map(|_| AtomicU32::new(0)).collect();
    let barrier = Barrier::new(THREADS);
    std::thread::scope(|s| {
        for thread in 0..THREADS {
            let (table, winners, barrier) = (&table, &winners, &barrier);
            s.spawn(move || {
                let me = Slot(thread as u32);
                let mut rng = ChaCha8Rng::seed_from_u64(thread as u64);
                barrier.wait();
                for _ in 0..claims_per_thread {
                    let cell = Cell(rng.gen_range(0..CELLS));
                    let tick = rng.gen_range(0..TICKS);
                    match table.claim(cell, tick, me, 0) {
                        Ok(()) => {
                            let slot = &winners[(tick * CELLS + cell.0) as usize];
                            let prev = slot.swap(me.0 + 1, Ordering::SeqCst);
                            assert!(
                                prev == 0 || prev == me.0 + 1,
                                "two winners for {cell:?}@{tick}"
                            );
                        }
                        Err(ClaimError::Taken(other)) => assert_ne!(other, me),
                        Err(e) => panic!("unexpected {e:?}"),
                    }
                }
            });
        }
    });
    for t in 0..TICKS {
        for c in 0..CELLS {
            let won = winners[(t * CELLS + c) as usize].load(Ordering::SeqCst);
            let owner = table.layer_owner(Cell(c), t).map(|a| a.0 + 1).unwrap_or(0);
            assert_eq!(
                owner, won,
                "cell {c} tick {t}: table says {owner}, claims said {won}"
            );
        }
    }
}

#[test]
fn release_and_reclaim_race_cleanly() {
    let rounds: usize = if cfg!(debug_assertions) {
        2_000
    } else {
        20_000
    };
    let table = ReservationTable::new(64, 4, 128);
    let held: Vec<AtomicU32> = (0..64).map(|_| AtomicU32::new(0)).collect();
    std::thread::scope(|s| {
        for thread in 0..THREADS {
            let (table, held) = (&table, &held);
            s.spawn(move || {
                let me = Slot(thread as u32);
                let mut rng = ChaCha8Rng::seed_from_u64(100 + thread as u64);
                for _ in 0..rounds {
                    let c = rng.gen_range(0..64u32);
                    if table.claim(Cell(c), 1, me, 0).is_ok() {
                        // We own it: nobody else may think they do.
                        let prev = held[c as usize].swap(me.0 + 1, Ordering::SeqCst);
                        assert_eq!(
                            prev,
                            0,
                            "cell {c} was still held by {}",
                            prev.wrapping_sub(1)
                        );
                        held[c as usize].store(0, Ordering::SeqCst);
                        table.release(Cell(c), 1, me);
                    }
                }
            });
        }
    });
    for c in 0..64 {
        assert_eq!(
            table.layer_owner(Cell(c), 1),
            None,
            "every claim was released"
        );
    }
}
