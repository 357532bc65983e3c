//! Reverse Resumable A* (Silver 2005, Algorithm 1): true distances to a goal,
//! computed on demand by an A* search that runs backwards from the goal
//! towards the unit's original position and is resumed, never restarted, when
//! a distance outside its closed list is asked for.

use std::sync::Arc;

use super::{CellMap, CellSlots, Landmarks, UNREACHABLE};

use crate::map::{opposite_move, Cell, Grid, MOVE_OFFSETS};
use crate::queue::BucketQueue;

/// A search that has closed this many times its initial search's cells
/// restarts from the unit's current cell (see
/// [`ReverseResumableAStar::restart_if_grown`]).
pub const RESTART_AFTER: usize = 8;
/// Initial searches smaller than this count as this large for
/// [`RESTART_AFTER`] (a unit starting next to its goal should not restart
/// after a few dozen cells).
const RESTART_MIN: usize = 64;

const CLOSED: u32 = 1 << 31;
/// The distance a search with walls of its own reads for them (see
/// [`ReverseResumableAStar::around`]): the largest a closed cell can hold.
pub const WALL_DISTANCE: u32 = !CLOSED - 1;

/// Cells a search closes between two looks at the clock (see
/// [`Resume::run`]).
const CLOCK_EVERY: u32 = 8;

/// One unit's RRA* search: its own open and closed lists, kept across windows.
#[derive(Clone, Debug, Default)]
pub struct ReverseResumableAStar {
    goal: Cell,
    origin: Cell,
    /// Open list: cells by f (moves of cost 1, or 2 against a lane, and a
    /// consistent heuristic: see [`BucketQueue`]).
    open: BucketQueue,
    /// Per cell: 0 unseen, else `g + 1`, with [`CLOSED`] set once closed.
    state: CellMap,
    closed_count: usize,
    /// Nodes expanded in all, restarts included.
    pub expanded: usize,
    /// Nodes the initial search of the current start expanded (to close
    /// its origin): the yardstick of [`Self::restart_if_grown`].
    initial: usize,
    /// Times the search was restarted because it grew past its limit.
    pub restarts: u32,
    /// Cells the search had closed when it last restarted towards the
    /// same goal (0 for a new goal): the next restart waits until it has
    /// closed twice as many (see [`Self::restart_if_grown`]).
    grown_to: usize,
    /// When set, a resume stops at this instant and leaves the search
    /// where it is (time-slicing): the next call carries on from there.
    pub deadline: Option<std::time::Instant>,
    /// When set, the cells the search may still close before it pauses
    /// (time-slicing by work: deterministic, unlike a deadline).
    pub slice: Option<u32>,
    /// Whether the last resume stopped at the deadline or the slice's end.
    pub paused: bool,
    /// An assigned search not run yet, with its widening.
    pending: Option<u32>,
    /// Landmarks that sharpen the heuristic towards the origin, and the
    /// origin's row (see [`Self::guided`]).
    guide: Option<Box<Guide>>,
    /// Cells walled off besides the map's (see [`Self::around`]).
    walls: Vec<Cell>,
}

/// Landmarks guiding a search towards its origin.
#[derive(Clone, Debug)]
struct Guide {
    landmarks: Arc<Landmarks>,
    /// The origin's landmark distances.
    origin_row: Box<[u16]>,
}

impl ReverseResumableAStar {
    /// Starts a search from `goal` towards `origin` and runs it until `origin`
    /// is closed (`InitialiseRRA*`).
    /// `dense` keeps one word per map cell (fast); otherwise the pages of
    /// cells touched (small).
    pub fn new(grid: &Grid, goal: Cell, origin: Cell, dense: bool) -> Self {
        let mut rra = Self::reserve(grid, dense);
        rra.restart(grid, goal, origin);
        rra
    }

