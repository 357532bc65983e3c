//! The job scheduler: runs single-unit searches on a worker pool, in
//! batches or in map tiles.
//!
//! Every search of a batch reads the reservation table as it stood when the
//! batch began (nothing writes to it meanwhile); the planner then commits the
//! results one by one in its priority order, each checked against the commits
//! before it. Tiles ([`Scheduler::run_tiles`]) are too far apart for their
//! units to meet: each tile's units are searched and claimed in order on one
//! worker, with no commit after. Either way the outcome depends on the order
//! of commits, never on the timing of threads: the same input gives the same
//! trajectories on 1 or 8 threads. Per-worker scratch memory is reused from
//! search to search.

use std::time::Instant;

use std::sync::atomic::{AtomicU64, Ordering};

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
}

/// One search's slot in a batch: the unit, its outcome, its path and extra cells.
type BatchItem<'a> = (
    &'a Slot,
    (
        &'a mut SearchOutcome,
        ((&'a mut [Cell], &'a mut [u8]), &'a mut [Cell]),
    ),
);

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
}

impl Scheduler {
    /// A scheduler with `threads` workers (0: all cores) whose searches return
    /// plans of at most `max_path` cells and create up to `max_nodes` nodes
    /// (reserved up front, so searches do not allocate).
    pub fn new(threads: usize, max_path: usize, max_nodes: usize) -> Self {
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            threads
        };
        let pool = (threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("throng-worker-{i}"))
                    .start_handler(|i| crate::profiling::name_thread(&format!("throng-worker-{i}")))
                    .build()
                    .expect("worker pool")
            })
            .map(std::sync::Arc::new);
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
        if self.paths.len() < n * self.stride {
            self.paths.resize(n * self.stride, Cell(0));
            self.motions.resize(n * self.stride, 0);
            self.extras.resize(n * self.stride, Cell(0));
        }
    }

    /// Plans the tiles of `units`, colour after colour: each of `colours`
    /// is a run of consecutive ranges of `units`, tiles whose units'
    /// searches and claims never meet (see [`crate::planner::tiles`]), and
    /// its tiles are planned in parallel, each tile's units in order on one
    /// worker: `search(unit, scratch)` as in [`Self::run_batch`], and a plan
    /// found is handed at once to `claim(unit, plan)`, which puts it in the
    /// table (returning whether it could), so the tile's next unit plans
    /// around it. No serial commit, and no search is ever re-run for a
    /// conflict. The `i`-th unit's outcome, plan (if claimed) and extra
    /// cells land in slot `i` of the buffers [`Self::begin_tiles`] readied.
    /// The outcome depends on the tiles and their order, never on the
    /// threads. The pool is entered once for all the colours: each entry
    /// from outside wakes its workers again.
    pub fn run_tiles<S, C>(
        &mut self,
        units: &[Slot],
        colours: &[&[(usize, usize)]],
        deadline: Option<Instant>,
        search: S,
        claim: C,
    ) where
        S: Fn(Slot, &mut WorkerScratch) -> Option<(bool, u32)> + Sync,
        C: Fn(Slot, &[Cell]) -> bool + Sync,
    {
        let stride = self.stride;
        let job = TileJob {
            units,
            workers: &self.workers,
            stride,
            deadline,
            search: &search,
            claim: &claim,
        };
        let (outcomes, paths, extras) = (&mut self.outcomes, &mut self.paths, &mut self.extras);
        let mut plan = |parallel: bool| {
            for ranges in colours {
                let (Some(&(first, _)), Some(&(_, last))) = (ranges.first(), ranges.last()) else {
                    continue;
                };
                debug_assert!(
                    ranges.windows(2).all(|r| r[0].1 == r[1].0),
                    "tiles are consecutive"
                );
                let out = TileSlots {
                    outcomes: &mut outcomes[first..last],
                    paths: &mut paths[first * stride..last * stride],
                    extras: &mut extras[first * stride..last * stride],
                };
                job.split(ranges, first, out, parallel);
            }
        };
        match &self.pool {
            Some(pool) if !self.serial => pool.install(|| plan(true)),
            _ => plan(false),
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

impl<'a> TileSlots<'a> {
    /// The slots of the first `at` units, and those of the rest.
    fn split_at(self, at: usize, stride: usize) -> (TileSlots<'a>, TileSlots<'a>) {
        let (o0, o1) = self.outcomes.split_at_mut(at);
        let (p0, p1) = self.paths.split_at_mut(at * stride);
        let (x0, x1) = self.extras.split_at_mut(at * stride);
        (
            TileSlots {
                outcomes: o0,
                paths: p0,
                extras: x0,
            },
            TileSlots {
                outcomes: o1,
                paths: p1,
                extras: x1,
            },
        )
    }
}

/// What every tile of one [`Scheduler::run_tiles`] shares.
struct TileJob<'a, S, C> {
    units: &'a [Slot],
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
    /// Plans `ranges` (the first starting at unit `base`, its slots
    /// `out`), halving them onto the pool's workers with `rayon::join`
    /// while `parallel` (work-stealing, and no allocation: the halves of
    /// the slots are borrowed, not collected).
    fn split(&self, ranges: &[(usize, usize)], base: usize, out: TileSlots<'_>, parallel: bool) {
        if let [(s, e)] = *ranges {
            return self.tile(&self.units[s..e], out);
        }
        let mid = ranges.len() / 2;
        let at = ranges[mid].0;
        let (left, right) = out.split_at(at - base, self.stride);
        let (first, second) = ranges.split_at(mid);
        if parallel {
            rayon::join(
                || self.split(first, base, left, true),
                || self.split(second, at, right, true),
            );
        } else {
            self.split(first, base, left, false);
            self.split(second, at, right, false);
        }
    }

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
            };
        }
    }
}
