//! Map tiles whose units can be planned at the same time.
//!
//! A window search `w` ticks deep, and the commit of what it finds, read and
//! write the reservation table only within `w + 1` cells of the unit's cell
//! (the `+ 1` for the swap and crossing checks beside each step). Cut the map
//! into square tiles at least `2 (w + 1)` cells wide and colour them like a
//! 2×2 chessboard: two tiles of one colour have a whole tile between them,
//! so no unit of one can touch what a unit of the other reads. The tiles of
//! one colour are planned in parallel, each one's units in order, and the
//! colours one after another: the outcome depends on the tiling and the
//! order, never on the threads.
//!
//! A tile's units read and write only its own cells and those of the eight
//! tiles around it, so "the colours one after another" needs no barrier
//! between colours: a tile waits only for its neighbours of the colours
//! before its own ([`Tiling::graph`]), and the outcome is the same as with
//! the barriers.

use crate::map::{Cell, Grid};
use crate::units::Slot;
use crate::world::TileGraph;

/// Units sorted by colour, tile and their order, with each tile's range.
/// Rebuilt in place ([`Tiling::rebuild`]): a planner that tiles every tick
/// keeps one and allocates nothing once it has grown.
#[derive(Clone, Debug, Default)]
pub struct Tiling {
    /// The units, colour by colour, tile by tile, in their given order
    /// within a tile.
    pub units: Vec<Slot>,
    /// Per colour, the ranges of `units` that are its tiles (non-empty ones,
    /// in tile order).
    pub colours: [Vec<(usize, usize)>; 4],
    /// Per colour, the place of each of its tiles on the coarse grid of
    /// tiles (`tx + ty * across`), beside `colours`.
    places: [Vec<u32>; 4],
    /// Tiles across and down.
    across: usize,
    down: usize,
    /// Scratch of the counting sort: each unit's tile, and each tile's
    /// first place in `units`.
    staged: Vec<(Slot, u32)>,
    start: Vec<usize>,
    /// The order of [`Tiling::graph`]: each place's tile in it (or
    /// `u32::MAX` for an empty place), and the graph's arrays.
    order_of: Vec<u32>,
    ranges: Vec<(usize, usize)>,
    waits_for: Vec<u8>,
    followers: Vec<u32>,
    follower_start: Vec<u32>,
}

/// Fewest tiles across and down for tiling to pay: on a smaller map each
/// colour has a tile or two, too few to share among workers, and the
/// batches of [`crate::world::Scheduler`] run in parallel instead (a
/// 32×32 map is a single tile).
const MIN_TILES_PER_SIDE: u32 = 4;

impl Tiling {
    /// Whether tiling a map for window searches `window` ticks deep pays.
    /// Depends on the map and window alone, so plans stay the same for any
    /// number of threads.
    pub fn pays(grid: &Grid, window: u32) -> bool {
        let side = tile_side(window);
        grid.width().div_ceil(side) >= MIN_TILES_PER_SIDE
            && grid.height().div_ceil(side) >= MIN_TILES_PER_SIDE
    }

    /// The tiling of units (with their cells) for window searches `window`
    /// ticks deep.
    #[cfg(test)]
    pub fn new(grid: &Grid, window: u32, units: impl Iterator<Item = (Slot, Cell)>) -> Self {
        let mut tiling = Tiling::default();
        tiling.rebuild(grid, window, units);
        tiling
    }

