//! The job scheduler: runs single-unit searches on a worker pool, in
//! batches or in map tiles.
//!
//! Every search of a batch reads the reservation table as it stood when the
//! batch began (nothing writes to it meanwhile); the planner then commits the
//! results one by one in its priority order, each checked against the commits
//! before it. Tiles ([`Scheduler::run_tiles`]): each tile's units are
//! searched and claimed in order on one worker, with no commit after, once
//! the tiles it waits for (those whose units could meet its own) are done.
//! Either way the outcome depends on the order
//! of commits, never on the timing of threads: the same input gives the same
//! trajectories on 1 or 8 threads. Per-worker scratch memory is reused from
//! search to search.

use std::time::Instant;

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};

use parking_lot::Mutex;
use rayon::prelude::*;

use crate::map::{Cell, Grid};
use crate::search::SpaceTimeAStar;
use crate::units::Slot;

/// A per-tick planning budget. Work that does not fit carries over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock microseconds of planning per tick.
    pub wall_us: Option<u64>,
    /// Node expansions per tick (deterministic).
    pub nodes: Option<u64>,
}

/// Scratch memory one worker reuses for every search it runs.
#[derive(Default)]
pub struct WorkerScratch {
    /// Space-time A* open list, nodes and index.
    pub search: SpaceTimeAStar,
    /// The path being built.
    pub path: Vec<Cell>,
    /// Cells the search wants to hand the committer besides the path (WHCA*:
    /// held cells on the unit's way, to request).
    pub extra: Vec<Cell>,
    /// The search over actions of units with footprints.
    pub footprint: crate::footprint::FootprintSearch,
    /// The motions of a footprint plan, one per cell of `path` (empty for
    /// a one-cell unit's plan).
    pub motions: Vec<u8>,
    /// Set by a search that asks its planner for something the planner
    /// grants in its sequential commit, in order, a few a tick (WHCA*: true
    /// distances of the unit's own), so what is granted does not depend on
    /// the threads.
    pub asks: bool,
    /// Set by a search that read its unit's distance from where it stands
    /// in a shared table, where its planner would read it again at the
    /// price of a cache miss (WHCA*: a landmark bound), for the planner's
    /// sequential settling of the unit.
    pub start_distance: Option<u32>,
}

impl WorkerScratch {
    pub(crate) fn new(max_path: usize, max_nodes: usize) -> Self {
        WorkerScratch {
            search: SpaceTimeAStar::with_capacity(max_nodes),
            path: Vec::with_capacity(max_path),
            extra: Vec::with_capacity(max_path),
            footprint: Default::default(),
            motions: Vec::with_capacity(max_path),
            asks: false,
            start_distance: None,
        }
    }
}

/// What one search of a batch produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOutcome {
    /// Whether the search ran (it is skipped once the wall-clock budget is spent).
    pub ran: bool,
    /// Whether it found a plan.
    pub found: bool,
    /// Cells in the plan.
    pub len: u32,
    /// Nodes it expanded (space-time and heuristic).
    pub expanded: u32,
    /// Cells in its extra output.
    pub extra_len: u32,
    /// Motions of its plan (0 for a one-cell unit's).
    pub motion_len: u32,
    /// Whether it asked its planner for something (see [`WorkerScratch::asks`]).
    pub asks: bool,
    /// Whether its plan was claimed in the table as soon as it was found
    /// (tiled planning, see [`Scheduler::run_tiles`]; a batch's plans are
    /// committed by the planner afterwards).
    pub committed: bool,
    /// The unit's distance where it stands, if the search handed it on
    /// (see [`WorkerScratch::start_distance`]).
    pub start_distance: Option<u32>,
}

/// One search's slot in a batch: the unit, its outcome, its path and extra cells.
type BatchItem<'a> = (
    &'a Slot,
    (
        &'a mut SearchOutcome,
        ((&'a mut [Cell], &'a mut [u8]), &'a mut [Cell]),
    ),
);

/// The tiles of a tiled planning ([`Scheduler::run_tiles`]) as a graph:
/// each tile a range of the units, in the order one thread would plan
/// them, and the tiles that must wait for it (whose units may read what
/// its units claim).
#[derive(Clone, Copy, Debug)]
pub struct TileGraph<'a> {
    /// Each tile's consecutive range of the units.
    pub ranges: &'a [(usize, usize)],
    /// How many earlier tiles each tile waits for.
    pub waits_for: &'a [u8],
    /// The later tiles waiting for tile `t`:
    /// `followers[follower_start[t]..follower_start[t + 1]]`.
    pub followers: &'a [u32],
    /// See `followers`: one more entry than there are tiles.
    pub follower_start: &'a [u32],
}

