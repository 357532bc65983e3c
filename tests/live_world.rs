//! The live world's promises to a game, one scene each: a group order gives
//! every unit a goal of its own; a building placed on units evicts them to
//! open cells and no one enters it; a corridor walled off makes goals
//! unreachable and opening it makes them reachable again; a boxed-in unit
//! is reported stuck; a planned path leads to the goal; a spawn on a taken
//! cell waits; a goal queue is worked through in order; despawned ids are
//! stale.

use std::sync::Arc;

use throng::prelude::*;

mod common;

fn config() -> SimConfig {
    SimConfig {
        threads: 1,
        stuck_after: 12,
        ..SimConfig::default()
    }
}

fn open_map(w: usize, h: usize) -> Arc<Grid> {
    let row = ".".repeat(w);
    let rows: Vec<&str> = (0..h).map(|_| row.as_str()).collect();
    Arc::new(Grid::from_rows(&rows, Connectivity::Four))
}

/// A generated map (`spec`, 10% obstacles as given) and `units` random
/// distinct starts and goals on it.
fn generated_instance(spec: &str, map_seed: u64, units: usize, seed: u64) -> Instance {
    let grid = Arc::new(generate_map(
        spec.parse().unwrap(),
        Connectivity::Four,
        map_seed,
    ));
    random_instance(grid, units, seed).unwrap()
}

/// A world built empty on `instance`'s map, its units spawned in order.
fn spawned_world(instance: &Instance, config: SimConfig) -> Simulation {
    let mut sim = Simulation::with_map(instance.grid.clone(), config).unwrap();
    for (&s, &g) in instance.starts.iter().zip(&instance.goals) {
        sim.spawn(UnitSpec::new(s, g)).unwrap();
    }
    sim
}

fn events(sim: &mut Simulation) -> Vec<Event> {
    sim.drain_events().collect()
}

#[test]
fn a_group_order_gives_each_unit_its_own_goal_and_all_arrive() {
    let mut sim = Simulation::with_map(open_map(24, 24), config()).unwrap();
    let units: Vec<UnitId> = (0..12)
        .map(|y| {
            let at = sim.cell(0, y).unwrap();
            sim.spawn(UnitSpec::new(at, at)).unwrap()
        })
        .collect();
    let target = sim.cell(18, 12).unwrap();
    sim.order_group(&units, target).unwrap();
    sim.apply_commands();
    let mut goals: Vec<Cell> = units.iter().map(|&u| sim.goal(u).unwrap()).collect();
    goals.sort_unstable();
    goals.dedup();
    assert_eq!(goals.len(), units.len(), "every unit its own cell");
    assert!(goals.contains(&target));
    for _ in 0..80 {
        sim.step();
    }
    for &u in &units {
        assert_eq!(sim.state(u), Ok(UnitState::Arrived));
    }
    assert_eq!(sim.summary().collisions, 0);
}

/// 300 units sent as one group through an 8-cell gap in a wall, to a
/// target on the far side whose block of goals the map's edge cuts off:
/// every unit arrives. (Handed out nearest the target first, the goals
/// filled from the middle, and 40 units were still off theirs at tick
/// 3,000; handed out back to front, 13; with goals traded inside the group
/// as well, none.)
#[test]
fn a_group_through_a_gap_fills_its_block_of_goals() {
    let rows = common::wall_with_gap();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = Arc::new(Grid::from_rows(&rows, Connectivity::Four));
    let mut sim = Simulation::with_map(grid, config()).unwrap();
    let mut units = Vec::new();
    for x in 0..5 {
        for y in 2..62 {
            let at = sim.cell(x, y).unwrap();
            units.push(sim.spawn(UnitSpec::new(at, at)).unwrap());
        }
    }
    sim.order_group(&units, sim.cell(56, 32).unwrap()).unwrap();
    let mut ticks = 0;
    while ticks < 1500
        && !units
            .iter()
            .all(|&u| sim.state(u) == Ok(UnitState::Arrived))
    {
        sim.step();
        ticks += 1;
    }
    let home = units
        .iter()
        .filter(|&&u| sim.state(u) == Ok(UnitState::Arrived))
        .count();
    assert_eq!(home, units.len(), "home by tick {ticks}");
    assert_eq!(sim.summary().collisions, 0);
    // Every unit on a goal of its own.
    let mut goals: Vec<Cell> = units.iter().map(|&u| sim.goal(u).unwrap()).collect();
    goals.sort_unstable();
    goals.dedup();
    assert_eq!(goals.len(), units.len());
}