    /// A sparse search from `goal` towards `origin` whose heuristic is the
    /// larger of the grid distance and the landmarks' lower bound to the
    /// origin (both consistent, so their maximum is too): the reverse
    /// search then keeps to the band of near-shortest routes instead of
    /// flooding every cell nearer the goal than the origin. For a unit far
    /// from its goal on a large map, where an unguided search closes most
    /// of the map.
    /// Its first run closes at most `slice` cells (see [`Self::slice`]).
    pub fn guided(
        grid: &Grid,
        goal: Cell,
        origin: Cell,
        landmarks: Arc<Landmarks>,
        slice: u32,
    ) -> Self {
        let mut rra = Self::reserve(grid, false);
        rra.guide = Some(Box::new(Guide {
            landmarks,
            origin_row: Box::from([]),
        }));
        rra.slice = Some(slice);
        rra.restart(grid, goal, origin);
        rra
    }

    /// A sparse search from `goal` towards `origin` that treats `walls`
    /// as walls too: they are closed from the start at [`WALL_DISTANCE`],
    /// so no route passes them (restarts keep them; a diagonal move may
    /// still pass a wall's corner, as the map's moves allow). `goal` must
    /// not be one of them. A unit's way around units wedged on its way,
    /// for the price of the cells it touches instead of a copy of the map.
    pub fn around(grid: &Grid, goal: Cell, origin: Cell, walls: Vec<Cell>) -> Self {
        Self::around_until(grid, goal, origin, walls, None)
    }

    /// [`Self::around`], its first run stopping at `deadline` (then
    /// [`Self::paused`], to go on at the next resume); the deadline stays
    /// set.
    pub fn around_until(
        grid: &Grid,
        goal: Cell,
        origin: Cell,
        walls: Vec<Cell>,
        deadline: Option<std::time::Instant>,
    ) -> Self {
        debug_assert!(!walls.contains(&goal));
        let mut rra = Self::reserve(grid, false);
        rra.walls = walls;
        rra.deadline = deadline;
        rra.restart(grid, goal, origin);
        rra
    }

    /// The cells walled off besides the map's (see [`Self::around`]).
    pub fn walls(&self) -> &[Cell] {
        &self.walls
    }

    /// The memory of a search on `grid`, with no search run yet: start it
    /// with [`Self::restart`]. Lets a planner reserve its units' searches
    /// when it is built, so planning neither allocates nor first-touches
    /// fresh pages (on Silver's 32×32 set-up, 130 page faults were 14% of
    /// the initial planning's time).
    pub fn reserve(grid: &Grid, dense: bool) -> Self {
        ReverseResumableAStar {
            state: CellMap::new(grid.cell_count(), dense),
            // Room for a typical search's frontier, so resumes in steady
            // state rarely allocate.
            open: BucketQueue::with_capacity(if dense {
                (grid.cell_count() / 4).clamp(64, 1024)
            } else {
                64
            }),
            ..Default::default()
        }
    }

    /// Starts again from scratch, reusing the memory.
    pub fn restart(&mut self, grid: &Grid, goal: Cell, origin: Cell) {
        self.goal = goal;
        self.origin = origin;
        if let Some(guide) = &mut self.guide {
            guide.origin_row = guide.landmarks.row(origin).into();
        }
        if self.closed_count > 0 || !self.open.is_empty() {
            // (A new search's state is already zeroed.)
            self.open.clear();
            self.state.clear();
        }
        self.paused = false;
        self.closed_count = 0;
        for &c in &self.walls {
            self.state.set(c, CLOSED | (WALL_DISTANCE + 1));
        }
        self.state.set(goal, 1);
        let h = grid.grid_distance(goal, origin).max(
            self.guide
                .as_ref()
                .map_or(0, |g| g.landmarks.lower_bound_to(goal, &g.origin_row)),
        );
        self.open.push(h, goal.0);
        // Set by the run that closes the origin (a sliced search may
        // pause before).
        self.initial = 0;
        self.resume(grid, origin);
    }

