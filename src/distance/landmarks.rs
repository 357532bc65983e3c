//! Landmark (ALT) lower bounds on true distance: breadth-first distances from
//! a few far-apart cells, shared by every unit. By the triangle inequality
//! `|d(L, a) - d(L, b)| <= d(a, b)` for every landmark `L`, so the largest such
//! difference is an admissible, consistent estimate of the distance from `a`
//! to `b`, read in O(landmarks) with no per-unit search.
//!
//! Per-unit Reverse Resumable A* gives exact distances but its memory and its
//! resumes grow with the map: on a 512×512 map with 10,000 units it expanded
//! 242 million nodes and held 5 GiB. Landmarks cost `landmarks × cells × 2`
//! bytes once, whatever the number of units.

use crate::map::{Cell, Grid};

/// Landmark distance table, cell-major (`dist[cell * count + k]`) so one
/// lookup touches one cache line.
#[derive(Clone, Debug)]
pub struct Landmarks {
    count: usize,
    dist: Vec<u16>,
    /// The chosen landmark cells.
    pub cells: Vec<Cell>,
}

const FAR: u16 = u16::MAX;

/// Landmark rows measured before they are scattered into the table together.
const SCATTER_BATCH: usize = 4;

/// Breadth-first distances from `source` into `row` ([`FAR`] where out of
/// reach; at most `FAR - 1`), with `seen` (a bit per cell) and `queue` as
/// scratch. The bits tell reached cells apart in an eighth of a megabyte
/// per million cells, where a table of distances (the plain breadth-first
/// search) spilled out of the cache on a large map: the landmarks of the
/// Iron Harvest map (1800×1912) took a second. ([`super::bfs_distances_into`]
/// stays the plain search: tests take it as the reference, and the report's
/// speed yardstick times it, so pages written apart compare.)
fn measure_row(
    grid: &Grid,
    source: Cell,
    row: &mut [u16],
    seen: &mut Vec<u64>,
    queue: &mut Vec<u32>,
) {
    row.fill(FAR);
    seen.clear();
    seen.resize(row.len().div_ceil(64), 0);
    queue.clear();
    if !grid.is_passable(source) {
        return;
    }
    seen[source.index() >> 6] |= 1 << (source.0 & 63);
    queue.push(source.0);
    // Distances by level: cells `head..level_end` of the queue lie `d`
    // moves away.
    let (mut head, mut level_end, mut d) = (0, 1, 0u16);
    while let Some(&c) = queue.get(head) {
        if head == level_end {
            d = (d + 1).min(FAR - 1);
            level_end = queue.len();
        }
        head += 1;
        row[c as usize] = d;
        let mut bits = grid.move_bits(Cell(c));
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let nb = (c as i64 + grid.move_delta(k)) as usize;
            let (word, bit) = (nb >> 6, 1u64 << (nb & 63));
            if seen[word] & bit == 0 {
                seen[word] |= bit;
                queue.push(nb as u32);
            }
        }
    }
}

/// Writes the landmark-major `rows` (each a row of every cell's distance
/// from one landmark, landmarks `first..`) into the cell-major table `dist`
/// of `count` landmarks per cell.
fn scatter(dist: &mut [u16], count: usize, first: usize, rows: &[u16]) {
    let n = dist.len() / count;
    let m = rows.len() / n;
    for (c, cell_row) in dist.chunks_exact_mut(count).enumerate() {
        for (j, slot) in cell_row[first..first + m].iter_mut().enumerate() {
            *slot = rows[j * n + c];
        }
    }
}

impl Landmarks {
    /// Picks `count` landmarks by farthest-point selection (each next one as
    /// far as possible from those chosen) and measures distances from each.
    ///
    /// Each breadth-first pass writes a compact row per landmark; a batch
    /// of `SCATTER_BATCH` rows is then scattered into the cell-major
    /// table at once, so each cell's row is written once per batch rather
    /// than once per landmark (a pass per landmark over the whole table was
    /// most of a large map's set-up).
    pub fn build(grid: &Grid, count: usize) -> Self {
        let n = grid.cell_count();
        let count = count.max(1);
        let mut cells = Vec::with_capacity(count);
        // Start from the first passable cell of the largest region.
        let sizes = grid.region_sizes();
        let largest = (0..sizes.len()).max_by_key(|&r| sizes[r]).unwrap_or(0) as u32;
        let Some(mut next) = (0..n as u32).map(Cell).find(|&c| grid.region(c) == largest) else {
            let dist = vec![FAR; n * count];
            return Landmarks { count, dist, cells };
        };
        // Zeroed memory comes mapped on first touch, and every entry is
        // written by a scatter below.
        let mut dist = vec![0; n * count];
        let mut nearest = vec![FAR; n];
        let (mut seen, mut queue) = (Vec::new(), Vec::with_capacity(n));
        let mut batch = vec![FAR; n * SCATTER_BATCH.min(count)];
        for k in 0..count {
            cells.push(next);
            let row = &mut batch[(k % SCATTER_BATCH) * n..][..n];
            measure_row(grid, next, row, &mut seen, &mut queue);
            // The next landmark: the first cell (in index order) farthest
            // from all chosen so far (by the rows' distances, which stop at
            // `FAR - 1`: only a map with ways longer than 65,534 moves
            // could choose otherwise than with exact ones).
            let mut far = (0u16, next);
            for (c, (&d, near)) in row.iter().zip(nearest.iter_mut()).enumerate() {
                if d != FAR {
                    *near = (*near).min(d);
                    if *near > far.0 {
                        far = (*near, Cell(c as u32));
                    }
                }
            }
            next = far.1;
            let rows = k % SCATTER_BATCH + 1;
            if rows == SCATTER_BATCH || k + 1 == count {
                scatter(&mut dist, count, k + 1 - rows, &batch[..rows * n]);
            }
        }
        Landmarks { count, dist, cells }
    }