/// One group order across den520d: 500 units from random cells to one
/// random open cell (seeds 1–5), unbudgeted on 2 threads. Measured: all
/// home by ticks 492, 541, 1,105, 427 and 492; 496, 495, 488, 500 and 500
/// by tick 5,000 before handed goals were kept, trades measured round
/// walls and stuck units shoved;
/// 413, 311, 287, 270 and 317 before goals were handed out back to front
/// and traded. Reads the benchmark maps (`THRONG_BENCHMARK_MAPS`);
/// `a_group_through_a_gap_fills_its_block_of_goals` always runs.
#[test]
#[ignore]
fn a_mass_group_order_on_den520d_brings_every_unit_home() {
    let path = common::benchmark_maps().join("den520d.map");
    let grid = Arc::new(read_map(&path, Connectivity::Four).unwrap());
    for seed in 1..=5 {
        let inst = random_instance(grid.clone(), 500, seed).unwrap();
        let config = SimConfig {
            threads: 2,
            max_units: 500,
            ..SimConfig::default()
        };
        let mut sim = Simulation::with_map(grid.clone(), config).unwrap();
        let units: Vec<UnitId> = inst
            .starts
            .iter()
            .map(|&s| sim.spawn(UnitSpec::new(s, s)).unwrap())
            .collect();
        sim.order_group(&units, inst.goals[0]).unwrap();
        let arrived = |sim: &Simulation| {
            units
                .iter()
                .filter(|&&u| sim.state(u) == Ok(UnitState::Arrived))
                .count()
        };
        let mut ticks = 0;
        while ticks < 5000 && arrived(&sim) < units.len() {
            sim.step();
            ticks += 1;
        }
        let home = arrived(&sim);
        assert_eq!(home, 500, "seed {seed}: home at tick {ticks}");
        assert_eq!(sim.summary().collisions, 0);
    }
}

#[test]
fn a_building_on_units_evicts_them_and_no_one_enters_it() {
    let mut sim = Simulation::with_map(open_map(20, 20), config()).unwrap();
    let mut inside = Vec::new();
    for x in 8..11 {
        let at = sim.cell(x, 9).unwrap();
        inside.push(sim.spawn(UnitSpec::new(at, at)).unwrap());
    }
    // Units crossing the site, both ways.
    let (w, e) = (sim.cell(0, 10).unwrap(), sim.cell(19, 10).unwrap());
    let crossers = [
        sim.spawn(UnitSpec::new(w, e)).unwrap(),
        sim.spawn(UnitSpec::new(e, w)).unwrap(),
    ];
    sim.apply_commands();
    for _ in 0..3 {
        sim.step();
    }
    let site = Rect::new((7, 8), (12, 11));
    sim.block(site).unwrap();
    sim.step();
    let evicted: Vec<UnitId> = events(&mut sim)
        .into_iter()
        .filter(|e| e.kind == EventKind::Evicted)
        .map(|e| e.unit)
        .collect();
    for u in &inside {
        assert!(evicted.contains(u), "{u} was inside the building");
    }
    for _ in 0..40 {
        sim.step();
        for &u in inside.iter().chain(&crossers) {
            let c = sim.position(u).unwrap();
            let (x, y) = sim.grid().xy(c);
            let on_site = site.contains((x, y));
            assert!(!on_site || inside.contains(&u), "{u} entered the site");
        }
    }
    for &u in &inside {
        let (x, y) = sim.grid().xy(sim.position(u).unwrap());
        assert!(!site.contains((x, y)), "{u} still inside after 40 ticks");
    }
    for &u in &crossers {
        assert_eq!(sim.state(u), Ok(UnitState::Arrived), "{u} went round");
    }
    assert_eq!(sim.summary().collisions, 0);
}

