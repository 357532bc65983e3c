//! Windowed Hierarchical Cooperative A* (Silver 2005): each unit reserves a
//! `w`-tick window found by space-time A* guided by true distances (its own
//! Reverse Resumable A*, or a table shared with units bound for the same
//! goal), and replans every `w/2` ticks, staggered so about `2n/w` units
//! replan per tick. Units keep planning after they arrive, so a unit parked on
//! its goal can step aside when another asks to pass.
//!
//! Unit priorities (Silver's longer article): a unit whose windows bring it
//! hardly closer for a few replans in a row is promoted for one search, in
//! which other units' reservations count as free at a cost; the units it
//! overrides plan again around it, promoted in turn two levels deep, and if
//! one of them finds no way out every plan is put back. The initial planning
//! is optimistic: a unit's start is held for good only if it finds no plan.
//!
//! Searches run in batches on the engine's worker pool (see
//! [`crate::world::Scheduler`]) and are committed in priority order, within
//! a per-tick budget; what does not fit carries over to the next tick while
//! the units follow the reserved part of their last plan.

mod right_of_way;
mod shove;

use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::distance::{
    dense_fits, dense_maps_that_fit, reserve_unit_searches, unit_heuristics_in, Heuristic,
    Landmarks, ReverseResumableAStar, UnitOracle, LANDMARKS, UNREACHABLE, WALL_DISTANCE,
};
use crate::footprint::{body, for_each_claim, sweep, FootprintQuery, Yielding};
use crate::map::{Cell, Grid};
use crate::search::{Depth, Overriding, SpaceTimeQuery};
use crate::units::{Slot, UnitFlags, UnitKind};
use crate::world::{Budget, Scheduler, SearchOutcome, WorkerScratch, World};

use super::optimistic::{pin_unplanned_starts, release_starts};
use super::order::rotate_order;
use super::repair;
use super::tiles::Tiling;
use super::{Planner, PlannerStats, TickWork};

/// A unit's first true-distance search goes on, past its start, until it
/// has closed every cell within this much of the shortest route's length
/// (`g + h`): the band its first windows explore, searched in one run
/// (and off the planning thread, when there is a worker) instead of in
/// many resumes while planning. Silver's set-up, 100 units on 32×32: 0 →
/// 2 took the initial planning on two threads from 0.77–0.78 to 0.68–0.70
/// ms (median), on one thread from 0.79–0.83 to 0.91 ms; 4 was no better
/// on two threads, 6 worse. On den520d it also cut 100 units' planning
/// over the whole run from 23 to 9 ms: later windows resume less.
const INITIAL_WIDEN: u32 = 2;
/// Goals named by this many units get one shared true-distance table.
const SHARE_FROM: usize = 2;
/// Expansion cap of one windowed search, per tick of window.
const EXPANSIONS_PER_WINDOW_TICK: usize = 512;
/// Rounds of re-searching units whose result conflicted at commit, per tick.
const MAX_ROUNDS: usize = 4;
/// Replans in a row after which a unit's plan brings it less than a quarter
/// of a window closer before it is promoted (Silver's unit priorities): its
/// next search may override other units' reservations. Two units face to
/// face in a corridor, or a unit behind one parked on its goal, wait for
/// this many half-windows before either gives way. On random-32-32-20,
/// scenarios random-1 to random-10, against 3: the sums of costs fell from
/// 27,071 to 25,520 (100 units), 86,335 to 66,986 (200) and 662,806 to
/// 509,235 (409), with fewer nodes expanded; on the warehouse map with
/// lanes (1,000 units, seeds 1–5) from 2.68–3.01 to 2.13–2.40 times the
/// lower bound; den520d unchanged. Not during the initial planning (see
/// `initialize`).
const PROMOTE_AFTER: u8 = 1;
/// Extra cost of a move that overrides another unit's reservation: the cost
/// of stepping round one cell, so a promoted unit pushes only where a detour
/// is longer. (On maze-32-32-2 with 100 units and 300 ticks, scenarios 1–10:
/// cost 1 brought 996 of 1,000 units home, 2 963, 3 974, 4 629, 8 489, no
/// promotions 590; scenarios 11–25: cost 1 1,374 of 1,500, 2 1,445.)
const OVERRIDE_COST: u32 = 2;
/// Extra cost of a body's action through one-cell units' reservations,
/// which they then give up (see [`WindowedHca::take_right_of_way`]).
const RIGHT_OF_WAY_COST: u32 = 1;
/// How deep a promotion may push: the promoted unit overrides its victims,
/// they may override theirs, and so on this many times (Silver: "if any of
/// these units become stuck, they will be promoted too"). A line of units
/// met head-on in a one-cell corridor backs out only if the push reaches
/// its last unit: with 2, four units against four in a corridor ten cells
/// long (`tests/deadlocks.rs`) never crossed; with 8 all arrive. On
/// random-32-32-20 with 409 units, 2 left 14 units off their goals after
/// 1,000 ticks, 8 left 3. den520d was unchanged; on the warehouse 927 of
/// 1,000 were on their goals at 3,000 ticks, against 928.
const PUSH_DEPTH: usize = 8;
/// Windows without progress after which a unit whose window ends in a
/// hollow of its landmark bounds gets true distances of its own. With 1,
/// crowds waiting in the live 2,000-unit world (landmarks on its 256×256
/// map) took so many own searches that under its 300 µs budget 181 of its
/// 2,000 units were on their goals at the end, against 1,875 without them.
const STALLED_IN_HOLLOW: u32 = 4;
/// [`STALLED_IN_HOLLOW`] for units with footprints: their fit grids have
/// more pockets than the map, and a body waits longer to be let out of one.
/// On `profiles/mixed-2k.toml` unbudgeted (288 of its bodies and slow units
/// on landmarks), 94.2% of the units home within 3× their lower bound with
/// 1, 93.8% with 2, 93.2% with 4.
const BODY_STALLED_IN_HOLLOW: u32 = 1;
/// Windows without progress after which a unit planning on landmark bounds
/// gets true distances of its own wherever its window ends. Landmark units
/// are never judged stalled (see [`WindowedHca::note_progress`]), so one
/// blocked by units rather than walls (one-cell units on both sides of a
/// 3×3 body parked in a passage it fills, on den520d) went back and forth
/// for good; with true distances, it is repaired and the body pulls over.
const STALLED_FOR_GOOD: u32 = 16;
/// [`STALLED_FOR_GOOD`] for units of a group order. Their trades put them
/// home now and then (a trade hands a unit the goal it stands on, then
/// hands it on), which restarts their clocks of progress about every 129
/// ticks, so 16 windows never came. Without true distances they never
/// shove either (see `shove`). den520d, one group order of 1,000 units,
/// seeds 4 and 5: 980 and 1,000 home with 6, against 964 and 992 with 16.
/// For every unit, 6 cost the 2,000-unit mixed army under a node budget
/// 1,788 units home against 1,810, and the Iron Harvest map 20 MB.
const GROUPED_STALLED_FOR_GOOD: u32 = 6;
/// Units given true distances of their own (to leave a hollow of the
/// landmark bounds) per tick at most; the others ask again at their next
/// replan. On the Iron Harvest map with 10,000 units about five ask a
/// tick, and each search closes thousands of cells (27,000 on average when
/// guided by the landmarks): granting all, the tick's mean on 2 threads
/// went from 7.9 ms (no own searches) to 57 ms and memory to 4.9 GB; one a
/// tick, guided, sliced and dropped once out of the hollow, 9.6 ms.
const OWN_SEARCHES_PER_TICK: u32 = 1;
/// Cells such an own search may close per window search: a longer one
/// pauses, the unit waits where it is (it is stuck anyway), and the search
/// goes on at its next replan, so no tick pays for a whole search across a
/// large map (up to 132,000 cells on the Iron Harvest map; p99 tick 37.6
/// ms unsliced, 15.0 ms sliced).
const OWN_SEARCH_SLICE: u32 = 8192;
/// Most units one promotion may move.
const MAX_INVOLVED: usize = 24;
/// Windows without progress (its best distance to the goal unchanged)
/// after which a unit's cluster is planned jointly (see [`repair`]).
const REPAIR_AFTER_WINDOWS: u32 = 2;
/// Times a repair's node limit grows fourfold for a unit whose repairs
/// keep failing (4,000 nodes, then 16,000 and 64,000): a knot of
/// three units rotating in a one-cell corridor (each wanting the next
/// one's cell, the way out through a side gap) takes about 13,000 nodes
/// with four units in the window and 54,000 with six.
const REPAIR_GROWTHS: u8 = 2;
/// Joint repairs tried per tick at most: each is a bounded OD search, run
/// in the sequential commit phase.
const REPAIRS_PER_TICK: u32 = 1;

/// Units with a footprint stalled for [`REPAIR_AFTER_WINDOWS`] windows
/// whose way is cleared per tick at most (see
/// [`WindowedHca::clear_way`]): each runs a few window searches in the
/// sequential commit phase.
const WAY_CLEARINGS_PER_TICK: u32 = 2;
/// Tries of one way clearing: after each failed one, the units around the
/// unit that found no way out join it.
const CLEARING_ROUNDS: usize = 3;
/// Moves along its way within which the units in a stalled body's way are
/// moved aside for it.
const WAY_REACH: u32 = 6;
/// Joint repairs of a one-cell unit that fail in a row before it walks
/// around the units parked on its way (see [`WindowedHca::detour`]). The
/// fourth failure came after 1 + 2 + 4 windows of back-off (see
/// [`WindowedHca::note_repair_try`]), long after the way round was the only
/// one left: on the warehouse map with 1,000 units, seeds 1–5, the third
/// instead cut the sums of costs by 3.5% with lanes (870,244 to 839,572;
/// the longest makespan 733 to 589 ticks) and 1.1% without, and nodes
/// expanded by 12.5% and 5.6%; random-32-32-20, den520d and the mixed army
/// plan the same. After the second, one run with lanes left a unit off its
/// goal at 3,000 ticks.
const DETOUR_AFTER_REPAIRS: u8 = 3;
/// Windows without progress on its way round after which a unit gives it
/// up (see [`WindowedHca::detour`]). Kept for good, a way round that units
/// parked across later left a unit off its goal: on the warehouse map with
/// 1,000 units, seeds 1–12 with and without lanes, 2 of the 24 runs ended
/// with a unit off its goal at 3,000 ticks; giving it up, none. Against
/// detours after four failed repairs and kept: sums of costs −2.3% (no
/// lanes) and −2.6% (lanes), nodes −7.9% and −11.0%.
const DETOUR_STALE_WINDOWS: u32 = 4;
/// Moves of a stalled body's way that a unit pulling over for it keeps off
/// (see [`WindowedHca::pull_over`]).
const PULL_OVER_REACH: u32 = 24;
/// Anchors searched for a place to pull over.
const PULL_OVER_SEARCH: usize = 4_096;
/// Places of a body that a unit backing off for it tries (see
/// [`WindowedHca::back_off`]).
const BACK_OFF_TRIES: u32 = 16;
/// Windows a body that a unit backed off for stays out of that unit's way.
const BACK_OFF_WINDOWS: u32 = 4;
/// Windows a unit walks round the goal of a unit it was pulled over for
/// (see [`WindowedHca::round_goal`]). Until it arrived instead, the way
/// round that unit's cells outlived the unit's stay there: on den520d's
/// 8-connected army of `tests/unit_kinds.rs`, 962 of 1,000 home rather
/// than 998, and three times the planning.
const ROUND_GOAL_WINDOWS: u32 = 8;

/// Nodes one windowed search may create: each expansion creates at most 9
/// (8 moves and a wait).
fn search_nodes(window: u32) -> usize {
    EXPANSIONS_PER_WINDOW_TICK * window as usize * 9 / 4
}

/// Smallest batch worth sharing out on the worker pool (see `pool`).
const MIN_POOL_BATCH: usize = 8;

/// Smallest wall-clock budget per tick worth sharing out on the worker
/// pool, µs. Below it a tick plans on the calling thread: waking workers
/// for a few batches, and waiting for the last one (on a busy machine, for
/// a worker the system has put aside), costs more than it gains. 2,000
/// units on 256×256 under a game's load at 300 µs a tick: on two threads
/// 1.17 million searches in 10,000 ticks, p99.9 tick 1.00 ms, 223 ticks
/// over; on one, 1.19 million, p99.9 0.31 ms, 14 over.
const MIN_POOL_BUDGET_US: u64 = 1_000;

/// Least wall-clock time of a batch's searches worth sharing out on the
/// worker pool, ns: below it a tick without tiles plans on the calling
/// thread. Each batch handed to the workers costs some 75 µs on two cores
/// (waking the second worker, the halves' uneven ends), so a batch must
/// hold twice that to gain. den520d with 1,000 one-cell units (batches of
/// 15 searches of about 7 µs) planned its ticks in 191–205 ms on the
/// calling thread against 238–246 ms through the pool (medians of seven
/// alternating runs); with 1,500 (23 searches of 11 µs) the pool gained.
const MIN_POOL_BATCH_NS: f64 = 150_000.0;

/// Most units searched together before their results are committed.
pub const MAX_BATCH: usize = 256;

/// Units searched together before their results are committed: fixed by the
/// unit count, never by the thread count, so the outcome does not depend on
/// the threads. Small crowds plan one at a time (as Silver's WHCA* does;
/// batching 100 units on 32×32 re-ran a third of the searches after commit
/// conflicts); thousands of units plan in batches of [`MAX_BATCH`].
pub fn batch_size(units: usize) -> usize {
    (units / 64).clamp(1, MAX_BATCH)
}

/// The WHCA* planner's state.
pub struct WindowedHca {
    window: u32,
    /// Per unit (shared with the thread that starts the units' searches
    /// during the initial planning).
    heuristics: Arc<Vec<Mutex<Heuristic>>>,
    /// The landmark table of a map too large for a dense search per unit:
    /// units given goals later read it too. Built on the map as it was at
    /// the start, without blocks, so its bounds stay admissible whatever
    /// is built or destroyed later.
    landmarks: Option<Arc<Landmarks>>,
    /// Per body side (index 2 and up), in a world with landmarks, the
    /// landmark table of the anchors such a body fits on (see
    /// [`Self::landmarks_for`]).
    body_landmarks: Vec<Option<Arc<Landmarks>>>,
    /// How many units may have a dense RRA* (one word per cell), and how
    /// many have one.
    dense_budget: usize,
    dense_in_use: usize,
    /// Units alive: batch sizes follow it.
    live_units: usize,
    shared_tables: usize,
    scheduler: Scheduler,
    budget: Budget,
    batch_size: usize,
    /// Units due to replan, in order; what a tick's budget leaves stays at
    /// the front for the next tick.
    due: Vec<Slot>,
    fresh: Vec<Slot>,
    skipped: Vec<Slot>,
    rest: Vec<Slot>,
    retry: Vec<Slot>,
    /// Per cell, the batch whose commits last claimed it: a found path that
    /// touches no such cell cannot have been invalidated by its batch's
    /// earlier commits, and is committed without re-checking every move.
    touched: Vec<u32>,
    batch_stamp: u32,
    /// Per unit, replans in a row without real progress (see [`PROMOTE_AFTER`]).
    stalled: Vec<u8>,
    /// Whether the initial planning runs (no promotions then).
    initializing: bool,
    /// The tiling of the last tiled planning, kept for its memory.
    tiling: Tiling,
    /// A detour whose search did not fit its tick (see [`Self::detour`]).
    pending_detour: Option<PendingDetour>,
    /// Per unit, whether its next search may give it true distances of its
    /// own, and how many more units may be granted that this tick (see
    /// [`OWN_SEARCHES_PER_TICK`]).
    own_granted: Vec<bool>,
    own_grants_left: u32,
    /// Per unit, whether its next committed plan is its first since it was
    /// spawned or ordered: it then replans at a tick of its own (see
    /// [`Self::settle_committed`]).
    restagger: Vec<bool>,
    /// Scratch of [`Self::first_plans_first`]: the units waiting for their
    /// first plan, as (ticks to go, place in the queue).
    first_order: Vec<(u32, u32)>,
    /// Per unit, the first tick at which its cluster may be repaired
    /// (again), and the tick to which it follows a joint plan (no window
    /// search replaces it, no promotion overrides it before then).
    repair_from: Vec<u32>,
    repair_fails: Vec<u8>,
    scripted_until: Vec<u32>,
    /// Per unit, the tick until which it keeps out of a stalled body's way
    /// (see [`Self::pull_over`]; 0: not pulled over).
    aside_until: Vec<u32>,
    /// Per unit, the windows without progress after which a unit on
    /// landmark bounds gets true distances of its own wherever its window
    /// ends ([`STALLED_FOR_GOOD`], or [`GROUPED_STALLED_FOR_GOOD`]).
    own_after: Vec<u32>,
    /// Per unit, the tick until which it shoves at each replan (see
    /// [`shove`]), and the shoves' scratch.
    shoving_until: Vec<u32>,
    /// Per unit (a body), the tick until which its searches keep off
    /// one-cell units' reservations: its plan through them was dropped
    /// this tick (see [`right_of_way`]).
    own_way_until: Vec<u32>,
    shove: shove::Shove,
    /// Per unit, its distance to its goal when its last way clearing was
    /// kept, if it has not tried since (`u32::MAX`: none; see
    /// [`Self::note_body_progress`]).
    cleared_from: Vec<u32>,
    repairs_left: u32,
    /// Way clearings for stalled bodies left this tick (see
    /// [`WAY_CLEARINGS_PER_TICK`]).
    clearings_left: u32,
    /// Scratch of the window searches of a way clearing.
    way_scratch: WorkerScratch,
    /// Per unit, its whole joint plan (empty if none) and the tick of its
    /// first cell: the table reaches a window ahead, so a longer joint plan
    /// is committed a piece at a time (see [`Self::continue_scripts`]).
    scripts: Vec<Vec<Cell>>,
    script_start: Vec<u32>,
    /// Units with a joint plan, in the order they got it.
    scripted: Vec<Slot>,
    /// Memory of finished joint plans, for the next ones.
    script_pool: Vec<Vec<Cell>>,
    /// What joint repairs keep between calls.
    repair_memory: repair::RepairMemory,
    /// Scratch of [`Self::continue_scripts`].
    script_turn: Vec<Slot>,
    /// Scratch of the promoted searches and their victims' replans, which
    /// run in the sequential commit phase.
    promotion: Promotion,
    stats: PlannerStats,
    /// What the last tick's planning did.
    last: TickWork,
    /// How many one-cell units a budgeted tick plans in tiles (see
    /// [`WindowedHca::tiles_under_budget`]), and how long, in ns, its tiles
    /// ran on past their deadline (up at once with a longer tail, down by
    /// an eighth of the gap a tick).
    tile_take: usize,
    tile_tail_ns: f64,
    /// Whether [`Self::plan_tiles`] runs its pass of straight windows only
    /// (see [`Self::tiles_under_budget`]).
    straight_pass: bool,
    /// Per unit, whether its straight window failed in such a pass since
    /// its last search.
    straight_failed: Vec<std::sync::atomic::AtomicBool>,
    /// Straight windows failed in the pass running, and the share of the
    /// pass's windows that were straight, of late.
    straight_fails: std::sync::atomic::AtomicU32,
    straight_rate: f64,
}

