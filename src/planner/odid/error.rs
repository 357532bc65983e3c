//! Why an instance cannot be handed to the optimal solver at all.

use thiserror::Error;

/// An instance the solver refuses before searching.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OdidError {
    /// Two units share a start or a goal.
    #[error("unit {unit}: {message}")]
    NotDistinct {
        /// The later unit of the pair.
        unit: usize,
        /// Which cell is shared.
        message: String,
    },
    /// A start or a goal is on a blocked cell.
    #[error("unit {unit}: start or goal is on a blocked cell")]
    Blocked {
        /// The unit.
        unit: usize,
    },
    /// A unit's goal lies in another connected region than its start.
    #[error("unit {unit}: goal cannot be reached from the start")]
    Unreachable {
        /// The unit.
        unit: usize,
    },
    /// Starts and goals have different lengths.
    #[error("{starts} starts but {goals} goals")]
    Mismatch {
        /// Number of starts.
        starts: usize,
        /// Number of goals.
        goals: usize,
    },
    /// An algorithm name that is not one of the solver's.
    #[error(
        "unknown optimal algorithm `{0}` (expected astar-joint, od, od-sid, odid, astar-joint-id)"
    )]
    UnknownAlgorithm(String),
}