#[test]
fn walling_off_a_corridor_makes_goals_unreachable_until_it_opens() {
    let grid = Arc::new(Grid::from_rows(
        &["..........", "@@@@.@@@@@", ".........."],
        Connectivity::Four,
    ));
    let mut sim = Simulation::with_map(grid, config()).unwrap();
    let (from, to) = (sim.cell(0, 0).unwrap(), sim.cell(9, 2).unwrap());
    let u = sim.spawn(UnitSpec::new(from, to)).unwrap();
    sim.block(Rect::new((4, 1), (4, 1))).unwrap();
    sim.step();
    assert!(events(&mut sim)
        .iter()
        .any(|e| e.unit == u && e.kind == EventKind::Unreachable));
    assert_eq!(sim.state(u), Ok(UnitState::Unreachable));
    for _ in 0..5 {
        sim.step();
    }
    assert_eq!(sim.position(u), Ok(from), "an unreachable unit waits");
    sim.unblock(Rect::new((4, 1), (4, 1))).unwrap();
    sim.step();
    assert!(events(&mut sim)
        .iter()
        .any(|e| e.unit == u && e.kind == EventKind::Reachable));
    for _ in 0..30 {
        sim.step();
    }
    assert_eq!(sim.state(u), Ok(UnitState::Arrived));
}

#[test]
fn a_boxed_in_unit_is_reported_stuck() {
    // Its goal lies at the end of a dead-end corridor behind parked units
    // that outrank it, so they never make room.
    let grid = Arc::new(Grid::from_rows(
        &["@@@@@@@@", "........", "@@@@@@@@"],
        Connectivity::Four,
    ));
    let mut sim = Simulation::with_map(grid, config()).unwrap();
    for x in 3..8 {
        let at = sim.cell(x, 1).unwrap();
        sim.spawn(UnitSpec::new(at, at).with_priority(5)).unwrap();
    }
    let (from, goal) = (sim.cell(0, 1).unwrap(), sim.cell(7, 1).unwrap());
    let u = sim.spawn(UnitSpec::new(from, goal)).unwrap();
    let mut stuck = false;
    for _ in 0..40 {
        sim.step();
        stuck |= events(&mut sim)
            .iter()
            .any(|e| e.unit == u && e.kind == EventKind::Stuck);
    }
    assert!(stuck, "state {:?}", sim.state(u));
    assert_eq!(sim.state(u), Ok(UnitState::Stuck));
    // Sent elsewhere, it is unstuck.
    sim.set_goal(u, sim.cell(1, 1).unwrap()).unwrap();
    let mut unstuck = false;
    for _ in 0..10 {
        sim.step();
        unstuck |= events(&mut sim)
            .iter()
            .any(|e| e.unit == u && e.kind == EventKind::Unstuck);
    }
    assert!(unstuck);
    assert_eq!(sim.summary().collisions, 0);
}

#[test]
fn the_planned_path_leads_to_the_goal_one_move_a_cell() {
    let grid = Arc::new(generate_map(
        "32x32:0.2".parse().unwrap(),
        Connectivity::Four,
        5,
    ));
    let inst = random_instance(grid, 30, 5).unwrap();
    let mut sim = Simulation::new(&inst, config()).unwrap();
    sim.step();
    let mut path = Vec::new();
    for u in sim.units().collect::<Vec<_>>() {
        sim.planned_path(u, &mut path).unwrap();
        assert_eq!(path[0], sim.position(u).unwrap());
        assert_eq!(*path.last().unwrap(), sim.goal(u).unwrap(), "{u}");
        for w in path.windows(2) {
            assert!(sim.grid().is_move(w[0], w[1]), "{u}: {w:?}");
        }
    }
}