    /// Sets the goal and origin of a search without running it: the first
    /// [`Self::ensure_started`] does (`InitialiseRRA*`, then a widening of
    /// `widen`). Lets a planner start its units' searches on another thread
    /// than the one that asks for their distances.
    pub fn assign(&mut self, goal: Cell, origin: Cell, widen: u32) {
        self.grown_to = 0;
        self.goal = goal;
        self.origin = origin;
        self.pending = Some(widen);
    }

    /// Runs the assigned initial search if it has not run yet.
    #[inline]
    pub fn ensure_started(&mut self, grid: &Grid) {
        if let Some(extra) = self.pending.take() {
            self.restart(grid, self.goal, self.origin);
            if extra > 0 {
                self.widen(grid, extra);
                self.initial = self.closed_count;
            }
        }
    }

    /// Closes every cell whose `g + h` is at most `extra` above the
    /// origin's true distance: the band of near-shortest routes a window
    /// search explores first, searched in one run instead of many resumes.
    /// Stops at the search's deadline, if it has one: the band is only a
    /// head start, and resumes close the rest of it as they need it (run
    /// to its end, a 2,000-unit crowd's first searches ran up to 0.7 ms
    /// past a 1 ms tick's deadline).
    pub fn widen(&mut self, grid: &Grid, extra: u32) {
        let Some(d0) = self.known(self.origin) else {
            return;
        };
        self.run(grid, Cell(u32::MAX), d0 + extra, self.deadline);
    }

    /// Runs the search until `target` is closed, the next cell's f would
    /// exceed `floor_limit`, the open list empties or `deadline` passes
    /// (see [`Resume::run`]), and counts what it closed.
    fn run(
        &mut self,
        grid: &Grid,
        target: Cell,
        floor_limit: u32,
        deadline: Option<std::time::Instant>,
    ) -> Option<bool> {
        let mut run = Resume {
            grid,
            open: &mut self.open,
            origin: self.origin,
            guide: self.guide.as_ref().map(|g| (&*g.landmarks, &*g.origin_row)),
            target,
            floor_limit,
            deadline,
            max_closed: self.slice.map_or(usize::MAX, |s| s as usize),
            closed: 0,
        };
        let outcome = match &mut self.state {
            CellMap::Dense(v) => run.run(v.as_mut_slice()),
            CellMap::Compact(v) => run.run(v.as_mut_slice()),
            CellMap::Paged(m) => run.run(m),
        };
        let closed = run.closed;
        self.closed_count += closed;
        self.expanded += closed;
        if let Some(s) = &mut self.slice {
            *s = s.saturating_sub(closed as u32);
        }
        if self.initial == 0 && self.known(self.origin).is_some() {
            self.initial = self.closed_count;
        }
        outcome
    }

    /// Silver: "Test how much work the backwards search is doing. If it
    /// grows too large, then it is probably worth restarting it from
    /// scratch." Once the search has closed `RESTART_AFTER` (8) times as many
    /// cells as its initial search did (a unit pushed far off its original
    /// route makes every resume expand whole contours), it starts again
    /// towards `position`, the unit's cell now, so the true distances it
    /// needs next lie along its new band. Each restart towards one goal
    /// also waits until the search has closed twice the cells it had at
    /// the one before: a guided initial search closes a narrow band, while
    /// the window searches ask for distances on either side of it, so
    /// without the doubling a unit could restart at every window and close
    /// the same contours again (slow units of 256×256 mixed crowds did, 18,000
    /// cells each time). Returns whether it restarted.
    pub fn restart_if_grown(&mut self, grid: &Grid, position: Cell) -> bool {
        let limit = (self.initial.max(RESTART_MIN) * RESTART_AFTER).max(2 * self.grown_to);
        if self.closed_count <= limit || position == self.origin || self.paused {
            return false;
        }
        self.restarts += 1;
        self.grown_to = self.closed_count;
        self.restart(grid, self.goal, position);
        true
    }

    /// Whether landmarks guide this search (see [`Self::guided`]).
    pub fn is_guided(&self) -> bool {
        self.guide.is_some()
    }

