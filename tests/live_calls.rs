//! Any sequence of the game's calls (spawns, despawns, orders, group
//! orders, buildings placed and removed, stale ids, cells off the map or on
//! walls) between steps never panics, never collides, never lets a unit
//! enter a wall or a block, and gets a typed error exactly for bad input.

use std::sync::Arc;

use proptest::prelude::*;
use throng::prelude::*;

#[derive(Clone, Debug)]
enum Call {
    Spawn(i64, i64, i64, i64, u8),
    Despawn(usize),
    Goal(usize, i64, i64),
    Push(usize, i64, i64),
    Stop(usize),
    Group(Vec<usize>, i64, i64),
    Block(u32, u32, u32, u32),
    Unblock(usize),
    Steps(u32),
}

fn call() -> impl Strategy<Value = Call> {
    let coord = -2i64..26;
    prop_oneof![
        4 => (coord.clone(), coord.clone(), coord.clone(), coord.clone(), 0u8..4)
            .prop_map(|(a, b, c, d, p)| Call::Spawn(a, b, c, d, p)),
        1 => (0usize..64).prop_map(Call::Despawn),
        2 => (0usize..64, coord.clone(), coord.clone()).prop_map(|(k, x, y)| Call::Goal(k, x, y)),
        1 => (0usize..64, coord.clone(), coord.clone()).prop_map(|(k, x, y)| Call::Push(k, x, y)),
        1 => (0usize..64).prop_map(Call::Stop),
        1 => (prop::collection::vec(0usize..64, 0..12), coord.clone(), coord.clone())
            .prop_map(|(ks, x, y)| Call::Group(ks, x, y)),
        1 => (0u32..24, 0u32..24, 0u32..5, 0u32..5).prop_map(|(x, y, w, h)| Call::Block(x, y, w, h)),
        1 => (0usize..8).prop_map(Call::Unblock),
        3 => (1u32..12).prop_map(Call::Steps),
    ]
}

