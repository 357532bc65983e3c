//! Each unit's true-distance heuristic. A goal shared by several units (a
//! group ordered to one place) gets one breadth-first table that all of them
//! read; a unit with a goal of its own gets its own Reverse Resumable A* while
//! one per unit fits in memory (dense), and otherwise reads a landmark table
//! shared by all (see [`super::Landmarks`]).

use std::sync::Arc;

use parking_lot::Mutex;
use rustc_hash::FxHashMap;

use super::rra::WALL_DISTANCE;
use super::DistanceOracle;
use super::{dense_fits, goal_costs, Landmarks, ReverseResumableAStar};
use crate::map::{Cell, Grid};

/// One unit's source of true distances to its goal.
// Boxing the search would cost a pointer chase on every distance a window
// search asks; the other variants waste 200 bytes a unit (2 MB for 10,000).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Heuristic {
    /// Its own resumable search.
    Rra(ReverseResumableAStar),
    /// A table shared with the other units bound for the same goal.
    Shared(Arc<[u32]>),
    /// A unit's way around the units wedged on its way (see [`Detour`]).
    Detour(Box<Detour>),
    /// Landmark lower bounds (with the grid distance) towards the goal whose
    /// landmark row is kept here.
    Landmarks {
        /// The shared table.
        table: Arc<Landmarks>,
        /// The goal.
        goal: Cell,
        /// The goal's landmark distances.
        goal_row: Box<[u16]>,
    },
}

/// True distances on a unit's anchors (its cells, for a one-cell unit) with
/// the anchors of a few units
/// walled off: the units wedged on its way that no way clearing or joint
/// repair could move. A body stuck behind a parked 3×3 unit boxed in by
/// walls, or in a jam of bodies heading the other way, or a unit behind
/// units parked in a warehouse aisle, waits for good on distances through
/// them; on these it walks around. Also the way to a place where a unit
/// pulls over for another. Kept while it is needed (see the planner).
#[derive(Clone, Debug)]
pub struct Detour {
    /// The search, with those anchors as walls of its own
    /// ([`ReverseResumableAStar::around`]).
    pub search: ReverseResumableAStar,
    /// The heuristic to go back to.
    pub usual: Heuristic,
    /// A wall the unit stands on, and its distance there: one more than
    /// its best neighbour's. A unit that must leave a cell to let another
    /// in (two units in a corridor, each on the other's goal) walls off
    /// that cell for its way back, but takes its first step from it.
    pub leaving: Option<(Cell, u32)>,
}

/// A detour's distance, its walls unreachable.
#[inline]
fn off_walls(d: u32) -> u32 {
    if d >= WALL_DISTANCE {
        super::UNREACHABLE
    } else {
        d
    }
}

impl Heuristic {
    /// True distance from `cell` to the goal ([`super::UNREACHABLE`] if none).
    #[inline]
    pub fn distance(&mut self, grid: &Grid, cell: Cell) -> u32 {
        match self {
            Heuristic::Rra(r) => r.distance(grid, cell),
            Heuristic::Detour(d) => match d.leaving {
                Some((c, v)) if c == cell => v,
                _ => off_walls(d.search.distance(grid, cell)),
            },
            Heuristic::Shared(t) => t[cell.index()],
            Heuristic::Landmarks {
                table,
                goal,
                goal_row,
            } => {
                // No region check: searches only reach cells of their start's
                // region, and an unreachable goal is caught before any search.
                table
                    .lower_bound_to(cell, goal_row)
                    .max(grid.grid_distance(cell, *goal))
            }
        }
    }

    /// [`Self::distance`], or `known` when given: a landmark bound read
    /// earlier for the same cell (a pure function of the table, the goal and
    /// the cell; debug builds check it).
    pub fn distance_or(&mut self, known: Option<u32>, grid: &Grid, cell: Cell) -> u32 {
        match known {
            Some(d) => {
                debug_assert!(matches!(self, Heuristic::Landmarks { .. }));
                debug_assert_eq!(d, self.distance(grid, cell), "a handed-on landmark bound");
                d
            }
            None => self.distance(grid, cell),
        }
    }

    /// The distance from `cell` if known without work: an RRA* answers for
    /// the cells it has closed; tables and landmarks always answer.
    #[inline]
    pub fn known(&self, grid: &Grid, cell: Cell) -> Option<u32> {
        match self {
            Heuristic::Rra(r) => r.known(cell),
            Heuristic::Detour(d) => match d.leaving {
                Some((c, v)) if c == cell => Some(v),
                _ => d.search.known(cell).map(off_walls),
            },
            Heuristic::Shared(t) => Some(t[cell.index()]),
            Heuristic::Landmarks {
                table,
                goal,
                goal_row,
            } => Some(
                table
                    .lower_bound_to(cell, goal_row)
                    .max(grid.grid_distance(cell, *goal)),
            ),
        }
    }

