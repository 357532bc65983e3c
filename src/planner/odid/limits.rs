//! Time and node budgets, so a hard instance ends in a clean "not solved"
//! instead of a hang or an out-of-memory abort.

use std::time::{Duration, Instant};

/// Bounds on one solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall time for the whole solve (all ID rounds together).
    pub time: Option<Duration>,
    /// Nodes one low-level search may store; this bounds memory.
    pub nodes: Option<u64>,
}

impl Limits {
    /// No bound at all.
    pub fn none() -> Self {
        Self::default()
    }

    /// A wall-time bound only.
    pub fn time(limit: Duration) -> Self {
        Self {
            time: Some(limit),
            nodes: None,
        }
    }
}

/// Why a search stopped before finishing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The wall-time limit passed.
    Time,
    /// A search stored more nodes than allowed.
    Nodes,
}

/// The running budget of one solve, checked by the searches.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    deadline: Option<Instant>,
    node_limit: Option<u64>,
}

impl Budget {
    pub(crate) fn start(limits: &Limits, started: Instant) -> Self {
        Self {
            deadline: limits.time.map(|d| started + d),
            node_limit: limits.nodes,
        }
    }

    /// Checks the clock (callers do it every few hundred expansions).
    pub(crate) fn check_time(&self) -> Result<(), Stop> {
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(Stop::Time),
            _ => Ok(()),
        }
    }

    /// Checks how many nodes a search holds.
    pub(crate) fn check_nodes(&self, stored: usize) -> Result<(), Stop> {
        match self.node_limit {
            Some(n) if stored as u64 > n => Err(Stop::Nodes),
            _ => Ok(()),
        }
    }
}
