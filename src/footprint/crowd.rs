//! Random mixed crowds for tests, benchmarks and the command line: bodies
//! of several kinds placed on a map without overlapping, each with a goal
//! its body can reach.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::body::{body, fit_grid};
use crate::map::{Cell, Grid};
use crate::units::{UnitKind, MAX_SIZE};

/// The army of the mixed benchmarks and tests, in the proportions of
/// `profiles/mixed-2k.toml`: of every ten units six one-cell, two 2×2, one
/// 3×3 and one one-cell unit at three ticks a move.
pub fn army_mix(n: usize) -> Vec<UnitKind> {
    (0..n)
        .map(|u| match u % 10 {
            0 | 1 => UnitKind::new(2, 1),
            2 => UnitKind::new(3, 1),
            3 => UnitKind::new(1, 3),
            _ => UnitKind::CELL,
        })
        .collect()
}

/// Starts and goals for units of `kinds` (in that order) on `grid`: no two
/// bodies overlap at their starts, nor at their goals, and each goal is
/// reachable from its start on the anchors the body fits on. A body larger
/// than a cell starts and ends in the connected region of those anchors
/// that holds most of them, where one does: a body in a pocket of its own
/// could never make way (on den520d, a 3×3 body in a dead end three cells
/// wide, with a one-cell unit's goal beyond it). Where no region holds
/// most (3×3 bodies on a random map with 10% obstacles), bodies are placed
/// anywhere. Larger bodies are placed first. `None` if the map is too
/// crowded for them.
pub fn mixed_crowd(grid: &Grid, kinds: &[UnitKind], seed: u64) -> Option<Vec<(Cell, Cell)>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut fits: Vec<Option<Grid>> = vec![None; MAX_SIZE as usize + 1];
    for k in kinds {
        let s = k.size as usize;
        if s > 1 && fits[s].is_none() {
            fits[s] = Some(fit_grid(grid, s as u32));
        }
    }
    let fit = |size: u8| -> &Grid { fits[size as usize].as_ref().unwrap_or(grid) };
    // Per body size, the label of the region that holds most of its
    // anchors, if one does.
    let main_region: Vec<Option<u32>> = (0..=MAX_SIZE)
        .map(|s| {
            let sizes = fit(s).region_sizes();
            let all: usize = sizes.iter().sum();
            (0..sizes.len())
                .max_by_key(|&r| sizes[r])
                .filter(|&r| 2 * sizes[r] > all)
                .map(|r| r as u32)
        })
        .collect();
    let mut order: Vec<usize> = (0..kinds.len()).collect();
    order.sort_by_key(|&u| std::cmp::Reverse(kinds[u].size));
    let mut candidates: Vec<Cell> = (0..grid.cell_count() as u32)
        .map(Cell)
        .filter(|&c| grid.is_passable(c))
        .collect();
    candidates.shuffle(&mut rng);
    let mut taken_start = vec![false; grid.cell_count()];
    let mut taken_goal = vec![false; grid.cell_count()];
    let mut out = vec![(Cell(0), Cell(0)); kinds.len()];
    // Each unit scans the shuffled cells from a random offset.
    for &u in &order {
        let size = kinds[u].size;
        let f = fit(size);
        let free = |taken: &[bool], c: Cell| {
            f.is_passable(c)
                && (size == 1 || main_region[size as usize].is_none_or(|r| f.region(c) == r))
                && body(grid, c, size as u32).all(|b| !taken[b.index()])
        };
        let n = candidates.len();
        let from = rng.gen_range(0..n.max(1));
        let to = rng.gen_range(0..n.max(1));
        // A start in a pocket too small for a second body has no goal:
        // the next free start is tried (a few dozen at most).
        let (start, goal) = (0..n)
            .map(|k| candidates[(from + k) % n])
            .filter(|&c| free(&taken_start, c))
            .take(64)
            .find_map(|start| {
                (0..n)
                    .map(|k| candidates[(to + k) % n])
                    .find(|&c| free(&taken_goal, c) && f.reachable(start, c))
                    .map(|goal| (start, goal))
            })?;
        for b in body(grid, start, size as u32) {
            taken_start[b.index()] = true;
        }
        for b in body(grid, goal, size as u32) {
            taken_goal[b.index()] = true;
        }
        out[u] = (start, goal);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body larger than a cell starts and ends in the region of its
    /// anchors that holds most of them, never in a pocket it could not
    /// leave to make way.
    #[test]
    fn bodies_keep_out_of_pockets_of_their_anchors() {
        // An open room, and a dead end three cells wide off it, joined to
        // it by a kink that a 3×3 body cannot take: a body in the dead end
        // could never leave it to let anyone past.
        let mut rows = vec!["####...#####".to_string(); 6];
        rows.push("#####...####".to_string());
        rows.extend(std::iter::repeat_n("............".to_string(), 7));
        let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
        let grid = Grid::from_rows(&rows, crate::map::Connectivity::Four);
        let fit = fit_grid(&grid, 3);
        let big = UnitKind::new(3, 1);
        for seed in 0..40 {
            let placed = mixed_crowd(&grid, &[big, big], seed).expect("room");
            for (start, goal) in placed {
                for c in [start, goal] {
                    let (_, y) = grid.xy(c);
                    assert!(
                        y >= 4,
                        "seed {seed}: a body placed in the dead end at {c:?}"
                    );
                    assert!(fit.is_passable(c));
                }
            }
        }
    }
}
