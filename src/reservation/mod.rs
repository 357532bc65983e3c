//! The space-time reservation table: lock-free claims of (cell, tick), holds at
//! the end of every plan, and requests to make way.

mod entry;
mod sync;
mod table;

pub use entry::{Entry, MAX_AGENTS, MAX_CELLS};

/// Most units the table can tell apart (its owner field).
pub const MAX_UNITS: usize = MAX_AGENTS as usize - 1;
pub use table::{ClaimError, ReservationTable, StepView, MAX_HORIZON};