impl TileGraph<'_> {
    /// The tiles waiting for tile `t`.
    pub fn followers_of(&self, t: usize) -> &[u32] {
        &self.followers[self.follower_start[t] as usize..self.follower_start[t + 1] as usize]
    }
}

/// A pool of workers and the buffers a batch's results go into.
pub struct Scheduler {
    pool: Option<std::sync::Arc<rayon::ThreadPool>>,
    threads: usize,
    workers: Vec<Mutex<WorkerScratch>>,
    stride: usize,
    paths: Vec<Cell>,
    motions: Vec<u8>,
    extras: Vec<Cell>,
    outcomes: Vec<SearchOutcome>,
    /// Batches smaller than this run on the calling thread.
    min_parallel: usize,
    /// Every batch runs on the calling thread (see [`Scheduler::set_serial`]).
    serial: bool,
    /// Nanoseconds of the searches of the last batch, summed over workers.
    batch_search_ns: AtomicU64,
    /// A search's wall-clock time, smoothed over recent batches (see
    /// [`Scheduler::mean_search_ns`]).
    mean_search_ns: f64,
    /// Per tile of [`Scheduler::run_tiles`], the earlier tiles it still
    /// waits for; and the tiles ready to plan, lowest first.
    pending: Vec<AtomicU32>,
    ready: Mutex<BinaryHeap<Reverse<u32>>>,
    /// Per unit of [`Scheduler::run_tiles`], its tile (checking the graph).
    unit_tile: Vec<u32>,
}

/// A pool of `threads` worker threads (0: all cores) for the searches,
/// `None` for one: the engine's own. With `pin`, and when the pool takes
/// every core the process may use, worker `i` runs only on the `i`-th of
/// them (round the cores when there are more workers). Unpinned, Linux
/// wakes a worker on the core of the thread that woke it, and in a game's
/// frame loop (a tick, then the rest of a 16 ms frame idle) both workers
/// of a two-core machine shared one core in two thirds to four fifths of
/// the tiled plannings, the second joining only once the first had
/// finished; pinned, never (see
/// `docs/threads.md`). A pool of fewer workers than cores stays free:
/// pinned, the pools of several worlds on one machine (a server running
/// many matches) would all crowd onto its first cores.
pub fn worker_pool(threads: usize, pin: bool) -> Option<std::sync::Arc<rayon::ThreadPool>> {
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    if threads <= 1 {
        return None;
    }
    let cores = if pin {
        core_affinity::get_core_ids()
            .filter(|cores| threads >= cores.len())
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("throng-worker-{i}"))
        .start_handler(move |i| {
            crate::profiling::name_thread(&format!("throng-worker-{i}"));
            if !cores.is_empty() {
                // Best effort: a worker left unpinned still works.
                core_affinity::set_for_current(cores[i % cores.len()]);
            }
        })
        .build()
        .expect("worker pool");
    Some(std::sync::Arc::new(pool))
}

impl Scheduler {
    /// A scheduler with `threads` workers (0: all cores) whose searches return
    /// plans of at most `max_path` cells and create up to `max_nodes` nodes
    /// (reserved up front, so searches do not allocate).
    pub fn new(threads: usize, max_path: usize, max_nodes: usize) -> Self {
        let pool = worker_pool(threads, false);
        let threads = pool.as_ref().map_or(1, |p| p.current_num_threads());
        Scheduler {
            pool,
            threads,
            workers: (0..threads)
                .map(|_| Mutex::new(WorkerScratch::new(max_path, max_nodes)))
                .collect(),
            stride: max_path.max(1),
            paths: Vec::new(),
            motions: Vec::new(),
            extras: Vec::new(),
            outcomes: Vec::new(),
            min_parallel: 2,
            serial: false,
            batch_search_ns: AtomicU64::new(0),
            mean_search_ns: 0.0,
            pending: Vec::new(),
            ready: Mutex::new(BinaryHeap::new()),
            unit_tile: Vec::new(),
        }
    }

