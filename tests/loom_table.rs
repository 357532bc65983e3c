//! The reservation table's claims under every interleaving loom explores
//! (two threads, a tiny table): a (cell, tick) has at most one owner, a
//! loser is told who won, a release lets the other claim, and a claim bit
//! is never lost. Runs only in `--cfg loom` builds: `.ci/loom`.

#![cfg(loom)]

use loom::sync::Arc;
use loom::thread;
use throng::map::Cell;
use throng::reservation::{ClaimError, ReservationTable};
use throng::units::Slot;

#[test]
fn two_claims_on_one_cell_leave_one_owner() {
    loom::model(|| {
        let table = Arc::new(ReservationTable::new(4, 2, 4));
        let handles: Vec<_> = (0..2u32)
            .map(|k| {
                let t = table.clone();
                thread::spawn(move || t.claim(Cell(1), 1, Slot(k), 0))
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let winners = results.iter().filter(|r| r.is_ok()).count();
        assert_eq!(winners, 1, "{results:?}");
        let owner = table.occupant(Cell(1), 1).expect("claimed");
        for (k, r) in results.iter().enumerate() {
            match r {
                Ok(()) => assert_eq!(owner, Slot(k as u32)),
                Err(ClaimError::Taken(b)) => assert_eq!(*b, owner),
                Err(e) => panic!("{e:?}"),
            }
        }
    });
}

#[test]
fn a_release_racing_a_claim_never_leaves_two_owners() {
    loom::model(|| {
        let table = Arc::new(ReservationTable::new(4, 2, 4));
        table.claim(Cell(2), 1, Slot(0), 0).unwrap();
        let t = table.clone();
        let releaser = thread::spawn(move || t.release(Cell(2), 1, Slot(0)));
        let t = table.clone();
        let claimer = thread::spawn(move || t.claim(Cell(2), 1, Slot(1), 0));
        releaser.join().unwrap();
        let claimed = claimer.join().unwrap();
        let owner = table.occupant(Cell(2), 1);
        match claimed {
            Ok(()) => assert_eq!(owner, Some(Slot(1))),
            Err(ClaimError::Taken(b)) => {
                assert_eq!(b, Slot(0));
                assert_eq!(owner, None, "released after the failed claim");
            }
            Err(e) => panic!("{e:?}"),
        }
    });
}

#[test]
fn claims_on_two_cells_sharing_a_word_both_stand() {
    loom::model(|| {
        let table = Arc::new(ReservationTable::new(4, 2, 4));
        let t = table.clone();
        let a = thread::spawn(move || t.claim(Cell(0), 1, Slot(0), 0));
        let t = table.clone();
        let b = thread::spawn(move || t.claim(Cell(3), 1, Slot(1), 0));
        a.join().unwrap().unwrap();
        b.join().unwrap().unwrap();
        assert_eq!(table.occupant(Cell(0), 1), Some(Slot(0)));
        assert_eq!(table.occupant(Cell(3), 1), Some(Slot(1)));
        // Both claim bits set: the moves' fast path sees both cells taken.
        let grid = throng::map::Grid::from_rows(&["...."], throng::map::Connectivity::Four);
        assert!(!table.move_is_free(&grid, Slot(2), Cell(1), Cell(0), 0));
        assert!(!table.move_is_free(&grid, Slot(2), Cell(2), Cell(3), 0));
    });
}
