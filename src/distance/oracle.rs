//! What a search needs of a true-distance heuristic.

use crate::map::Cell;

/// Distance meaning "no path".
pub const UNREACHABLE: u32 = u32::MAX;

/// True distances to a unit's goal, as the space-time search needs them.
///
/// The search asks [`DistanceOracle::known`] for every successor and only
/// calls [`DistanceOracle::exact`] (which may resume a Reverse Resumable A*)
/// for the nodes it actually pops: successors that lead away from the goal
/// are usually never popped, and their true distances never computed. On
/// Silver's 32×32 set-up this removed most of RRA*'s resumes.
pub trait DistanceOracle {
    /// The true distance (or an admissible estimate) from `cell` to the goal,
    /// doing whatever work that takes; `u32::MAX` if unreachable.
    fn exact(&mut self, cell: Cell) -> u32;
    /// The same, if it is known without work.
    fn known(&self, _cell: Cell) -> Option<u32> {
        None
    }
    /// Hints the CPU to fetch what [`DistanceOracle::known`] will read of
    /// `cell` (the search names all of a node's successors first).
    fn prefetch(&self, _cell: Cell) {}
    /// Whether the last `exact` call stopped at a deadline without an answer
    /// (a time-sliced true-distance search); the space-time search then stops
    /// too, and the work done so far is kept for the next tick.
    fn paused(&self) -> bool {
        false
    }
}

impl<F: FnMut(Cell) -> u32> DistanceOracle for F {
    fn exact(&mut self, cell: Cell) -> u32 {
        self(cell)
    }
}