    /// Hints the CPU to fetch what [`Self::known`] reads of `cell`: its
    /// landmark row (the other kinds' tables are local to the unit's
    /// searches or shared by few cells).
    #[inline]
    pub fn prefetch(&self, cell: Cell) {
        if let Heuristic::Landmarks { table, .. } = self {
            table.prefetch_row(cell);
        }
    }

    /// Runs this unit's assigned initial search if it has not run yet (see
    /// [`ReverseResumableAStar::assign`]).
    #[inline]
    pub fn ensure_started(&mut self, grid: &Grid) {
        match self {
            Heuristic::Rra(r) => r.ensure_started(grid),
            Heuristic::Detour(d) => d.search.ensure_started(grid),
            Heuristic::Shared(_) | Heuristic::Landmarks { .. } => {}
        }
    }

    /// Restarts this unit's own search from `position` if it has grown too
    /// large (see [`ReverseResumableAStar::restart_if_grown`]).
    pub fn restart_if_grown(&mut self, grid: &Grid, position: Cell) -> bool {
        match self {
            Heuristic::Rra(r) => r.restart_if_grown(grid, position),
            Heuristic::Detour(d) => d.search.restart_if_grown(grid, position),
            Heuristic::Shared(_) | Heuristic::Landmarks { .. } => false,
        }
    }

    /// Times this unit's own search restarted.
    pub fn restarts(&self) -> usize {
        match self {
            Heuristic::Rra(r) => r.restarts as usize,
            Heuristic::Detour(d) => d.search.restarts as usize,
            Heuristic::Shared(_) | Heuristic::Landmarks { .. } => 0,
        }
    }

    /// Whether this unit's own search stopped at its deadline or the end
    /// of its slice, so that distances it had not reached read as
    /// unreachable (never for a shared table or landmarks).
    pub fn paused(&self) -> bool {
        match self {
            Heuristic::Rra(r) => r.paused,
            Heuristic::Detour(d) => d.search.paused,
            Heuristic::Shared(_) | Heuristic::Landmarks { .. } => false,
        }
    }

    /// Whether distances are true distances (landmarks give lower bounds).
    pub fn is_exact(&self) -> bool {
        !matches!(self, Heuristic::Landmarks { .. })
    }

    /// Lets this unit's own true-distance search run until `deadline` at
    /// most per call, then pause (nothing to do for shared tables). Starts
    /// a new slice of time: [`Self::paused`] tells of this one only (a
    /// pause left over from an earlier tick made every later search that
    /// found its distances already known give up as out of time).
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        if let Some(r) = self.own_search() {
            r.deadline = deadline;
            r.paused = false;
        }
    }

    /// Lets this unit's own true-distance search close at most `cells` more
    /// cells, then pause (`None`: no limit; nothing to do for shared tables).
    pub fn set_slice(&mut self, cells: Option<u32>) {
        if let Some(r) = self.own_search() {
            r.slice = cells;
        }
    }

    /// Nodes expanded so far by this unit's own search (0 for a shared table).
    pub fn expanded(&self) -> usize {
        match self {
            Heuristic::Rra(r) => r.expanded,
            Heuristic::Detour(d) => d.search.expanded,
            Heuristic::Shared(_) | Heuristic::Landmarks { .. } => 0,
        }
    }

    /// Starts a detour (see [`Detour`]) on `search`, keeping the usual
    /// heuristic to go back to (a detour replaced keeps the first one's);
    /// `leaving`: the wall the unit stands on, if any, and its distance.
    pub fn start_detour(&mut self, search: ReverseResumableAStar, leaving: Option<(Cell, u32)>) {
        let usual = self.take().into_usual();
        *self = Heuristic::Detour(Box::new(Detour {
            search,
            usual,
            leaving,
        }));
    }

    /// Whether this is a detour that leaves a cell to let another unit in
    /// (see [`Detour::leaving`]).
    pub fn is_leaving(&self) -> bool {
        matches!(self, Heuristic::Detour(d) if d.leaving.is_some())
    }

    /// Ends a detour, if one runs: back to the usual heuristic.
    pub fn end_detour(&mut self) {
        if matches!(self, Heuristic::Detour(_)) {
            *self = self.take().into_usual();
        }
    }

    /// This heuristic, or the usual one a detour keeps.
    pub fn into_usual(self) -> Heuristic {
        match self {
            Heuristic::Detour(d) => d.usual,
            h => h,
        }
    }

    /// Moves the heuristic out, leaving an empty shared table in its place.
    fn take(&mut self) -> Heuristic {
        std::mem::replace(self, Heuristic::Shared(Arc::from(Vec::new())))
    }

    /// The unit's own search, if it has one.
    fn own_search(&mut self) -> Option<&mut ReverseResumableAStar> {
        match self {
            Heuristic::Rra(r) => Some(r),
            Heuristic::Detour(d) => Some(&mut d.search),
            Heuristic::Shared(_) | Heuristic::Landmarks { .. } => None,
        }
    }
}