    /// Whether it keeps one word per map cell (else a map of the cells it
    /// touched).
    pub fn is_dense(&self) -> bool {
        !matches!(self.state, CellMap::Paged(_))
    }

    /// The goal distances are measured to.
    pub fn goal(&self) -> Cell {
        self.goal
    }

    /// Cells whose true distance is known.
    pub fn closed_len(&self) -> usize {
        self.closed_count
    }

    /// Resumes the search until `target` is closed (`ResumeRRA*`). Returns
    /// whether it was reached.
    pub fn resume(&mut self, grid: &Grid, target: Cell) -> bool {
        if self.state.get(target) & CLOSED != 0 {
            return true;
        }
        if !grid.reachable(self.goal, target) {
            return false;
        }
        self.paused = false;
        match self.run(grid, target, u32::MAX, self.deadline) {
            Some(reached) => reached,
            None => {
                // Paused with the open list intact: the next resume goes on.
                self.paused = true;
                false
            }
        }
    }

    /// The true distance from `cell` if the search has already closed it.
    #[inline]
    pub fn known(&self, cell: Cell) -> Option<u32> {
        let st = self.state.get(cell);
        (st & CLOSED != 0).then(|| (st & !CLOSED) - 1)
    }

    /// True distance from `cell` to the goal (`AbstractDist`), resuming the
    /// search if needed; [`UNREACHABLE`] if there is no path.
    #[inline]
    pub fn distance(&mut self, grid: &Grid, cell: Cell) -> u32 {
        let st = self.state.get(cell);
        if st & CLOSED != 0 {
            return (st & !CLOSED) - 1;
        }
        if self.resume(grid, cell) {
            (self.state.get(cell) & !CLOSED) - 1
        } else {
            UNREACHABLE
        }
    }
}

/// One resumption of the search, generic over the state's layout.
struct Resume<'a> {
    grid: &'a Grid,
    open: &'a mut BucketQueue,
    /// The origin the search heads for (its heuristic's target).
    origin: Cell,
    /// Landmarks and the origin's row, if they guide the search.
    guide: Option<(&'a Landmarks, &'a [u16])>,
    target: Cell,
    /// Stop before closing a cell of larger f (`u32::MAX`: no limit).
    floor_limit: u32,
    deadline: Option<std::time::Instant>,
    /// Pause (`None`) once this many cells are closed.
    max_closed: usize,
    /// Cells closed by this run.
    closed: usize,
}