/// Fewest units due in a tick for it to be planned tile by tile (see
/// [`WindowedHca::plan_tiles`]): with fewer, each colour's tiles hold a
/// handful of units, and four rounds of handing tiles to the workers cost
/// more than the batches' serial commits (den520d, 1,000 units, about 45
/// due a tick: 210–294 ms of planning in all against 181–244 ms).
const MIN_TILED_DUE: usize = 256;

/// Share of a budgeted tick's planning time kept, after the searches, for
/// the commit of the last batch (see [`WindowedHca::plan_units`]). It was
/// as long as recent commits took, from 15% to 40%: on
/// `profiles/mixed-2k.toml` the commits of batches of bodies (their claims,
/// the units moved out of their way, their promotions) kept it at 40%,
/// and few body searches fit. A fixed 15%, nine runs interleaved with the
/// old rule under 1 ms: 71.2–80.8% of the units home within 3× their
/// lower bound against 69.2–77.1% (eight pairs of nine better), 6–9 ticks
/// of 2,000 over the budget against 2–5, tick p99 0.96–0.99 ms either way;
/// `profiles/live-2k.toml` (300 µs) unchanged.
const COMMIT_RESERVE: f64 = 0.15;

/// Fewest one-cell units due, and least time for them, for a budgeted tick
/// to plan them in tiles (see [`WindowedHca::tiles_under_budget`]): a
/// tick's four colours cost their hand-overs to the workers whatever the
/// tiles hold (on `profiles/mixed-2k.toml`, tiles given 100–150 µs ran
/// 100–200 µs past it).
const MIN_BUDGETED_TILES: usize = 64;
const MIN_TILES_SLICE: Duration = Duration::from_micros(250);
/// Least share of a budgeted tick's search time the due one-cell units get
/// (their share by number, if more): the searches of bodies and slow units
/// cost 5–10 times theirs. By number alone, on `profiles/mixed-2k.toml`
/// the one-cell units' share fell below [`MIN_TILES_SLICE`] on about half
/// the ticks, and they queued behind bodies in the batches: 6.9–50.3% of
/// the units home within 3× their lower bound in four runs. With at least
/// half, 45.1–59.1%; with 0.6, 56.9–59.5% in eight.
const MIN_CELL_SHARE: f64 = 0.6;
/// The pass of straight windows first on a large map under a wall-clock
/// budget (see [`WindowedHca::tiles_under_budget`]): its share of the
/// one-cell units' time, the share of its windows that must have been
/// straight of late for it to run, and how often it runs to measure that
/// share when it does not. Iron Harvest's 10,000 units under 4 ms, two
/// threads: 90–97% of its windows straight; 307–339 units home at tick 300
/// and 1,644–2,305 at tick 2,000 against 183–201 and 1,050–1,498 without
/// the pass (sums of costs −0.2 to −0.4% and −3 to −4%; shares of 0.5 and
/// 0.7 measured alike in an earlier form of the pass). On the 512² stress
/// map under 2.5 ms, 82% straight at first and 57% by tick 200: run
/// throughout, the pass cost 3,872 → 3,323 units home at tick 300 and +1.8%
/// sum of costs.
const STRAIGHT_PASS_SHARE: f64 = 0.6;
const STRAIGHT_PASS_RATE: f64 = 0.85;
const STRAIGHT_PASS_PROBE: u32 = 16;

/// Most units in a rotation one of them leaves to go round (see
/// [`WindowedHca::rotation`]): three each on the next one's goal in a
/// warehouse aisle stayed there for good (warehouse-10-20-10-2-1 with
/// lanes, seed 4).
const MAX_ROTATION: usize = 4;

/// Ticks a detour's search left over from an earlier tick (see
/// [`WindowedHca::detour`]) keeps other units from starting theirs.
const PENDING_DETOUR_TICKS: u32 = 32;

/// A detour's search cut by its tick's deadline, to go on at the unit's
/// next stall: the search from the unit's goal around its walls can run
/// several milliseconds (5 ms on `profiles/mixed-2k.toml`), far past a
/// tick's budget.
struct PendingDetour {
    unit: Slot,
    goal: Cell,
    leaving: bool,
    search: ReverseResumableAStar,
    since: u32,
}

/// A plan set aside by a promotion: unit, start tick, its cells' range in
/// [`Promotion::cells`] and its motions' range in [`Promotion::motions`].
type SavedPlan = (Slot, u32, std::ops::Range<usize>, std::ops::Range<usize>);

/// Scratch for [`WindowedHca::promote`].
#[derive(Default)]
struct Promotion {
    search: crate::search::SpaceTimeAStar,
    /// Per depth of the chain of units moved out of each other's way: the
    /// path found and the units in its way.
    paths: Vec<Vec<Cell>>,
    victims: Vec<Vec<Slot>>,
    /// Every unit of the current attempt (none of them may be overridden
    /// again), in order.
    involved: Vec<Slot>,
    /// Their old plans: (unit, start tick, range in `cells`, range in
    /// `motions`, empty for a one-cell unit), to restore if the attempt
    /// fails.
    saved: Vec<SavedPlan>,
    cells: Vec<Cell>,
    motions: Vec<u8>,
    /// Claims that keep the units of a way clearing where they are until
    /// their turn to plan (see [`WindowedHca::clear_way`]): (cell, tick,
    /// whose).
    held_in_place: Vec<(Cell, u32, Slot)>,
    /// The cells of a stalled body's way, with the step of the way each
    /// lies on.
    way: Vec<(Cell, u32)>,
    /// Units given a new plan so far in the current attempt.
    moved: Vec<Slot>,
    /// Nodes the promoted searches expanded since the commit loop last
    /// counted them into the tick's node budget.
    expanded: u64,
    /// The rank of a unit pushing by priority (`None`: a stalled unit's
    /// promotion).
    rank: Option<u8>,
    /// A body's plan taking its right of way (see
    /// [`WindowedHca::take_right_of_way`]), and the units on it.
    body_path: Vec<Cell>,
    body_motions: Vec<u8>,
    yielded: Vec<Slot>,
}

impl Promotion {
    /// Starts an attempt: no unit involved, no plan saved.
    fn clear(&mut self) {
        self.involved.clear();
        self.saved.clear();
        self.cells.clear();
        self.motions.clear();
        self.moved.clear();
    }

    /// Starts an attempt that replaces the plans of `units` together:
    /// saves their plans and releases them.
    fn set_aside(&mut self, world: &mut World, units: &[Slot]) {
        self.clear();
        for &u in units {
            save_plan(self, world, u);
        }
        for &u in units {
            world.release_plan_but_action(u);
        }
    }

    /// Undoes an attempt: every saved unit's plan back as it was (the new
    /// plans of those units are released first).
    fn restore(&self, world: &mut World) {
        for &(u, ..) in &self.saved {
            world.release_plan(u);
        }
        for (u, start, cells, motions) in self.saved.iter().cloned() {
            if motions.is_empty() {
                world.commit_plan(u, start, &self.cells[cells]);
            } else {
                let (cells, motions) = (&self.cells[cells], &self.motions[motions]);
                world.commit_footprint_plan(u, start, cells, motions);
            }
        }
    }
}

/// What one call to [`WindowedHca::plan_units`] did.
#[derive(Clone, Copy, Debug, Default)]
struct Round {
    searches: u64,
    nodes: u64,
    carried: u64,
}

impl WindowedHca {
    /// A planner with window `window` (at least 2), searching on `threads`
    /// workers (0: all cores) within `budget` per tick.
    pub fn new(world: &World, window: u32, threads: usize, budget: Budget) -> Self {
        Self::new_in(world, window, threads, budget, None)
    }

    /// [`WindowedHca::new`] on the given worker pool (its thread count
    /// then replaces `threads`). The units' true-distance heuristics are
    /// readied here (shared tables and landmarks built, each unit's own
    /// search assigned), so planning can start at any tick.
    pub fn new_in(
        world: &World,
        window: u32,
        threads: usize,
        budget: Budget,
        pool: Option<Arc<rayon::ThreadPool>>,
    ) -> Self {
        let window = window.max(2);
        let max_nodes = search_nodes(window);
        let mut scheduler = match pool {
            // Room for a footprint plan finishing an action before its window.
            Some(pool) => Scheduler::with_pool(pool, window as usize + 2, max_nodes),
            None => Scheduler::new(threads, window as usize + 2, max_nodes),
        };
        scheduler.set_min_parallel(MIN_POOL_BATCH);
        let units = world.units.len();
        scheduler.prepare(&world.grid, window, MAX_BATCH);
        // The initial planning tiles every unit at once.
        scheduler.reserve_results(units);
        let mut promoted_search = crate::search::SpaceTimeAStar::with_capacity(max_nodes);
        promoted_search.prepare(&world.grid, window);
        let grid = &world.grid;
        let mut reserved = reserve_unit_searches(grid, &world.units.goal, SHARE_FROM);
        let mut heuristics = Vec::with_capacity(units);
        let shared_tables = unit_heuristics_in(
            grid,
            &world.units.start,
            &world.units.goal,
            SHARE_FROM,
            &mut reserved,
            Some(INITIAL_WIDEN),
            &mut heuristics,
        );
        let landmarks = heuristics.iter().find_map(|h| match &*h.lock() {
            Heuristic::Landmarks { table, .. } => Some(table.clone()),
            _ => None,
        });
        let dense_in_use = heuristics
            .iter()
            .filter(|h| matches!(&*h.lock(), Heuristic::Rra(r) if r.is_dense()))
            .count();
        WindowedHca {
            window,
            heuristics: Arc::new(heuristics),
            landmarks,
            body_landmarks: Vec::new(),
            dense_budget: dense_maps_that_fit(grid.cell_count()),
            dense_in_use,
            live_units: units,
            shared_tables,
            scheduler,
            budget,
            batch_size: batch_size(units),
            due: Vec::with_capacity(units),
            fresh: Vec::with_capacity(units),
            skipped: Vec::with_capacity(units),
            rest: Vec::with_capacity(units),
            retry: Vec::with_capacity(units),
            touched: vec![0; world.grid.cell_count()],
            batch_stamp: 0,
            stalled: vec![0; units],
            initializing: false,
            tiling: Tiling::default(),
            pending_detour: None,
            tile_take: MIN_TILED_DUE,
            tile_tail_ns: 0.0,
            straight_pass: false,
            straight_failed: (0..units).map(|_| Default::default()).collect(),
            straight_fails: Default::default(),
            straight_rate: 1.0,
            own_granted: vec![false; units],
            own_grants_left: OWN_SEARCHES_PER_TICK,
            restagger: vec![true; units],
            first_order: Vec::with_capacity(units),
            repair_from: vec![0; units],
            repair_fails: vec![0; units],
            aside_until: vec![0; units],
            shoving_until: vec![0; units],
            own_way_until: vec![0; units],
            own_after: vec![STALLED_FOR_GOOD; units],
            shove: shove::Shove::with_capacity(shove::MAX_SHOVED),
            cleared_from: vec![u32::MAX; units],
            scripted_until: vec![0; units],
            repairs_left: REPAIRS_PER_TICK,
            clearings_left: WAY_CLEARINGS_PER_TICK,
            way_scratch: WorkerScratch::new(window as usize + 2, 0),
            scripts: vec![Vec::new(); units],
            script_start: vec![0; units],
            // Room for a few joint plans at once, so that starting and
            // ending them does not allocate.
            scripted: Vec::with_capacity(8 * repair::MAX_MEMBERS),
            script_pool: Vec::with_capacity(8 * repair::MAX_MEMBERS),
            repair_memory: repair::RepairMemory::default(),
            script_turn: Vec::with_capacity(8 * repair::MAX_MEMBERS),
            promotion: Promotion {
                search: promoted_search,
                paths: (0..=PUSH_DEPTH)
                    .map(|_| Vec::with_capacity(window as usize + 1))
                    .collect(),
                victims: (0..=PUSH_DEPTH)
                    .map(|_| Vec::with_capacity(MAX_INVOLVED))
                    .collect(),
                involved: Vec::with_capacity(MAX_INVOLVED),
                saved: Vec::with_capacity(MAX_INVOLVED),
                cells: Vec::with_capacity(MAX_INVOLVED * (window as usize + 1)),
                motions: Vec::with_capacity(MAX_INVOLVED * (window as usize + 3)),
                held_in_place: Vec::with_capacity(MAX_INVOLVED * 9 * (window as usize + 1)),
                way: Vec::with_capacity(9 * WAY_REACH as usize),
                moved: Vec::with_capacity(MAX_INVOLVED),
                expanded: 0,
                rank: None,
                body_path: Vec::with_capacity(4 * window as usize + 8),
                body_motions: Vec::with_capacity(4 * window as usize + 8),
                yielded: Vec::with_capacity(MAX_INVOLVED),
            },
            stats: PlannerStats::default(),
            last: TickWork::default(),
        }
    }

    /// Reserves per-unit room for up to `units` units, so spawns allocate
    /// no more than their own heuristic.
    ///
    /// A world built empty and filled by spawns plans like one built with
    /// its units: if a dense search each would not fit `units` units with
    /// goals of their own, units read landmark bounds (built here, at
    /// set-up) rather than each getting a search of its own.
    pub fn reserve_units(&mut self, world: &World, units: usize) {
        if self.landmarks.is_none()
            && self.dense_in_use == 0
            && !dense_fits(world.grid.cell_count(), units)
        {
            self.landmarks = Some(Arc::new(Landmarks::build(&world.grid, LANDMARKS)));
        }
        let n = self.stalled.len();
        let extra = units.saturating_sub(n);
        self.scheduler.reserve_results(units);
        if let Some(h) = Arc::get_mut(&mut self.heuristics) {
            h.reserve(extra);
        }
        self.stalled.reserve(extra);
        self.own_granted.reserve(extra);
        self.restagger.reserve(extra);
        self.first_order
            .reserve(units.saturating_sub(self.first_order.len()));
        self.repair_from.reserve(extra);
        self.repair_fails.reserve(extra);
        self.aside_until.reserve(extra);
        self.shoving_until.reserve(extra);
        self.own_way_until.reserve(extra);
        self.own_after.reserve(extra);
        self.cleared_from.reserve(extra);
        self.scripted_until.reserve(extra);
        self.scripts.reserve(extra);
        self.script_start.reserve(extra);
        for v in [
            &mut self.due,
            &mut self.fresh,
            &mut self.skipped,
            &mut self.rest,
            &mut self.retry,
        ] {
            v.reserve(units.saturating_sub(v.len()));
        }
    }

    /// Gives unit `i` a fresh heuristic towards its goal from its cell,
    /// reusing the old one's memory (see [`Self::fresh_heuristic`]).
    fn renew_heuristic(&mut self, world: &World, i: usize) {
        let heuristics = Arc::get_mut(&mut self.heuristics).expect("no search starter running");
        let old = std::mem::replace(
            heuristics[i].get_mut(),
            Heuristic::Shared(Arc::from(Vec::new())),
        )
        .into_usual();
        let kind = world.units.kind[i];
        let h = self.fresh_heuristic(
            world,
            kind,
            world.units.goal[i],
            world.units.position[i],
            Some(old),
        );
        *Arc::get_mut(&mut self.heuristics).expect("no search starter running")[i].get_mut() = h;
    }

    /// A fresh heuristic towards `goal` for a unit of `kind` at `origin`,
    /// reusing `old`'s memory when it is a search of the unit's own:
    /// landmarks where the map has them (see [`Self::landmarks_for`]), else
    /// the unit's own RRA* on the anchors its body fits on (one word per
    /// cell while such maps fit the memory budget, the pages of cells it
    /// touches beyond).
    fn fresh_heuristic(
        &mut self,
        world: &World,
        kind: UnitKind,
        goal: Cell,
        origin: Cell,
        old: Option<Heuristic>,
    ) -> Heuristic {
        // One-cell units read landmarks wherever the map has them; units
        // with footprints while dense searches of their own fit.
        let table = if kind.is_cell() || self.dense_in_use >= self.dense_budget {
            self.landmarks_for(world, kind)
        } else {
            None
        };
        // A unit given its own search only to leave a hollow of the
        // landmark bounds (see `in_depression`) goes back to landmarks.
        let old = old.filter(|_| table.is_none());
        match old {
            Some(Heuristic::Rra(mut r)) => {
                r.assign(goal, origin, 0);
                Heuristic::Rra(r)
            }
            _ => {
                if let Some(table) = table {
                    return Heuristic::Landmarks {
                        goal_row: table.row(goal).into(),
                        table,
                        goal,
                    };
                }
                let dense = self.dense_in_use < self.dense_budget;
                self.dense_in_use += usize::from(dense);
                let mut r = ReverseResumableAStar::reserve(world.fit_grid(kind.size), dense);
                r.assign(goal, origin, 0);
                Heuristic::Rra(r)
            }
        }
    }

    /// The landmark table units of `kind` read, in a world with landmarks:
    /// the map's own for one-cell units, slow or not; for a body, one on
    /// the anchors its size fits on, built when the first such body
    /// arrives (16 breadth-first searches of its fit grid). A body's own
    /// true distances cost a search each, most of the work of a crowd with
    /// bodies: 2,000 2×2 bodies among 10,000 units on 512×512 took 1.4 s
    /// of initial planning and 740 MiB, 36.6 million nodes of distance
    /// searches. Like one-cell units, a body that stalls in a hollow of
    /// the bounds gets true distances of its own until it is out (see
    /// `footprint_window`). Built on the fit grid of the map as it stands
    /// then: a block standing at that moment and gone later can make its
    /// bounds too high there (windows less good, never unsafe).
    fn landmarks_for(&mut self, world: &World, kind: UnitKind) -> Option<Arc<Landmarks>> {
        let cells = self.landmarks.clone()?;
        let k = kind.size as usize;
        if k <= 1 {
            return Some(cells);
        }
        if self.body_landmarks.len() <= k {
            self.body_landmarks.resize(k + 1, None);
        }
        let table = self.body_landmarks[k].get_or_insert_with(|| {
            Arc::new(Landmarks::build(world.fit_grid(kind.size), LANDMARKS))
        });
        Some(table.clone())
    }

    /// The landmark table units of `kind` read, if built.
    fn landmark_table(&self, kind: UnitKind) -> Option<&Arc<Landmarks>> {
        match kind.size {
            0 | 1 => self.landmarks.as_ref(),
            k => self.body_landmarks.get(k as usize)?.as_ref(),
        }
    }

    /// True-distance tables shared by units with a common goal.
    pub fn shared_tables(&self) -> usize {
        self.shared_tables
    }

