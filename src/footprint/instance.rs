//! Seeded crowds of units with footprints, for tests, benches and the CLI.

use rustc_hash::FxHashMap;

use super::action::UnitShape;
use super::body::{body, fit_grid};
use super::planner::FootprintUnit;
use crate::map::{Cell, Grid};

/// Units of the given `shapes` (one each) at seeded random starts and goals
/// where their bodies fit, no two bodies overlapping at the starts nor at
/// the goals, each goal reachable from its start by that body. Fewer units
/// than shapes if the map runs out of room.
pub fn random_units(grid: &Grid, shapes: &[UnitShape], seed: u64) -> Vec<FootprintUnit> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0xF007_F00D);
    let mut fit_grids: FxHashMap<u32, Grid> = FxHashMap::default();
    let mut taken = [
        vec![false; grid.cell_count()],
        vec![false; grid.cell_count()],
    ];
    let mut out = Vec::new();
    for &shape in shapes {
        let fits = fit_grids
            .entry(shape.size)
            .or_insert_with(|| fit_grid(grid, shape.size));
        let mut anchors: Vec<Cell> = (0..grid.cell_count() as u32)
            .map(Cell)
            .filter(|&c| fits.is_passable(c))
            .collect();
        anchors.shuffle(&mut rng);
        let free = |side: &[bool], c: Cell| body(grid, c, shape.size).all(|b| !side[b.index()]);
        let Some(&start) = anchors.iter().find(|&&c| free(&taken[0], c)) else {
            continue;
        };
        let Some(&goal) = anchors
            .iter()
            .rev()
            .find(|&&c| free(&taken[1], c) && fits.reachable(start, c))
        else {
            continue;
        };
        for (side, at) in [(0, start), (1, goal)] {
            for b in body(grid, at, shape.size) {
                taken[side][b.index()] = true;
            }
        }
        out.push(FootprintUnit { start, goal, shape });
    }
    out
}
