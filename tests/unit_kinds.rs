//! Units of every kind in one simulation (Silver's reservation-table
//! footprints): large bodies, slow units and curved turns share the map,
//! the table and the planner with one-cell units. Every run is checked by
//! the per-tick validator on rectangles: no overlap, no swap, no body in a
//! wall or a building, no diagonal sweep through another unit.

use std::sync::Arc;

use throng::footprint::{army_mix, mixed_crowd};
use throng::map::GeneratorSpec;
use throng::prelude::*;
use throng::units::UnitKind;

fn config(threads: usize) -> SimConfig {
    SimConfig {
        threads,
        stuck_after: 200,
        // Room for a thousand units of any mix (a 3×3 body claims up to 32
        // cells a tick).
        max_units: 1_000,
        footprint_claims: 32_000,
        ..SimConfig::default()
    }
}

/// Spawns `kinds` on `grid` at random (the spawns applied, no tick run);
/// returns the simulation and the units.
fn spawn_army(
    grid: Arc<Grid>,
    kinds: &[UnitKind],
    seed: u64,
    cfg: SimConfig,
) -> (Simulation, Vec<UnitId>) {
    let crowd = mixed_crowd(&grid, kinds, seed).expect("room for the crowd");
    let mut sim = Simulation::with_map(grid, cfg).unwrap();
    let units: Vec<UnitId> = kinds
        .iter()
        .zip(&crowd)
        .map(|(&k, &(s, g))| sim.spawn(UnitSpec::new(s, g).with_kind(k)).unwrap())
        .collect();
    sim.apply_commands();
    (sim, units)
}

/// Spawns `kinds` on `grid` at random and runs until every unit is home or
/// `ticks` pass; returns the simulation and the units.
fn run_army(
    grid: Arc<Grid>,
    kinds: &[UnitKind],
    seed: u64,
    cfg: SimConfig,
    ticks: u32,
) -> (Simulation, Vec<UnitId>) {
    let (mut sim, units) = spawn_army(grid, kinds, seed, cfg);
    for _ in 0..ticks {
        sim.step();
        if units
            .iter()
            .all(|&u| sim.state(u) == Ok(UnitState::Arrived))
        {
            break;
        }
    }
    (sim, units)
}

fn home(sim: &Simulation, units: &[UnitId]) -> usize {
    units
        .iter()
        .filter(|&&u| sim.state(u) == Ok(UnitState::Arrived))
        .count()
}

#[test]
fn mixed_armies_cross_maps_without_a_violation() {
    // Eight cluttered 40×40 maps (10% of cells walls, so 3×3 bodies have
    // few ways through), 60 units each. No violation ever; most units
    // home within 400 ticks (bodies meeting head-on in a passage only
    // their size fits may wait for good: 445 of 480 home on way requests
    // alone, 454 with way clearing).
    let (arrived, all, _, _, _) = cluttered_armies(60);
    assert!(arrived * 100 >= all * 90, "{arrived} of {all} home");
}

/// Runs `n` units of the army mix for 400 ticks on each of eight cluttered
/// 40×40 maps (10% walls), asserting no violation; returns the units home,
/// the units in all, the ways cleared and kept, the detours, and the
/// units pulled over.
fn cluttered_armies(n: usize) -> (usize, usize, u64, u64, u64) {
    let (mut arrived, mut all, mut kept, mut detours, mut pulled) = (0, 0, 0, 0, 0);
    for seed in 1..=8 {
        let spec: GeneratorSpec = "40x40:0.1".parse().unwrap();
        let grid = Arc::new(generate_map(spec, Connectivity::Eight, seed));
        let kinds = army_mix(n);
        let (sim, units) = run_army(grid, &kinds, seed, config(1), 400);
        let (count, first) = sim.violations();
        assert_eq!(count, 0, "seed {seed}: {first:?}");
        arrived += home(&sim, &units);
        all += units.len();
        kept += sim.planner_stats().way_clearings_kept;
        detours += sim.planner_stats().detours;
        pulled += sim.planner_stats().pull_overs;
    }
    (arrived, all, kept, detours, pulled)
}