    /// Plans `units` (in order) in batches; returns what it did. Units it had
    /// no budget for stay due.
    fn plan_units(
        &mut self,
        world: &mut World,
        units: &mut Vec<Slot>,
        budget: Budget,
        until: Option<Instant>,
    ) -> Round {
        let w = self.window;
        let now = world.now();
        // Searches stop [`COMMIT_RESERVE`] of the budget before planning
        // must end, for the commit of the last batch; a commit still under
        // way when planning must end leaves the rest of its batch due,
        // searched again later.
        let deadline = until.map(|u| self.search_deadline(u, budget));
        let mut round = Round::default();
        let mut rounds = 0;
        while !units.is_empty() && rounds < MAX_ROUNDS {
            rounds += 1;
            self.retry.clear();
            self.skipped.clear();
            let mut next = 0;
            while next < units.len() {
                if budget.nodes.is_some_and(|b| round.nodes >= b)
                    || deadline.is_some_and(|d| Instant::now() >= d)
                {
                    break;
                }
                let end = (next + self.batch_size).min(units.len());
                let batch = &units[next..end];
                {
                    crate::profile_zone!("search batch");
                    let search = WindowSearch {
                        world,
                        heuristics: &self.heuristics,
                        granted: &self.own_granted,
                        own_after: &self.own_after,
                        landmark_world: self.landmarks.is_some(),
                        window: w,
                        deadline,
                        straight_only: false,
                        straight_failed: &self.straight_failed,
                        straight_fails: &self.straight_fails,
                        scripted: &self.scripted_until,
                        own_way_until: &self.own_way_until,
                    };
                    self.scheduler
                        .run_batch(batch, deadline, |a, scratch| search.run(a, scratch));
                }
                crate::profile_zone!("commit");
                self.batch_stamp = self.batch_stamp.wrapping_add(1);
                if self.batch_stamp == 0 {
                    self.touched.fill(0);
                    self.batch_stamp = 1;
                }
                let stamp = self.batch_stamp;
                // A promotion moves units outside the touched stamps: every
                // later result of the batch is then checked in full.
                let mut promoted = false;
                for (k, &a) in units[next..end].iter().enumerate() {
                    if k + 1 < end - next {
                        // The commit is a chain of cache misses on the
                        // table: fetch the next result's slots meanwhile.
                        for (t, &c) in self.scheduler.path(k + 1).iter().enumerate() {
                            world.table.prefetch(c, now + t as u32);
                        }
                    }
                    let outcome = self.scheduler.outcome(k);
                    if !outcome.ran || until.is_some_and(|u| Instant::now() >= u) {
                        // Out of time: stays due for the next tick.
                        self.skipped.push(a);
                        continue;
                    }
                    if !self.take_outcome(world, a, outcome, &mut round) {
                        continue;
                    }
                    let i = a.index();
                    if !outcome.found {
                        promoted |= self.settle_failed(world, a, deadline, outcome.start_distance);
                        round.nodes += std::mem::take(&mut self.promotion.expanded);
                        continue;
                    }
                    let path = self.scheduler.path(k);
                    let kind = world.units.kind[i];
                    let committed = if kind.is_cell() {
                        let recheck =
                            promoted || path_touched(&world.grid, &self.touched, stamp, path);
                        let ok = world.try_replace_plan(a, path, recheck);
                        if ok {
                            for &c in path {
                                self.touched[c.index()] = stamp;
                            }
                        }
                        ok
                    } else {
                        // Always checked in full; its claims mark the batch.
                        let motions = self.scheduler.motions(k);
                        let ok = world.try_replace_footprint_plan(a, path, motions);
                        if ok {
                            let touched = &mut self.touched;
                            for_each_claim(
                                &world.grid,
                                kind.size as u32,
                                now,
                                path,
                                motions,
                                now,
                                &mut |c, _| {
                                    touched[c.index()] = stamp;
                                },
                            );
                            true
                        } else if kind.size > 1 {
                            // Through one-cell units' reservations: they
                            // give way, or the plan is dropped. Either way
                            // later results are checked in full.
                            let p = &mut self.promotion;
                            p.body_path.clear();
                            p.body_path.extend_from_slice(path);
                            p.body_motions.clear();
                            p.body_motions.extend_from_slice(motions);
                            let kept = self.take_right_of_way(world, a, deadline);
                            if !kept {
                                // Searched again this tick, around them.
                                self.own_way_until[i] = now + 1;
                            }
                            promoted |= kept;
                            kept
                        } else {
                            false
                        }
                    };
                    if committed {
                        for &c in self.scheduler.extra(k) {
                            ask_way(world, c, a);
                        }
                        promoted |=
                            self.settle_committed(world, a, deadline, outcome.start_distance);
                        round.nodes += std::mem::take(&mut self.promotion.expanded);
                    } else {
                        self.stats.commit_conflicts += 1;
                        self.retry.push(a);
                    }
                }
                next = end;
            }
            // Units skipped or never reached stay due, in order; conflicted
            // ones go again after them.
            let out_of_budget = !self.skipped.is_empty() || next < units.len();
            self.rest.clear();
            self.rest.extend_from_slice(&self.skipped);
            self.rest.extend_from_slice(&units[next..]);
            self.rest.extend_from_slice(&self.retry);
            std::mem::swap(units, &mut self.rest);
            if out_of_budget {
                break;
            }
        }
        round.carried += units.len() as u64;
        round
    }

    /// Plans the `due` units of a tick: without a budget, when many are due,
    /// the one-cell units tile by tile, on every worker with no serial
    /// commit (stress, 10,000 units on two threads: see docs/threads.md);
    /// under a wall-clock budget, the most overdue one-cell units in tiles
    /// for their share of the time; the rest in batches, which also keep
    /// to a node budget's count on any number of threads.
    fn plan_due(
        &mut self,
        world: &mut World,
        due: &mut Vec<Slot>,
        budget: Budget,
        until: Option<Instant>,
    ) -> Round {
        if budget.wall_us.is_some() {
            self.first_plans_first(world, due);
        }
        let tiled = if !may_tile(due.len(), budget) {
            Round::default()
        } else if budget.wall_us.is_some() {
            self.tiles_under_budget(world, due, budget, until)
        } else {
            self.plan_tiles(world, due, usize::MAX, until)
        };
        let mut r = self.plan_units(world, due, budget, until);
        r.searches += tiled.searches;
        r.nodes += tiled.nodes;
        r
    }

    /// Under a wall-clock budget, when more units are due than a tick can
    /// plan: the units waiting for their first plan since they were spawned or
    /// ordered go before the units replanning, which still have half
    /// a window of plan to walk, and among them the shortest trips (in ticks,
    /// by the grid distance) go first: a short trip can least afford to wait.
    /// The rest keep their order. A first plan costs its unit's first
    /// true-distance search too (a body's: 58 µs on average against 42 µs for
    /// its later ones), so on `profiles/mixed-2k.toml` under 1 ms half of the
    /// bodies waited to tick 141–144 for it behind the replans, and the 3×3
    /// bodies (a median lower bound of 54 ticks) were late before they
    /// started. Now half of the 3×3 bodies move by tick 15, the 2×2 by tick
    /// 71; seven runs interleaved with the order before: 75.8–80.7% of the
    /// units home within 3× their lower bound against 71.9–78.8% (every pair
    /// better), 96.2–97.3% home at tick 2,000 against 96.8–98.8% (the long
    /// trips pay). Under a node budget, which does not count
    /// true-distance work, first plans do not queue, and the order only
    /// delayed replans (6,000 nodes a tick, under a wall-clock budget too
    /// long to bind: 89.5% against 91.2%).
    /// Sorted in scratch memory (a stable sort of the queue allocates).
    fn first_plans_first(&mut self, world: &World, due: &mut Vec<Slot>) {
        let first = &self.restagger;
        if !due.iter().any(|a| first[a.index()]) {
            return;
        }
        let (units, grid) = (&world.units, &world.grid);
        // (ticks to go, place in the queue): each key once, so the
        // order is the queue's among equal trips.
        let order = &mut self.first_order;
        order.clear();
        order.extend(
            due.iter()
                .enumerate()
                .filter(|(_, a)| first[a.index()])
                .map(|(k, a)| {
                    let i = a.index();
                    let ticks = grid.grid_distance(units.position[i], units.goal[i])
                        * units.kind[i].pace.max(1) as u32;
                    (ticks, k as u32)
                }),
        );
        order.sort_unstable();
        let sorted = &mut self.rest;
        sorted.clear();
        sorted.extend(order.iter().map(|&(_, k)| due[k as usize]));
        sorted.extend(due.iter().filter(|a| !first[a.index()]));
        std::mem::swap(due, sorted);
    }

    /// When searches under `budget` must stop for the commit of the last
    /// batch to end by `until` (see [`Self::plan_units`]).
    fn search_deadline(&self, until: Instant, budget: Budget) -> Instant {
        let reserve = budget.wall_us.unwrap_or(0) as f64 * 1e3 * COMMIT_RESERVE;
        until
            .checked_sub(Duration::from_nanos(reserve as u64))
            .unwrap_or(until)
    }

    /// Under a wall-clock budget, the most overdue one-cell units of `due`
    /// tile by tile (see [`Self::plan_tiles`]), for their share of the
    /// searches' time by number, at least [`MIN_CELL_SHARE`]; the rest of
    /// it goes to batches, for the other units. Tiles have no serial
    /// commit, so more searches fit a budget. Given all the time, tiles
    /// left bodies and slow units no search at all; given every one-cell
    /// unit at once, their colours taking turns would leave the most
    /// overdue of the last colour waiting, so they take as many as recent
    /// ticks' tiles managed.
    fn tiles_under_budget(
        &mut self,
        world: &mut World,
        due: &mut Vec<Slot>,
        budget: Budget,
        until: Option<Instant>,
    ) -> Round {
        let Some(until) = until else {
            return Round::default();
        };
        let (now, units) = (world.now(), &world.units);
        let cells = due
            .iter()
            .filter(|a| units.kind[a.index()].is_cell() && self.scripted_until[a.index()] <= now)
            .count();
        if cells < MIN_BUDGETED_TILES {
            return Round::default();
        }
        // Their share of the time to `until`, less what recent tiles ran
        // on past their deadline (their last searches, and settling their
        // units after), 10–40% of the budget: tiles have no commit to keep
        // time for.
        let start = Instant::now();
        let us = budget.wall_us.unwrap_or(0);
        let settle = Duration::from_nanos((self.tile_tail_ns as u64).clamp(us * 100, us * 400));
        let room = until
            .checked_sub(settle)
            .unwrap_or(until)
            .saturating_duration_since(start);
        let slice = room.mul_f64((cells as f64 / due.len() as f64).max(MIN_CELL_SHARE));
        if slice < MIN_TILES_SLICE {
            // Forget an old overrun by degrees: measured only when tiles
            // run, one long tail (a worker preempted) kept every later
            // tick from tiling, and the one-cell units of the 2,000-unit
            // mixed crowd queued behind bodies for the rest of the run.
            self.tile_tail_ns = worst_lately(self.tile_tail_ns, 0.0);
            return Round::default();
        }
        let deadline = start + slice;
        let mut straight = Round::default();
        if world.table.large_map()
            && (self.straight_rate >= STRAIGHT_PASS_RATE || world.now() % STRAIGHT_PASS_PROBE == 0)
        {
            // On a large map a search's cache misses cost more than its
            // nodes, and most due units' windows are straight: those go
            // first, for part of the time, so that a unit with a free way
            // does not stop for want of the time the searches behind jams
            // took. Where few windows are straight (a dense crowd), the
            // pass only delays the searches: it runs while at least
            // `STRAIGHT_PASS_RATE` of its windows were straight of late,
            // and every `STRAIGHT_PASS_PROBE` ticks to measure that again.
            self.straight_pass = true;
            *self.straight_fails.get_mut() = 0;
            let before = due.len();
            let until = start + slice.mul_f64(STRAIGHT_PASS_SHARE);
            straight = self.plan_tiles(world, due, usize::MAX, Some(until));
            self.straight_pass = false;
            let (kept, failed) = (before - due.len(), *self.straight_fails.get_mut() as usize);
            if kept + failed > 0 {
                let rate = kept as f64 / (kept + failed) as f64;
                self.straight_rate += (rate - self.straight_rate) / 4.0;
            }
        }
        let take = self.tile_take.max(MIN_TILED_DUE);
        let before = due.len();
        let mut r = self.plan_tiles(world, due, take, Some(deadline));
        r.searches += straight.searches;
        r.nodes += straight.nodes;
        let planned = before - due.len();
        let tail = Instant::now()
            .saturating_duration_since(deadline)
            .as_nanos() as f64;
        self.tile_tail_ns = worst_lately(self.tile_tail_ns, tail);
        let (used, room) = (start.elapsed(), deadline.saturating_duration_since(start));
        self.tile_take = if planned >= take && used < room {
            // Done early: as many more as the time left would have held.
            let grow = room.as_secs_f64() / used.as_secs_f64().max(1e-6);
            (take as f64 * grow.min(2.0)) as usize
        } else {
            planned
        };
        r
    }

    /// The worker pool, if planning can use it: with small batches there is
    /// too little to share out, and handing each tick and batch to pool
    /// threads only costs time (100 units on 32×32: 0.10 ms a tick through
    /// the pool against 0.07 ms without; 400 units on random-64-64-20, six
    /// a batch: 0.17 against 0.13 ms; 800, twelve a batch: even).
    fn pool(&self) -> Option<std::sync::Arc<rayon::ThreadPool>> {
        self.scheduler
            .pool_handle()
            .filter(|_| self.batch_size >= MIN_POOL_BATCH)
    }

    /// Whether a tick of `due` units under `budget` plans no more than a
    /// few light batches, cheaper on the calling thread than handed to the
    /// workers: no tiles, and a batch's searches worth less than
    /// [`MIN_POOL_BATCH_NS`] by the recent mean search.
    fn light_tick(&self, due: usize, budget: Budget) -> bool {
        !may_tile(due, budget)
            && self.batch_size.min(due) as f64 * self.scheduler.mean_search_ns() < MIN_POOL_BATCH_NS
    }

    /// Counts the search that ran for unit `a` and grants it true distances
    /// of its own if it asked (a few a tick, in commit order). Returns false
    /// if a joint plan was given to the unit since it became due (by a
    /// repair committed or settled before it): its search's result is
    /// dropped.
    fn take_outcome(
        &mut self,
        world: &mut World,
        a: Slot,
        outcome: SearchOutcome,
        round: &mut Round,
    ) -> bool {
        round.searches += 1;
        round.nodes += outcome.expanded as u64;
        self.stats.expanded += outcome.expanded as u64;
        let i = a.index();
        if self.scripted_until[i] > world.now() {
            world.units.set_flag(a, UnitFlags::QUEUED, false);
            return false;
        }
        self.own_granted[i] = outcome.asks && self.own_grants_left > 0;
        self.own_grants_left -= u32::from(self.own_granted[i]);
        true
    }

    /// After a unit's search found nothing: it keeps its plan, stuck, and
    /// tries again next tick. Returns whether plans changed (see
    /// [`Self::note_progress`]).
    fn settle_failed(
        &mut self,
        world: &mut World,
        a: Slot,
        deadline: Option<Instant>,
        known: Option<u32>,
    ) -> bool {
        if self.aside_until[a.index()] > world.now() {
            // No way to its place aside: it stops pulling over.
            self.aside_until[a.index()] = world.now();
        }
        world.units.set_flag(a, UnitFlags::QUEUED, false);
        self.stats.failed_searches += 1;
        world.units.set_flag(a, UnitFlags::STUCK, true);
        world.units.next_replan[a.index()] = world.now() + 1;
        self.note_progress(world, a, deadline, known)
    }

    /// After a unit's new plan was committed: it replans half a window on
    /// (at once if it was just granted own distances). Silver's staggering:
    /// a unit's first plan after a spawn or an order is followed by a
    /// replan 1 to half a window on, by its slot, so that units spawned or
    /// ordered together do not all replan on the same later ticks (2,000
    /// units spawned at once replanned every eighth tick, 2,000 searches in
    /// one tick and none in the seven between). Returns whether plans
    /// changed (see [`Self::note_progress`]).
    fn settle_committed(
        &mut self,
        world: &mut World,
        a: Slot,
        deadline: Option<Instant>,
        known: Option<u32>,
    ) -> bool {
        let i = a.index();
        world.units.set_flag(a, UnitFlags::QUEUED, false);
        world.units.set_flag(a, UnitFlags::STUCK, false);
        let half = (self.window / 2).max(1);
        world.units.next_replan[i] = world.now()
            + if self.own_granted[i] {
                1
            } else if std::mem::take(&mut self.restagger[i]) {
                1 + a.0 % half
            } else {
                half
            };
        self.note_progress(world, a, deadline, known)
    }

    /// Plans the one-cell units of `due` tile by tile (see [`Tiling`]): the
    /// tiles of one colour at once on the workers, each tile's units in
    /// order, searched and claimed in the table one after another; then, in
    /// the same order, each unit's own state. The colours take turns going
    /// first, tick by tick. Searches stop at `deadline`. Leaves in `due`
    /// the units it did not plan (bodies, any whose claim failed and any
    /// the deadline left), in their order. Plans nothing where tiles do not
    /// pay or where the due units differ in priority (tiles would let a
    /// unit plan before a neighbour that outranks it).
    fn plan_tiles(
        &mut self,
        world: &mut World,
        due: &mut Vec<Slot>,
        take: usize,
        deadline: Option<Instant>,
    ) -> Round {
        let w = self.window;
        let now = world.now();
        let units = &world.units;
        let is_cell = |a: &Slot| units.kind[a.index()].is_cell();
        let mut priorities = due
            .iter()
            .filter(|a| is_cell(a))
            .map(|a| units.priority[a.index()]);
        let first = priorities.next();
        if first.is_none() || !Tiling::pays(&world.grid, w) || priorities.any(|p| Some(p) != first)
        {
            return Round::default();
        }
        crate::profile_zone!("plan tiles");
        let mut tiling = std::mem::take(&mut self.tiling);
        tiling.rebuild(
            &world.grid,
            w,
            due.iter()
                .filter(|a| is_cell(a) && self.scripted_until[a.index()] <= now)
                .take(take)
                .map(|&a| (a, units.position[a.index()])),
        );
        self.scheduler.begin_tiles(tiling.units.len());
        let turn = now as usize % 4;
        let colours = || (0..4).map(move |c| (turn + c) % 4);
        tiling.order(turn);
        {
            let world_ref: &World = world;
            let search = WindowSearch {
                world: world_ref,
                heuristics: &self.heuristics,
                granted: &self.own_granted,
                own_after: &self.own_after,
                landmark_world: self.landmarks.is_some(),
                window: w,
                deadline,
                straight_only: self.straight_pass,
                straight_failed: &self.straight_failed,
                straight_fails: &self.straight_fails,
                scripted: &self.scripted_until,
                own_way_until: &self.own_way_until,
            };
            // Not re-checked: since the search, only this tile's earlier
            // units (searched before it) and tiles too far off to reach
            // (see `Tiling`) have claimed cells. A full re-check cost a
            // fifth of the initial planning of the 512² stress map.
            self.scheduler.run_tiles(
                &tiling.units,
                tiling.graph(),
                deadline,
                |a, scratch| search.run(a, scratch),
                |a, path| world_ref.claim_replacement(a, path, false),
            );
        }
        crate::profile_zone!("settle tiles");
        // Every new plan is in place before any unit's state is settled: a
        // promotion there may move units that come later in the order.
        for (j, &a) in tiling.units.iter().enumerate() {
            if self.scheduler.outcome(j).committed {
                world.units.set_plan(a, now, self.scheduler.path(j));
            }
        }
        let mut round = Round::default();
        for c in colours() {
            for &(s, e) in &tiling.colours[c] {
                for (j, &a) in (s..e).zip(&tiling.units[s..e]) {
                    let o = self.scheduler.outcome(j);
                    if !o.ran {
                        continue;
                    }
                    if !self.take_outcome(world, a, o, &mut round) {
                        continue;
                    }
                    if !o.found {
                        self.settle_failed(world, a, deadline, o.start_distance);
                    } else if o.committed {
                        for &c in self.scheduler.extra(j) {
                            ask_way(world, c, a);
                        }
                        self.settle_committed(world, a, deadline, o.start_distance);
                    } else {
                        self.stats.commit_conflicts += 1;
                    }
                    round.nodes += std::mem::take(&mut self.promotion.expanded);
                }
            }
        }
        self.stats.tiled_searches += round.searches;
        self.tiling = tiling;
        // Settled units are no longer queued; units given a joint plan
        // since they became due are not searched at all.
        let (units, scripted) = (&mut world.units, &self.scripted_until);
        due.retain(|&a| {
            if scripted[a.index()] > now && units.kind[a.index()].is_cell() {
                units.set_flag(a, UnitFlags::QUEUED, false);
            }
            units.flags[a.index()].has(UnitFlags::QUEUED)
        });
        round
    }