/// Landmarks used when per-unit searches do not fit.
pub const LANDMARKS: usize = 16;

/// Builds every unit's heuristic: shared tables for goals named by at least
/// `share_from` units; for the others an RRA* each if dense ones fit in
/// memory, else a landmark table shared by all.
/// Returns the heuristics and the number of shared tables built.
pub fn unit_heuristics(
    grid: &Grid,
    starts: &[Cell],
    goals: &[Cell],
    share_from: usize,
) -> (Vec<Mutex<Heuristic>>, usize) {
    let mut out = Vec::with_capacity(goals.len());
    let shared = unit_heuristics_in(
        grid,
        starts,
        goals,
        share_from,
        &mut Vec::new(),
        None,
        &mut out,
    );
    (out, shared)
}

/// Which kind of heuristic each unit gets, from the goals alone.
struct Kinds {
    /// How many units name each goal.
    count: FxHashMap<Cell, usize>,
    share_from: usize,
    /// Whether every unit with a goal of its own gets a dense RRA*.
    dense: bool,
    /// Units with a goal of their own.
    own: usize,
}

impl Kinds {
    fn new(grid: &Grid, goals: &[Cell], share_from: usize) -> Self {
        let mut count: FxHashMap<Cell, usize> = FxHashMap::default();
        for &g in goals {
            *count.entry(g).or_default() += 1;
        }
        let share_from = share_from.max(2);
        let own = goals.iter().filter(|g| count[g] < share_from).count();
        Kinds {
            dense: dense_fits(grid.cell_count(), own),
            count,
            share_from,
            own,
        }
    }

    fn shared(&self, goal: Cell) -> bool {
        self.count[&goal] >= self.share_from
    }
}

/// The memory of the RRA* that [`unit_heuristics_in`] will give each unit
/// with a goal of its own on a map where they fit (`None` for the others),
/// reserved ahead of planning: a planner built before its first plan does
/// its allocating then.
pub fn reserve_unit_searches(
    grid: &Grid,
    goals: &[Cell],
    share_from: usize,
) -> Vec<Option<ReverseResumableAStar>> {
    let kinds = Kinds::new(grid, goals, share_from);
    goals
        .iter()
        .map(|&g| {
            (kinds.dense && !kinds.shared(g)).then(|| ReverseResumableAStar::reserve(grid, true))
        })
        .collect()
}

/// [`unit_heuristics`] into `out` (cleared first), taking each unit's RRA*
/// memory from `reserved` (from [`reserve_unit_searches`]; an empty or
/// short list is fine). With `defer = Some(widen)`, units' own searches are
/// only assigned ([`ReverseResumableAStar::assign`]), to be started by
/// [`Heuristic::ensure_started`] on whichever thread gets there first.
/// Returns the number of shared tables built.
pub fn unit_heuristics_in(
    grid: &Grid,
    starts: &[Cell],
    goals: &[Cell],
    share_from: usize,
    reserved: &mut [Option<ReverseResumableAStar>],
    defer: Option<u32>,
    out: &mut Vec<Mutex<Heuristic>>,
) -> usize {
    let kinds = Kinds::new(grid, goals, share_from);
    let landmarks =
        (!kinds.dense && kinds.own > 0).then(|| Arc::new(Landmarks::build(grid, LANDMARKS)));
    let mut tables: FxHashMap<Cell, Arc<[u32]>> = FxHashMap::default();
    for &g in goals.iter().filter(|&&g| kinds.shared(g)) {
        tables
            .entry(g)
            .or_insert_with(|| goal_costs(grid, g).into());
    }
    // Serially: built on two threads, the initial searches were slower
    // (brc202d, 100 units: 115 ms against 77), their first touches of fresh
    // memory contending in the kernel, and on small maps no faster.
    out.clear();
    out.extend(starts.iter().zip(goals).enumerate().map(|(i, (&s, &g))| {
        let h = if kinds.shared(g) {
            Heuristic::Shared(tables[&g].clone())
        } else if let Some(table) = &landmarks {
            Heuristic::Landmarks {
                table: table.clone(),
                goal: g,
                goal_row: table.row(g).into(),
            }
        } else {
            let mut rra = reserved
                .get_mut(i)
                .and_then(Option::take)
                .unwrap_or_else(|| ReverseResumableAStar::reserve(grid, kinds.dense));
            match defer {
                Some(widen) => rra.assign(g, s, widen),
                None => rra.restart(grid, g, s),
            }
            Heuristic::Rra(rra)
        };
        Mutex::new(h)
    }));
    tables.len()
}

