//! Reservation-table footprints (Silver's article, "Reservation Table
//! Revisited"): units larger than one cell, slower than a cell a tick, and
//! actions that sweep more than two cells (diagonal steps of large bodies,
//! curves). They share the one simulation, its table and its planner with
//! one-cell units.
//!
//! An action's *footprint* is every (cell, tick) entry of the reservation
//! table its motion passes through; an action is legal only if all of them
//! are free, and a plan's footprints are reserved. Units whose footprints
//! share no entry never touch, whatever their kinds.
//!
//! - [`Action`], [`ActionSet`]: waits, steps and curves of a unit kind,
//!   each with its footprint;
//! - [`Motion`], [`for_each_claim`]: how a footprint plan is stored and what
//!   it reserves, tick by tick;
//! - [`FootprintSearch`]: the windowed space-time search over actions;
//! - [`fit_grid`]: where a body fits, kept true under buildings;
//! - [`mixed_crowd`]: random crowds of mixed kinds; [`army_mix`]: the
//!   benchmarks' army.

mod action;
mod body;
mod crowd;
mod motion;
mod search;

pub use action::{Action, ActionMasks, ActionSet, Entry};
pub use body::{body, fit_grid, sweep, update_fit_grid};
pub use crowd::{army_mix, mixed_crowd};
pub use motion::{for_each_claim, rect_at, Motion};
pub use search::{straight_window, FootprintQuery, FootprintSearch, Yielding};

/// Longest action of any kind, in ticks: a curve of two cells at the
/// slowest pace. Plans and the table's horizon leave room for it past the
/// window.
pub const MAX_ACTION_TICKS: u32 = 2 * crate::units::MAX_PACE as u32;
