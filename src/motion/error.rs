//! Why a motion query has no legal answer.

use thiserror::Error;

/// Why a path could not be planned or made drivable. Every message says what
/// failed and where, so the CLI can print it as is.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum MotionError {
    /// The start or goal lies off the map or on a blocked cell.
    #[error("{what} ({x}, {y}) is off the map or on a blocked cell")]
    BlockedEndpoint {
        /// "start" or "goal".
        what: &'static str,
        /// Column.
        x: i64,
        /// Row.
        y: i64,
    },
    /// The region table says no path exists at all.
    #[error("the goal is in another connected region than the start: no path exists")]
    Unreachable,
    /// The unit's footprint does not fit at the start or goal.
    #[error("a unit of width {width} does not fit at the {what} cell ({x}, {y})")]
    DoesNotFit {
        /// "start" or "goal".
        what: &'static str,
        /// Column.
        x: u32,
        /// Row.
        y: u32,
        /// Unit width in tiles.
        width: f64,
    },
    /// The smoothed curve hits a blocked cell: the turn there is illegal for this radius and width.
    #[error("illegal turn: the curve near ({x:.1}, {y:.1}) hits a blocked cell for turning radius {radius} and width {width}")]
    IllegalTurn {
        /// Column where the curve first hits.
        x: f64,
        /// Row where the curve first hits.
        y: f64,
        /// Turning radius in tiles.
        radius: f64,
        /// Unit width in tiles.
        width: f64,
    },
    /// A directional search exhausted its nodes or budget.
    #[error("{method}: no legal path for turning radius {radius} and width {width} ({expanded} nodes expanded{budget})")]
    NoLegalPath {
        /// Which search.
        method: &'static str,
        /// Turning radius in tiles.
        radius: f64,
        /// Unit width in tiles.
        width: f64,
        /// Nodes expanded before giving up.
        expanded: usize,
        /// ", budget exhausted" when the expansion limit stopped it.
        budget: &'static str,
    },
    /// Smoothing48 found no legal way along the grid path.
    #[error("smoothing48: no legal turn sequence along the grid path beyond waypoint {index} ({x}, {y})")]
    SmoothingFailed {
        /// Farthest waypoint index reached.
        index: usize,
        /// Its column.
        x: u32,
        /// Its row.
        y: u32,
    },
    /// The hybrid's failing stretch is too long for its local Directional8 search.
    #[error("hybrid: the failing stretch spans {dx} × {dy} tiles, more than {limit} in x or y")]
    StretchTooLong {
        /// Columns spanned.
        dx: u32,
        /// Rows spanned.
        dy: u32,
        /// Limit (12 in the seed).
        limit: u32,
    },
}