/// One unit's heuristic as the space-time search's [`DistanceOracle`].
pub struct UnitOracle<'a> {
    /// The unit's heuristic.
    pub heuristic: &'a mut Heuristic,
    /// The map.
    pub grid: &'a Grid,
}

impl DistanceOracle for UnitOracle<'_> {
    #[inline]
    fn exact(&mut self, cell: Cell) -> u32 {
        self.heuristic.distance(self.grid, cell)
    }

    #[inline]
    fn known(&self, cell: Cell) -> Option<u32> {
        self.heuristic.known(self.grid, cell)
    }

    #[inline]
    fn prefetch(&self, cell: Cell) {
        self.heuristic.prefetch(cell);
    }

    fn paused(&self) -> bool {
        matches!(&*self.heuristic, Heuristic::Rra(r) if r.paused)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::{ReverseResumableAStar, UNREACHABLE};

    use crate::map::{generate_map, Connectivity};

    /// A unit leaving a cell in an aisle (the other unit's goal, next to its
    /// own) reads its distance there as one more than the best of its other
    /// neighbours': the way round the shelf, not the one step into its goal.
    /// Off that cell its distances go round it; once the detour ends, the
    /// one step is back.
    #[test]
    fn a_unit_leaving_a_cell_reads_the_way_round_from_it() {
        let g = Grid::from_rows(
            &[
                "..........",
                ".@@@@@@@@.",
                "..........",
                ".@@@@@@@@.",
                "..........",
            ],
            Connectivity::Four,
        );
        // An aisle on row 2: `b` at (5, 2) is bound for (4, 2), where `a`
        // stands, bound for (5, 2).
        let (from, goal) = (g.cell(5, 2), g.cell(4, 2));
        let mut search = ReverseResumableAStar::around(&g, goal, from, vec![from]);
        // Right to the aisle's end, round the shelf, in from the left.
        let right = g.cell(6, 2);
        let round = search.distance(&g, right);
        assert_eq!(round, 3 + 2 + 9 + 2 + 4);
        let mut h = Heuristic::Rra(ReverseResumableAStar::new(&g, goal, from, true));
        h.start_detour(search, Some((from, round + 1)));
        assert!(h.is_leaving());
        assert_eq!(h.distance(&g, from), round + 1);
        assert_eq!(h.known(&g, from), Some(round + 1));
        assert_eq!(h.distance(&g, right), round);
        assert_eq!(h.distance(&g, goal), 0);
        h.end_detour();
        assert!(!h.is_leaving());
        assert_eq!(h.distance(&g, from), 1);
    }

    /// A deadline already past stops a resume before its first cell, and a
    /// new deadline starts a new slice: a pause left over from an earlier
    /// one does not make a known distance look out of time.
    #[test]
    fn a_pause_belongs_to_its_slice() {
        let g = generate_map("64x64:0.2".parse().unwrap(), Connectivity::Four, 6);
        let free: Vec<Cell> = (0..g.cell_count() as u32)
            .map(Cell)
            .filter(|&c| g.is_passable(c))
            .collect();
        let (goal, far) = (free[0], free[free.len() - 1]);
        let mut h = Heuristic::Rra(ReverseResumableAStar::new(&g, goal, goal, true));
        let closed = match &h {
            Heuristic::Rra(r) => r.closed_len(),
            _ => unreachable!(),
        };
        h.set_deadline(Some(std::time::Instant::now()));
        assert_eq!(h.distance(&g, far), UNREACHABLE, "no time for it");
        assert!(h.paused());
        match &h {
            Heuristic::Rra(r) => assert_eq!(r.closed_len(), closed, "not one cell closed"),
            _ => unreachable!(),
        }
        h.set_deadline(None);
        assert!(!h.paused(), "a new slice");
        assert_eq!(h.distance(&g, goal), 0);
        assert!(!h.paused(), "a known distance takes no time");
    }
}
