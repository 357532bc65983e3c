//! What the simulation refuses, and why: every call that takes a unit, a
//! cell or a setting checks it and says what was expected.

use crate::units::UnitId;

/// An input the simulation cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The id names no living unit: it was despawned, or never spawned here.
    #[error("unit {0} is not alive (despawned, or not spawned in this simulation)")]
    StaleUnit(UnitId),
    /// A cell outside the map.
    #[error("{what} ({x}, {y}) is outside the {width}×{height} map")]
    OffMap {
        /// Which input.
        what: &'static str,
        /// Column.
        x: i64,
        /// Row.
        y: i64,
        /// Map width.
        width: u32,
        /// Map height.
        height: u32,
    },
    /// A cell that is a wall of the map.
    #[error("{what} ({x}, {y}) is a wall of the map")]
    Wall {
        /// Which input.
        what: &'static str,
        /// Column.
        x: u32,
        /// Row.
        y: u32,
    },
    /// A unit of a fixed instance that cannot be placed.
    #[error("unit {unit} of the instance: {reason}")]
    BadInstance {
        /// The unit's index in the instance.
        unit: usize,
        /// What is wrong.
        reason: String,
    },
    /// More living units than the simulation was made for.
    #[error("at most {max} units can live at once (SimConfig::max_units)")]
    TooManyUnits {
        /// The limit.
        max: usize,
    },
    /// A live-world call on a planner that plans a fixed instance.
    #[error("{planner} plans a fixed instance; spawns, despawns, orders and map edits need WHCA*")]
    NotLive {
        /// The planner's name.
        planner: String,
    },
    /// A setting out of its range.
    #[error("setting {name} = {value}: expected {expected}")]
    Config {
        /// The setting.
        name: &'static str,
        /// Its value.
        value: String,
        /// What it may be.
        expected: &'static str,
    },
    /// An event script names a unit label that was never spawned.
    #[error("no unit is labelled `{label}`")]
    UnknownLabel {
        /// The label.
        label: String,
    },
    /// A unit kind out of range.
    #[error("unit kind of size {size} and pace {pace}: expected size 1 to 8 cells and pace 1 to 8 ticks a cell")]
    BadKind {
        /// Body side asked for.
        size: u8,
        /// Ticks per cell asked for.
        pace: u8,
    },
    /// The reservation table has no room left for another unit of a kind.
    #[error("the reservation table has room for {free} more claims per tick, and this unit needs {needed}: raise SimConfig::footprint_claims")]
    TableFull {
        /// Claims per tick the unit may make.
        needed: usize,
        /// Claims per tick left.
        free: usize,
    },
    /// A group order with no units.
    #[error("a group order needs at least one unit")]
    EmptyGroup,
}
