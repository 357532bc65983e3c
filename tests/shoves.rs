//! Shoves (a unit stuck for four windows pushing a chain of standing units
//! one cell each into a free cell, or round into its own cell) keep every
//! move valid and bring every unit home. Units from random cells of
//! generated maps, 4- and 8-connected, are each ordered to a cell of one
//! packed block of goals (the open cells nearest a point, shuffled), which
//! leaves late comers behind parked units with one or two holes left among
//! walls; every tick is checked by the validator, on one and two threads.
//! Measured: all home by ticks 73–1,182. With chains ending in free cells
//! only, 4-connected seed 1 had 126 of 150 home at tick 3,000; without
//! shoves, 120 at tick 4,000.

use std::sync::Arc;

use throng::engine::{SimConfig, Simulation};
use throng::map::{generate_map, random_instance, Connectivity, GeneratorSpec, Instance};
use throng::planner::PlannerKind;

/// `units` random starts; goals on the open cells nearest the map's middle
/// (by straight-line distance), handed out in a fixed shuffled order.
fn packed_block(conn: Connectivity, seed: u64, units: usize) -> Instance {
    let spec: GeneratorSpec = "32x32:0.15".parse().unwrap();
    let grid = Arc::new(generate_map(spec, conn, seed));
    let mut inst = random_instance(grid.clone(), units, seed).unwrap();
    let middle = grid.cell(16, 16);
    let mut open: Vec<_> = (0..grid.cell_count() as u32)
        .map(throng::map::Cell)
        .filter(|&c| grid.is_passable(c) && grid.reachable(c, inst.starts[0]))
        .collect();
    open.sort_by_key(|&c| (grid.grid_distance(c, middle), c.0));
    open.truncate(units);
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..open.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        open.swap(i, (s % (i as u64 + 1)) as usize);
    }
    inst.goals = open;
    inst
}

#[test]
fn shoves_fill_a_packed_block_and_break_no_rule() {
    let mut kept = 0;
    for conn in [Connectivity::Four, Connectivity::Eight] {
        for seed in 1..=3 {
            let inst = packed_block(conn, seed, 150);
            for threads in [1, 2] {
                let config = SimConfig {
                    planner: PlannerKind::Whca { window: 16 },
                    max_ticks: 3000,
                    seed,
                    threads,
                    check_moves: true,
                    ..SimConfig::default()
                };
                let mut sim = Simulation::new(&inst, config).expect("a valid instance");
                let s = sim.run();
                assert_eq!(s.collisions, 0, "{conn:?} seed {seed}, {threads} thread(s)");
                assert_eq!(
                    s.at_goal_at_end, 150,
                    "{conn:?} seed {seed}, {threads} thread(s): home at tick {}",
                    s.ticks
                );
                kept += s.shoves_kept;
            }
        }
    }
    assert!(kept > 0, "no shove ran: the blocks were not packed enough");
}