    /// The initial planning of the `due` units (in `order`): the one-cell
    /// units tile by tile, then rounds of batches until every unit has a
    /// plan or stays pinned on its start.
    fn plan_initial(&mut self, world: &mut World, due: &mut Vec<Slot>, order: &[Slot]) -> Round {
        let mut r = self.plan_tiles(world, due, usize::MAX, None);
        loop {
            let round = self.plan_units(world, due, Budget::default(), None);
            r.searches += round.searches;
            // A unit left without a plan stays on its start for good, and
            // whoever planned through that start plans again around it.
            let replan = pin_unplanned_starts(world, order);
            if replan.is_empty() {
                return r;
            }
            for &a in &replan {
                world.units.set_flag(a, UnitFlags::QUEUED, true);
            }
            due.extend_from_slice(&replan);
        }
    }

    /// Counts a unit's replans in a row after which its plan (the new one,
    /// or after a failed search the one it keeps) brings it less than a
    /// quarter of a window closer to its goal, and promotes it once they
    /// reach [`PROMOTE_AFTER`], at every replan until a promotion is kept.
    /// (Counting afresh after a failed one as well brought fewer maze units
    /// home.) Only units with true distances are judged: landmark lower
    /// bounds make units that move well look stalled (on the LoRR map that
    /// gave 11,500 promotions, nearly all for nothing, and ticks 50% longer).
    /// Runs in the sequential commit phase. Returns whether plans changed
    /// (the promoted unit's and its victims'): outside the batch's touched
    /// stamps, so the batch's later results must then be checked in full.
    fn note_progress(
        &mut self,
        world: &mut World,
        a: Slot,
        deadline: Option<Instant>,
        known: Option<u32>,
    ) -> bool {
        crate::profile_zone!("note progress");
        let i = a.index();
        let kind = world.units.kind[i];
        let progressed = {
            let mut h = self.heuristics[i].lock();
            let guided = matches!(&*h, Heuristic::Rra(r) if r.is_guided());
            if let (Some(table), true) = (self.landmark_table(kind), guided) {
                // Own true distances, given to leave a hollow of the
                // landmark bounds (see `in_depression`), guided by them:
                // once the unit stands where the bounds are lower than
                // anywhere it stood before (the hollow's floor among
                // them), the hollow lies behind it, and landmarks guide it
                // again. Kept to the next goal instead, such searches grew
                // with every window on the Iron Harvest map (270 million
                // cells closed in 300 ticks, 4.9 GB).
                let goal = world.units.goal[i];
                let goal_row: Box<[u16]> = table.row(goal).into();
                let bound = table.lower_bound_to(world.units.position[i], &goal_row);
                if bound < world.units.best_distance[i] {
                    *h = Heuristic::Landmarks {
                        table: table.clone(),
                        goal,
                        goal_row,
                    };
                }
            }
            let aside = self.aside_until[i];
            let aside_over = aside != 0 && world.now() >= aside;
            if aside_over {
                // Pulled over long enough: back to its own goal.
                self.aside_until[i] = 0;
                world.units.best_distance[i] = UNREACHABLE;
                world.units.progress_tick[i] = world.now();
                world.units.next_replan[i] = world.now() + 1;
            }
            if aside_over || aside == 0 && world.units.at_goal(a) {
                // Home: the way around has done its work (and its search
                // is memory).
                h.end_detour();
            } else if matches!(&*h, Heuristic::Detour(_))
                && world.now().saturating_sub(world.units.progress_tick[i])
                    >= DETOUR_STALE_WINDOWS * self.window
            {
                // The way round leads nowhere any more (units parked across
                // it since): back to the usual distances, under which
                // promotions and joint repairs clear the way again.
                h.end_detour();
                world.units.best_distance[i] = UNREACHABLE;
                world.units.progress_tick[i] = world.now();
                self.repair_fails[i] = 0;
            }
            h.ensure_started(world.fit_grid(kind.size));
            // The unit's progress, for its state (stuck or not). A landmark
            // bound its search handed on is the same as reading it again
            // (a pure function of the table, the goal and the cell), less
            // the cache miss: 10,000 units settled one after another.
            let handed_on = known.filter(|_| {
                matches!(&*h, Heuristic::Landmarks { goal, .. } if *goal == world.units.goal[i])
            });
            let d = h.distance_or(
                handed_on,
                world.fit_grid(kind.size),
                world.units.position[i],
            );
            if d < world.units.best_distance[i] {
                world.units.best_distance[i] = d;
                world.units.progress_tick[i] = world.now();
            }
            if !kind.is_cell() {
                // Units with footprints are not promoted: they ask the way
                // of the units on it (see `footprint_window`), and when
                // that does not free it, the way is cleared for them.
                drop(h);
                return self.note_body_progress(world, a, deadline);
            }
            // Right of way (Silver's unit priorities, set by the game): a
            // unit that outranks others and whose window falls short of the
            // straight run to its goal overrides the lower units on its way.
            let prio = world.units.priority[i];
            if prio > 0 && !world.units.at_goal(a) {
                let plan = world.units.plan(a);
                let end = h.distance(&world.grid, *plan.last().expect("plans are never empty"));
                let full = d.min(plan.len() as u32 - 1);
                if d != UNREACHABLE && d.saturating_sub(end) < full {
                    drop(h);
                    if deadline.is_some_and(|t| Instant::now() >= t) {
                        return false;
                    }
                    self.stats.promotions += 1;
                    self.promotion.rank = Some(prio);
                    let kept = self.promote(world, a, deadline);
                    self.promotion.rank = None;
                    if kept && self.promotion.moved.len() > 1 {
                        self.stats.promotions_kept += 1;
                    }
                    return kept;
                }
            }
            if !h.is_exact() {
                return false;
            }
            let plan = world.units.plan(a);
            plan.len() > 1 && !blocked(&world.grid, &mut h, plan, self.window)
        };
        if progressed || world.units.at_goal(a) {
            self.stalled[i] = 0;
            return false;
        }
        self.stalled[i] = self.stalled[i].saturating_add(1);
        if self.repair_due(world, a)
            && self.repairs_left > 0
            && deadline.is_none_or(|d| Instant::now() < d)
        {
            self.repairs_left -= 1;
            let mut kept = self.repair(world, a, deadline);
            // A joint repair plans one-cell units only: a body or a slow
            // unit on the way pulls over instead, as for a stalled body
            // (a slow unit parked in a one-cell corridor kept a one-cell
            // unit from passing for good: asked, it stepped along the
            // corridor and came back; its way cleared, it left it and came
            // back before the other had passed).
            if !kept && self.clearings_left > 0 && self.footprint_on_way(world, a) {
                self.clearings_left -= 1;
                kept = self.pull_over(world, a);
            }
            self.note_repair_try(world, a, kept);
            if kept {
                self.stalled[i] = 0;
                return true;
            }
            if self.repair_fails[i] >= DETOUR_AFTER_REPAIRS {
                self.detour(world, a, deadline);
            }
        }
        if self.stalled[i] < PROMOTE_AFTER
            || self.initializing
            || deadline.is_some_and(|d| Instant::now() >= d)
        {
            return false;
        }
        if self.shove_due(world, a) && self.shove(world, a) {
            return true;
        }
        self.stats.promotions += 1;
        if !self.promote(world, a, deadline) {
            return false;
        }
        self.stalled[i] = 0;
        // Kept: its plan overrode someone, who planned again.
        if self.promotion.moved.len() > 1 {
            self.stats.promotions_kept += 1;
        }
        true
    }

    /// Whether a unit with a footprint (a body, or a slow unit) stands on
    /// unit `a`'s way for [`WAY_REACH`] moves.
    fn footprint_on_way(&self, world: &World, a: Slot) -> bool {
        let i = a.index();
        let kind = world.units.kind[i];
        let at = Body {
            grid: &world.grid,
            fit: world.fit_grid(kind.size),
            size: kind.size as u32,
        };
        let (table, now, units) = (&world.table, world.now(), &world.units);
        let mut found = false;
        let mut h = self.heuristics[i].lock();
        along_gradient(&at, &mut h, units.position[i], WAY_REACH, &mut |_, c| {
            found |= units_on(table, c, now).any(|b| b != a && !units.kind[b.index()].is_cell());
        });
        found
    }

    /// Whether unit `a` is stuck and due for a repair (a joint one, or a
    /// cleared way for a body): off its goal with no progress for
    /// [`REPAIR_AFTER_WINDOWS`] windows, or pushed off a goal it had
    /// reached (units taking turns on a corridor's goals never stop
    /// progressing by their best distances, but never settle either), and
    /// past its back-off (see [`Self::note_repair_try`]).
    fn repair_due(&self, world: &World, a: Slot) -> bool {
        let i = a.index();
        let now = world.now();
        !world.units.at_goal(a)
            && (now.saturating_sub(world.units.progress_tick[i])
                >= REPAIR_AFTER_WINDOWS * self.window
                || world.units.best_distance[i] == 0)
            && now >= self.repair_from[i]
    }

    /// Sets unit `a`'s back-off after a repair try: after each failure in a
    /// row it waits twice as long before the next (1, 2, 4, then 8
    /// windows). (On the warehouse map, against a window after every
    /// failure: 1,293 tries instead of 1,771, as many units home, planning
    /// 4.7 s instead of 5.9 s in all.)
    fn note_repair_try(&mut self, world: &World, a: Slot, kept: bool) {
        let i = a.index();
        let shift = self.repair_fails[i].min(3);
        self.repair_from[i] = world.now() + (self.window << shift);
        self.repair_fails[i] = if kept {
            0
        } else {
            self.repair_fails[i].saturating_add(1)
        };
    }

    /// After a window search of unit `a`, of a kind with a footprint:
    /// clears its way if it is due for a repair (see [`Self::repair_due`],
    /// [`Self::clear_way`]). Returns whether plans changed.
    fn note_body_progress(
        &mut self,
        world: &mut World,
        a: Slot,
        deadline: Option<Instant>,
    ) -> bool {
        if !self.repair_due(world, a)
            || self.aside_until[a.index()] > world.now()
            || self.clearings_left == 0
            || deadline.is_some_and(|d| Instant::now() >= d)
        {
            return false;
        }
        self.clearings_left -= 1;
        let i = a.index();
        let kept = self.clear_way(world, a, deadline);
        // A clearing kept after one that left the unit no closer went for
        // nothing too: the units cleared came back, or asked the way in
        // turn (a slow unit and a one-cell unit head-on in a one-cell
        // corridor, the other's goal in it, took turns backing off for
        // good). It counts as failed: the unit walks round them instead.
        // (Judged by distances, not by the unit's progress: a unit pulled
        // over for others starts its progress afresh when it comes back.)
        let d = {
            let fit = world.fit_grid(world.units.kind[i].size);
            self.heuristics[i]
                .lock()
                .distance(fit, world.units.position[i])
        };
        let futile = kept && d >= self.cleared_from[i];
        self.cleared_from[i] = if kept { d } else { u32::MAX };
        self.note_repair_try(world, a, kept && !futile);
        if (!kept || futile) && !self.detour(world, a, deadline) {
            self.pull_over(world, a);
        }
        kept
    }

    /// When unit `a`, a stalled body, can neither have its way cleared nor
    /// walk around the units on it (a jam closes the only passage its body
    /// fits): the first unit on its way, if a body (a one-cell unit there
    /// is left to way requests: pulling those over too brought no more
    /// home), pulls over, to the nearest place
    /// its body keeps off `a`'s next [`PULL_OVER_REACH`] moves, reached
    /// without passing through `a`, and stays out of the way for two
    /// windows (its goal unchanged: a detour to that place, see
    /// [`Detour`]), so that `a` can pass; then it goes on to its goal.
    fn pull_over(&mut self, world: &mut World, a: Slot) -> bool {
        crate::profile_zone!("pull over");
        let i = a.index();
        let now = world.now();
        let grid = Arc::clone(&world.grid);
        let grid = &*grid;
        let kind = world.units.kind[i];
        let a_rect = world.rect_of(a);
        // The way to keep off: `a`'s body now and along its distances.
        let mut way: Vec<Cell> = a_rect.cells(grid.width()).collect();
        let mut first = None;
        {
            let mut h = self.heuristics[i].lock();
            let at = Body {
                grid,
                fit: world.fit_grid(kind.size),
                size: kind.size as u32,
            };
            let table = &world.table;
            along_gradient(
                &at,
                &mut h,
                world.units.position[i],
                PULL_OVER_REACH,
                &mut |_, c| {
                    if !way.contains(&c) {
                        way.push(c);
                    }
                    if first.is_none() {
                        first = units_on(table, c, now).find(|&b| b != a);
                    }
                },
            );
        }
        let Some(b) = first else {
            return false;
        };
        let j = b.index();
        let b_kind = world.units.kind[j];
        if b_kind.is_cell() || self.aside_until[j] > now || !self.may_clear(world, a, b) {
            return false;
        }
        if self.round_goal(world, a, b) {
            return true;
        }
        // The nearest anchor of `b` off the way with nobody else on it,
        // breadth-first from `b`, never through `a`'s body.
        let (fit, size) = (world.fit_grid(b_kind.size), b_kind.size as u32);
        let table = &world.table;
        let others_on = |anchor: Cell| {
            body(grid, anchor, size).any(|c| units_on(table, c, now).any(|u| u != b))
        };
        let meets_a = |anchor: Cell| body(grid, anchor, size).any(|c| a_rect.contains(grid.xy(c)));
        let start = world.units.position[j];
        let mut queue = vec![start];
        let mut seen: rustc_hash::FxHashSet<Cell> = [start].into_iter().collect();
        let mut target = None;
        let mut buf = [Cell(0); 8];
        let mut k = 0;
        while k < queue.len() && k < PULL_OVER_SEARCH {
            let p = queue[k];
            k += 1;
            if p != start && !body(grid, p, size).any(|c| way.contains(&c)) && !others_on(p) {
                target = Some(p);
                break;
            }
            let n = fit.neighbors(p, &mut buf);
            for &q in &buf[..n] {
                if !meets_a(q) && seen.insert(q) {
                    queue.push(q);
                }
            }
        }
        let Some(target) = target else {
            return self.back_off(world, a, b, &way);
        };
        // Its distances to that place (which keeps off `a`), with `a`'s
        // anchors walled off.
        let mut walls = Vec::new();
        anchors_meeting(fit, size, a_rect, &mut walls);
        self.set_aside(world, b, target, 2, &walls)
    }

    /// When unit `b`'s own way home crosses the goal of unit `a`, for which
    /// it is pulled over (see [`Self::pull_over`]): pulled aside, it would
    /// come back to meet `a` parked there (a slow unit in a one-cell
    /// corridor and a one-cell unit bound for a cell of it went back and
    /// forth for good). It walks round that goal and round `a` where it
    /// stands instead, for [`ROUND_GOAL_WINDOWS`] windows (a detour, see
    /// [`Self::detour`], ended as a pull-over's is). Returns whether its
    /// goal can be reached round them.
    fn round_goal(&mut self, world: &mut World, a: Slot, b: Slot) -> bool {
        let (i, j) = (a.index(), b.index());
        let grid = &*world.grid;
        let (a_size, b_kind) = (world.units.kind[i].size as u32, world.units.kind[j]);
        let (fit, size) = (world.fit_grid(b_kind.size), b_kind.size as u32);
        let a_goal = sweep(grid, world.units.goal[i], (0, 0), a_size);
        // From where its next window starts: the end of the step it is in.
        let from = world.units.plan(b)[world.action_in_progress(b).end];
        let goal = world.units.goal[j];
        let mut crosses = false;
        {
            let mut h = self.heuristics[j].lock();
            let at = Body { grid, fit, size };
            along_gradient(&at, &mut h, from, PULL_OVER_REACH, &mut |_, c| {
                crosses |= a_goal.contains(grid.xy(c));
            });
        }
        if !crosses {
            return false;
        }
        let mut walls = Vec::new();
        anchors_meeting(fit, size, a_goal, &mut walls);
        anchors_meeting(fit, size, world.rect_of(a), &mut walls);
        if walls.contains(&goal) {
            return false;
        }
        // Standing on a wall, it leaves it (see `Detour::leaving`).
        let leaving = walls.contains(&from);
        let mut search = ReverseResumableAStar::around(fit, goal, from, walls);
        let d = if leaving {
            leaving_distance(fit, &mut search, from)
        } else {
            search.distance(fit, from)
        };
        if d >= WALL_DISTANCE {
            return false;
        }
        let leaving = leaving.then_some((from, d));
        self.go_aside(world, j, search, leaving, d, ROUND_GOAL_WINDOWS);
        self.stats.detours += 1;
        true
    }