#[test]
fn slow_and_curving_units_keep_their_pace_and_arrive() {
    let spec: GeneratorSpec = "24x24:0.05".parse().unwrap();
    let grid = Arc::new(generate_map(spec, Connectivity::Eight, 9));
    let kinds: Vec<UnitKind> = (0..16)
        .map(|u| match u % 4 {
            0 => UnitKind::new(2, 2).with_curves(),
            1 => UnitKind::new(1, 4),
            2 => UnitKind::CELL.with_curves(),
            _ => UnitKind::CELL,
        })
        .collect();
    let (sim, units) = run_army(grid.clone(), &kinds, 1, config(1), 600);
    assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
    assert_eq!(home(&sim, &units), units.len());
    // A slow unit's first arrival is no earlier than its pace allows.
    let crowd = mixed_crowd(&grid, &kinds, 1).unwrap();
    for (k, &u) in units.iter().enumerate() {
        let (s, g) = crowd[k];
        let steps = grid.grid_distance(s, g) as u64;
        let arrived = sim.world().units().first_arrival[u.slot() as usize] as u64;
        assert!(arrived >= steps * kinds[k].pace as u64, "unit {k} too fast");
    }
}

#[test]
fn a_big_body_and_infantry_pass_each_other_in_a_hall() {
    // A 2×2 tank going right, six soldiers going left, in a hall three
    // cells high: someone must step into the alcoves.
    let rows = [
        "##..##..##..##",
        "..............",
        "..............",
        "..............",
        "##..##..##..##",
    ];
    let grid = Arc::new(Grid::from_rows(&rows, Connectivity::Four));
    let mut sim = Simulation::with_map(grid, config(1)).unwrap();
    let c = |sim: &Simulation, x, y| sim.cell(x, y).unwrap();
    let tank = sim
        .spawn(UnitSpec::new(c(&sim, 0, 1), c(&sim, 12, 2)).with_kind(UnitKind::new(2, 1)))
        .unwrap();
    let soldiers: Vec<UnitId> = (0..6)
        .map(|k| {
            let (x, y) = (13 - (k / 3), 1 + k % 3);
            let (gx, gy) = (k / 3, 1 + k % 3);
            sim.spawn(UnitSpec::new(c(&sim, x, y), c(&sim, gx, gy)))
                .unwrap()
        })
        .collect();
    sim.apply_commands();
    for _ in 0..200 {
        sim.step();
    }
    assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
    assert_eq!(sim.state(tank), Ok(UnitState::Arrived));
    assert_eq!(home(&sim, &soldiers), soldiers.len());
}

#[test]
fn a_mixed_group_ordered_against_a_wall_gets_places_it_fits() {
    // A 20×16 yard with a wall down its right side: three tanks (one 3×3,
    // two 2×2) and eight soldiers from the left edge, all ordered to a cell
    // against the wall, where no tank's body fits with that cell as its
    // top-left corner.
    let rows: Vec<String> = (0..16).map(|_| format!("{}#", ".".repeat(19))).collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = Arc::new(Grid::from_rows(&rows, Connectivity::Eight));
    let mut sim = Simulation::with_map(grid, config(1)).unwrap();
    let kinds = [
        UnitKind::new(3, 1),
        UnitKind::new(2, 1),
        UnitKind::new(2, 2),
    ];
    let mut units: Vec<UnitId> = kinds
        .iter()
        .enumerate()
        .map(|(k, &kind)| {
            let at = sim.cell(0, 4 * k as i64).unwrap();
            sim.spawn(UnitSpec::new(at, at).with_kind(kind)).unwrap()
        })
        .collect();
    units.extend((0..8).map(|y| {
        let at = sim.cell(4, 2 * y).unwrap();
        sim.spawn(UnitSpec::new(at, at)).unwrap()
    }));
    let target = sim.cell(18, 8).unwrap();
    sim.order_group(&units, target).unwrap();
    // Ordered on its own, a tank snaps to a place its body fits as well:
    // its body covers the target.
    let (x, y) = (18, 8);
    sim.set_goal(units[0], target).unwrap();
    sim.apply_commands();
    let goal_rect = |sim: &Simulation, u: UnitId| {
        let size = sim.kind(u).unwrap().size as u32;
        let (x, y) = sim.world().grid().xy(sim.goal(u).unwrap());
        Rect::new((x, y), (x + size - 1, y + size - 1))
    };
    let g = goal_rect(&sim, units[0]);
    assert!(g.x0 <= x && x <= g.x1 && g.y0 <= y && y <= g.y1, "{g:?}");
    sim.order_group(&units, target).unwrap();
    sim.apply_commands();
    // Every goal a place the unit's body fits, no two overlapping.
    let goals: Vec<_> = units.iter().map(|&u| goal_rect(&sim, u)).collect();
    for (i, a) in goals.iter().enumerate() {
        assert!(a.x1 < 19, "{a:?} inside the wall");
        for b in &goals[i + 1..] {
            let apart = a.x1 < b.x0 || b.x1 < a.x0 || a.y1 < b.y0 || b.y1 < a.y0;
            assert!(apart, "goals {a:?} and {b:?} overlap");
        }
    }
    for _ in 0..150 {
        sim.step();
    }
    assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
    assert_eq!(home(&sim, &units), units.len(), "every unit home");
}

