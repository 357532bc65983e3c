//! The game's calls as the simulation keeps them between steps: what a
//! spawn asks for, and each call checked and waiting to be applied (and
//! recorded) at the start of the next step.

use crate::map::{Cell, Rect};
use crate::units::{UnitId, UnitKind};

/// A unit to spawn: where it enters the map, where it goes, how urgent it
/// is, and what kind of unit it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitSpec {
    /// The cell it enters on (its body's top-left cell; it waits until the
    /// body's cells are free).
    pub cell: Cell,
    /// Its goal (where its top-left cell goes).
    pub goal: Cell,
    /// Silver's unit priority: higher plans first, and lower ones make room.
    pub priority: u8,
    /// Its body, pace and moves.
    pub kind: UnitKind,
}

impl UnitSpec {
    /// A one-cell unit entering on `cell`, bound for `goal`, priority 0.
    pub fn new(cell: Cell, goal: Cell) -> Self {
        UnitSpec {
            cell,
            goal,
            priority: 0,
            kind: UnitKind::CELL,
        }
    }

    /// The same unit, of kind `kind`.
    pub fn with_kind(mut self, kind: UnitKind) -> Self {
        self.kind = kind;
        self
    }

    /// The same unit with priority `p`.
    pub fn with_priority(mut self, p: u8) -> Self {
        self.priority = p;
        self
    }
}

/// A call recorded between steps, applied at the start of the next.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Command {
    Spawn(UnitId, UnitSpec),
    Despawn(UnitId),
    /// A new goal; in a group order, the group's number (0: none).
    SetGoal(UnitId, Cell, u32),
    PushGoal(UnitId, Cell),
    Stop(UnitId),
    Block(Rect),
    Unblock(Rect),
}