    /// Readies every worker's scratch for window searches `window` ticks
    /// deep on `grid`, and the result buffers for batches of up to
    /// `max_batch` units, so the first batches neither allocate nor touch
    /// fresh memory (see [`SpaceTimeAStar::prepare`]).
    pub fn prepare(&mut self, grid: &Grid, window: u32, max_batch: usize) {
        for w in &mut self.workers {
            w.get_mut().search.prepare(grid, window);
        }
        self.paths.resize(max_batch * self.stride, Cell(0));
        self.motions.resize(max_batch * self.stride, 0);
        self.extras.resize(max_batch * self.stride, Cell(0));
        self.outcomes.resize(max_batch, SearchOutcome::default());
    }

    /// A scheduler searching on `pool`, shared with whoever else uses it
    /// (a game's own pool): as many workers as the pool has threads.
    pub fn with_pool(
        pool: std::sync::Arc<rayon::ThreadPool>,
        max_path: usize,
        max_nodes: usize,
    ) -> Self {
        let threads = pool.current_num_threads().max(1);
        let mut s = Self::new(1, max_path, max_nodes);
        s.threads = threads;
        s.workers = (0..threads)
            .map(|_| Mutex::new(WorkerScratch::new(max_path, max_nodes)))
            .collect();
        s.pool = (threads > 1).then_some(pool);
        s
    }

    /// Runs batches of fewer than `n` units on the calling thread: sharing
    /// out a handful of sub-millisecond searches costs more than it saves.
    pub fn set_min_parallel(&mut self, n: usize) {
        self.min_parallel = n.max(2);
    }

    /// Runs every batch on the calling thread while `serial` holds: a
    /// planner with a tick budget too small to gain from the workers says
    /// so (the outcome is the same either way).
    pub fn set_serial(&mut self, serial: bool) {
        self.serial = serial;
    }

    /// The mean wall-clock time of one search of the recent batches, ns
    /// (0 before the first): with the batch size, what a batch's searches
    /// cost, against which a planner weighs handing them to the workers.
    pub fn mean_search_ns(&self) -> f64 {
        self.mean_search_ns
    }

    /// The worker pool, if there is one: a planner runs a whole tick's
    /// planning inside it, so the batches it starts are shared out from a
    /// worker (which takes part) rather than handed over from outside.
    pub fn pool_handle(&self) -> Option<std::sync::Arc<rayon::ThreadPool>> {
        self.pool.clone()
    }