    /// Number of landmarks.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.dist.len() * 2
    }

    /// The landmark distances of one cell.
    #[inline]
    pub fn row(&self, c: Cell) -> &[u16] {
        &self.dist[c.index() * self.count..(c.index() + 1) * self.count]
    }

    /// Hints the CPU to fetch `c`'s row (see [`crate::map::prefetch`]).
    #[inline]
    pub fn prefetch_row(&self, c: Cell) {
        if let Some(first) = self.dist.get(c.index() * self.count) {
            crate::map::prefetch(first);
        }
    }

    /// A lower bound on the moves from `a` to a cell whose row is `goal_row`.
    #[inline]
    ///
    /// `a` and the goal must lie in one connected region (a search never
    /// leaves its start's): then a landmark out of reach of one is out of
    /// reach of both, its two "far" markers (`u16::MAX`) differ by 0, and
    /// no test is needed, so the loop is a plain element-wise maximum the
    /// compiler vectorizes (it was a fifth of the 10,000-unit stress run's
    /// time with the tests).
    pub fn lower_bound_to(&self, a: Cell, goal_row: &[u16]) -> u32 {
        let row = self.row(a);
        row.iter()
            .zip(goal_row)
            .fold(0u16, |best, (&x, &y)| best.max(x.abs_diff(y))) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::{bfs_distances, UNREACHABLE};
    use crate::map::{generate_map, Connectivity};

    #[test]
    fn bounds_are_admissible() {
        let g = generate_map("40x40:0.25".parse().unwrap(), Connectivity::Four, 3);
        let lm = Landmarks::build(&g, 8);
        let free: Vec<Cell> = (0..g.cell_count() as u32)
            .map(Cell)
            .filter(|&c| g.is_passable(c))
            .collect();
        for &goal in free.iter().step_by(97) {
            let exact = bfs_distances(&g, goal);
            let row = lm.row(goal).to_vec();
            let mut exact_hits = 0;
            for &c in &free {
                let lb = lm.lower_bound_to(c, &row);
                assert!(
                    lb <= exact[c.index()],
                    "{c:?}->{goal:?}: {lb} > {}",
                    exact[c.index()]
                );
                exact_hits += usize::from(lb == exact[c.index()]);
            }
            assert!(
                exact_hits * 4 > free.len(),
                "landmarks should often be exact"
            );
        }
    }

    /// The table equals farthest-point selection written plainly: a
    /// breadth-first search a landmark, the next one the first cell (in
    /// index order) farthest from all chosen.
    #[test]
    fn equals_plain_farthest_point_selection() {
        for (spec, conn, count) in [
            ("70x50:0.3", Connectivity::Four, 6),
            ("64x64:0.2", Connectivity::Eight, 5),
            ("33x47:0.1", Connectivity::Four, 16),
        ] {
            let g = generate_map(spec.parse().unwrap(), conn, 11);
            let lm = Landmarks::build(&g, count);
            let n = g.cell_count();
            let sizes = g.region_sizes();
            let largest = (0..sizes.len()).max_by_key(|&r| sizes[r]).unwrap() as u32;
            let mut next = (0..n as u32)
                .map(Cell)
                .find(|&c| g.region(c) == largest)
                .unwrap();
            let mut nearest = vec![u32::MAX; n];
            for k in 0..count {
                assert_eq!(lm.cells[k], next, "{spec}: landmark {k}");
                let d = bfs_distances(&g, next);
                let mut far = (0, next);
                for c in 0..n {
                    let want = if d[c] == UNREACHABLE {
                        FAR
                    } else {
                        d[c] as u16
                    };
                    assert_eq!(
                        lm.row(Cell(c as u32))[k],
                        want,
                        "{spec}: cell {c}, landmark {k}"
                    );
                    if d[c] != UNREACHABLE {
                        nearest[c] = nearest[c].min(d[c]);
                        if nearest[c] > far.0 {
                            far = (nearest[c], Cell(c as u32));
                        }
                    }
                }
                next = far.1;
            }
        }
    }
}