#[test]
fn a_spawn_on_a_taken_cell_waits_and_a_goal_queue_runs_in_order() {
    let mut sim = Simulation::with_map(open_map(12, 3), config()).unwrap();
    let c = |sim: &Simulation, x| sim.cell(x, 1).unwrap();
    let parked = sim.spawn(UnitSpec::new(c(&sim, 5), c(&sim, 5))).unwrap();
    sim.apply_commands();
    let late = sim.spawn(UnitSpec::new(c(&sim, 5), c(&sim, 0))).unwrap();
    sim.step();
    assert_eq!(sim.state(late), Ok(UnitState::Waiting));
    // The parked unit goes through a queue of goals; the cell frees.
    sim.set_goal(parked, c(&sim, 11)).unwrap();
    sim.push_goal(parked, c(&sim, 8)).unwrap();
    sim.push_goal(parked, c(&sim, 10)).unwrap();
    let mut arrivals = Vec::new();
    let mut spawned = false;
    for _ in 0..40 {
        sim.step();
        for e in events(&mut sim) {
            match e.kind {
                EventKind::Arrived(cell) if e.unit == parked => arrivals.push(cell),
                EventKind::Spawned(cell) if e.unit == late => {
                    spawned = true;
                    assert_eq!(cell, c(&sim, 5));
                    assert_eq!(sim.position(late), Ok(cell), "it appears on its spawn cell");
                }
                _ => {}
            }
        }
    }
    assert!(spawned);
    assert_eq!(arrivals, vec![c(&sim, 11), c(&sim, 8), c(&sim, 10)]);
    assert_eq!(sim.state(parked), Ok(UnitState::Arrived));
    assert_eq!(sim.state(late), Ok(UnitState::Arrived));
    sim.despawn(late).unwrap();
    assert_eq!(sim.despawn(late), Err(SimError::StaleUnit(late)));
    sim.step();
    let again = sim.spawn(UnitSpec::new(c(&sim, 3), c(&sim, 3))).unwrap();
    assert_ne!(again, late, "a new unit never takes a stale id");
    assert_eq!(sim.state(late), Err(SimError::StaleUnit(late)));
    assert_eq!(sim.summary().collisions, 0);
}

/// Units spawned into a world built empty get the heuristic they would
/// have had in a world built with them: where a true-distance search of
/// their own per unit would not fit in memory for as many units as the
/// world may hold, landmark bounds shared by all. (Each spawned unit got a
/// search of its own before: 10,000 units spawned on 512×512 held 4.3 GiB
/// and took 82 ms a tick.)
#[test]
fn spawned_units_share_landmarks_where_a_search_each_would_not_fit() {
    let instance = generated_instance("128x128:0.1", 5, 64, 9);
    let run = |max_units: usize| {
        let config = SimConfig {
            max_units,
            ..config()
        };
        let mut sim = spawned_world(&instance, config);
        for _ in 0..40 {
            sim.step();
        }
        let summary = sim.summary();
        assert_eq!(summary.collisions, 0);
        summary
    };
    // 64 searches of 16,384 cells fit; 4,096 do not.
    let own = run(64);
    let shared = run(4096);
    assert!(
        own.heuristic_expanded > 20_000,
        "own searches expanded only {}",
        own.heuristic_expanded
    );
    assert!(
        shared.heuristic_expanded * 10 < own.heuristic_expanded,
        "landmarks: {} heuristic nodes against {} with a search each",
        shared.heuristic_expanded,
        own.heuristic_expanded
    );
    assert!(shared.reached > 0 && own.reached > 0);
}

/// A world filled by spawns plans exactly as one built with its units, on
/// a map where both read landmarks (900 searches of 40,000 cells do not
/// fit): the same units spawned in order into an empty world on the same
/// map, with room for as many, make the same moves tick by tick.
#[test]
fn a_world_filled_by_spawns_plans_as_one_built_with_its_units() {
    let instance = generated_instance("200x200:0.1", 3, 900, 4);
    let config = SimConfig {
        max_units: 2000,
        ..config()
    };
    let mut built = Simulation::new(&instance, config).unwrap();
    let mut spawned = spawned_world(&instance, config);
    spawned.apply_commands();
    built.initialize();
    spawned.initialize();
    for tick in 0..60 {
        assert_eq!(built.positions(), spawned.positions(), "tick {tick}");
        built.step();
        spawned.step();
    }
    let (b, s) = (built.summary(), spawned.summary());
    assert_eq!((b.soc, b.collisions), (s.soc, s.collisions));
    assert!(b.reached > 0);
}
