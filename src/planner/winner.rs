//! CO-WHCA*P's owner choice, the seed's Algorithm 3 (`select_wd`): each
//! candidate in turn reserves its window (tentatively, in the CO table, so
//! the table with the candidate's claims is the seed's temporary `T_tmp`);
//! every other unit of the conflict searches a path around it; the candidate
//! whose reservation gives the smallest summed cost over the conflict's units
//! wins. Future conflicts are ignored, as in the seed. The tentative claims
//! are released before the next candidate, so the table is left unchanged.

use crate::map::Cell;
use crate::units::Slot;

/// What the owner choice asks of the conflict-oriented planner.
pub(super) trait Trial {
    /// The run's turn limit: a unit that cannot arrive costs twice that.
    fn max_ticks(&self) -> u32;
    /// Reserves `c`'s window from `ws` to `we` tentatively, noting each
    /// claim in `claims`.
    fn claim(&mut self, c: Slot, ws: u32, we: u32, claims: &mut Vec<(Cell, u32)>);
    /// Releases what [`Trial::claim`] reserved.
    fn release(&mut self, c: Slot, claims: &[(Cell, u32)]);
    /// The tick at which `c`'s current path arrives for good, if it does.
    fn planned_arrival(&self, c: Slot) -> Option<usize>;
    /// Searches `m` a path around the claims; the tick it arrives, or
    /// `None` if `m` may not move or the search found no full path.
    fn arrival_around(&mut self, m: Slot) -> Option<usize>;
}

/// Tick index at which a path reaches `goal` for good, if it does.
pub(super) fn arrival(path: &[Cell], goal: Cell) -> Option<usize> {
    if path.last() != Some(&goal) {
        return None;
    }
    let stay = path.iter().rev().take_while(|&&c| c == goal).count();
    Some(path.len() - stay)
}

/// Picks the owner among `candidates` (units of the conflict that may own
/// it) by the summed path cost over `members` (all units of the conflict),
/// for a window from `ws` to `we`.
pub(super) fn select_winner(
    trial: &mut impl Trial,
    candidates: &[Slot],
    members: &[Slot],
    ws: u32,
    we: u32,
) -> Slot {
    // A unit that cannot reach its goal in time costs as much as the run.
    let penalty = 2 * trial.max_ticks() as u64;
    let mut claims: Vec<(Cell, u32)> = Vec::new();
    let mut best = (u64::MAX, candidates[0]);
    for &c in candidates {
        trial.claim(c, ws, we, &mut claims);
        let mut estimate = trial.planned_arrival(c).map_or(penalty, |k| k as u64);
        for &m in members {
            if m != c {
                estimate += trial.arrival_around(m).map_or(penalty, |k| k as u64);
            }
        }
        trial.release(c, &claims);
        if estimate < best.0 {
            best = (estimate, c);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrival_ignores_trailing_waits() {
        let g = Cell(3);
        assert_eq!(arrival(&[Cell(1), Cell(2), Cell(3), Cell(3)], g), Some(2));
        assert_eq!(arrival(&[Cell(3)], g), Some(0));
        assert_eq!(arrival(&[Cell(3), Cell(2)], g), None);
    }
}
