//! Constraints of a conflict-based search on the units of one low-level
//! search: a unit may not make a given move at a given tick, or may not stand
//! on a cell at a given tick. One of the two bans that a conflict yields
//! holds in every plan without that conflict, so splitting on them keeps
//! every conflict-free plan.

use crate::map::Cell;

/// A ban on one move of one unit: from tick `t` to `t + 1`, to `to`, and from
/// `from` if given (an edge ban), from anywhere if not (a vertex ban at tick
/// `t + 1`, waits included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Ban {
    pub t: u32,
    pub to: Cell,
    pub from: Option<Cell>,
}

impl Ban {
    #[inline]
    fn forbids(&self, t: u32, from: Cell, to: Cell) -> bool {
        self.t == t && self.to == to && self.from.is_none_or(|f| f == from)
    }
}

/// The bans on each unit of a group (by index in the group).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bans {
    per_unit: Vec<Vec<Ban>>,
    /// The latest tick any ban restricts a move from.
    last: Option<u32>,
}

impl Bans {
    /// No bans on `units` units.
    pub fn new(units: usize) -> Self {
        Self {
            per_unit: vec![Vec::new(); units],
            last: None,
        }
    }

    /// Adds a ban on unit `i`.
    pub fn add(&mut self, i: usize, ban: Ban) {
        self.per_unit[i].push(ban);
        self.last = Some(self.last.map_or(ban.t, |l| l.max(ban.t)));
    }

    /// Whether unit `i` may move from `from` at tick `t` to `to` at `t + 1`.
    #[inline]
    pub fn allows(&self, i: usize, t: u32, from: Cell, to: Cell) -> bool {
        !self.per_unit[i].iter().any(|b| b.forbids(t, from, to))
    }

    /// The first tick from which no ban restricts any move (0 if none).
    pub fn free_from(&self) -> u32 {
        self.last.map_or(0, |l| l + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertex_bans_cover_waits_and_edge_bans_one_move() {
        let mut bans = Bans::new(2);
        assert_eq!(bans.free_from(), 0);
        bans.add(
            0,
            Ban {
                t: 3,
                to: Cell(5),
                from: None,
            },
        );
        bans.add(
            1,
            Ban {
                t: 1,
                to: Cell(5),
                from: Some(Cell(4)),
            },
        );
        assert!(!bans.allows(0, 3, Cell(5), Cell(5)));
        assert!(!bans.allows(0, 3, Cell(6), Cell(5)));
        assert!(bans.allows(0, 2, Cell(6), Cell(5)));
        assert!(bans.allows(1, 3, Cell(4), Cell(5)));
        assert!(!bans.allows(1, 1, Cell(4), Cell(5)));
        assert!(bans.allows(1, 1, Cell(6), Cell(5)));
        assert_eq!(bans.free_from(), 4);
    }
}