#[test]
fn a_building_on_a_big_body_evicts_it() {
    let row = ".".repeat(16);
    let rows: Vec<&str> = (0..16).map(|_| row.as_str()).collect();
    let grid = Arc::new(Grid::from_rows(&rows, Connectivity::Eight));
    let mut sim = Simulation::with_map(grid, config(1)).unwrap();
    let at = sim.cell(6, 6).unwrap();
    let tank = sim
        .spawn(UnitSpec::new(at, at).with_kind(UnitKind::new(3, 2)))
        .unwrap();
    let others: Vec<UnitId> = (0..8)
        .map(|k| {
            let a = sim.cell(k, 0).unwrap();
            let b = sim.cell(15 - k, 15).unwrap();
            sim.spawn(UnitSpec::new(a, b)).unwrap()
        })
        .collect();
    sim.apply_commands();
    sim.step();
    sim.block(Rect::new((5, 5), (8, 8))).unwrap();
    for _ in 0..120 {
        sim.step();
    }
    assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
    let r = sim.rect(tank).unwrap();
    let outside = r.x1 < 5 || r.x0 > 8 || r.y1 < 5 || r.y0 > 8;
    assert!(outside, "the tank left the building: {r:?}");
    assert_eq!(home(&sim, &others), others.len());
    sim.unblock(Rect::new((5, 5), (8, 8))).unwrap();
    for _ in 0..60 {
        sim.step();
    }
    assert_eq!(sim.state(tank), Ok(UnitState::Arrived), "back home");
    assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
}

#[test]
fn mixed_runs_are_the_same_on_any_thread_count_under_a_node_budget() {
    let spec: GeneratorSpec = "48x48:0.1".parse().unwrap();
    let grid = Arc::new(generate_map(spec, Connectivity::Eight, 4));
    let kinds = army_mix(120);
    let trace = |threads: usize| {
        let cfg = SimConfig {
            budget: Budget {
                wall_us: None,
                nodes: Some(20_000),
            },
            ..config(threads)
        };
        let (mut sim, units) = spawn_army(grid.clone(), &kinds, 2, cfg);
        let mut out = Vec::new();
        for _ in 0..120 {
            sim.step();
            out.extend(units.iter().map(|&u| sim.rect(u).unwrap()));
        }
        assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
        out
    };
    let one = trace(1);
    assert_eq!(one, trace(2));
    assert_eq!(one, trace(4));
}