    /// The longest plan a search may return, in cells.
    pub fn max_path(&self) -> usize {
        self.stride
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `search(unit, scratch)` for every unit of `batch`, in parallel.
    /// `search` leaves the plan in `scratch.path` and returns whether it found
    /// one and how many nodes it expanded, or `None` if it stopped at the
    /// deadline. Searches not yet started when `deadline` passes are skipped;
    /// either way their outcome says `ran == false`.
    pub fn run_batch<F>(&mut self, batch: &[Slot], deadline: Option<Instant>, search: F)
    where
        F: Fn(Slot, &mut WorkerScratch) -> Option<(bool, u32)> + Sync,
    {
        let n = batch.len();
        let stride = self.stride;
        self.outcomes.clear();
        self.outcomes.resize(n, SearchOutcome::default());
        if self.paths.len() < n * stride {
            self.paths.resize(n * stride, Cell(0));
            self.motions.resize(n * stride, 0);
            self.extras.resize(n * stride, Cell(0));
        }
        let workers = &self.workers;
        let batch_ns = &self.batch_search_ns;
        batch_ns.store(0, Ordering::Relaxed);
        let one = |(&a, (outcome, ((out, motion), extra))): BatchItem<'_>| {
            let started = Instant::now();
            if deadline.is_some_and(|d| started >= d) {
                return;
            }
            crate::profile_zone!("search");
            let worker = rayon::current_thread_index().unwrap_or(0) % workers.len();
            let mut scratch = workers[worker].lock();
            scratch.extra.clear();
            scratch.motions.clear();
            scratch.asks = false;
            scratch.start_distance = None;
            let Some((found, expanded)) = search(a, &mut scratch) else {
                return;
            };
            let len = if found {
                scratch.path.len().min(stride)
            } else {
                0
            };
            out[..len].copy_from_slice(&scratch.path[..len]);
            let motion_len = if found {
                scratch.motions.len().min(len)
            } else {
                0
            };
            motion[..motion_len].copy_from_slice(&scratch.motions[..motion_len]);
            let extra_len = scratch.extra.len().min(stride);
            extra[..extra_len].copy_from_slice(&scratch.extra[..extra_len]);
            *outcome = SearchOutcome {
                extra_len: extra_len as u32,
                motion_len: motion_len as u32,
                ran: true,
                found,
                len: len as u32,
                expanded,
                asks: scratch.asks,
                committed: false,
                start_distance: scratch.start_distance,
            };
            batch_ns.fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
        };
        let outcomes = &mut self.outcomes[..];
        let paths = &mut self.paths[..n * stride];
        let motions = &mut self.motions[..n * stride];
        let extras = &mut self.extras[..n * stride];
        match &self.pool {
            // One search gains nothing from the pool but its hand-off cost.
            Some(pool) if n >= self.min_parallel && !self.serial => pool.install(|| {
                batch
                    .par_iter()
                    .zip(
                        outcomes.par_iter_mut().zip(
                            paths
                                .par_chunks_mut(stride)
                                .zip(motions.par_chunks_mut(stride))
                                .zip(extras.par_chunks_mut(stride)),
                        ),
                    )
                    .with_min_len(1)
                    .for_each(one)
            }),
            _ => batch
                .iter()
                .zip(
                    outcomes.iter_mut().zip(
                        paths
                            .chunks_mut(stride)
                            .zip(motions.chunks_mut(stride))
                            .zip(extras.chunks_mut(stride)),
                    ),
                )
                .for_each(one),
        }
        let ran = self.outcomes.iter().filter(|o| o.ran).count();
        if ran > 0 {
            let mean = self.batch_search_ns.load(Ordering::Relaxed) as f64 / ran as f64;
            self.mean_search_ns = if self.mean_search_ns == 0.0 {
                mean
            } else {
                self.mean_search_ns * 0.875 + mean * 0.125
            };
        }
    }

    /// Readies the result slots of a tiled planning of `n` units (see
    /// [`Self::run_tiles`]), every outcome "not run".
    pub fn begin_tiles(&mut self, n: usize) {
        self.outcomes.clear();
        self.outcomes.resize(n, SearchOutcome::default());
        self.reserve_results(n);
    }

    /// Grows the result buffers to `n` units' plans, written so that their
    /// pages are mapped now: at set-up for every unit of the world, not in
    /// the initial planning, which tiles them all at once (on the 512²
    /// stress map with 10,000 units its first touch was about 0.8 ms of
    /// page faults in the serial part of the initial planning).
    pub fn reserve_results(&mut self, n: usize) {
        if self.paths.len() < n * self.stride {
            self.paths.resize(n * self.stride, Cell(0));
            self.motions.resize(n * self.stride, 0);
            self.extras.resize(n * self.stride, Cell(0));
        }
        let len = self.outcomes.len();
        if len < n {
            self.outcomes.resize(n, SearchOutcome::default());
            self.outcomes.truncate(len);
        }
    }