    /// When body `b`, pulled over for unit `a` (see [`Self::pull_over`]),
    /// can leave `a`'s way only through `a` itself (`a` stands in the mouth
    /// of the passage that `b`, parked, fills): `a` backs off first. The
    /// places off `a`'s way that `b` can reach through `a`, nearest first,
    /// are tried in turn: for each, `a` looks for the nearest place off
    /// every cell `b`'s body sweeps on its way there, reached without
    /// passing through `b` or that place (so that `a` comes back round
    /// it). The first pair found: `b` pulls over to its place and stays for
    /// [`BACK_OFF_WINDOWS`] windows, long enough for `a` to pass; `a` steps
    /// aside to its own for a window, then goes on. (A slow unit behind a
    /// 2×2 body parked in a passage two cells high, and one-cell units
    /// around a 3×3 body parked in a passage it fills, went back and forth
    /// for good on the den520d map.)
    fn back_off(&mut self, world: &mut World, a: Slot, b: Slot, way: &[Cell]) -> bool {
        let Some((place, aside, walls)) = self.back_off_places(world, a, b, way) else {
            return false;
        };
        self.set_aside(world, b, place, BACK_OFF_WINDOWS, &[])
            && self.set_aside(world, a, aside, 1, &walls)
    }

    /// The places of [`Self::back_off`]: `b`'s, `a`'s, and the anchors of
    /// `a` that meet `b`'s place (walled off in `a`'s way there and back).
    fn back_off_places(
        &self,
        world: &World,
        a: Slot,
        b: Slot,
        way: &[Cell],
    ) -> Option<(Cell, Cell, Vec<Cell>)> {
        let now = world.now();
        let grid = &*world.grid;
        let (i, j) = (a.index(), b.index());
        let (a_kind, b_kind) = (world.units.kind[i], world.units.kind[j]);
        let (b_fit, b_size) = (world.fit_grid(b_kind.size), b_kind.size as u32);
        let b_at = world.units.position[j];
        let b_rect = world.rect_of(b);
        let table = &world.table;
        let others_on = |anchor: Cell| {
            body(grid, anchor, b_size).any(|c| units_on(table, c, now).any(|u| u != a && u != b))
        };
        // A set, as the search tests every anchor's body against it.
        let on_way: rustc_hash::FxHashSet<Cell> = way.iter().copied().collect();
        // Breadth-first from `b`, through `a`, with each anchor's parent.
        let mut queue: Vec<(Cell, usize)> = vec![(b_at, usize::MAX)];
        let mut seen: rustc_hash::FxHashSet<Cell> = [b_at].into_iter().collect();
        let mut swept: rustc_hash::FxHashSet<Cell> = Default::default();
        let mut buf = [Cell(0); 8];
        let (mut k, mut tries) = (0, 0);
        while k < queue.len() && k < PULL_OVER_SEARCH && tries < BACK_OFF_TRIES {
            let p = queue[k].0;
            k += 1;
            if p != b_at && !body(grid, p, b_size).any(|c| on_way.contains(&c)) && !others_on(p) {
                tries += 1;
                // The cells `b`'s body sweeps on its way to `p`.
                swept.clear();
                let mut at = k - 1;
                while at != usize::MAX {
                    swept.extend(body(grid, queue[at].0, b_size));
                    at = queue[at].1;
                }
                let place = sweep(grid, p, (0, 0), b_size);
                if let Some(aside) = self.place_aside(world, a, b_rect, place, &swept) {
                    let mut walls = Vec::new();
                    let a_fit = world.fit_grid(a_kind.size);
                    anchors_meeting(a_fit, a_kind.size as u32, place, &mut walls);
                    return Some((p, aside, walls));
                }
            }
            let n = b_fit.neighbors(p, &mut buf);
            for &q in &buf[..n] {
                if seen.insert(q) {
                    queue.push((q, k - 1));
                }
            }
        }
        None
    }

    /// The nearest anchor of unit `a` whose body keeps off `sweep` and
    /// `place`, with no unit on it, reached without passing through
    /// `b_rect` or `place` (see [`Self::back_off`]).
    fn place_aside(
        &self,
        world: &World,
        a: Slot,
        b_rect: crate::map::Rect,
        place: crate::map::Rect,
        sweep: &rustc_hash::FxHashSet<Cell>,
    ) -> Option<Cell> {
        let (grid, table, now) = (&*world.grid, &world.table, world.now());
        let kind = world.units.kind[a.index()];
        let (fit, size) = (world.fit_grid(kind.size), kind.size as u32);
        let start = world.units.position[a.index()];
        let barred = |anchor: Cell| {
            body(grid, anchor, size).any(|c| {
                let xy = grid.xy(c);
                b_rect.contains(xy) || place.contains(xy)
            })
        };
        let mut queue = vec![start];
        let mut seen: rustc_hash::FxHashSet<Cell> = [start].into_iter().collect();
        let mut buf = [Cell(0); 8];
        let mut k = 0;
        while k < queue.len() && k < PULL_OVER_SEARCH {
            let p = queue[k];
            k += 1;
            if p != start
                && !body(grid, p, size)
                    .any(|c| sweep.contains(&c) || units_on(table, c, now).any(|u| u != a))
            {
                return Some(p);
            }
            let n = fit.neighbors(p, &mut buf);
            for &q in &buf[..n] {
                if !barred(q) && seen.insert(q) {
                    queue.push(q);
                }
            }
        }
        None
    }

    /// Sends unit `a` to anchor `place` and keeps it there for `windows`
    /// windows (a detour to that place, its goal unchanged, as in
    /// [`Self::pull_over`]), its distances walled off at `walls`. Returns
    /// whether `place` can be reached.
    fn set_aside(
        &mut self,
        world: &mut World,
        a: Slot,
        place: Cell,
        windows: u32,
        walls: &[Cell],
    ) -> bool {
        let i = a.index();
        let fit = world.fit_grid(world.units.kind[i].size);
        let start = world.units.position[i];
        let mut search = ReverseResumableAStar::around(fit, place, start, walls.to_vec());
        let d = search.distance(fit, start);
        if d >= WALL_DISTANCE {
            return false;
        }
        self.go_aside(world, i, search, None, d, windows);
        self.stats.pull_overs += 1;
        true
    }

    /// Gives unit `i` the detour `search` (see `Detour::leaving` for
    /// `leaving`), `d` from where it stands, for `windows` windows, its
    /// progress counted afresh; it plans again at the next tick.
    fn go_aside(
        &mut self,
        world: &mut World,
        i: usize,
        search: ReverseResumableAStar,
        leaving: Option<(Cell, u32)>,
        d: u32,
        windows: u32,
    ) {
        self.heuristics[i].lock().start_detour(search, leaving);
        let now = world.now();
        self.aside_until[i] = now + windows * self.window;
        world.units.best_distance[i] = d;
        world.units.progress_tick[i] = now;
        world.units.next_replan[i] = now + 1;
    }

    /// Gives unit `a` distances around the units on its way for
    /// [`WAY_REACH`] moves (see [`Detour`]), if its goal can be reached
    /// around them: a body whose way could not be cleared walls off every
    /// unit there, a one-cell unit whose joint repairs keep failing the
    /// units parked on their goals. It keeps them until it arrives or gets
    /// a new goal; its progress is measured on them from then on. A
    /// one-cell unit on the goal of the unit standing on its own goal
    /// walls off its own cell too, and leaves it (see [`Detour::leaving`]).
    /// On
    /// `profiles/mixed-2k.toml` without a budget, most bodies still
    /// travelling at tick 800 long after their time (144 of them) stood in
    /// jams of bodies heading the other way or behind bodies parked on
    /// their goals between walls, retrying way clearings that could not
    /// succeed; in warehouse aisles, the last one-cell units took turns
    /// with units parked in the same aisle for good.
    fn detour(&mut self, world: &mut World, a: Slot, deadline: Option<Instant>) -> bool {
        crate::profile_zone!("detour");
        let i = a.index();
        let fit = world.fit_grid(world.units.kind[i].size);
        let (from, goal, now) = (world.units.position[i], world.units.goal[i], world.now());
        // One detour's search at a time goes on over several ticks: another
        // unit waits for it, unless it has been left for long.
        if self
            .pending_detour
            .as_ref()
            .is_some_and(|p| p.unit != a && now < p.since + PENDING_DETOUR_TICKS)
        {
            return false;
        }
        let pending = self
            .pending_detour
            .take()
            .filter(|p| p.unit == a && p.goal == goal);
        let (mut search, leaving) = match pending {
            Some(p) => {
                if p.leaving && !p.search.walls().contains(&from)
                    || self.plan_meets_walls(world, a, p.search.walls(), p.leaving)
                {
                    return false;
                }
                (p.search, p.leaving)
            }
            None => {
                let Some((walls, leaving)) = self.detour_walls(world, a) else {
                    return false;
                };
                if walls.contains(&goal) || self.plan_meets_walls(world, a, &walls, leaving) {
                    return false;
                }
                let search = ReverseResumableAStar::around_until(fit, goal, from, walls, deadline);
                (search, leaving)
            }
        };
        search.deadline = deadline;
        let d = if leaving {
            // One step off the cell it leaves, not into the goal (the other
            // unit stands there until it is gone).
            let mut next = [Cell(0); 8];
            let n = fit.neighbors(from, &mut next);
            next[..n]
                .iter()
                .filter(|&&c| c != goal)
                .map(|&c| search.distance(fit, c))
                .min()
                .unwrap_or(WALL_DISTANCE)
                .saturating_add(1)
        } else {
            search.distance(fit, from)
        };
        search.deadline = None;
        if search.paused {
            // Out of time: the search goes on at the unit's next stall.
            self.pending_detour = Some(PendingDetour {
                unit: a,
                goal,
                leaving,
                search,
                since: now,
            });
            return false;
        }
        if d >= WALL_DISTANCE {
            return false;
        }
        self.heuristics[i]
            .lock()
            .start_detour(search, leaving.then_some((from, d)));
        world.units.best_distance[i] = d;
        world.units.progress_tick[i] = now;
        self.stats.detours += 1;
        true
    }

    /// If one-cell unit `a` stands in a rotation (the unit on its goal has
    /// its goal where a third stands, and so on back to `a`'s cell, at most
    /// [`MAX_ROTATION`] units in all, none of them already leaving its
    /// cell): the cells of the others but the one on `a`'s goal (for
    /// two units trading places, none).
    fn rotation(&self, world: &World, a: Slot) -> Option<Vec<Cell>> {
        let units = &world.units;
        let (from, now) = (units.position[a.index()], world.now());
        let mut at = units.goal[a.index()];
        let mut others = Vec::new();
        for _ in 1..MAX_ROTATION {
            let b = units_on(&world.table, at, now)
                .find(|&b| b != a && units.kind[b.index()].is_cell())?;
            if self.heuristics[b.index()].lock().is_leaving() {
                return None;
            }
            at = units.goal[b.index()];
            if at == from {
                return Some(others);
            }
            others.push(at);
        }
        None
    }

    /// The cells a detour of unit `a` walls off (the anchors where its body
    /// would meet the units on its way, its earlier detour's walls, and
    /// the cells of a rotation and the one it leaves), and whether it
    /// leaves its cell (see [`Self::detour`]); `None` if nobody is in its
    /// way.
    fn detour_walls(&self, world: &World, a: Slot) -> Option<(Vec<Cell>, bool)> {
        let i = a.index();
        let kind = world.units.kind[i];
        let (fit, size) = (world.fit_grid(kind.size), kind.size as u32);
        let (from, now) = (world.units.position[i], world.now());
        let mut h = self.heuristics[i].lock();
        // Stuck again on its way around: around the units on this way too.
        let mut walls = Vec::new();
        if let Heuristic::Detour(d) = &*h {
            walls.extend_from_slice(d.search.walls());
        }
        let mut around = Vec::new();
        let table = &world.table;
        let at = Body {
            grid: &world.grid,
            fit,
            size,
        };
        // A one-cell unit walks around units parked on their goals only
        // (the others move on).
        let parked_only = kind.is_cell();
        let units = &world.units;
        along_gradient(&at, &mut h, from, WAY_REACH, &mut |_, c| {
            for b in units_on(table, c, now) {
                if b != a && !around.contains(&b) && (!parked_only || units.at_goal(b)) {
                    around.push(b);
                }
            }
        });
        drop(h);
        // One-cell units in a corridor, each on the next one's goal (two
        // trading places, or a rotation), can only get there the long way
        // round: one leaves its cell (the last one's goal) for good and
        // comes back to its own goal from the far side, round the others.
        // The first of them to get here goes.
        let rotation = if kind.is_cell() {
            self.rotation(world, a)
        } else {
            None
        };
        let leaving = rotation.is_some();
        if around.is_empty() && !leaving {
            return None;
        }
        for &b in &around {
            anchors_meeting(fit, size, world.rect_of(b), &mut walls);
        }
        for c in rotation
            .into_iter()
            .flatten()
            .chain(leaving.then_some(from))
        {
            if !walls.contains(&c) {
                walls.push(c);
            }
        }
        Some((walls, leaving))
    }

    /// Whether the rest of unit `a`'s plan meets `walls` (but for the cell
    /// it leaves): its plan must keep off them, and a stalled unit's plan
    /// mostly waits where it is.
    fn plan_meets_walls(&self, world: &World, a: Slot, walls: &[Cell], leaving: bool) -> bool {
        let i = a.index();
        let from = world.units.position[i];
        let plan = world.units.plan(a);
        let now = world.now();
        let ahead =
            &plan[(now.saturating_sub(world.units.plan_start[i]) as usize).min(plan.len() - 1)..];
        ahead
            .iter()
            .any(|&c| walls.contains(&c) && !(leaving && c == from))
    }

    /// Clears the way of unit `a`, a stalled body: the units standing or
    /// parked on its way for [`WAY_REACH`] moves (bodies as well as single
    /// cells; none outranking it, none following a joint plan) set their
    /// plans aside and plan their windows again, the farthest along the way
    /// first, off the way (claimed for `a`, see [`Self::claim_way`]), each
    /// unit standing where it is until its turn; then unit `a` plans. A
    /// unit in the way that finds no plan is
    /// boxed in: the units around it join and plan before it, and the
    /// clearing starts over, up to [`CLEARING_ROUNDS`] times. Kept only if
    /// every one finds a plan and unit `a`'s brings it closer to its goal;
    /// otherwise every plan is put back as it was, so no collision can come
    /// of it. (Bodies wedged against each other wait for good on way
    /// requests alone: the body in the way is itself stalled, and a request
    /// only prices its cells.) Returns whether plans changed.
    fn clear_way(&mut self, world: &mut World, a: Slot, deadline: Option<Instant>) -> bool {
        crate::profile_zone!("clear way");
        self.stats.way_clearings += 1;
        let i = a.index();
        let now = world.now();
        let kind = world.units.kind[i];
        let from = world.units.position[i];
        // The units in the way, nearest first, and the way's cells.
        let p = &mut self.promotion;
        let (in_way, way) = (&mut p.victims[0], &mut p.way);
        in_way.clear();
        way.clear();
        let start_distance = {
            let grid = &*world.grid;
            let at = Body {
                grid,
                fit: world.fit_grid(kind.size),
                size: kind.size as u32,
            };
            let mut h = self.heuristics[i].lock();
            let table = &world.table;
            along_gradient(&at, &mut h, from, WAY_REACH, &mut |step, c| {
                way.push((c, step));
                for b in units_on(table, c, now) {
                    if b != a && !in_way.contains(&b) {
                        in_way.push(b);
                    }
                }
            });
            h.distance(at.fit, from)
        };
        // The planning order: the units in the way, farthest first, then
        // unit `a`.
        let mut order = std::mem::take(in_way);
        if order.is_empty()
            || order.len() >= MAX_INVOLVED
            || !order.iter().all(|&b| self.may_clear(world, a, b))
        {
            order.clear();
            self.promotion.victims[0] = order;
            return false;
        }
        order.reverse();
        order.push(a);
        let mut kept = false;
        for _ in 0..CLEARING_ROUNDS {
            self.promotion.set_aside(world, &order);
            // Every unit stays where it is until its turn, so that the
            // ones before it plan around it.
            self.promotion.held_in_place.clear();
            self.claim_way(world, a);
            self.hold_in_place(world, &order);
            let mut failed = None;
            for (k, &u) in order.iter().enumerate() {
                self.release_in_place(world, Some(u));
                if !self.plan_alone(world, u, deadline) {
                    failed = Some(k);
                    break;
                }
            }
            self.release_in_place(world, None);
            if failed.is_none() {
                let end = *world.units.plan(a).last().expect("plans are never empty");
                let mut h = self.heuristics[i].lock();
                if h.distance(world.fit_grid(kind.size), end) < start_distance {
                    kept = true;
                    break;
                }
            }
            self.promotion.restore(world);
            let Some(k) = failed.filter(|&k| order[k] != a) else {
                break;
            };
            // A unit in the way found no plan: the units around it plan
            // before it.
            let boxed = order[k];
            let before = order.len();
            let r = world.rect_of(boxed);
            let (w, h) = (world.grid.width(), world.grid.height());
            for y in r.y0.saturating_sub(1)..=(r.y1 + 1).min(h - 1) {
                for x in r.x0.saturating_sub(1)..=(r.x1 + 1).min(w - 1) {
                    let c = world.grid.cell(x, y);
                    let table = &world.table;
                    let soon = (now..now + 3).map(|t| table.occupant(c, t));
                    for b in soon.chain([table.hold(c).map(|(b, _)| b)]).flatten() {
                        if !order.contains(&b) && self.may_clear(world, a, b) {
                            order.insert(k, b);
                        }
                    }
                }
            }
            if order.len() == before || order.len() > MAX_INVOLVED {
                break;
            }
        }
        order.clear();
        self.promotion.victims[0] = order;
        if !kept {
            return false;
        }
        let next = now + (self.window / 2).max(1);
        for k in 0..self.promotion.saved.len() {
            let u = self.promotion.saved[k].0;
            world.units.set_flag(u, UnitFlags::STUCK, false);
            world.units.next_replan[u.index()] = next;
            self.stalled[u.index()] = 0;
        }
        self.stats.way_clearings_kept += 1;
        true
    }

    /// Claims the cells each of `units` covers now (see
    /// [`World::rect_of`]) for the window ahead as well, where still free:
    /// while the units of a way clearing plan one after another, those yet
    /// to plan stand still (see [`Self::clear_way`]).
    /// [`Self::release_in_place`] drops them.
    fn hold_in_place(&mut self, world: &World, units: &[Slot]) {
        let now = world.now();
        let held = &mut self.promotion.held_in_place;
        let last = world.table.last_tick().min(now + self.window);
        for &u in units {
            let r = world.rect_of(u);
            let prio = world.units.priority[u.index()];
            for t in now + 1..=last {
                for y in r.y0..=r.y1 {
                    for x in r.x0..=r.x1 {
                        let c = world.grid.cell(x, y);
                        if world.table.layer_owner(c, t).is_none()
                            && world.table.claim(c, t, u, prio).is_ok()
                        {
                            held.push((c, t, u));
                        }
                    }
                }
            }
        }
    }

