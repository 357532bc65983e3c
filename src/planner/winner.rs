//! CO-WHCA*P's owner choice, the seed's Algorithm 3 (`select_wd`): each
//! candidate in turn reserves its window (tentatively, in the CO table, so
//! the table with the candidate's claims is the seed's temporary `T_tmp`);
//! every other unit of the conflict searches a path around it; the candidate
//! whose reservation gives the smallest summed cost over the conflict's units
//! wins. Future conflicts are ignored, as in the seed. The tentative claims
//! are released before the next candidate, so the table is left unchanged.

use crate::agents::AgentId;
use crate::map::Cell;

use super::co_core::CoCore;

/// Tick index at which a path reaches `goal` for good, if it does.
fn arrival(path: &[Cell], goal: Cell) -> Option<usize> {
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
    core: &mut CoCore,
    candidates: &[AgentId],
    members: &[AgentId],
    ws: u32,
    we: u32,
) -> AgentId {
    // A unit that cannot reach its goal in time costs as much as the run.
    let penalty = 2 * core.max_ticks as u64;
    let mut claims: Vec<(Cell, u32)> = Vec::new();
    let mut best = (u64::MAX, candidates[0]);
    for &c in candidates {
        let from = core.window_from(c, ws);
        core.claim_window(c, from, we, &mut claims);
        let ci = c.index();
        let mut estimate = arrival(&core.paths[ci], core.goal[ci]).map_or(penalty, |k| k as u64);
        for &m in members {
            if m == c {
                continue;
            }
            let mi = m.index();
            if !core.movable[mi] {
                estimate += penalty;
                continue;
            }
            let (_, full) = core.search_unit(m);
            estimate += if full {
                // Fixed prefix, then the searched path (its first cell is the
                // prefix's last).
                (core.prefix_len(m) - 1 + arrival(&core.scratch, core.goal[mi]).unwrap_or(0)) as u64
            } else {
                penalty
            };
        }
        core.release_claims(c, &claims);
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