    /// Plans the tiles of `graph`: each tile's units (its range of
    /// `units`) in order on one worker, `search(unit, scratch)` as in
    /// [`Self::run_batch`], and a plan found handed at once to
    /// `claim(unit, plan)`, which puts it in the table (returning whether
    /// it could), so the tile's next unit plans around it. A tile starts
    /// once the tiles it waits for are done; tiles that wait for none of
    /// each other run at once on the workers. No serial commit, and no
    /// search is ever re-run for a conflict. The `i`-th unit's outcome,
    /// plan (if claimed) and extra cells land in slot `i` of the buffers
    /// [`Self::begin_tiles`] readied. The outcome depends on the graph and
    /// the order of units, never on the threads. The pool is entered once:
    /// each entry from outside wakes its workers again.
    pub fn run_tiles<S, C>(
        &mut self,
        units: &[Slot],
        graph: TileGraph<'_>,
        deadline: Option<Instant>,
        search: S,
        claim: C,
    ) where
        S: Fn(Slot, &mut WorkerScratch) -> Option<(bool, u32)> + Sync,
        C: Fn(Slot, &[Cell]) -> bool + Sync,
    {
        let tiles = graph.ranges.len();
        self.check_graph(graph, units.len());
        let out = SharedSlots::new(
            &mut self.outcomes,
            &mut self.paths,
            &mut self.extras,
            self.stride,
        );
        let job = TileJob {
            workers: &self.workers,
            stride: self.stride,
            deadline,
            search: &search,
            claim: &claim,
        };
        let parallel = self.pool.is_some() && !self.serial && tiles > 1;
        if !parallel {
            // In order: every tile after those it waits for.
            for &(s, e) in graph.ranges {
                job.tile(&units[s..e], out.range(s, e));
            }
            return;
        }
        {
            let mut ready = self.ready.lock();
            ready.clear();
            for (t, (&w, pending)) in graph.waits_for.iter().zip(&self.pending).enumerate() {
                pending.store(w as u32, Ordering::Relaxed);
                if w == 0 {
                    ready.push(Reverse(t as u32));
                }
            }
        }
        let (pending, ready, threads) = (&self.pending[..tiles], &self.ready, self.threads);
        let done = AtomicUsize::new(0);
        // A search that panics leaves its tile unfinished: the other
        // workers stop waiting for it, and the panic reaches the caller.
        let failed = std::sync::atomic::AtomicBool::new(false);
        let work = || {
            // When each worker joined in (a worker late to its first tile
            // shows here).
            crate::profile_zone!("tile worker");
            let _guard = PanicFlag(&failed);
            let mut idle = 0u32;
            loop {
                let next = ready.lock().pop();
                let Some(Reverse(t)) = next else {
                    if done.load(Ordering::Acquire) == tiles || failed.load(Ordering::Relaxed) {
                        return;
                    }
                    // Another worker's tile will free one: spin a little,
                    // then let the system run that worker.
                    idle += 1;
                    if idle < 64 {
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                    continue;
                };
                idle = 0;
                let (s, e) = graph.ranges[t as usize];
                job.tile(&units[s..e], out.range(s, e));
                for &f in graph.followers_of(t as usize) {
                    // AcqRel: the last tile to finish before `f` hands
                    // `f`'s worker every claim of the tiles it waited for.
                    if pending[f as usize].fetch_sub(1, Ordering::AcqRel) == 1 {
                        ready.lock().push(Reverse(f));
                    }
                }
                done.fetch_add(1, Ordering::AcqRel);
            }
        };
        let pool = self.pool.as_ref().expect("parallel only with a pool");
        pool.install(|| spread(threads, &work));
    }

    /// Panics unless `graph` is one [`Self::run_tiles`] can run over
    /// `units` units: tiles' ranges within the units and apart (each
    /// tile's slots are written by one worker, with no lock), every edge
    /// leading to a later tile (so no cycle), and each tile waiting for as
    /// many tiles as lead to it (so each runs exactly once, and the workers
    /// never wait for good). Leaves `pending` sized for the tiles.
    fn check_graph(&mut self, graph: TileGraph<'_>, units: usize) {
        let tiles = graph.ranges.len();
        assert!(
            graph.waits_for.len() == tiles && graph.follower_start.len() == tiles + 1,
            "one entry per tile"
        );
        if self.pending.len() < tiles {
            self.pending.resize_with(tiles, || AtomicU32::new(0));
        }
        self.unit_tile.clear();
        self.unit_tile.resize(units, u32::MAX);
        for (t, &(s, e)) in graph.ranges.iter().enumerate() {
            assert!(s <= e && e <= units, "tile {t}'s units are among the units");
            for owner in &mut self.unit_tile[s..e] {
                assert!(*owner == u32::MAX, "tiles {owner} and {t} share a unit");
                *owner = t as u32;
            }
        }
        for p in &self.pending[..tiles] {
            p.store(0, Ordering::Relaxed);
        }
        for t in 0..tiles {
            for &f in graph.followers_of(t) {
                assert!(
                    (f as usize) > t && (f as usize) < tiles,
                    "tile {t} leads to a later tile"
                );
                self.pending[f as usize].fetch_add(1, Ordering::Relaxed);
            }
        }
        for (t, (&w, p)) in graph.waits_for.iter().zip(&self.pending).enumerate() {
            assert_eq!(
                w as u32,
                p.load(Ordering::Relaxed),
                "tile {t} waits for the tiles leading to it"
            );
        }
    }

    /// The outcome of the `i`-th search of the last batch.
    #[inline]
    pub fn outcome(&self, i: usize) -> SearchOutcome {
        self.outcomes[i]
    }

    /// The extra output of the `i`-th search of the last batch.
    #[inline]
    pub fn extra(&self, i: usize) -> &[Cell] {
        let o = self.outcomes[i];
        &self.extras[i * self.stride..i * self.stride + o.extra_len as usize]
    }

    /// The motions of the footprint plan the `i`-th search of the last
    /// batch found (empty for a one-cell unit's plan).
    #[inline]
    pub fn motions(&self, i: usize) -> &[u8] {
        let o = self.outcomes[i];
        &self.motions[i * self.stride..i * self.stride + o.motion_len as usize]
    }

    /// The plan the `i`-th search of the last batch found.
    #[inline]
    pub fn path(&self, i: usize) -> &[Cell] {
        let o = self.outcomes[i];
        &self.paths[i * self.stride..i * self.stride + o.len as usize]
    }
}

/// The result slots of a run of consecutive tiles.
struct TileSlots<'a> {
    outcomes: &'a mut [SearchOutcome],
    paths: &'a mut [Cell],
    extras: &'a mut [Cell],
}

