//! Instances biased towards conflicts, as in Bnaya & Felner (2014)'s
//! experiments: "for each traversable cell l we calculate a density
//! coefficient which is the number of cells located in proximity r from l
//! that are used as sources or destinations for other units or that are
//! un-traversable. When randomizing source or destination we give higher
//! probability to cells with high density coefficient."
//!
//! Here proximity `r` is the square of cells within Chebyshev distance `r`
//! (cells off the map count as untraversable), and a cell is drawn with
//! weight `1 + density` (the seed gives no formula; every free cell keeps a
//! chance). Starts are drawn one after another, then goals, the densities
//! updated after every draw; starts are distinct, goals are distinct, and
//! every goal lies in its start's connected region.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Cell, Grid, Instance, MapError};

/// Draws `units` starts and goals on `grid` with the seed's density
/// coefficient over proximity `radius`, deterministically from `seed`.
pub fn crowded_instance(
    grid: Arc<Grid>,
    units: usize,
    radius: u32,
    seed: u64,
) -> Result<Instance, MapError> {
    let free = grid.passable_count();
    if units > free {
        return Err(MapError::Invalid(format!(
            "{units} units asked for, but the map has only {free} free cells"
        )));
    }
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let r = radius as i64;
    let around = |c: Cell| {
        let (x, y) = grid.xy(c);
        let (x, y) = (x as i64, y as i64);
        (-r..=r)
            .flat_map(move |dy| (-r..=r).map(move |dx| (x + dx, y + dy)))
            .filter(move |&(nx, ny)| (nx, ny) != (x, y))
    };
    // Density: untraversable cells (and off-map ones) in proximity, plus
    // cells used as a start or goal, updated as units are placed.
    let mut density: Vec<u32> = (0..grid.cell_count() as u32)
        .map(|i| {
            around(Cell(i))
                .filter(|&(nx, ny)| {
                    nx < 0
                        || ny < 0
                        || nx >= w
                        || ny >= h
                        || !grid.is_passable(grid.cell(nx as u32, ny as u32))
                })
                .count() as u32
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xC0_FFEE_D00D);
    let mut used_start = vec![false; grid.cell_count()];
    let mut used_goal = vec![false; grid.cell_count()];
    let mark = |c: Cell, density: &mut Vec<u32>| {
        for (nx, ny) in around(c) {
            if nx >= 0 && ny >= 0 && nx < w && ny < h {
                density[grid.cell(nx as u32, ny as u32).index()] += 1;
            }
        }
    };
    let draw = |rng: &mut ChaCha8Rng, density: &[u32], ok: &dyn Fn(Cell) -> bool| {
        let weight = |i: usize| {
            let c = Cell(i as u32);
            if grid.is_passable(c) && ok(c) {
                1 + density[i] as u64
            } else {
                0
            }
        };
        let total: u64 = (0..density.len()).map(weight).sum();
        if total == 0 {
            return None;
        }
        let mut pick = rng.gen_range(0..total);
        for i in 0..density.len() {
            let wi = weight(i);
            if pick < wi {
                return Some(Cell(i as u32));
            }
            pick -= wi;
        }
        None
    };
    let mut starts = Vec::with_capacity(units);
    for _ in 0..units {
        let c = draw(&mut rng, &density, &|c| !used_start[c.index()])
            .expect("enough free cells were checked");
        used_start[c.index()] = true;
        mark(c, &mut density);
        starts.push(c);
    }
    let mut goals = Vec::with_capacity(units);
    for &s in &starts {
        let region = grid.region(s);
        let c = draw(&mut rng, &density, &|c| {
            !used_goal[c.index()] && grid.region(c) == region
        })
        .ok_or_else(|| MapError::Invalid("no free goal left in a start's region".into()))?;
        used_goal[c.index()] = true;
        mark(c, &mut density);
        goals.push(c);
    }
    Ok(Instance {
        grid,
        starts,
        goals,
        map_name: "generated-crowded".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{generate_map, random_instance, Connectivity};

    /// Mean number of other units' starts and goals within distance 2.
    fn crowding(inst: &Instance) -> f64 {
        let g = &inst.grid;
        let cells: Vec<Cell> = inst.starts.iter().chain(&inst.goals).copied().collect();
        let mut near = 0usize;
        for &a in &cells {
            near += cells
                .iter()
                .filter(|&&b| b != a && g.grid_distance(a, b) <= 2)
                .count();
        }
        near as f64 / cells.len() as f64
    }

    #[test]
    fn crowded_instances_are_valid_seeded_and_more_crowded() {
        let g = Arc::new(generate_map(
            "32x32:0.2".parse().unwrap(),
            Connectivity::Four,
            3,
        ));
        let a = crowded_instance(g.clone(), 50, 2, 9).unwrap();
        let b = crowded_instance(g.clone(), 50, 2, 9).unwrap();
        assert_eq!((&a.starts, &a.goals), (&b.starts, &b.goals));
        assert!(a.check_distinct().is_ok());
        assert!(a.unreachable_units().is_empty());
        let (mut crowded, mut uniform) = (0.0, 0.0);
        for seed in 0..5 {
            crowded += crowding(&crowded_instance(g.clone(), 50, 2, seed).unwrap());
            uniform += crowding(&random_instance(g.clone(), 50, seed).unwrap());
        }
        assert!(crowded > uniform, "crowded {crowded} vs uniform {uniform}");
    }
}
