//! The validator's check of a tick's moves on a thread of its own
//! (`SimConfig::check_beside`): the step hands the tick's positions over
//! and returns, and the check runs while the caller goes on (a game's
//! frame, or the next tick's planning). The checker goes back and forth
//! with the positions' buffer through two channels of one message each, so
//! a check allocates nothing once the buffer has grown.

use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam::channel::{bounded, Receiver, Sender};

use crate::map::{Grid, Rect};
use crate::validate::StepChecker;

/// A check to run: the checker, the map as it stood, the tick and what
/// each unit covered then.
type Job = (StepChecker, Arc<Grid>, u32, Vec<(u32, Rect)>);

/// A check done: the checker and the buffer, for the next one.
type Done = (StepChecker, Vec<(u32, Rect)>);

/// The checking thread, and the positions' buffer while no check is out.
pub(super) struct CheckThread {
    jobs: Option<Sender<Job>>,
    done: Receiver<Done>,
    handle: Option<JoinHandle<()>>,
    /// The positions' buffer while no check is out.
    spare: Vec<(u32, Rect)>,
}

impl CheckThread {
    /// Starts the thread.
    pub(super) fn new() -> CheckThread {
        let (jobs, next) = bounded::<Job>(1);
        let (finished, done) = bounded::<Done>(1);
        let handle = std::thread::Builder::new()
            .name("throng-check".into())
            .spawn(move || {
                while let Ok((mut checker, grid, tick, units)) = next.recv() {
                    checker.check(&grid, tick, units.iter().copied());
                    drop(grid);
                    if finished.send((checker, units)).is_err() {
                        return;
                    }
                }
            })
            .expect("the system starts a thread");
        CheckThread {
            jobs: Some(jobs),
            done,
            handle: Some(handle),
            spare: Vec::new(),
        }
    }

    /// Hands `checker` the check of tick `tick` on `grid`, the units'
    /// rectangles written by `fill` into a buffer of its own.
    pub(super) fn send(
        &mut self,
        checker: StepChecker,
        grid: Arc<Grid>,
        tick: u32,
        fill: impl FnOnce(&mut Vec<(u32, Rect)>),
    ) {
        let mut units = std::mem::take(&mut self.spare);
        units.clear();
        fill(&mut units);
        self.jobs
            .as_ref()
            .expect("sending while running")
            .send((checker, grid, tick, units))
            .expect("the check thread runs until dropped");
    }

    /// Waits for the check sent last and gives its checker back (call it
    /// once per [`Self::send`]).
    pub(super) fn finish(&mut self) -> StepChecker {
        let (checker, units) = self
            .done
            .recv()
            .expect("the check thread ended in the middle of a check");
        self.spare = units;
        checker
    }
}

impl Drop for CheckThread {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop.
        self.jobs = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