/// Under a wall-clock budget, a crowd's one-cell units plan in map tiles
/// (no serial commit) for their share of the time, and the bodies and slow
/// units in batches for the rest: both kinds are searched, and nothing
/// collides. (A budget far above what the tick needs: what is checked is
/// where the searches run, not how fast.)
#[test]
fn a_budgeted_crowd_plans_its_one_cell_units_in_tiles_and_the_rest_in_batches() {
    let spec: GeneratorSpec = "96x96:0.1".parse().unwrap();
    let grid = Arc::new(generate_map(spec, Connectivity::Eight, 5));
    let kinds = army_mix(600);
    let cfg = SimConfig {
        // Windows of 8: tiles of 19×19, enough of them on 96×96 to pay.
        planner: PlannerKind::Whca { window: 8 },
        budget: Budget {
            wall_us: Some(50_000),
            nodes: None,
        },
        ..config(2)
    };
    let (mut sim, units) = spawn_army(grid, &kinds, 5, cfg);
    sim.step();
    let first: Vec<Rect> = units.iter().map(|&u| sim.rect(u).unwrap()).collect();
    for _ in 0..60 {
        sim.step();
    }
    let (count, violations) = sim.violations();
    assert_eq!(count, 0, "{violations:?}");
    let stats = sim.planner_stats();
    assert!(stats.tiled_searches > 0, "{stats:?}");
    assert!(stats.searches > stats.tiled_searches, "{stats:?}");
    let moved = |cell: bool| {
        (0..units.len())
            .filter(|&i| kinds[i].is_cell() == cell)
            .filter(|&i| sim.rect(units[i]).unwrap() != first[i])
            .count()
    };
    assert!(
        moved(true) > 0 && moved(false) > 0,
        "{} and {}",
        moved(true),
        moved(false)
    );
}

#[test]
fn a_unit_in_a_clearing_keeps_the_curve_it_is_on() {
    // A slow curving unit half-way through a curve stands in a stalled
    // body's way. While the clearing sets its plan aside, the rest of the
    // curve stays claimed: a unit held in place beside it may not take a
    // cell the curve sweeps later (a shared cell at tick 43 once did).
    let k = |size, pace, four: bool, curves: bool| {
        let k = UnitKind::new(size, pace);
        let k = if four { k.four_way() } else { k };
        if curves {
            k.with_curves()
        } else {
            k
        }
    };
    let (f, t) = (false, true);
    let kinds = [
        k(2, 1, f, t),
        k(2, 1, f, f),
        k(3, 1, f, f),
        k(1, 1, t, t),
        k(2, 2, f, f),
        k(1, 1, f, f),
        k(3, 1, f, f),
        k(1, 1, f, t),
        k(1, 3, f, t),
        k(2, 1, f, f),
        k(3, 3, f, f),
        k(3, 1, f, f),
    ];
    let spec = GeneratorSpec {
        width: 28,
        height: 28,
        density: 0.092,
    };
    let grid = Arc::new(generate_map(spec, Connectivity::Eight, 890));
    let (sim, _) = run_army(grid, &kinds, 611, config(1), 150);
    assert!(sim.planner_stats().way_clearings_kept > 0);
    assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
}

mod common;

use proptest::prelude::*;

fn kind_strategy() -> impl Strategy<Value = UnitKind> {
    (1u8..=3, 1u8..=3, any::<bool>(), any::<bool>()).prop_map(|(size, pace, four, curves)| {
        let mut k = UnitKind::new(size, pace);
        if four {
            k = k.four_way();
        }
        if curves {
            k = k.with_curves();
        }
        k
    })
}

proptest! {
    // 64 cases in every test run; `PROPTEST_CASES=N` for a deeper search.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64)
    ))]

    /// Any mix of kinds on any generated map, 4- or 8-connected, with or
    /// without lanes: never a violation of the rectangle rules.
    #[test]
    fn any_mix_of_kinds_plays_clean(
        kinds in proptest::collection::vec(kind_strategy(), 4..40),
        map_seed in 0u64..1000,
        crowd_seed in 0u64..1000,
        eight in any::<bool>(),
        density in 0.0f64..0.3,
        lanes in any::<bool>(),
    ) {
        let spec = GeneratorSpec { width: 28, height: 28, density };
        let conn = if eight { Connectivity::Eight } else { Connectivity::Four };
        let grid = Arc::new(generate_map(spec, conn, map_seed).with_lanes(lanes));
        prop_assume!(mixed_crowd(&grid, &kinds, crowd_seed).is_some());
        let (sim, _) = run_army(grid, &kinds, crowd_seed, config(1), 150);
        let (count, first) = sim.violations();
        prop_assert_eq!(count, 0, "{:?}", first);
    }
}