    /// Claims for stalled unit `a` the cells of its way (see
    /// [`Promotion::way`]) from the tick it could reach them, moving
    /// straight on, plus the ticks its body takes to clear a cell, to the
    /// window's end, where still free: the units in its way plan off it in
    /// time. Dropped with `a`'s claims of [`Self::hold_in_place`].
    fn claim_way(&mut self, world: &World, a: Slot) {
        let now = world.now();
        let kind = world.units.kind[a.index()];
        let (pace, lag) = (kind.pace as u32, kind.size as u32 * kind.pace as u32);
        let prio = world.units.priority[a.index()];
        let last = world.table.last_tick().min(now + self.window);
        let p = &mut self.promotion;
        for &(c, step) in &p.way {
            for t in now + step * pace + lag..=last {
                if world.table.is_free(c, t, a)
                    && world.table.layer_owner(c, t).is_none()
                    && world.table.claim(c, t, a, prio).is_ok()
                {
                    p.held_in_place.push((c, t, a));
                }
            }
        }
    }

    /// Drops the claims of [`Self::hold_in_place`]: unit `only`'s, or all.
    fn release_in_place(&mut self, world: &World, only: Option<Slot>) {
        self.promotion.held_in_place.retain(|&(c, t, u)| {
            let drop = only.is_none_or(|o| o == u);
            if drop {
                world.table.release(c, t, u);
            }
            !drop
        });
    }

    /// Whether unit `b` may be moved out of stalled unit `a`'s way: it does
    /// not outrank `a`, follows no joint plan, and takes part in planning.
    fn may_clear(&self, world: &World, a: Slot, b: Slot) -> bool {
        let f = world.units.flags[b.index()];
        world.units.priority[b.index()] <= world.units.priority[a.index()]
            && self.scripted_until[b.index()] <= world.now()
            && !f.has(UnitFlags::UNREACHABLE)
            && !f.any(UnitFlags::INACTIVE)
    }

    /// Plans unit `u`'s window from its cell against the table as it
    /// stands (its own plan set aside), and commits the plan if it found
    /// one. Runs in the sequential commit phase; counts its nodes into the
    /// promotions' count.
    fn plan_alone(&mut self, world: &mut World, u: Slot, deadline: Option<Instant>) -> bool {
        crate::profile_zone!("plan alone");
        let now = world.now();
        let w = self.window;
        let i = u.index();
        if !world.units.kind[i].is_cell() {
            let mut h = self.heuristics[i].lock();
            let scratch = &mut self.way_scratch;
            scratch.extra.clear();
            let Some((found, expanded)) = footprint_window(
                world,
                u,
                w,
                deadline,
                &mut h,
                scratch,
                &|_| false,
                None,
                None,
            ) else {
                return false;
            };
            drop(h);
            self.promotion.expanded += expanded as u64;
            self.stats.expanded += expanded as u64;
            if found {
                world.commit_footprint_plan(u, now, &scratch.path, &scratch.motions);
            }
            return found;
        }
        let query = SpaceTimeQuery {
            unit: u,
            start: world.units.position[i],
            start_tick: now,
            goal: world.units.goal[i],
            depth: Depth::Window(w),
            goal_wait_cost: 0,
            max_expansions: EXPANSIONS_PER_WINDOW_TICK * w as usize,
            deadline,
            overriding: None,
        };
        let p = &mut self.promotion;
        let found = search_cell_window(
            &mut p.search,
            &world.grid,
            &world.table,
            &self.heuristics[i],
            &query,
            &mut p.paths[0],
        ) && !p.search.aborted;
        p.expanded += p.search.expanded as u64;
        self.stats.expanded += p.search.expanded as u64;
        if found {
            world.commit_plan(u, now, &p.paths[0]);
        }
        found
    }

    /// Silver's unit priorities: unit `a` is promoted for one search, in
    /// which other units' reservations count as free (at a cost). The units
    /// it overrides (its victims) drop their plans and plan again around its
    /// new one, promoted in turn up to [`PUSH_DEPTH`] deep. If any of them
    /// finds no way out, every plan is put back as it was, so a promotion
    /// never causes a collision. Returns whether the new plans were kept.
    fn promote(&mut self, world: &mut World, a: Slot, deadline: Option<Instant>) -> bool {
        crate::profile_zone!("promote");
        let p = &mut self.promotion;
        p.clear();
        save_plan(p, world, a);
        if self.push(world, a, PUSH_DEPTH, deadline) {
            self.settle_moved(world);
            return true;
        }
        // Someone had no way out: put every plan back as it was. (Every
        // unit moved was saved first, so this releases the new plans too.)
        self.stats.promotions_rolled_back += 1;
        self.promotion.restore(world);
        false
    }

    /// Plans unit `u` (whose old plan is saved), overriding the units not yet
    /// involved when `depth > 0`; clears its victims out of the way and plans
    /// them again, one level less deep. The first unit replaces its plan in
    /// place; the others' plans were released when they became victims.
    fn push(
        &mut self,
        world: &mut World,
        u: Slot,
        depth: usize,
        deadline: Option<Instant>,
    ) -> bool {
        let now = world.now();
        let w = self.window;
        let grid = world.grid.clone();
        let p = &mut self.promotion;
        let found = {
            let flags = &world.units.flags;
            let involved = &p.involved;
            // A push by rank overrides only lower-ranked units; a stalled
            // unit's push, any unit not outranking it.
            let priority = &world.units.priority;
            let mine = priority[u.index()];
            let rank = p.rank;
            let kinds = &world.units.kind;
            let scripted = &self.scripted_until;
            let may_override = |b: Slot| {
                let theirs = priority[b.index()];
                kinds[b.index()].is_cell()
                    && scripted[b.index()] <= now
                    && !flags[b.index()].has(UnitFlags::UNREACHABLE)
                    && !flags[b.index()].any(UnitFlags::INACTIVE)
                    && !involved.contains(&b)
                    && match rank {
                        Some(r) => theirs < r,
                        None => theirs <= mine,
                    }
            };
            let query = SpaceTimeQuery {
                unit: u,
                start: world.units.position[u.index()],
                start_tick: now,
                goal: world.units.goal[u.index()],
                depth: Depth::Window(w),
                goal_wait_cost: 0,
                max_expansions: EXPANSIONS_PER_WINDOW_TICK * w as usize,
                deadline,
                overriding: (depth > 0).then_some(Overriding {
                    may_override: &may_override,
                    // The ranked unit itself goes straight through.
                    cost: if rank.is_some() && u == involved[0] {
                        0
                    } else {
                        OVERRIDE_COST
                    },
                }),
            };
            search_cell_window(
                &mut p.search,
                &grid,
                &world.table,
                &self.heuristics[u.index()],
                &query,
                &mut p.paths[depth],
            )
        };
        p.expanded += p.search.expanded as u64;
        self.stats.expanded += p.search.expanded as u64;
        if !found || p.search.aborted {
            return false;
        }
        // The units in the way of the new plan.
        let (path, victims) = (&p.paths[depth], &mut p.victims[depth]);
        victims.clear();
        let mut note = |b: Slot| {
            if !victims.contains(&b) {
                victims.push(b);
            }
        };
        for (t, step) in path.windows(2).enumerate() {
            world
                .table
                .move_blockers(&grid, u, step[0], step[1], now + t as u32, &mut note);
        }
        let last = *path.last().expect("non-empty");
        world
            .table
            .stay_blockers(last, now + path.len() as u32 - 1, u, &mut note);
        if p.involved.len() + victims.len() > MAX_INVOLVED {
            return false;
        }
        for k in 0..p.victims[depth].len() {
            let v = p.victims[depth][k];
            save_plan(p, world, v);
            world.release_plan(v);
        }
        if p.moved.is_empty() && u == p.involved[0] {
            if !world.try_replace_plan(u, &p.paths[depth], true) {
                return false;
            }
        } else {
            world.commit_plan(u, now, &p.paths[depth]);
        }
        self.promotion.moved.push(u);
        for k in 0..self.promotion.victims[depth].len() {
            let v = self.promotion.victims[depth][k];
            if depth == 0 || !self.push(world, v, depth - 1, deadline) {
                return false;
            }
        }
        true
    }

    /// After a kept promotion (or right of way): every unit given a new
    /// plan is no longer stuck and replans half a window on.
    fn settle_moved(&mut self, world: &mut World) {
        let next = world.now() + (self.window / 2).max(1);
        for &u in &self.promotion.moved {
            world.units.set_flag(u, UnitFlags::STUCK, false);
            world.units.next_replan[u.index()] = next;
        }
    }

    /// Plans the units stuck together around unit `a` jointly (see
    /// [`repair`]) and commits their plans if every one is still free in
    /// the table; otherwise leaves every plan as it was. Each unit then
    /// follows its joint plan to its end. The search stops at `deadline`
    /// (the tick's wall-clock budget; OD reads the clock every few hundred
    /// expansions). Returns whether plans changed.
    fn repair(&mut self, world: &mut World, a: Slot, deadline: Option<Instant>) -> bool {
        crate::profile_zone!("joint repair");
        self.stats.repairs += 1;
        let now = world.now();
        let max_len = self.joint_piece(world);
        let (found, expanded) = {
            let heuristics = &self.heuristics;
            let grid = &world.grid;
            let mut distance = |u: Slot, c: Cell| {
                let mut h = heuristics[u.index()].lock();
                h.ensure_started(grid);
                h.distance(grid, c)
            };
            repair::plan_cluster(
                &mut self.repair_memory,
                world,
                a,
                &mut distance,
                max_len,
                repair::MAX_NODES << (2 * self.repair_fails[a.index()].min(REPAIR_GROWTHS)),
                deadline,
            )
        };
        self.promotion.expanded += expanded;
        self.stats.expanded += expanded;
        if !found {
            return false;
        }
        let plan = &self.repair_memory.plan;
        let p = &mut self.promotion;
        p.set_aside(world, &plan.units);
        let len = plan.paths[0].len().min(max_len);
        let free = plan.units.iter().zip(&plan.paths).all(|(&u, path)| {
            let ok = world.path_is_free(u, &path[..len]);
            if ok {
                world.commit_plan(u, now, &path[..len]);
            }
            ok
        });
        if !free {
            p.restore(world);
            return false;
        }
        let until = now + len as u32 - 1;
        for (&u, path) in plan.units.iter().zip(&plan.paths) {
            let i = u.index();
            if self.scripts[i].is_empty() {
                self.scripted.push(u);
                if let Some(buffer) = self.script_pool.pop() {
                    self.scripts[i] = buffer;
                }
            }
            self.scripts[i].clear();
            self.scripts[i].extend_from_slice(path);
            self.script_start[i] = now;
            self.scripted_until[i] = until;
            self.stalled[i] = 0;
            world.units.next_replan[i] = until.max(now + 1);
            world.units.set_flag(u, UnitFlags::STUCK, false);
        }
        self.stats.repairs_kept += 1;
        true
    }

    /// Commits the next piece of the joint plans whose committed piece
    /// ends now: the units of such plans together (their old plans
    /// released first, since each plan's end may lie on another's way),
    /// each piece checked against the table. If any is no longer free (a
    /// building, a unit of higher priority), those units drop their joint
    /// plans and plan on their own from this tick.
    fn continue_scripts(&mut self, world: &mut World) {
        if self.scripted.is_empty() {
            return;
        }
        let now = world.now();
        let max_len = self.joint_piece(world);
        self.script_turn.clear();
        let mut k = 0;
        while k < self.scripted.len() {
            let u = self.scripted[k];
            let i = u.index();
            let at = now.saturating_sub(self.script_start[i]) as usize;
            if self.scripted_until[i] > now {
                k += 1;
            } else if at + 1 < self.scripts[i].len()
                && self.scripts[i][at] == world.units.position[i]
            {
                self.script_turn.push(u);
                k += 1;
            } else {
                // Done (or off its script): plans on its own again.
                let mut buffer = std::mem::take(&mut self.scripts[i]);
                buffer.clear();
                self.script_pool.push(buffer);
                self.scripted.remove(k);
            }
        }
        if self.script_turn.is_empty() {
            return;
        }
        self.promotion.set_aside(world, &self.script_turn);
        let (scripts, starts) = (&self.scripts, &self.script_start);
        let piece = |u: Slot| {
            let i = u.index();
            let at = (now - starts[i]) as usize;
            let end = (at + max_len).min(scripts[i].len());
            &scripts[i][at..end]
        };
        let free = self.script_turn.iter().all(|&u| {
            let path = piece(u);
            let ok = path.iter().all(|&c| world.grid.is_passable(c)) && world.path_is_free(u, path);
            if ok {
                world.commit_plan(u, now, path);
            }
            ok
        });
        if free {
            for &u in &self.script_turn {
                let until = now + piece(u).len() as u32 - 1;
                self.scripted_until[u.index()] = until;
                world.units.next_replan[u.index()] = until.max(now + 1);
            }
            return;
        }
        self.promotion.restore(world);
        for k in 0..self.script_turn.len() {
            let u = self.script_turn[k];
            self.drop_script(u);
            world.units.next_replan[u.index()] = now;
        }
    }

    /// The longest piece of a joint plan committed at once: what a unit's
    /// plan holds and the table reaches.
    fn joint_piece(&self, world: &World) -> usize {
        self.scheduler
            .max_path()
            .min(world.units.plan_capacity)
            .min(world.table.horizon() as usize)
    }

    /// Forgets unit `a`'s joint plan, if any (its reservations stay).
    fn drop_script(&mut self, a: Slot) {
        let i = a.index();
        self.scripted_until[i] = 0;
        if !self.scripts[i].is_empty() {
            let mut buffer = std::mem::take(&mut self.scripts[i]);
            buffer.clear();
            self.script_pool.push(buffer);
            self.scripted.retain(|&u| u != a);
        }
    }

    /// Appends the units that became due (all of them when `all`) to the
    /// queue, in priority and rotating order, behind the carried-over ones.
    fn collect_due(&mut self, world: &mut World, all: bool) {
        let now = world.now();
        let half = (self.window / 2).max(1);
        self.fresh.clear();
        for a in (0..world.units.len() as u32).map(Slot) {
            let ag = &world.units;
            let f = ag.flags[a.index()];
            if !(all || ag.next_replan[a.index()] <= now)
                || f.has(UnitFlags::UNREACHABLE)
                || f.has(UnitFlags::QUEUED)
                || f.any(UnitFlags::INACTIVE)
            {
                continue;
            }
            if !all && self.parked(world, a) {
                world.units.next_replan[a.index()] = now + half;
                continue;
            }
            self.fresh.push(a);
        }
        let ag = &world.units;
        rotate_order(&mut self.fresh, ag, now);
        for &a in &self.fresh {
            world.units.set_flag(a, UnitFlags::QUEUED, true);
        }
        self.due.extend_from_slice(&self.fresh);
    }
}

impl WindowedHca {
    /// Whether unit `a` stands parked on its goal with nothing to plan: its
    /// plan keeps it there to its end, no goal is queued, no joint plan runs, and no
    /// other unit has asked it to make way within a window. Its search
    /// would keep it where it is (its hold stops anyone else planning
    /// through), so it is not searched; a request, a push or a new order
    /// plans it again. (2,000 units mostly home still searched 250 times a
    /// tick.)
    fn parked(&self, world: &World, a: Slot) -> bool {
        let now = world.now();
        let ag = &world.units;
        let i = a.index();
        ag.at_goal(a)
            && ag.plan(a)[ag.plan_index(a, now)..]
                .iter()
                .all(|&c| c == ag.goal[i])
            && ag.goal_queue[i].is_empty()
            && !ag.flags[i].has(UnitFlags::STUCK)
            && self.scripted_until[i] <= now
            && self.aside_until[i] <= now
            && !world
                .end_cells(a)
                .any(|c| asker(world, a, c, self.window).is_some())
    }
}

impl Planner for WindowedHca {
    fn name(&self) -> String {
        format!("WHCA*({})", self.window)
    }

    fn initialize(&mut self, world: &mut World) {
        self.collect_due(world, true);
        let mut due = std::mem::take(&mut self.due);
        let order = due.clone();
        // Optimistic starts: earlier units may route through later ones'.
        release_starts(world, &order);
        // The one-cell units' first true-distance searches run inside
        // their tiles' window searches, on every worker. A unit whose first
        // window is blocked has not waited yet: promoting it now pushes
        // whole crowds about before anyone has moved (random-32-32-20 with
        // 409 units, scenarios 1–10: 95 s of initial planning in all, 0.35
        // s without).
        self.initializing = true;
        // One hand-over to the pool for the tiles and every round after.
        let r = match self.pool() {
            Some(pool) => pool.install(|| self.plan_initial(world, &mut due, &order)),
            None => self.plan_initial(world, &mut due, &order),
        };
        self.initializing = false;
        self.stats.searches += r.searches;
        // Stagger: about 2n/w units replan on each later tick.
        let half = (self.window / 2).max(1);
        for (rank, &a) in order.iter().enumerate() {
            if !world.units.flags[a.index()].has(UnitFlags::STUCK) {
                world.units.next_replan[a.index()] = 1 + (rank as u32 % half);
            }
        }
        self.due = due;
    }

    fn plan_tick(&mut self, world: &mut World, until: Option<Instant>) {
        crate::profile_zone!("schedule");
        // Units despawned, or gone inside a block, since they became due.
        let flags = &world.units.flags;
        self.due
            .retain(|a| !flags[a.index()].any(UnitFlags::INACTIVE));
        self.batch_size = batch_size(self.live_units);
        self.own_grants_left = OWN_SEARCHES_PER_TICK;
        self.repairs_left = REPAIRS_PER_TICK;
        self.clearings_left = WAY_CLEARINGS_PER_TICK;
        self.continue_scripts(world);
        self.collect_due(world, false);
        let mut due = std::mem::take(&mut self.due);
        let budget = self.budget;
        let small = budget.wall_us.is_some_and(|us| us < MIN_POOL_BUDGET_US)
            || self.light_tick(due.len(), budget);
        self.scheduler.set_serial(small);
        // One hand-over to the pool for the tiles and the batches: a
        // sleeping worker takes some 50 µs to wake, and a tick that handed
        // its tiles and then its batches over woke them twice.
        let r = match self.pool().filter(|_| !small) {
            Some(pool) => pool.install(|| self.plan_due(world, &mut due, budget, until)),
            None => self.plan_due(world, &mut due, budget, until),
        };
        self.due = due;
        self.last = TickWork {
            searches: r.searches,
            nodes: r.nodes,
            carried_over: r.carried,
        };
        self.stats.searches += r.searches;
        self.stats.carried_over += r.carried;
        crate::profile_plot!("searches", r.searches);
        crate::profile_plot!("nodes expanded", r.nodes);
        crate::profile_plot!("carried over", r.carried);
    }

    fn stats(&self) -> PlannerStats {
        let mut s = self.stats;
        s.shared_distance_tables = self.shared_tables as u64;
        s.heuristic_expanded = self
            .heuristics
            .iter()
            .map(|h| h.lock().expanded() as u64)
            .sum();
        s.heuristic_restarts = self
            .heuristics
            .iter()
            .map(|h| h.lock().restarts() as u64)
            .sum();
        s
    }