    /// Tiles `units` (with their cells) afresh, reusing this tiling's memory.
    pub fn rebuild(&mut self, grid: &Grid, window: u32, units: impl Iterator<Item = (Slot, Cell)>) {
        let side = tile_side(window);
        let across = grid.width().div_ceil(side) as usize;
        let down = grid.height().div_ceil(side) as usize;
        // Tiles numbered colour-major, so one counting sort orders the units.
        let tile_of = |c: Cell| {
            let (x, y) = grid.xy(c);
            let (tx, ty) = ((x / side) as usize, (y / side) as usize);
            let colour = (tx % 2) + 2 * (ty % 2);
            // Within a colour, tiles in row-major order of the coarse grid.
            (colour * across * down + ty * across + tx) as u32
        };
        self.staged.clear();
        self.staged.extend(units.map(|(a, c)| (a, tile_of(c))));
        let tiles = 4 * across * down;
        self.start.clear();
        self.start.resize(tiles + 1, 0);
        for &(_, t) in &self.staged {
            self.start[t as usize + 1] += 1;
        }
        for t in 0..tiles {
            self.start[t + 1] += self.start[t];
        }
        self.across = across;
        self.down = down;
        for (colour, (ranges, places)) in self.colours.iter_mut().zip(&mut self.places).enumerate()
        {
            ranges.clear();
            places.clear();
            let first = colour * across * down;
            for t in first..first + across * down {
                if self.start[t] < self.start[t + 1] {
                    ranges.push((self.start[t], self.start[t + 1]));
                    places.push((t - first) as u32);
                }
            }
        }
        // `start` becomes each tile's next free place as units are placed.
        self.units.clear();
        self.units.resize(self.staged.len(), Slot(0));
        for &(a, t) in &self.staged {
            let next = &mut self.start[t as usize];
            self.units[*next] = a;
            *next += 1;
        }
    }

    /// Orders the tiles as a graph for [`crate::world::Scheduler::run_tiles`]
    /// ([`Tiling::graph`]): colour after colour, starting with colour
    /// `first` (the colours take turns going first), each tile waiting for
    /// the tiles around it of the colours before its own. Reuses this
    /// tiling's memory.
    pub fn order(&mut self, first: usize) {
        let (across, down) = (self.across, self.down);
        let colour_at = |rank: usize| (first + rank) % 4;
        self.ranges.clear();
        self.order_of.clear();
        self.order_of.resize(across * down, u32::MAX);
        for rank in 0..4 {
            let c = colour_at(rank);
            for (&range, &place) in self.colours[c].iter().zip(&self.places[c]) {
                self.order_of[place as usize] = self.ranges.len() as u32;
                self.ranges.push(range);
            }
        }
        // The colour rank of a tile in the order: tiles are ranked in runs.
        let mut rank_end = [0usize; 4];
        let mut end = 0;
        for (rank, e) in rank_end.iter_mut().enumerate() {
            end += self.colours[colour_at(rank)].len();
            *e = end;
        }
        let rank_of = |t: usize| rank_end.iter().position(|&e| t < e).unwrap_or(3);
        self.waits_for.clear();
        self.waits_for.resize(self.ranges.len(), 0);
        self.followers.clear();
        self.follower_start.clear();
        for rank in 0..4 {
            let c = colour_at(rank);
            for &place in &self.places[c] {
                let t = self.order_of[place as usize] as usize;
                self.follower_start.push(self.followers.len() as u32);
                let (tx, ty) = (
                    (place as usize % across) as i64,
                    (place as usize / across) as i64,
                );
                for (dx, dy) in NEIGHBOURS {
                    let (x, y) = (tx + dx, ty + dy);
                    if x < 0 || y < 0 || x >= across as i64 || y >= down as i64 {
                        continue;
                    }
                    let u = self.order_of[x as usize + y as usize * across];
                    if u != u32::MAX && rank_of(u as usize) > rank {
                        self.followers.push(u);
                        self.waits_for[u as usize] += 1;
                    }
                }
                debug_assert_eq!(self.follower_start.len(), t + 1);
            }
        }
        self.follower_start.push(self.followers.len() as u32);
    }

    /// The graph [`Tiling::order`] built.
    pub fn graph(&self) -> TileGraph<'_> {
        TileGraph {
            ranges: &self.ranges,
            waits_for: &self.waits_for,
            followers: &self.followers,
            follower_start: &self.follower_start,
        }
    }
}

