//! The space-time reservation table: lock-free claims of (cell, tick), holds at
//! the end of every plan, and requests to make way.

mod entry;
mod sync;
mod table;

pub use crate::map::MAX_CELLS;
pub use entry::{Entry, MAX_OWNER};

/// Most units the table can tell apart (its owner field).
pub const MAX_UNITS: usize = MAX_OWNER as usize - 1;
pub use table::{ClaimError, ReservationTable, StepView, MAX_HORIZON};
