//! Reservation-table footprints (Silver's article, "Reservation Table
//! Revisited"): units larger than one cell, slower than a cell a tick, and
//! actions that sweep more than two cells — diagonal steps and curves.
//!
//! Each unit searches space-time with its own actions; an action's
//! *footprint* is every (cell, tick) entry of the shared reservation table
//! its motion passes through, and an action is legal only if all of them
//! are free. A plan's footprints are then reserved. Units whose footprints
//! share no entry never touch, whatever their shapes and paces.
//!
//! - [`UnitShape`]: a `size` × `size` square taking `ticks_per_move` ticks a
//!   step; [`Action`]: wait, step (straight or diagonal) and curve, each with
//!   its footprint; [`ActionSet`]: what one shape may do.
//! - [`FootprintPlanner`]: windowed cooperative A* (WHCA*) over those actions,
//!   true distances from Reverse Resumable A* on the grid of anchors where
//!   the body fits.
//! - [`validate_footprints`]: an independent check of what the units did.

mod action;
mod body;
mod instance;
mod planner;
mod search;
mod validate;

pub use action::{Action, ActionSet, Entry, UnitShape};
pub use body::fit_grid;
pub use instance::random_units;
pub use planner::{FootprintPlanner, FootprintUnit, PlannedAction};
pub use validate::{validate_footprints, FootprintViolation};

/// Bad input to the footprint planner.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FootprintError {
    /// A shape of size or pace 0, or above 16.
    #[error("unit {unit}: shape {shape:?} must have size and ticks per move in 1..=16")]
    BadShape {
        /// The unit.
        unit: usize,
        /// Its shape.
        shape: UnitShape,
    },
    /// A body that does not fit the map at its start or goal.
    #[error("unit {unit}: its body does not fit on free cells at its {what}")]
    DoesNotFit {
        /// The unit.
        unit: usize,
        /// "start" or "goal".
        what: &'static str,
    },
    /// Two bodies overlapping at their starts or goals.
    #[error("units {first} and {second} overlap at their {what}s")]
    Overlap {
        /// The first unit.
        first: usize,
        /// The second.
        second: usize,
        /// "start" or "goal".
        what: &'static str,
    },
    /// A window longer than [`MAX_WINDOW`] ticks.
    #[error("window {window} is out of range: expected 2..={}", MAX_WINDOW)]
    BadWindow {
        /// The window asked for.
        window: u32,
    },
}

/// Longest window [`FootprintPlanner::new`] accepts, in steps: a slow
/// unit's window spans up to 16 ticks a step, and the reservation table
/// keeps a layer per tick of the longest, so beyond a thousand steps the
/// table, not the plan, is what a window buys. (A shorter window than 2 is
/// taken as 2.)
pub const MAX_WINDOW: u32 = 1024;