/// A mixed army on a benchmark map of the MovingAI set.
fn benchmark_army(map: &str, n: usize, seed: u64) -> (usize, usize, u32) {
    let grid = Arc::new(read_map(&common::small_maps().join(map), Connectivity::Eight).unwrap());
    let kinds = army_mix(n);
    let (sim, units) = run_army(grid, &kinds, seed, config(2), 1000);
    assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
    (home(&sim, &units), units.len(), sim.ticks())
}

#[test]
fn a_mixed_army_on_a_small_benchmark_map_plays_clean() {
    let (home, all, _) = benchmark_army("random-64-64-20.map", 120, 1);
    assert!(home * 100 >= all * 85, "{home} of {all} home");
}

/// den520d with 1,000 mixed units (the full benchmark set):
/// `THRONG_BENCHMARK_MAPS=... cargo test --release --test unit_kinds -- --ignored`.
#[test]
#[ignore]
fn a_thousand_mixed_units_on_den520d() {
    let path = common::benchmark_maps().join("den520d.map");
    let grid = Arc::new(read_map(&path, Connectivity::Eight).unwrap());
    for (label, kinds) in [
        ("1x1 only", vec![UnitKind::CELL; 1000]),
        ("mixed", army_mix(1000)),
    ] {
        let t0 = std::time::Instant::now();
        let (sim, units) = run_army(grid.clone(), &kinds, 1, config(2), 3000);
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
        let stats = sim.tick_stats();
        eprintln!(
            "den520d {label}: {} of {} home after {} ticks, run {ms:.0} ms, planning {:.0} ms",
            home(&sim, &units),
            units.len(),
            sim.ticks(),
            stats.total_ms(),
        );
    }
}

#[test]
fn stalled_bodies_get_their_way_cleared_walk_around_or_are_let_pass() {
    // The cluttered maps of `mixed_armies_cross_maps_without_a_violation`,
    // denser: bodies jam each other in passages only their size fits.
    // Stalled bodies get their way cleared (the units in it plan off it
    // first, all plans kept or none); a body whose way could not be
    // cleared walks around the units on it; where no way around reaches
    // its goal, the first body on its way pulls over. No violation, and
    // more home than without each (680 of 800 with ways cleared alone,
    // 711 with detours, 724 with pulling over too).
    let (arrived, all, kept, detours, pulled) = cluttered_armies(100);
    assert!(kept > 0, "no way cleared");
    assert!(detours > 0, "no detour");
    assert!(pulled > 0, "nobody pulled over");
    assert!(arrived * 100 >= all * 88, "{arrived} of {all} home");
}

/// A unit of a hand-made scene: start and goal as `(x, y)`, and its kind.
type SceneUnit = ((i64, i64), (i64, i64), UnitKind);

/// Runs `units` on the 4-connected map `rows` for `ticks` ticks, one
/// thread: no violation, and every unit home at the end.
fn every_unit_arrives(rows: &[&str], units: &[SceneUnit], ticks: u32) {
    let grid = Arc::new(Grid::from_rows(rows, Connectivity::Four));
    let mut sim = Simulation::with_map(grid, config(1)).unwrap();
    let ids: Vec<UnitId> = units
        .iter()
        .map(|&((sx, sy), (gx, gy), kind)| {
            let (start, goal) = (sim.cell(sx, sy).unwrap(), sim.cell(gx, gy).unwrap());
            sim.spawn(UnitSpec::new(start, goal).with_kind(kind))
                .unwrap()
        })
        .collect();
    sim.apply_commands();
    for _ in 0..ticks {
        sim.step();
    }
    assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
    for (&u, spec) in ids.iter().zip(units) {
        assert_eq!(sim.state(u), Ok(UnitState::Arrived), "{spec:?}");
    }
}

#[test]
fn a_slow_unit_parked_in_a_corridor_pulls_over_for_a_unit_passing() {
    // A one-cell corridor between two rooms; a unit taking three ticks a
    // cell is parked on its goal inside it, and a one-cell unit must pass
    // it. A joint repair plans one-cell units only; asked to make way, the
    // slow unit stepped along the corridor and came back, for good. It now
    // pulls over out of the corridor and stays there while the other
    // passes, then goes home.
    let rows = [
        "......", "......", "##.###", "##.###", "##.###", "##.###", "##.###", "##.###", "......",
        "......",
    ];
    let slow = ((2, 4), (2, 4), UnitKind::new(1, 3));
    every_unit_arrives(&rows, &[slow, ((2, 2), (2, 9), UnitKind::CELL)], 300);
}