/// The result buffers of a tiled planning, shared by the workers, each
/// tile writing only its own units' slots ([`SharedSlots::range`]).
struct SharedSlots<'a> {
    outcomes: *mut SearchOutcome,
    paths: *mut Cell,
    extras: *mut Cell,
    units: usize,
    stride: usize,
    _buffers: std::marker::PhantomData<&'a mut [Cell]>,
}

// SAFETY: the pointers are to the scheduler's buffers, borrowed mutably
// for the lifetime of the value; workers reach them only through
// `range`, whose callers hand each range of units to one tile at a time.
unsafe impl Send for SharedSlots<'_> {}
// SAFETY: as above.
unsafe impl Sync for SharedSlots<'_> {}

impl<'a> SharedSlots<'a> {
    /// The slots of every unit, `stride` cells of path and of extras each.
    fn new(
        outcomes: &'a mut [SearchOutcome],
        paths: &'a mut [Cell],
        extras: &'a mut [Cell],
        stride: usize,
    ) -> Self {
        let units = outcomes.len();
        assert!(paths.len() >= units * stride && extras.len() >= units * stride);
        SharedSlots {
            outcomes: outcomes.as_mut_ptr(),
            paths: paths.as_mut_ptr(),
            extras: extras.as_mut_ptr(),
            units,
            stride,
            _buffers: std::marker::PhantomData,
        }
    }

    /// The slots of units `s..e`. Each tile's range is planned once, by
    /// one worker, and tiles' ranges do not overlap (`run_tiles` checks
    /// both), so no two workers ever hold one slot.
    #[allow(clippy::mut_from_ref)]
    fn range(&self, s: usize, e: usize) -> TileSlots<'_> {
        assert!(
            s <= e && e <= self.units,
            "a tile's units are among the slots"
        );
        let stride = self.stride;
        // SAFETY: `s..e` lies within the buffers (asserted above; the
        // paths and extras hold `stride` cells a unit), and no other live
        // slice covers it (see the doc comment): the ranges of distinct
        // tiles are disjoint and each tile is planned exactly once, after
        // `pending` counted down to it (or in order, on one thread).
        unsafe {
            TileSlots {
                outcomes: std::slice::from_raw_parts_mut(self.outcomes.add(s), e - s),
                paths: std::slice::from_raw_parts_mut(self.paths.add(s * stride), (e - s) * stride),
                extras: std::slice::from_raw_parts_mut(
                    self.extras.add(s * stride),
                    (e - s) * stride,
                ),
            }
        }
    }
}

/// Raises its flag if dropped by a panic.
struct PanicFlag<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for PanicFlag<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// Runs `work` on `threads` of the pool at once: halves joined, so the
/// pool's workers steal them (and a worker that finds no thief runs both
/// halves in turn, which `run_tiles`'s loop allows). Allocates nothing.
fn spread(threads: usize, work: &(impl Fn() + Sync)) {
    if threads <= 1 {
        work();
    } else {
        let half = threads / 2;
        rayon::join(|| spread(half, work), || spread(threads - half, work));
    }
}