impl Resume<'_> {
    /// Runs until `target` is closed (`Some(true)`), the open list empties
    /// (`Some(false)`), or the deadline passes or `max_closed` cells are
    /// closed (`None`).
    #[inline]
    fn run<S: CellSlots + ?Sized>(&mut self, state: &mut S) -> Option<bool> {
        let grid = self.grid;
        let origin = grid.xy(self.origin);
        // The clock at the first cell too: once the deadline has passed, a
        // search asking for one distance after another (a body's window
        // search asks a dozen a node) would otherwise close 256 cells for
        // each (0.9 ms past the deadline on the mixed 2,000-unit crowd).
        // Then every `CLOCK_EVERY` cells: a unit's first cells touch fresh
        // pages of its distance map, up to 3 µs a cell with two threads
        // faulting at once, and with a look every 256 cells its first search
        // ran 100–300 µs past the deadline.
        let mut since_check = CLOCK_EVERY - 1;
        while !self.open.is_empty() {
            if self.closed >= self.max_closed {
                return None;
            }
            since_check += 1;
            if since_check == CLOCK_EVERY {
                since_check = 0;
                if self
                    .deadline
                    .is_some_and(|d| std::time::Instant::now() >= d)
                {
                    return None;
                }
            }
            let (f, p) = self.open.pop().expect("not empty");
            if f > self.floor_limit {
                // Widened far enough: leave the entry for later resumes.
                self.open.push(f, p);
                return Some(false);
            }
            let p = Cell(p);
            // Raw slot values: `g + 1`, with the layout's flag bit for closed.
            let st = state.get_raw(p);
            if st & S::FLAG != 0 {
                continue;
            }
            state.set_raw(p, st | S::FLAG);
            self.closed += 1;
            // Neighbours by move bit, last move first (the order the LIFO
            // buckets then pop cardinal moves in), with coordinates carried
            // from the parent's: pricing a push needs no division.
            let (px, py) = grid.xy(p);
            let mut bits = grid.move_bits(p);
            if let Some((table, _)) = self.guide {
                // Each neighbour's landmark row is a cache miss on a large
                // map: start them all before the first is priced.
                let mut buf = [Cell(0); 8];
                let n = grid.neighbors(p, &mut buf);
                for &q in &buf[..n] {
                    table.prefetch_row(q);
                }
            }
            while bits != 0 {
                let k = 7 - bits.leading_zeros() as usize;
                bits &= !(1 << k);
                let q = Cell((p.0 as i64 + grid.move_delta(k)) as u32);
                // The neighbour's slot value if reached from here: the
                // search runs backwards, so the move is from `q` to `p`
                // (lanes make the two directions cost differently).
                let next = st + grid.move_cost(q, opposite_move(k));
                // Closed, or open at least as near: nothing to do.
                let sq = state.get_raw(q);
                if sq & S::FLAG != 0 || (sq != 0 && sq <= next) {
                    continue;
                }
                state.set_raw(q, next);
                let (dx, dy) = MOVE_OFFSETS[k];
                let qxy = (px.wrapping_add_signed(dx), py.wrapping_add_signed(dy));
                // f = g + h, with g = next - 1.
                let mut h = grid.grid_distance_xy(qxy, origin);
                if let Some((table, row)) = self.guide {
                    h = h.max(table.lower_bound_to(q, row));
                }
                self.open.push(next - 1 + h, q.0);
            }
            if p == self.target {
                return Some(true);
            }
        }
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{generate_map, Connectivity};

    /// The open cells of `g`, in order.
    fn open_cells(g: &Grid) -> Vec<Cell> {
        (0..g.cell_count() as u32)
            .map(Cell)
            .filter(|&c| g.is_passable(c))
            .collect()
    }

    #[test]
    fn matches_goal_costs_with_lanes() {
        // Moves against a lane cost 2 and the search runs backwards: each
        // move is priced in the direction the unit takes it.
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let g = generate_map("24x24:0.3".parse().unwrap(), conn, 5).with_lanes(true);
            let free = open_cells(&g);
            let goal = free[free.len() / 2];
            let costs = crate::distance::goal_costs(&g, goal);
            // Landmarks count moves, a lower bound on costs: they still guide.
            let landmarks = Arc::new(Landmarks::build(&g, 8));
            let searches = [
                ReverseResumableAStar::new(&g, goal, free[0], true),
                ReverseResumableAStar::new(&g, goal, free[0], false),
                ReverseResumableAStar::guided(&g, goal, free[0], landmarks, u32::MAX),
            ];
            for mut rra in searches {
                for &c in free.iter().rev() {
                    assert_eq!(
                        rra.distance(&g, c),
                        costs[c.index()],
                        "cell {c:?} ({conn:?})"
                    );
                }
            }
        }
    }

    #[test]
    fn walls_of_its_own_are_walls_and_survive_a_restart() {
        // The distances of a search with walls of its own are those of the
        // map with the walls built (on 8-connected maps, at most those:
        // a diagonal move may pass a wall's corner), never less than the
        // map's own; the walls read as `WALL_DISTANCE`.
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let g = generate_map("24x24:0.2".parse().unwrap(), conn, 7);
            let free = open_cells(&g);
            let goal = free[free.len() / 2];
            let walls: Vec<Cell> = free
                .iter()
                .copied()
                .filter(|&c| c != goal && c.0 % 7 == 3)
                .collect();
            let mut passable = g.passability().to_vec();
            walls.iter().for_each(|c| passable[c.index()] = false);
            let built = Grid::new(g.width(), g.height(), passable, conn);
            let (with, without) = (
                crate::distance::bfs_distances(&built, goal),
                crate::distance::bfs_distances(&g, goal),
            );
            let mut rra = ReverseResumableAStar::around(&g, goal, free[0], walls.clone());
            for round in 0..2 {
                for &c in free.iter().rev() {
                    let d = rra.distance(&g, c);
                    if walls.contains(&c) {
                        assert_eq!(d, WALL_DISTANCE, "{c:?}");
                    } else if conn == Connectivity::Four {
                        assert_eq!(d, with[c.index()], "{c:?} (round {round})");
                    } else {
                        assert!(d >= without[c.index()], "{c:?}");
                        assert!(d <= with[c.index()], "{c:?}");
                    }
                }
                rra.restart(&g, goal, free[free.len() - 1]);
            }
            // The walls lengthen routes: fewer cells keep the map's own
            // distances than without them.
            let same = free
                .iter()
                .filter(|&&c| !walls.contains(&c) && rra.distance(&g, c) == without[c.index()])
                .count();
            assert!(
                same < free.len() - walls.len(),
                "{conn:?}: the walls changed nothing"
            );
        }
    }

    #[test]
    fn matches_breadth_first_search() {
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let g = generate_map("24x24:0.25".parse().unwrap(), conn, 11);
            let free = open_cells(&g);
            let goal = free[free.len() / 3];
            let bfs = crate::distance::bfs_distances(&g, goal);
            let mut rra = ReverseResumableAStar::new(&g, goal, free[0], conn == Connectivity::Four);
            for &c in free.iter().rev() {
                assert_eq!(rra.distance(&g, c), bfs[c.index()], "cell {c:?} ({conn:?})");
            }
        }
    }

    /// Many goals and origins, each answered in the order a window search
    /// would ask (cells near the origin first), on the seed's kind of map.
    #[test]
    fn matches_breadth_first_search_for_many_goals() {
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let g = generate_map("32x32:0.2".parse().unwrap(), conn, 1);
            let free = open_cells(&g);
            for k in 0..40 {
                let goal = free[(k * 37) % free.len()];
                let origin = free[(k * 101 + 13) % free.len()];
                let bfs = crate::distance::bfs_distances(&g, goal);
                let mut rra = ReverseResumableAStar::new(&g, goal, origin, true);
                let mut near = free.clone();
                near.sort_by_key(|&c| g.grid_distance(c, origin));
                for &c in &near {
                    assert_eq!(
                        rra.distance(&g, c),
                        bfs[c.index()],
                        "goal {goal:?} origin {origin:?} cell {c:?}"
                    );
                }
            }
        }
    }

    /// A unit pushed far from its original cell: the search restarts from
    /// where the unit is, and its distances stay exact.
    #[test]
    fn a_grown_search_restarts_from_the_units_cell() {
        let g = generate_map("64x64:0.2".parse().unwrap(), Connectivity::Four, 2);
        let free = open_cells(&g);
        let goal = free[free.len() / 2];
        let (origin, far) = (free[0], free[free.len() - 1]);
        let bfs = crate::distance::bfs_distances(&g, goal);
        let mut rra = ReverseResumableAStar::new(&g, goal, origin, true);
        assert!(!rra.restart_if_grown(&g, far), "nothing grew yet");
        // Ask for every cell: the search closes the whole map.
        for &c in &free {
            assert_eq!(rra.distance(&g, c), bfs[c.index()]);
        }
        assert!(
            rra.restart_if_grown(&g, far),
            "a search over the whole map restarts"
        );
        assert_eq!(rra.restarts, 1);
        for &c in free.iter().rev() {
            assert_eq!(rra.distance(&g, c), bfs[c.index()], "after the restart");
        }
        // Grown as large again, it does not restart once more: each
        // restart waits for twice the cells of the one before.
        assert!(!rra.restart_if_grown(&g, origin), "the same size again");
        assert_eq!(rra.restarts, 1);
        // A new goal starts the count afresh.
        rra.assign(far, origin, 0);
        rra.ensure_started(&g);
        for &c in &free {
            rra.distance(&g, c);
        }
        assert!(
            rra.restart_if_grown(&g, goal),
            "a new goal's search restarts"
        );
    }

    /// A widened search has closed exactly the band it promises, at true
    /// distances, and an assigned search started later is the same search.
    #[test]
    fn widening_closes_the_band_of_near_shortest_routes() {
        let g = generate_map("32x32:0.2".parse().unwrap(), Connectivity::Four, 3);
        let free = open_cells(&g);
        for k in 0..10 {
            let (goal, origin) = (free[(k * 53) % free.len()], free[(k * 97 + 5) % free.len()]);
            let bfs = crate::distance::bfs_distances(&g, goal);
            let mut rra = ReverseResumableAStar::reserve(&g, true);
            rra.assign(goal, origin, 2);
            assert_eq!(rra.closed_len(), 0, "assigning does not search");
            rra.ensure_started(&g);
            let band = bfs[origin.index()] + 2;
            for &c in &free {
                let f = bfs[c.index()] + g.grid_distance(c, origin);
                if f <= band {
                    assert_eq!(rra.known(c), Some(bfs[c.index()]), "cell {c:?} in the band");
                }
                if let Some(d) = rra.known(c) {
                    assert_eq!(d, bfs[c.index()]);
                }
            }
            let mut again = ReverseResumableAStar::new(&g, goal, origin, true);
            again.widen(&g, 2);
            assert_eq!(again.closed_len(), rra.closed_len());
            for &c in &free {
                assert_eq!(rra.distance(&g, c), bfs[c.index()]);
            }
        }
    }

    #[test]
    fn a_paused_search_resumes_where_it_stopped() {
        let g = generate_map("96x96:0.2".parse().unwrap(), Connectivity::Four, 5);
        let free = open_cells(&g);
        let (goal, far) = (free[0], free[free.len() - 1]);
        let bfs = crate::distance::bfs_distances(&g, goal);
        let mut rra = ReverseResumableAStar::new(&g, goal, goal, true);
        rra.deadline = Some(std::time::Instant::now());
        let mut slices = 0;
        while !rra.resume(&g, far) {
            assert!(rra.paused, "a resume that stops early says it paused");
            slices += 1;
            if slices == 3 {
                rra.deadline = None;
            }
        }
        assert!(slices >= 1, "the search was cut into slices");
        assert_eq!(rra.distance(&g, far), bfs[far.index()]);
    }

    /// A search guided by landmarks towards its origin, cut into slices of
    /// a few cells, gives the breadth-first distances, and closes fewer
    /// cells to reach its origin than an unguided one.
    #[test]
    fn a_guided_sliced_search_gives_true_distances() {
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let g = generate_map("64x64:0.2".parse().unwrap(), conn, 9);
            let free = open_cells(&g);
            let landmarks = Arc::new(Landmarks::build(&g, 8));
            let (goal, origin) = (free[3], free[free.len() - 5]);
            let bfs = crate::distance::bfs_distances(&g, goal);
            let mut guided = ReverseResumableAStar::guided(&g, goal, origin, landmarks, 50);
            let mut slices = 0;
            while guided.known(origin).is_none() {
                assert!(guided.paused, "a slice that ends early says it paused");
                assert!(guided.closed_len() <= 50 * (slices + 1));
                slices += 1;
                guided.slice = Some(50);
                guided.resume(&g, origin);
            }
            assert!(slices >= 1, "the search was cut into slices ({conn:?})");
            let plain = ReverseResumableAStar::new(&g, goal, origin, false);
            assert!(
                guided.closed_len() <= plain.closed_len(),
                "guided {} against {} cells ({conn:?})",
                guided.closed_len(),
                plain.closed_len()
            );
            guided.slice = None;
            for &c in &free {
                assert_eq!(
                    guided.distance(&g, c),
                    bfs[c.index()],
                    "cell {c:?} ({conn:?})"
                );
            }
        }
    }
}