/// The eight tiles around one, as steps on the coarse grid.
const NEIGHBOURS: [(i64, i64); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The side of a tile for window searches `window` ticks deep: a unit's
/// search and commit stay within `window + 1` cells of it, so two units
/// a whole tile apart never meet.
pub fn tile_side(window: u32) -> u32 {
    2 * (window + 1) + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{generate_map, Connectivity};

    /// A 150×97 open map, 8-connected, and a unit on every `step`-th cell
    /// (the unit's slot is its cell's number).
    fn open_map_with_units_every(step: usize) -> (Grid, Vec<(Slot, Cell)>) {
        let g = generate_map("150x97:0.0".parse().unwrap(), Connectivity::Eight, 1);
        let cells = (0..g.cell_count() as u32)
            .step_by(step)
            .map(|c| (Slot(c), Cell(c)))
            .collect();
        (g, cells)
    }

    /// Every unit appears once; units of two tiles of one colour are more
    /// than `2 (w + 1)` moves apart; within a tile the given order holds.
    #[test]
    fn tiles_of_one_colour_are_far_apart() {
        let (g, cells) = open_map_with_units_every(7);
        let w = 8;
        let tiling = Tiling::new(&g, w, cells.iter().copied());
        let mut seen: Vec<u32> = tiling.units.iter().map(|a| a.0).collect();
        seen.sort_unstable();
        assert_eq!(seen, cells.iter().map(|(a, _)| a.0).collect::<Vec<_>>());
        let cell = |a: Slot| Cell(a.0);
        for ranges in &tiling.colours {
            for (i, &(s0, e0)) in ranges.iter().enumerate() {
                let tile = &tiling.units[s0..e0];
                assert!(
                    tile.windows(2).all(|p| p[0].0 < p[1].0),
                    "order kept in a tile"
                );
                for &(s1, e1) in &ranges[i + 1..] {
                    for &a in tile {
                        for &b in &tiling.units[s1..e1] {
                            let d = g.grid_distance(cell(a), cell(b));
                            assert!(d > 2 * (w + 1), "{a:?} and {b:?} are {d} apart");
                        }
                    }
                }
            }
        }
        let total: usize = tiling.colours.iter().flatten().map(|(s, e)| e - s).sum();
        assert_eq!(total, cells.len());
    }

    /// The graph of a turn holds every tile once, colour after colour from
    /// the turn's first; a tile waits for exactly its neighbours (on the
    /// coarse grid) of the colours before its own; and any two tiles whose
    /// units are within reach of each other (`2 (w + 1)` moves) are joined,
    /// the earlier waiting for nothing of the later.
    #[test]
    fn tiles_within_reach_wait_for_each_other_in_colour_order() {
        let (g, cells) = open_map_with_units_every(5);
        let w = 8;
        let mut tiling = Tiling::new(&g, w, cells.iter().copied());
        for turn in 0..4 {
            tiling.order(turn);
            let graph = tiling.graph();
            let n = graph.ranges.len();
            assert_eq!(n, tiling.colours.iter().map(Vec::len).sum::<usize>());
            let first: Vec<(usize, usize)> = tiling.colours[turn].clone();
            assert_eq!(&graph.ranges[..first.len()], &first[..]);
            let mut waits = vec![0u8; n];
            for t in 0..n {
                for &f in graph.followers_of(t) {
                    assert!(f as usize > t, "edges run forward");
                    waits[f as usize] += 1;
                }
            }
            assert_eq!(waits, graph.waits_for);
            let joined = |t: usize, u: usize| graph.followers_of(t).contains(&(u as u32));
            for t in 0..n {
                for u in t + 1..n {
                    let (s0, e0) = graph.ranges[t];
                    let (s1, e1) = graph.ranges[u];
                    let near = tiling.units[s0..e0].iter().any(|a| {
                        tiling.units[s1..e1]
                            .iter()
                            .any(|b| g.grid_distance(Cell(a.0), Cell(b.0)) <= 2 * (w + 1))
                    });
                    if near {
                        assert!(
                            joined(t, u),
                            "tiles {t} and {u} are within reach, not joined"
                        );
                    }
                }
            }
        }
    }
}
