//! What happened during a tick, for the game to react to: units spawned,
//! arrived, stuck and unstuck, found unreachable, evicted by a building,
//! despawned. The buffer is drained once per tick and reused, so a steady
//! stream of events allocates nothing.

use crate::map::Cell;
use crate::units::UnitId;

/// One thing that happened to one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// The tick it happened at: positions after the step that produced it.
    pub tick: u32,
    /// The unit.
    pub unit: UnitId,
    /// What happened.
    pub kind: EventKind,
}

/// The kinds of [`Event`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// The unit entered the map on this cell.
    Spawned(Cell),
    /// The unit stepped onto its goal. With goals queued it takes the next
    /// one and moves on; otherwise its state becomes `Arrived`.
    Arrived(Cell),
    /// No progress towards its goal for the configured number of ticks.
    Stuck,
    /// A stuck unit made progress again.
    Unstuck,
    /// Its goal cannot be reached in the current map.
    Unreachable,
    /// Its goal became reachable again (a block was lifted).
    Reachable,
    /// A block was placed on the cell it stands on: it leaves for the
    /// nearest free cell.
    Evicted,
    /// The unit left the simulation.
    Despawned,
}

impl EventKind {
    /// A short lower-case name, as in event logs.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Spawned(_) => "spawned",
            EventKind::Arrived(_) => "arrived",
            EventKind::Stuck => "stuck",
            EventKind::Unstuck => "unstuck",
            EventKind::Unreachable => "unreachable",
            EventKind::Reachable => "reachable",
            EventKind::Evicted => "evicted",
            EventKind::Despawned => "despawned",
        }
    }

    /// Every kind's name, in a fixed order (for counts).
    pub const NAMES: [&'static str; 8] = [
        "spawned",
        "arrived",
        "stuck",
        "unstuck",
        "unreachable",
        "reachable",
        "evicted",
        "despawned",
    ];

    /// The kind's position in [`EventKind::NAMES`].
    pub fn ordinal(self) -> usize {
        Self::NAMES
            .iter()
            .position(|&n| n == self.name())
            .expect("every kind is named")
    }
}