/// What every tile of one [`Scheduler::run_tiles`] shares.
struct TileJob<'a, S, C> {
    workers: &'a [Mutex<WorkerScratch>],
    stride: usize,
    deadline: Option<Instant>,
    search: &'a S,
    claim: &'a C,
}

impl<S, C> TileJob<'_, S, C>
where
    S: Fn(Slot, &mut WorkerScratch) -> Option<(bool, u32)> + Sync,
    C: Fn(Slot, &[Cell]) -> bool + Sync,
{
    /// Searches and claims one tile's units in order, on this worker.
    fn tile(&self, units: &[Slot], out: TileSlots<'_>) {
        let stride = self.stride;
        let worker = rayon::current_thread_index().unwrap_or(0) % self.workers.len();
        let mut scratch = self.workers[worker].lock();
        for (k, &a) in units.iter().enumerate() {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return;
            }
            crate::profile_zone!("search");
            scratch.extra.clear();
            scratch.motions.clear();
            scratch.asks = false;
            scratch.start_distance = None;
            let Some((found, expanded)) = (self.search)(a, &mut scratch) else {
                continue;
            };
            let len = scratch.path.len();
            let committed = found && len <= stride && (self.claim)(a, &scratch.path);
            let len = if committed { len } else { 0 };
            out.paths[k * stride..k * stride + len].copy_from_slice(&scratch.path[..len]);
            let extra_len = scratch.extra.len().min(stride);
            out.extras[k * stride..k * stride + extra_len]
                .copy_from_slice(&scratch.extra[..extra_len]);
            out.outcomes[k] = SearchOutcome {
                ran: true,
                found,
                len: len as u32,
                expanded,
                extra_len: extra_len as u32,
                motion_len: 0,
                asks: scratch.asks,
                committed,
                start_distance: scratch.start_distance,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A pinned pool has the threads asked for (all cores for 0), more
    /// than the cores included, and every worker runs work (none is pinned
    /// to a core the process may not use); one thread needs no pool.
    #[test]
    fn pinned_pools_have_their_threads_and_all_of_them_work() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert!(worker_pool(1, true).is_none());
        for threads in [0, 2, 8] {
            let Some(pool) = worker_pool(threads, true) else {
                assert!(threads == 0 && cores == 1);
                continue;
            };
            let want = if threads == 0 { cores } else { threads };
            assert_eq!(pool.current_num_threads(), want);
            // Every worker answers (none is stuck on a core it may not use).
            let answered = std::sync::atomic::AtomicUsize::new(0);
            pool.broadcast(|_| {
                answered.fetch_add(1, Ordering::Relaxed);
            });
            assert_eq!(answered.into_inner(), want);
        }
    }

    /// On a pool of eight threads (more than the cores, so workers are
    /// preempted mid-tile), a random graph of tiles runs every unit once,
    /// each tile only after every tile it waits for has claimed all its
    /// plans, with each unit's outcome and plan in its own slot: many
    /// times over, and the same on one thread.
    #[test]
    fn tiles_run_once_each_after_the_tiles_they_wait_for() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        // Miri (`.ci/miri tiles_run_once`) checks the unsafe sharing of
        // the result slots on a few graphs.
        let graphs = if cfg!(miri) { 3 } else { 50 };
        for threads in [1, 8] {
            let mut scheduler = Scheduler::new(threads, 4, 64);
            for _ in 0..graphs {
                let tiles = rng.gen_range(1..60usize);
                let sizes: Vec<usize> = (0..tiles).map(|_| rng.gen_range(1..5)).collect();
                let mut ranges = Vec::new();
                let mut tile_of = Vec::new();
                for (t, &n) in sizes.iter().enumerate() {
                    let s = tile_of.len();
                    ranges.push((s, s + n));
                    tile_of.extend(std::iter::repeat_n(t, n));
                }
                // Edges from earlier tiles to later ones only: a DAG.
                let mut waits_for = vec![0u8; tiles];
                let mut before: Vec<Vec<usize>> = vec![Vec::new(); tiles];
                let (mut followers, mut follower_start) = (Vec::new(), Vec::new());
                for t in 0..tiles {
                    follower_start.push(followers.len() as u32);
                    for f in t + 1..tiles {
                        if waits_for[f] < 8 && rng.gen_bool(0.1) {
                            followers.push(f as u32);
                            waits_for[f] += 1;
                            before[f].push(t);
                        }
                    }
                }
                follower_start.push(followers.len() as u32);
                let graph = TileGraph {
                    ranges: &ranges,
                    waits_for: &waits_for,
                    followers: &followers,
                    follower_start: &follower_start,
                };
                let units: Vec<Slot> = (0..tile_of.len() as u32).map(Slot).collect();
                let claimed: Vec<AtomicUsize> = (0..tiles).map(|_| AtomicUsize::new(0)).collect();
                let searched: Vec<AtomicUsize> =
                    (0..units.len()).map(|_| AtomicUsize::new(0)).collect();
                scheduler.begin_tiles(units.len());
                scheduler.run_tiles(
                    &units,
                    graph,
                    None,
                    |a, scratch| {
                        let t = tile_of[a.index()];
                        for &p in &before[t] {
                            assert_eq!(
                                claimed[p].load(Ordering::Acquire),
                                sizes[p],
                                "tile {t} ran before tile {p} was done"
                            );
                        }
                        searched[a.index()].fetch_add(1, Ordering::Relaxed);
                        scratch.path.clear();
                        scratch.path.push(Cell(a.0));
                        Some((true, 1))
                    },
                    |a, _| {
                        claimed[tile_of[a.index()]].fetch_add(1, Ordering::Release);
                        true
                    },
                );
                assert!(searched.iter().all(|n| n.load(Ordering::Relaxed) == 1));
                for (i, a) in units.iter().enumerate() {
                    assert!(scheduler.outcome(i).committed);
                    assert_eq!(scheduler.path(i), &[Cell(a.0)]);
                }
            }
        }
    }

    /// A search that panics on a worker reaches the caller as a panic,
    /// not as the other workers waiting for its tile for good.
    #[test]
    fn a_panicking_search_in_a_tile_does_not_hang_the_others() {
        let mut scheduler = Scheduler::new(4, 4, 64);
        let ranges: Vec<(usize, usize)> = (0..8).map(|t| (t, t + 1)).collect();
        // A chain: each tile waits for the one before.
        let waits_for: Vec<u8> = (0..8).map(|t| u8::from(t > 0)).collect();
        let followers: Vec<u32> = (1..8).collect();
        let follower_start: Vec<u32> = (0..8).chain([7]).collect();
        let graph = TileGraph {
            ranges: &ranges,
            waits_for: &waits_for,
            followers: &followers,
            follower_start: &follower_start,
        };
        let units: Vec<Slot> = (0..8).map(Slot).collect();
        scheduler.begin_tiles(units.len());
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            scheduler.run_tiles(
                &units,
                graph,
                None,
                |a, scratch| {
                    assert!(a != Slot(3), "a search's bug");
                    scratch.path.clear();
                    Some((false, 1))
                },
                |_, _| true,
            )
        }));
        assert!(run.is_err());
    }

    /// A graph whose tiles share a unit, or whose counts of tiles to wait
    /// for do not match its edges, is refused before any search runs:
    /// workers writing one slot at once, or waiting for good, never start.
    #[test]
    fn a_graph_that_cannot_run_is_refused() {
        let units: Vec<Slot> = (0..4).map(Slot).collect();
        let graph = |ranges, waits_for, followers, follower_start| TileGraph {
            ranges,
            waits_for,
            followers,
            follower_start,
        };
        let bad = [
            // Tiles 0 and 1 share unit 1.
            graph(&[(0, 2), (1, 3)], &[0, 0], &[], &[0, 0, 0]),
            // Tile 1 waits for two tiles, one leads to it.
            graph(&[(0, 2), (2, 4)], &[0, 2], &[1], &[0, 1, 1]),
            // An edge back to an earlier tile.
            graph(&[(0, 2), (2, 4)], &[1, 0], &[0], &[0, 0, 1]),
        ];
        for graph in bad {
            let mut scheduler = Scheduler::new(2, 4, 64);
            scheduler.begin_tiles(units.len());
            let searched = AtomicUsize::new(0);
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                scheduler.run_tiles(
                    &units,
                    graph,
                    None,
                    |_, scratch| {
                        searched.fetch_add(1, Ordering::Relaxed);
                        scratch.path.clear();
                        Some((false, 1))
                    },
                    |_, _| true,
                )
            }));
            assert!(run.is_err(), "{graph:?}");
            assert_eq!(searched.load(Ordering::Relaxed), 0);
        }
    }
}