/// Runs `calls` on a fresh 24×24 world with `start` units; checks each
/// call's error against what it was given, and the validator after each
/// step.
fn play(seed: u64, eight: bool, start: usize, calls: &[Call]) -> Result<(), TestCaseError> {
    let conn = if eight {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    let grid = Arc::new(generate_map("24x24:0.2".parse().unwrap(), conn, seed));
    let inst = random_instance(grid, start, seed).unwrap();
    let config = SimConfig {
        threads: 1 + (seed % 2) as usize,
        max_units: 60,
        stuck_after: 20,
        budget: Budget {
            wall_us: None,
            nodes: Some(4_000),
        },
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&inst, config).unwrap();
    let mut ids: Vec<UnitId> = sim.units().collect();
    let mut dead: Vec<UnitId> = Vec::new();
    let mut blocks: Vec<Rect> = Vec::new();
    // A cell the engine must accept: on the map and not a wall.
    let open = |sim: &Simulation, x: i64, y: i64| {
        sim.cell(x, y)
            .ok()
            .filter(|&c| sim.grid().is_open_terrain(c))
    };
    let pick = |ids: &[UnitId], dead: &[UnitId], k: usize| -> Option<UnitId> {
        // Mostly living units, sometimes a stale one.
        if k % 7 == 6 && !dead.is_empty() {
            Some(dead[k % dead.len()])
        } else if ids.is_empty() {
            None
        } else {
            Some(ids[k % ids.len()])
        }
    };
    for c in calls {
        match c {
            Call::Spawn(x, y, gx, gy, p) => {
                let (at, goal) = (open(&sim, *x, *y), open(&sim, *gx, *gy));
                let r = sim.cell(*x, *y).and_then(|a| {
                    let g = sim.cell(*gx, *gy)?;
                    sim.spawn(UnitSpec::new(a, g).with_priority(*p))
                });
                match (at, goal) {
                    (Some(_), Some(_)) if ids.len() < 60 => ids.push(r.unwrap()),
                    (Some(_), Some(_)) => {
                        prop_assert!(matches!(r, Err(SimError::TooManyUnits { .. })), "{:?}", r)
                    }
                    _ => prop_assert!(
                        matches!(r, Err(SimError::OffMap { .. } | SimError::Wall { .. })),
                        "{r:?}"
                    ),
                }
            }
            Call::Despawn(k) => {
                if let Some(id) = pick(&ids, &dead, *k) {
                    let r = sim.despawn(id);
                    if dead.contains(&id) {
                        prop_assert_eq!(r, Err(SimError::StaleUnit(id)));
                    } else {
                        r.unwrap();
                        ids.retain(|&u| u != id);
                        dead.push(id);
                        prop_assert!(!sim.contains(id));
                    }
                }
            }
            Call::Goal(k, x, y) | Call::Push(k, x, y) => {
                if let Some(id) = pick(&ids, &dead, *k) {
                    let goal = sim.cell(*x, *y);
                    let r = goal.and_then(|g| match c {
                        Call::Goal(..) => sim.set_goal(id, g),
                        _ => sim.push_goal(id, g),
                    });
                    if dead.contains(&id) {
                        prop_assert!(r.is_err());
                    } else if open(&sim, *x, *y).is_some() {
                        r.unwrap();
                    } else {
                        prop_assert!(r.is_err());
                    }
                }
            }
            Call::Stop(k) => {
                if let Some(id) = pick(&ids, &dead, *k) {
                    prop_assert_eq!(sim.stop(id).is_ok(), !dead.contains(&id));
                }
            }
            Call::Group(ks, x, y) => {
                let group: Vec<UnitId> = ks.iter().filter_map(|&k| pick(&ids, &dead, k)).collect();
                let r = sim.cell(*x, *y).and_then(|t| sim.order_group(&group, t));
                let ok = !group.is_empty()
                    && group.iter().all(|u| !dead.contains(u))
                    && open(&sim, *x, *y).is_some();
                prop_assert_eq!(r.is_ok(), ok, "{:?}", r);
            }
            Call::Block(x, y, w, h) => {
                let r = Rect::new((*x, *y), (x + w, y + h));
                let res = sim.block(r);
                if x + w < 24 && y + h < 24 {
                    res.unwrap();
                    blocks.push(r);
                } else {
                    prop_assert!(matches!(res, Err(SimError::OffMap { .. })), "{:?}", res);
                }
            }
            Call::Unblock(k) => {
                if !blocks.is_empty() {
                    let r = blocks.swap_remove(k % blocks.len());
                    sim.unblock(r).unwrap();
                }
            }
            Call::Steps(n) => {
                for _ in 0..*n {
                    sim.step();
                    let events: Vec<Event> = sim.drain_events().collect();
                    for e in &events {
                        prop_assert!(e.tick == sim.ticks(), "{e:?} at {}", sim.ticks());
                    }
                    let (count, first) = sim.violations();
                    prop_assert_eq!(count, 0, "{:?}", first);
                }
            }
        }
        // Every living unit answers; no dead one does.
        for &id in &ids {
            prop_assert!(sim.state(id).is_ok() && sim.position(id).is_ok());
        }
        for &id in &dead {
            prop_assert_eq!(sim.state(id), Err(SimError::StaleUnit(id)));
        }
    }
    // Then let it settle: still no violation, and the states add up.
    for _ in 0..40 {
        sim.step();
    }
    let s = sim.summary();
    prop_assert_eq!(s.collisions, 0);
    prop_assert_eq!(s.states.values().sum::<u64>() as usize, ids.len());
    let mut path = Vec::new();
    for &id in &ids {
        sim.planned_path(id, &mut path).unwrap();
        prop_assert!(!path.is_empty());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn any_call_sequence_keeps_the_invariants(
        seed in 0u64..1000,
        eight in any::<bool>(),
        start in 0usize..30,
        calls in prop::collection::vec(call(), 1..120),
    ) {
        play(seed, eight, start, &calls)?;
    }
}

#[test]
fn calls_on_a_fixed_instance_planner_are_refused() {
    let grid = Arc::new(generate_map(
        "16x16:0.1".parse().unwrap(),
        Connectivity::Four,
        1,
    ));
    let inst = random_instance(grid, 5, 1).unwrap();
    let config = SimConfig {
        planner: throng::planner::PlannerKind::Hca,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&inst, config).unwrap();
    let c = sim.cell(0, 0).unwrap();
    assert!(matches!(
        sim.spawn(UnitSpec::new(c, c)),
        Err(SimError::NotLive { .. })
    ));
}

#[test]
fn bad_instances_and_settings_are_errors_not_panics() {
    let grid = Arc::new(Grid::from_rows(&["...", ".@.", "..."], Connectivity::Four));
    let inst = |starts: Vec<Cell>, goals: Vec<Cell>| Instance {
        grid: grid.clone(),
        starts,
        goals,
        map_name: String::new(),
    };
    let cfg = SimConfig::default();
    let cases = [
        inst(vec![Cell(99)], vec![Cell(0)]),
        inst(vec![Cell(4)], vec![Cell(0)]),
        inst(vec![Cell(0), Cell(0)], vec![Cell(2), Cell(8)]),
        inst(vec![Cell(0)], vec![]),
    ];
    for (k, i) in cases.iter().enumerate() {
        let e = Simulation::new(i, cfg)
            .err()
            .unwrap_or_else(|| panic!("case {k} accepted"));
        assert!(matches!(e, SimError::BadInstance { unit: _, .. }), "{e}");
    }
    let ok = inst(vec![Cell(0)], vec![Cell(8)]);
    for bad in [
        SimConfig {
            planner: throng::planner::PlannerKind::Whca { window: 0 },
            ..cfg
        },
        SimConfig {
            planner: throng::planner::PlannerKind::Whca { window: 5000 },
            ..cfg
        },
        SimConfig {
            threads: 100_000,
            ..cfg
        },
        SimConfig {
            stuck_after: 0,
            ..cfg
        },
        SimConfig {
            budget: Budget {
                wall_us: Some(u64::MAX),
                nodes: None,
            },
            ..cfg
        },
        SimConfig {
            max_ticks: u32::MAX,
            ..cfg
        },
    ] {
        assert!(matches!(
            Simulation::new(&ok, bad),
            Err(SimError::Config { .. })
        ));
    }
    // A step before any planning is fine: units are planned within the budget.
    let mut sim = Simulation::new(&ok, cfg).unwrap();
    for _ in 0..10 {
        sim.step();
    }
    assert!(sim.all_home());
}