    fn threads(&self) -> usize {
        self.scheduler.threads()
    }

    fn is_live(&self) -> bool {
        true
    }

    fn last_tick_work(&self) -> TickWork {
        self.last
    }

    fn tracks_progress(&self) -> bool {
        true
    }

    fn unit_added(&mut self, world: &World, a: Slot) {
        let i = a.index();
        if i < self.stalled.len() {
            self.renew_heuristic(world, i);
            self.stalled[i] = 0;
            self.own_granted[i] = false;
            *self.straight_failed[i].get_mut() = false;
            self.restagger[i] = true;
            self.repair_from[i] = 0;
            self.repair_fails[i] = 0;
            self.aside_until[i] = 0;
            self.shoving_until[i] = 0;
            self.own_way_until[i] = 0;
            self.own_after[i] = STALLED_FOR_GOOD;
            self.cleared_from[i] = u32::MAX;
            self.drop_script(a);
        } else {
            debug_assert_eq!(i, self.stalled.len(), "slots are added in order");
            let kind = world.units.kind[i];
            let h = self.fresh_heuristic(
                world,
                kind,
                world.units.goal[i],
                world.units.position[i],
                None,
            );
            Arc::get_mut(&mut self.heuristics)
                .expect("no search starter running")
                .push(Mutex::new(h));
            self.stalled.push(0);
            self.own_granted.push(false);
            self.straight_failed.push(Default::default());
            self.restagger.push(true);
            self.repair_from.push(0);
            self.repair_fails.push(0);
            self.aside_until.push(0);
            self.shoving_until.push(0);
            self.own_way_until.push(0);
            self.own_after.push(STALLED_FOR_GOOD);
            self.cleared_from.push(u32::MAX);
            self.scripted_until.push(0);
            self.scripts.push(Vec::new());
            self.script_start.push(0);
        }
        self.live_units += 1;
    }

    fn unit_removed(&mut self, a: Slot) {
        self.drop_script(a);
        if self.pending_detour.as_ref().is_some_and(|p| p.unit == a) {
            self.pending_detour = None;
        }
        self.live_units = self.live_units.saturating_sub(1);
    }

    fn goal_changed(&mut self, world: &World, a: Slot, ordered: bool) {
        self.renew_heuristic(world, a.index());
        self.stalled[a.index()] = 0;
        self.own_granted[a.index()] = false;
        *self.straight_failed[a.index()].get_mut() = false;
        // Units ordered together are staggered; a unit going on to its
        // next queued goal arrived on a tick of its own. (Staggered at
        // every queued goal too, the lifelong warehouse of 1,000 units with
        // lanes did 6.21 tasks a tick with 152 units stuck at tick 1,000;
        // unstaggered, 6.58 with 63.)
        self.restagger[a.index()] = ordered;
        self.repair_fails[a.index()] = 0;
        // A new goal ends any pulling over (its distances were renewed).
        self.aside_until[a.index()] = 0;
        self.shoving_until[a.index()] = 0;
        self.cleared_from[a.index()] = u32::MAX;
        self.drop_script(a);
    }

    fn map_changed(&mut self, world: &World, closed: &[Cell], opened: &[Cell]) {
        // Distances that may now be wrong: a closed cell an exact table has
        // measured (its distances behind it may have grown: still lower
        // bounds, but no longer exact), or an opened cell next to a measured
        // one (distances may have shrunk: they could overestimate). Landmark
        // bounds come from the map without any block, which every edit
        // keeps admissible.
        let grid = &world.grid;
        let mut border: Vec<Cell> = Vec::new();
        let mut buf = [Cell(0); 8];
        for &c in opened {
            let n = grid.neighbors(c, &mut buf);
            border.extend(buf[..n].iter().filter(|nb| !opened.contains(nb)));
        }
        let stale = |h: &Heuristic| match h {
            Heuristic::Rra(_) | Heuristic::Shared(_) => {
                closed
                    .iter()
                    .any(|&c| h.known(grid, c).is_some_and(|d| d != UNREACHABLE))
                    || border
                        .iter()
                        .any(|&c| h.known(grid, c).is_some_and(|d| d != UNREACHABLE))
            }
            // Distances around units: measured afresh on any edit (which
            // ends the detour; bodies are renewed anyway).
            Heuristic::Detour(_) => true,
            Heuristic::Landmarks { .. } => false,
        };
        for i in 0..world.units.len() {
            if world.units.flags[i].has(UnitFlags::DEAD) {
                continue;
            }
            let heuristics = Arc::get_mut(&mut self.heuristics).expect("no search starter running");
            // Distances on a body's anchors change wherever the edit meets
            // a body: those are measured afresh.
            if !world.units.kind[i].is_cell() || stale(heuristics[i].get_mut()) {
                self.renew_heuristic(world, i);
                self.stats.heuristic_restarts += 1;
            }
        }
    }

    fn group_changed(&mut self, a: Slot, grouped: bool) {
        if let Some(after) = self.own_after.get_mut(a.index()) {
            *after = if grouped {
                GROUPED_STALLED_FOR_GOOD
            } else {
                STALLED_FOR_GOOD
            };
        }
    }

    fn distance(&mut self, world: &World, a: Slot, cell: Cell) -> Option<u32> {
        let grid = world.fit_grid(world.units.kind[a.index()].size);
        let mut h = self.heuristics[a.index()].lock();
        h.ensure_started(grid);
        Some(h.distance(grid, cell))
    }

    fn route(&mut self, world: &World, a: Slot, from: Cell, out: &mut Vec<Cell>) {
        let grid = world.fit_grid(world.units.kind[a.index()].size);
        let goal = world.units.goal[a.index()];
        let mut h = self.heuristics[a.index()].lock();
        h.ensure_started(grid);
        if h.is_exact() {
            // Down the true-distance gradient, one cell a step.
            let mut cur = from;
            let mut d = h.distance(grid, cur);
            let mut buf = [Cell(0); 8];
            while d != 0 && d != UNREACHABLE && out.len() <= grid.cell_count() {
                let n = grid.neighbors(cur, &mut buf);
                let Some(&next) = buf[..n].iter().find(|&&c| h.distance(grid, c) < d) else {
                    break;
                };
                out.push(next);
                cur = next;
                d = h.distance(grid, next);
            }
            return;
        }
        drop(h);
        let mut astar = crate::search::SpatialAStar::new(grid);
        let grid = grid.clone();
        let grid = &grid;
        let mut path = Vec::new();
        if astar.search(
            grid,
            from,
            goal,
            |_| false,
            |c| grid.grid_distance(c, goal),
            &mut path,
        ) {
            out.extend_from_slice(&path[1..]);
        }
    }
}

/// The unit other than `a` that asked, within the last `window` ticks,
/// for `cell` to be cleared (see
/// [`crate::reservation::ReservationTable::request`]).
/// Unit `a` asks whoever holds `cell` for good to make way; the holder,
/// parked until asked (see [`WindowedHca::parked`]), plans at the next
/// tick rather than at its next turn, up to half a window on.
fn ask_way(world: &mut World, cell: Cell, a: Slot) {
    let now = world.now();
    world.table.request(cell, a, now);
    if let Some((b, _)) = world.table.hold(cell).filter(|&(b, _)| b != a) {
        let next = &mut world.units.next_replan[b.index()];
        *next = (*next).min(now + 1);
    }
}

/// A time estimate `estimate` moved by a new reading `took` (ns): up at
/// once to a longer one, down by an eighth of the gap to a shorter one, so
/// that the time kept for the work it stands for follows its worst of late.
fn worst_lately(estimate: f64, took: f64) -> f64 {
    if took > estimate {
        took
    } else {
        estimate - (estimate - took) / 8.0
    }
}

fn asker(world: &World, a: Slot, cell: Cell, window: u32) -> Option<Slot> {
    world
        .table
        .request_on(cell)
        .filter(|&(b, t)| b != a && t + window >= world.now())
        .map(|(b, _)| b)
}

/// One unit's window search, as the workers run it: everything it reads is
/// shared, and it writes only the unit's own heuristic and the worker's
/// scratch.
struct WindowSearch<'a> {
    world: &'a World,
    heuristics: &'a [Mutex<Heuristic>],
    /// Per unit, whether it may get true distances of its own now, and
    /// after how many windows without progress it gets them anyway.
    granted: &'a [bool],
    own_after: &'a [u32],
    /// Whether 1×1 units plan on landmark bounds.
    landmark_world: bool,
    window: u32,
    deadline: Option<Instant>,
    /// Only straight windows: a unit whose straight window is not free is
    /// left unsearched (as at a deadline), for a later pass.
    straight_only: bool,
    /// Per unit, whether its straight window failed since its last search:
    /// a pass of straight windows skips it.
    straight_failed: &'a [std::sync::atomic::AtomicBool],
    /// Straight windows that failed in this pass.
    straight_fails: &'a std::sync::atomic::AtomicU32,
    /// Per unit, the tick its joint plan runs to (see `scripted_until`).
    scripted: &'a [u32],
    /// Per body, until when it plans without right of way (see `own_way_until`).
    own_way_until: &'a [u32],
}

impl WindowSearch<'_> {
    /// Searches unit `a`'s next window into `scratch.path`: whether it found
    /// one and the nodes it expanded, or `None` if it stopped at the deadline.
    fn run(&self, a: Slot, scratch: &mut WorkerScratch) -> Option<(bool, u32)> {
        let (world_ref, heuristics, granted, landmark_world) = (
            self.world,
            self.heuristics,
            self.granted,
            self.landmark_world,
        );
        let (w, deadline, now) = (self.window, self.deadline, self.world.now());
        let grid = &*world_ref.grid;
        let i = a.index();
        let goal = world_ref.units.goal[i];
        let requested = |c: Cell| asker(world_ref, a, c, w).is_some();
        if !world_ref.units.kind[i].is_cell() {
            if self.straight_only {
                return None;
            }
            // A body makes way for any unit when parked on
            // its goal, else only for units that come first
            // (two bodies head-on in a passage would
            // otherwise both wait for the other).
            let parked = world_ref.units.at_goal(a);
            let yields = |c: Cell| asker(world_ref, a, c, w).is_some_and(|b| parked || b < a);
            let mut h = heuristics[i].lock();
            let hollows = landmark_world.then_some(granted[i]);
            let units = &world_ref.units;
            let gives_way = |b: Slot| right_of_way::gives_way(units, self.scripted, now, a, b);
            let yielding = Yielding {
                yields: &gives_way,
                cost: RIGHT_OF_WAY_COST,
                from: now + 1,
            };
            let right_of_way =
                (units.kind[i].size > 1 && self.own_way_until[i] <= now).then_some(&yielding);
            return footprint_window(
                world_ref,
                a,
                w,
                deadline,
                &mut h,
                scratch,
                &yields,
                hollows,
                right_of_way,
            );
        }
        let failed_before = &self.straight_failed[i];
        if self.straight_only && failed_before.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let query = SpaceTimeQuery {
            unit: a,
            start: world_ref.units.position[i],
            start_tick: now,
            goal,
            depth: Depth::Window(w),
            goal_wait_cost: u32::from(requested(goal)),
            max_expansions: EXPANSIONS_PER_WINDOW_TICK * w as usize,
            deadline,
            overriding: None,
        };
        let mut h = heuristics[i].lock();
        h.set_deadline(deadline);
        h.ensure_started(grid);
        if landmark_world {
            // Only a unit leaving a hollow has a search of
            // its own there.
            h.set_slice(Some(OWN_SEARCH_SLICE));
        }
        let before = h.expanded();
        h.restart_if_grown(grid, query.start);
        end_detour_on_wall(&mut h, grid, query.start, deadline);
        let penalty = |c: Cell| if requested(c) { w } else { 0 };
        // The fast path: if the shortest route is free for the
        // whole window, it is the optimal window; no search.
        let straight = query.goal_wait_cost == 0
            && straight_window(
                grid,
                &world_ref.table,
                &h,
                &query,
                w,
                if landmark_world && world_ref.table.large_map() {
                    &world_ref.units.plan(a)[world_ref.units.plan_index(a, now)..]
                } else {
                    &[]
                },
                &mut scratch.path,
            )
            && !requested(*scratch.path.last().expect("non-empty"));
        if self.straight_only && !straight {
            h.set_deadline(None);
            self.straight_fails
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            failed_before.store(true, std::sync::atomic::Ordering::Relaxed);
            return None;
        }
        // Read first: the flags of units searched on other workers share
        // cache lines, and most are clear.
        if !self.straight_only && failed_before.load(std::sync::atomic::Ordering::Relaxed) {
            failed_before.store(false, std::sync::atomic::Ordering::Relaxed);
        }
        scratch.search.expanded = 0;
        scratch.search.aborted = false;
        let search = |scratch: &mut WorkerScratch, h: &mut Heuristic| {
            scratch.search.search(
                grid,
                &world_ref.table,
                &query,
                &mut UnitOracle { heuristic: h, grid },
                &penalty,
                &mut scratch.path,
            )
        };
        let mut found = straight || search(scratch, &mut h);
        let stalled_windows = now.saturating_sub(world_ref.units.progress_tick[i]) / w;
        if found
            && !scratch.search.aborted
            && in_hollow(
                grid,
                &h,
                &scratch.path,
                goal,
                stalled_windows,
                STALLED_IN_HOLLOW,
                self.own_after[i],
            )
            && {
                // Granted in an earlier commit, or asks.
                scratch.asks = !granted[i];
                granted[i]
            }
            && take_own_distances(&mut h, grid, goal, query.start, deadline)
        {
            // Landmark bounds left it in a hollow that every
            // window prefers to stay in (a window without
            // progress ending there): from now on it gets
            // true distances of its own (the pages of
            // cells its search touches, guided by the
            // landmarks, time-sliced), and searches again.
            // (On every window ending in a hollow, the
            // 10,000-unit stress run's tick took twice as
            // long; see `STALLED_IN_HOLLOW`.)
            let expanded = scratch.search.expanded;
            found = search(scratch, &mut h);
            scratch.search.expanded += expanded;
        }
        h.set_deadline(None);
        if scratch.search.aborted {
            return None;
        }
        if found && blocked(grid, &mut h, &scratch.path, w) {
            // Hardly closer after a whole window: find the units
            // parked on our way, for the commit to ask them to move.
            let cell = Body {
                grid,
                fit: grid,
                size: 1,
            };
            way_requests(
                &cell,
                &world_ref.table,
                &mut h,
                a,
                query.start,
                w,
                &mut scratch.extra,
            );
        }
        if matches!(&*h, Heuristic::Landmarks { .. }) {
            // Its row is in this worker's cache now (the search's root
            // read it): the settling, on one thread, need not miss on it.
            scratch.start_distance = Some(h.distance(grid, query.start));
        }
        Some((
            found,
            (scratch.search.expanded + h.expanded().saturating_sub(before)) as u32,
        ))
    }
}

/// The window search of a one-cell unit in the sequential commit phase
/// (promotions, way clearings), priced by the unit's true distances, into
/// `out`; returns whether it found a plan.
fn search_cell_window(
    search: &mut crate::search::SpaceTimeAStar,
    grid: &Grid,
    table: &crate::reservation::ReservationTable,
    heuristic: &Mutex<Heuristic>,
    query: &SpaceTimeQuery<'_>,
    out: &mut Vec<Cell>,
) -> bool {
    let mut h = heuristic.lock();
    h.ensure_started(grid);
    search.search(
        grid,
        table,
        query,
        &mut UnitOracle {
            heuristic: &mut h,
            grid,
        },
        &|_| 0,
        out,
    )
}

/// Whether a tick of `due` units under `budget` plans one-cell units in
/// tiles (see `plan_due`): never under a node budget, whose count must not
/// depend on the threads; always under a wall-clock one (for their share
/// of it); without a budget, when at least [`MIN_TILED_DUE`] are due.
fn may_tile(due: usize, budget: Budget) -> bool {
    budget.nodes.is_none() && (budget.wall_us.is_some() || due >= MIN_TILED_DUE)
}

/// Records unit `u`'s plan as it is, and marks it involved in a promotion.
fn save_plan(p: &mut Promotion, world: &World, u: Slot) {
    let (from, from_motions) = (p.cells.len(), p.motions.len());
    p.cells.extend_from_slice(world.units.plan(u));
    if !world.units.kind[u.index()].is_cell() {
        p.motions.extend_from_slice(world.units.plan_motions(u));
    }
    p.saved.push((
        u,
        world.units.plan_start[u.index()],
        from..p.cells.len(),
        from_motions..p.motions.len(),
    ));
    p.involved.push(u);
}