#[test]
fn a_unit_behind_a_body_parked_in_a_passage_it_fills_backs_off_first() {
    // A 2×2 body parked in a passage two cells high, a pocket behind it,
    // and a unit standing in the passage's mouth bound for the pocket. The
    // body can leave the passage only through the unit: the unit backs off
    // into the room, the body pulls over there, the unit goes in, and the
    // body comes home (den520d: a slow unit and a 2×2 body took turns for
    // good).
    let rows = [
        "##########",
        "#.........",
        "#.........",
        "#####.....",
        "#####.....",
        "#####.....",
    ];
    for kind in [UnitKind::CELL, UnitKind::new(1, 3)] {
        let body = ((3, 1), (3, 1), UnitKind::new(2, 1));
        every_unit_arrives(&rows, &[body, ((5, 2), (1, 1), kind)], 400);
    }
}

#[test]
fn a_one_cell_unit_and_a_slow_unit_head_on_in_a_corridor_do_not_take_turns_for_good() {
    // A one-cell corridor six cells long with a way round it; a unit
    // taking three ticks a cell stands in it, bound out through the top,
    // and a one-cell unit above it is bound for the slow unit's cell. The
    // one-cell unit had the slow one pull over, came in, was asked out
    // when the slow one came back, and had it pull over again, for good.
    // Now the slow unit walks round the other's goal, and round the other,
    // the long way. (Fails without `round_goal`.)
    let rows = [
        "............",
        "............",
        "####.#####..",
        "####.#####..",
        "####.#####..",
        "####.#####..",
        "####.#####..",
        "####.#####..",
        "............",
        "............",
    ];
    let slow = ((4, 3), (0, 0), UnitKind::new(1, 3));
    every_unit_arrives(&rows, &[slow, ((4, 1), (4, 3), UnitKind::CELL)], 400);
}

#[test]
fn a_tank_drives_through_infantry_coming_the_other_way() {
    // A 2×2 tank, spawned a tick after them, drives 20 cells along a field
    // into two files of 12 soldiers walking the other way on its road. The
    // tank has right of way: its plan passes through the soldiers'
    // reservations, and they plan again around it (five of them, once).
    // It arrives 24 ticks after its spawn (25 planning around them), every
    // soldier gets home, and no move breaks a rule.
    let rows = ["........................"; 9];
    let grid = Arc::new(Grid::from_rows(&rows, Connectivity::Four));
    let mut sim = Simulation::with_map(grid, config(1)).unwrap();
    let c = |sim: &Simulation, x, y| sim.cell(x, y).unwrap();
    // The soldiers first: their plans are in the table before the tank's.
    let soldiers: Vec<UnitId> = (0..24)
        .map(|k| {
            let (x, y) = (4 + k / 2, 3 + k % 2);
            let gx = 23 - x;
            sim.spawn(UnitSpec::new(c(&sim, x, y), c(&sim, gx, y)))
                .unwrap()
        })
        .collect();
    sim.apply_commands();
    sim.step();
    let tank = sim
        .spawn(UnitSpec::new(c(&sim, 0, 3), c(&sim, 20, 3)).with_kind(UnitKind::new(2, 1)))
        .unwrap();
    sim.apply_commands();
    let mut arrived = None;
    for t in 1..=100 {
        sim.step();
        if arrived.is_none() && sim.position(tank) == Ok(c(&sim, 20, 3)) {
            arrived = Some(t);
        }
    }
    assert_eq!(sim.violations().0, 0, "{:?}", sim.violations().1);
    let stats = sim.planner_stats();
    assert!(stats.right_of_way_kept > 0, "{stats:?}");
    assert!(arrived.is_some_and(|t| t <= 25), "tank home at {arrived:?}");
    assert_eq!(home(&sim, &soldiers), soldiers.len());
}
