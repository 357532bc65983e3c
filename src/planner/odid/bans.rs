//! Conflict-based search's constraints on one unit: moves it may not make at
//! given ticks. A vertex ban keeps it off a cell at a tick; a move ban forbids
//! one move (the unit's half of a swap or a diagonal crossing).

use rustc_hash::FxHashSet;

use crate::map::Cell;

/// Stands for "from any cell" in a vertex ban.
const ANY: u32 = u32::MAX;

/// One constraint, on the move made between `t` and `t + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Ban {
    pub t: u32,
    pub to: Cell,
    /// `None`: the unit may not be on `to` at `t + 1` at all.
    pub from: Option<Cell>,
}

/// The bans on one unit.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bans {
    set: FxHashSet<(u32, u32, u32)>,
    /// Ticks up to which bans exist (one past the latest).
    end: u32,
}

impl Bans {
    pub(crate) fn add(&mut self, ban: Ban) {
        self.set
            .insert((ban.t, ban.to.0, ban.from.map_or(ANY, |c| c.0)));
        self.end = self.end.max(ban.t + 1);
    }

    /// Whether the move from `from` at `t` to `to` at `t + 1` is allowed.
    #[inline]
    pub(crate) fn allows(&self, t: u32, from: Cell, to: Cell) -> bool {
        t >= self.end
            || !(self.set.contains(&(t, to.0, ANY)) || self.set.contains(&(t, to.0, from.0)))
    }

    /// One past the latest ticked ban: past it nothing is banned.
    pub(crate) fn end(&self) -> u32 {
        self.end
    }

    /// The first tick from which the unit may wait on `goal` for good.
    pub(crate) fn settle_on(&self, goal: Cell) -> u32 {
        self.set
            .iter()
            .filter(|&&(_, to, _)| to == goal.0)
            .map(|&(t, _, _)| t + 1)
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertex_and_move_bans() {
        let (a, b, c) = (Cell(0), Cell(1), Cell(2));
        let mut bans = Bans::default();
        bans.add(Ban {
            t: 3,
            to: b,
            from: None,
        });
        bans.add(Ban {
            t: 5,
            to: c,
            from: Some(b),
        });
        assert!(!bans.allows(3, a, b) && !bans.allows(3, b, b));
        assert!(bans.allows(2, a, b) && bans.allows(4, a, b));
        assert!(!bans.allows(5, b, c) && bans.allows(5, c, c));
        assert_eq!(bans.end(), 6);
        assert_eq!(bans.settle_on(b), 4);
        assert_eq!(bans.settle_on(a), 0);
    }
}