/// The window search of unit `a`, of a kind with a footprint, into
/// `scratch.path` and `scratch.motions`: the rest of the action it is in
/// the middle of (a slow step or a curve cannot stop half-way), then
/// [`crate::footprint::FootprintSearch`] from the end of that action,
/// priced by its distances on the anchors its body fits on. Asks the
/// way of the units parked on its route when the window brings it hardly
/// closer. `hollows`: in a world with landmarks, whether the unit was
/// granted true distances of its own to leave a hollow of its bounds (it
/// asks through `scratch.asks`); `None` where hollows are not looked for.
/// Returns whether it found a plan and the nodes it expanded, or `None` at
/// the deadline.
#[allow(clippy::too_many_arguments)]
fn footprint_window(
    world: &World,
    a: Slot,
    w: u32,
    deadline: Option<Instant>,
    h: &mut Heuristic,
    scratch: &mut WorkerScratch,
    requested: &dyn Fn(Cell) -> bool,
    hollows: Option<bool>,
    right_of_way: Option<&Yielding>,
) -> Option<(bool, u32)> {
    let i = a.index();
    let ag = &world.units;
    let now = world.now();
    let kind = ag.kind[i];
    let grid = &*world.grid;
    let fit = world.fit_grid(kind.size);
    // The deadline first: a body's first true-distance search on a large
    // map is the longest piece of work of a tick.
    h.set_deadline(deadline);
    if matches!(h, Heuristic::Rra(r) if r.is_guided()) {
        // A body's search to leave a hollow of its landmark bounds runs a
        // slice a window (its search of its own from the start, if it
        // has one, runs whole).
        h.set_slice(Some(OWN_SEARCH_SLICE));
    }
    let before = h.expanded();
    h.ensure_started(fit);
    let (plan, motions) = (ag.plan(a), ag.plan_motions(a));
    let Range { start: i0, end: j } = world.action_in_progress(a);
    scratch.path.clear();
    scratch.motions.clear();
    scratch.path.extend_from_slice(&plan[i0..j]);
    scratch.motions.extend_from_slice(&motions[i0..j]);
    let (start_tick, prefix) = (now + (j - i0) as u32, j - i0);
    let last = world.table.last_tick();
    if start_tick >= last {
        h.set_deadline(None);
        return Some((false, 0));
    }
    h.restart_if_grown(fit, plan[j]);
    end_detour_on_wall(h, fit, plan[j], deadline);
    let size = kind.size as u32;
    // A unit pulled over heads for its place aside (see `pull_over`).
    let goal = match h {
        Heuristic::Detour(d) => d.search.goal(),
        _ => ag.goal[i],
    };
    let q = FootprintQuery {
        unit: a,
        from: plan[j],
        start_tick,
        goal,
        window: w.min(last - start_tick),
        goal_wait_cost: u32::from(body(grid, goal, size).any(requested)),
        max_expansions: EXPANSIONS_PER_WINDOW_TICK * w as usize,
        deadline,
    };
    let set = world.action_set(kind);
    let penalty = |c| if requested(c) { w } else { 0 };
    // The fast path, as for one-cell units: the window straight down the
    // distances, if free, is a best one; no search.
    let straight = q.goal_wait_cost == 0
        && crate::footprint::straight_window(
            grid,
            fit,
            &world.table,
            set,
            &|c| h.known(fit, c),
            &penalty,
            &q,
            &mut scratch.path,
            &mut scratch.motions,
        );
    if straight {
        scratch.footprint.expanded = 0;
        scratch.footprint.aborted = false;
    }
    let search = |scratch: &mut WorkerScratch, h: &mut Heuristic| {
        scratch.path.truncate(prefix);
        scratch.motions.truncate(prefix);
        scratch.footprint.search(
            grid,
            fit,
            &world.table,
            set,
            &mut |c| h.distance(fit, c),
            &penalty,
            &q,
            right_of_way,
            &mut scratch.path,
            &mut scratch.motions,
        )
    };
    let mut found = straight || search(scratch, h);
    let stalled_windows = now.saturating_sub(ag.progress_tick[i]) / w;
    if found
        && !scratch.footprint.aborted
        && hollows.is_some()
        && in_hollow(
            fit,
            h,
            &scratch.path,
            goal,
            stalled_windows,
            BODY_STALLED_IN_HOLLOW,
            STALLED_FOR_GOOD,
        )
        && {
            // Granted in an earlier commit, or asks.
            let granted = hollows == Some(true);
            scratch.asks = !granted;
            granted
        }
        && take_own_distances(h, fit, goal, plan[j], deadline)
    {
        // As a one-cell unit does (see `WindowSearch::run`): a body whose
        // windows keep ending in a hollow of its landmark bounds gets true
        // distances of its own, guided by them and time-sliced, until it
        // is out.
        let expanded = scratch.footprint.expanded;
        found = search(scratch, h);
        scratch.footprint.expanded += expanded;
    }
    // Out of time, in the search or in its distances (a paused distance
    // search reads as unreachable, which would fail the unit).
    if scratch.footprint.aborted || h.paused() {
        h.set_deadline(None);
        return None;
    }
    let steps = w / kind.pace as u32;
    if found && blocked(fit, h, &scratch.path, steps) {
        let body_at = Body { grid, fit, size };
        way_requests(
            &body_at,
            &world.table,
            h,
            a,
            plan[j],
            steps,
            &mut scratch.extra,
        );
    }
    // (A detour ended above leaves a smaller count: its search is not this one.)
    let expanded = scratch.footprint.expanded + h.expanded().saturating_sub(before);
    h.set_deadline(None);
    Some((found, expanded as u32))
}

/// The distance of a detour's wall `at` that its unit stands on and
/// leaves (see `Detour::leaving`): one more than its best neighbour's.
fn leaving_distance(grid: &Grid, search: &mut ReverseResumableAStar, at: Cell) -> u32 {
    let mut next = [Cell(0); 8];
    let n = grid.neighbors(at, &mut next);
    next[..n]
        .iter()
        .map(|&c| search.distance(grid, c))
        .min()
        .unwrap_or(WALL_DISTANCE)
        .saturating_add(1)
}

/// When a unit stands at `at` on a wall of its detour (pushed into the
/// cells its way around avoids, by a way clearing or a promotion, or
/// carried there by the step it was in when the detour began): it leaves
/// that wall, if it can (see `Detour::leaving`); else back to its usual
/// distances, started and under `deadline`. (Ending the detour there sent
/// a slow unit, walking round a one-cell unit's goal in a corridor, back
/// to the same knot each time.)
fn end_detour_on_wall(h: &mut Heuristic, grid: &Grid, at: Cell, deadline: Option<Instant>) {
    if matches!(h, Heuristic::Detour(_)) && h.distance(grid, at) == UNREACHABLE && !h.paused() {
        if let Heuristic::Detour(d) = h {
            if d.leaving.is_none() && d.search.walls().contains(&at) {
                let v = leaving_distance(grid, &mut d.search, at);
                if v < WALL_DISTANCE {
                    d.leaving = Some((at, v));
                    return;
                }
            }
        }
        h.end_detour();
        h.set_deadline(deadline);
        h.ensure_started(grid);
    }
}

/// The units on `cell` at tick `now`: its claim then and its hold.
fn units_on(
    table: &crate::reservation::ReservationTable,
    cell: Cell,
    now: u32,
) -> impl Iterator<Item = Slot> {
    [table.occupant(cell, now), table.hold(cell).map(|(u, _)| u)]
        .into_iter()
        .flatten()
}

/// Adds to `out` the open anchors of `fit` (where bodies of side `size`
/// fit) whose body meets `rect`, each once.
fn anchors_meeting(fit: &Grid, size: u32, rect: crate::map::Rect, out: &mut Vec<Cell>) {
    for y in rect.y0.saturating_sub(size - 1)..=rect.y1 {
        for x in rect.x0.saturating_sub(size - 1)..=rect.x1 {
            let c = fit.cell(x, y);
            if fit.is_passable(c) && !out.contains(&c) {
                out.push(c);
            }
        }
    }
}

/// A unit's body on the map, for [`way_requests`]: its side, and the grid
/// of anchors it fits on (the map itself for one cell).
struct Body<'a> {
    grid: &'a Grid,
    fit: &'a Grid,
    size: u32,
}

/// Follows the true-distance gradient (on the anchors the body fits on)
/// from `from` for up to `steps` moves and calls `f(step, cell)` for every
/// cell of the body along it (`step` counts from 1): the unit's way, as
/// far as a plan ignoring other units would take it.
fn along_gradient(
    at: &Body<'_>,
    h: &mut Heuristic,
    from: Cell,
    steps: u32,
    f: &mut dyn FnMut(u32, Cell),
) {
    let fit = at.fit;
    let mut cur = from;
    let mut d = h.distance(fit, cur);
    let mut buf = [Cell(0); 8];
    for step in 1..=steps {
        if d == 0 || d == UNREACHABLE {
            break;
        }
        let n = fit.neighbors(cur, &mut buf);
        let Some(&next) = buf[..n].iter().find(|&&c| h.distance(fit, c) < d) else {
            break;
        };
        for c in body(at.grid, next, at.size) {
            f(step, c);
        }
        cur = next;
        d = h.distance(fit, next);
    }
}

/// Every cell of unit `a`'s way for up to `steps` moves (see
/// [`along_gradient`]) held by another unit: the cells unit `a` will ask
/// their holders to clear. Reads only, so it runs inside the parallel
/// search phase; the commit writes the requests.
fn way_requests(
    at: &Body<'_>,
    table: &crate::reservation::ReservationTable,
    h: &mut Heuristic,
    a: Slot,
    from: Cell,
    steps: u32,
    out: &mut Vec<Cell>,
) {
    along_gradient(at, h, from, steps, &mut |_, c| {
        if table.hold(c).is_some_and(|(b, _)| b != a) && !out.contains(&c) {
            out.push(c);
        }
    });
}

/// Whether `path` uses a cell claimed by a commit of batch `stamp`, or, for a
/// diagonal step, one of the two corner cells a crossing unit would use.
fn path_touched(grid: &crate::map::Grid, touched: &[u32], stamp: u32, path: &[Cell]) -> bool {
    path.iter().any(|c| touched[c.index()] == stamp)
        || path.windows(2).any(|w| {
            let step = w[0].0.abs_diff(w[1].0);
            if step == 0 || step == 1 || step == grid.width() {
                return false;
            }
            let ((fx, fy), (tx, ty)) = (grid.xy(w[0]), grid.xy(w[1]));
            touched[grid.cell(tx, fy).index()] == stamp
                || touched[grid.cell(fx, ty).index()] == stamp
        })
}

/// Whether a unit planning on landmark bounds, without progress for
/// `stalled_windows` windows, should get true distances of its own: its
/// window `path` ends in a hollow of the bounds and it has waited
/// `hollow_windows` windows, or it has waited `for_good` windows (see
/// [`STALLED_FOR_GOOD`]).
fn in_hollow(
    grid: &Grid,
    h: &Heuristic,
    path: &[Cell],
    goal: Cell,
    stalled_windows: u32,
    hollow_windows: u32,
    for_good: u32,
) -> bool {
    stalled_windows >= hollow_windows && in_depression(grid, h, path, goal)
        || stalled_windows >= for_good && !h.is_exact()
}

/// Replaces landmark bounds `h` by the unit's own true distances on `grid`
/// from `goal` towards `from`, guided by those landmarks and sliced (see
/// [`OWN_SEARCH_SLICE`]), stopping at `deadline`; false (and `h` kept) if
/// `h` is not landmark bounds.
fn take_own_distances(
    h: &mut Heuristic,
    grid: &Grid,
    goal: Cell,
    from: Cell,
    deadline: Option<Instant>,
) -> bool {
    let Heuristic::Landmarks { table, .. } = &*h else {
        return false;
    };
    let own = ReverseResumableAStar::guided(grid, goal, from, table.clone(), OWN_SEARCH_SLICE);
    *h = Heuristic::Rra(own);
    h.set_deadline(deadline);
    true
}

/// Whether a window planned on landmark lower bounds ends, short of the
/// goal, on a cell none of whose neighbours is nearer the goal by those
/// bounds: a hollow of the bounds (true distances always fall by one towards
/// the goal), where every later window would wait too. On den520d with 1,000
/// units, 11 never arrived, all parked in the open; the one examined sat in
/// such a hollow (bound 183, true distance 201). With own searches for such
/// units all 1,000 arrive.
fn in_depression(grid: &crate::map::Grid, h: &Heuristic, path: &[Cell], goal: Cell) -> bool {
    let Some(&last) = path.last() else {
        return false;
    };
    if h.is_exact() || last == goal {
        return false;
    }
    let Some(d) = h.known(grid, last) else {
        return false;
    };
    let mut buf = [Cell(0); 8];
    let n = grid.neighbors(last, &mut buf);
    !buf[..n]
        .iter()
        .any(|&c| h.known(grid, c).is_some_and(|e| e < d))
}

/// Whether a unit's new window brings it less than a quarter of the window
/// closer to its goal: then something parked is probably in its way. (Asking
/// on every window that does not reach the goal made parked units step
/// aside for units that could pass them anyway: on the 10,000-unit stress
/// map their searches grew tenfold.)
fn blocked(grid: &crate::map::Grid, h: &mut Heuristic, path: &[Cell], window: u32) -> bool {
    let (Some(&first), Some(&last)) = (path.first(), path.last()) else {
        return false;
    };
    let (from, to) = (h.distance(grid, first), h.distance(grid, last));
    to != 0 && from.saturating_sub(to) < window / 4
}

/// Writes into `path` the window that follows the known shortest route from
/// the query's start (each step to a neighbour nearer by the move's
/// cost, waiting once on the goal) if every step of it is free in the
/// table and its last cell is free for good. Such a window has the least possible cost, so it is what
/// the space-time search would return; on the seed's set-up most windows are
/// found this way and skip the search and its true-distance resumes.
///
/// `kept`: the unit's current plan from the query's tick on. As long as it
/// goes down the same route, the window keeps it (the unit's own claims,
/// free without a look at the table; one distance a step instead of one
/// for each neighbour tried, and a table check for each): a replan halfway
/// through a straight window redoes only its second half. Among routes
/// equally short, the one the unit already holds. Given on large maps
/// with landmark bounds, whose tables miss the cache on every read; on
/// smaller maps the reads are cheap, and the changed choice among equal
/// routes left units off their goals (a warehouse run, seed 7, 1,000
/// units; den520d's army of 1,000, seed 4).
fn straight_window(
    grid: &crate::map::Grid,
    table: &crate::reservation::ReservationTable,
    h: &Heuristic,
    q: &SpaceTimeQuery,
    window: u32,
    kept: &[Cell],
    path: &mut Vec<Cell>,
) -> bool {
    path.clear();
    let mut cur = q.start;
    let Some(mut d) = h.known(grid, cur) else {
        return false;
    };
    path.push(cur);
    // The kept plan's steps are followed while each goes down the route.
    let mut keeping = kept.first() == Some(&cur);
    let prefetch = table.wants_prefetch();
    if keeping && prefetch {
        // Their distances are read one after the other: start the reads.
        for &c in kept.iter().skip(1).take(window as usize) {
            h.prefetch(c);
        }
    }
    for depth in 0..window {
        let tick = q.start_tick + depth;
        if keeping {
            match kept.get(depth as usize + 1) {
                Some(&next) if d == 0 && next == cur => {
                    path.push(next);
                    continue;
                }
                Some(&next) if d != 0 => {
                    if let Some(rest) = step_down(grid, h, cur, next, d) {
                        path.push(next);
                        cur = next;
                        d = rest;
                        continue;
                    }
                }
                _ => {}
            }
            keeping = false;
        }
        let next = if d == 0 {
            cur
        } else {
            // The first move down the gradient: to a neighbour whose
            // distance plus the move's cost (2 against a lane) is this one.
            let mut bits = grid.move_bits(cur);
            if prefetch {
                // The neighbours' distances and table entries, all at once.
                let mut buf = [Cell(0); 8];
                let n = grid.neighbors(cur, &mut buf);
                for &c in &buf[..n] {
                    h.prefetch(c);
                    table.prefetch_cell(c, tick + 1);
                }
            }
            let mut found = None;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let c = Cell((cur.0 as i64 + grid.move_delta(k)) as u32);
                let cost = grid.move_cost(cur, k);
                if h.known(grid, c).is_some_and(|dc| dc + cost == d)
                    && table.move_is_free(grid, q.unit, cur, c, tick)
                {
                    found = Some((c, d - cost));
                    break;
                }
            }
            let Some((next, rest)) = found else {
                return false;
            };
            d = rest;
            next
        };
        if next == cur && !table.move_is_free(grid, q.unit, cur, cur, tick) {
            return false;
        }
        path.push(next);
        cur = next;
    }
    table.free_from(cur, q.start_tick + window, q.unit)
}

/// If `next` is a neighbour of `cur` (at distance `d > 0`) one move's cost
/// nearer the goal, its distance.
fn step_down(grid: &crate::map::Grid, h: &Heuristic, cur: Cell, next: Cell, d: u32) -> Option<u32> {
    let mut bits = grid.move_bits(cur);
    while bits != 0 {
        let k = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if (cur.0 as i64 + grid.move_delta(k)) as u32 == next.0 {
            let cost = grid.move_cost(cur, k);
            return h.known(grid, next).filter(|&dn| dn + cost == d);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::map::{Connectivity, Grid, Instance};

    /// Three units in a row on the bottom aisle, each on the next one's
    /// goal: the first leaves its cell and goes round the shelf to its goal
    /// on the far side of the two others (with two units trading places
    /// only, nobody here would be on its way and no detour would start).
    #[test]
    fn a_unit_in_a_rotation_leaves_its_cell_and_goes_round() {
        // Unplanned: each stands on its start, as stalled units do.
        let (grid, mut world) = aisles(&[(3, 5), (4, 3), (5, 4)]);
        let mut planner = WindowedHca::new(&world, 16, 1, Budget::default());
        assert_eq!(
            planner.rotation(&world, Slot(0)),
            Some(vec![grid.cell(4, 2)])
        );
        assert!(planner.detour(&mut world, Slot(0), None));
        assert!(planner.heuristics[0].lock().is_leaving());
        // Left off its cell, then round the shelf and back along the
        // bottom aisle: 1 + 2 + 2 + 8 + 2 + 3 moves.
        assert_eq!(world.units.best_distance[0], 18);
        // The others wait for it: one of a rotation leaves at a time.
        assert_eq!(planner.rotation(&world, Slot(1)), None);
    }

    /// Two aisles of nine cells joined at both ends, with units on the
    /// bottom one going from x to x' for each (x, x') of `orders`.
    fn aisles(orders: &[(u32, u32)]) -> (Arc<Grid>, World) {
        let grid = Arc::new(Grid::from_rows(
            &[".........", ".#######.", "........."],
            Connectivity::Four,
        ));
        let instance = Instance {
            starts: orders.iter().map(|&(s, _)| grid.cell(s, 2)).collect(),
            goals: orders.iter().map(|&(_, g)| grid.cell(g, 2)).collect(),
            grid: grid.clone(),
            map_name: "aisles".into(),
        };
        let world = World::new(&instance, 18, 18, 64).expect("a valid world");
        (grid, world)
    }

    /// A detour's search cut by its tick's deadline goes on at the unit's
    /// next stall and then gives the unit its way round: unit 1 heads
    /// along the bottom row through unit 0, parked on its goal; the way
    /// round is over the top row.
    #[test]
    fn a_detour_cut_by_the_deadline_goes_on_later() {
        let (_, mut world) = aisles(&[(4, 4), (0, 8)]);
        let mut planner = WindowedHca::new(&world, 16, 1, Budget::default());
        planner.initialize(&mut world);
        let a = Slot(1);
        let passed = Instant::now();
        assert!(!planner.detour(&mut world, a, Some(passed)));
        assert!(
            planner.pending_detour.as_ref().is_some_and(|p| p.unit == a),
            "the search waits for the unit's next stall"
        );
        assert!(planner.detour(&mut world, a, None));
        assert!(planner.pending_detour.is_none());
        assert_eq!(planner.stats.detours, 1);
        // Up, along the top row and down: 2 + 8 + 2 moves.
        assert_eq!(world.units.best_distance[1], 12);
    }

    /// The reserve for the last commit leaves most of a tick's budget to
    /// search: a budgeted tick with time for every search plans them all.
    #[test]
    fn a_budgeted_tick_keeps_most_of_its_time_for_searches() {
        let grid = Arc::new(Grid::from_rows(&["..........."; 5], Connectivity::Four));
        let instance = Instance {
            starts: (0..5).map(|y| grid.cell(0, y)).collect(),
            goals: (0..5).map(|y| grid.cell(10, y)).collect(),
            grid: grid.clone(),
            map_name: "reserve".into(),
        };
        let mut world = World::new(&instance, 18, 18, 64).expect("a valid world");
        let budget = Budget {
            wall_us: Some(20_000),
            nodes: None,
        };
        let mut planner = WindowedHca::new(&world, 16, 1, budget);
        let until = Instant::now() + std::time::Duration::from_micros(20_000);
        planner.plan_tick(&mut world, Some(until));
        assert_eq!(planner.last_tick_work().searches, 5);
    }
}
