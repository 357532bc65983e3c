//! Steady state allocates nothing: after warm-up, a WHCA* tick (replanning the
//! due units and moving everyone) makes zero heap allocations, unless it ran
//! a joint repair of stuck units (rare; the first repairs grow the memory
//! that later ones reuse). Checked with a counting global allocator,
//! single-threaded, on the seed's 32×32 map with 150 units (crowded enough
//! that they still replan after the warm-up; planned in batches) and on an
//! open 160×160 map with 3,500 units (300–420 due a tick: planned tile by
//! tile; an open map, so no unit is granted true distances of its own,
//! whose memory is allocated when granted), there without a budget and
//! under a wall-clock one (tiles and batches in one tick), and with the
//! moves checked on a thread of their own.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use throng::engine::{Budget, SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Connectivity};
use throng::planner::PlannerKind;

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call unchanged to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Both scenarios in one test: the counter is global, and tests of one
/// binary run side by side.
#[test]
fn whca_ticks_allocate_nothing_after_warm_up() {
    // Planned in batches.
    steady_state_allocates_nothing("32x32:0.2", 150, 1100, Budget::default(), false);
    // Wide enough for tiles, and enough units due each tick: planned tile
    // by tile.
    steady_state_allocates_nothing("160x160:0.0", 3500, 4, Budget::default(), false);
    // The same with the moves checked on a thread of their own, beside the
    // ticks (the checker and its buffer go back and forth).
    steady_state_allocates_nothing("160x160:0.0", 3500, 4, Budget::default(), true);
    // The same under a wall-clock budget (far above what a tick needs):
    // the most overdue one-cell units in tiles, the rest in batches.
    let budget = Budget {
        wall_us: Some(50_000),
        nodes: None,
    };
    steady_state_allocates_nothing("160x160:0.0", 3500, 4, budget, false);
}

fn steady_state_allocates_nothing(
    map: &str,
    units: usize,
    seed: u64,
    budget: Budget,
    check_beside: bool,
) {
    let grid = Arc::new(generate_map(map.parse().unwrap(), Connectivity::Four, 1));
    let inst = random_instance(grid, units, seed).unwrap();
    let config = SimConfig {
        planner: PlannerKind::Whca { window: 16 },
        max_ticks: 200,
        threads: 1,
        budget,
        check_beside,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&inst, config).expect("a valid instance");
    sim.initialize();
    for _ in 0..20 {
        sim.step();
    }
    // A joint repair of units stuck together (a rare event, not the tick's
    // hot path) may grow its memory; every other tick must allocate nothing.
    let (mut plain, mut repaired) = (0, 0);
    for _ in 0..60 {
        let repairs = sim.planner_stats().repairs;
        ALLOCATIONS.store(0, Ordering::SeqCst);
        COUNTING.store(true, Ordering::SeqCst);
        sim.step();
        COUNTING.store(false, Ordering::SeqCst);
        let n = ALLOCATIONS.load(Ordering::SeqCst);
        if sim.planner_stats().repairs == repairs {
            assert_eq!(n, 0, "{n} heap allocations in a steady-state tick");
            plain += 1;
        } else {
            repaired += 1;
        }
    }
    // Enough plain ticks checked (on the crowded 32×32 map, 6 of the 60
    // ran a repair once parked units asked to make way replanned at once).
    assert!(plain >= 50, "{repaired} of 60 ticks ran a joint repair");
    let stats = sim.planner_stats();
    assert!(stats.searches > 500, "the ticks did replan: {stats:?}");
    if budget.wall_us.is_some() {
        assert!(
            stats.tiled_searches > 0,
            "budgeted ticks planned tiles: {stats:?}"
        );
    }
}
