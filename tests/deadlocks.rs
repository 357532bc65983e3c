//! Hand-made deadlocks that a windowed planner meets in games: two lines of
//! units meeting head-on in a one-cell corridor, a ring of units each
//! wanting the next one's cell, and units passing each other through a
//! single bay (one unit against one, and against two), a block of goals
//! filled solid through a gap in a wall, and the aisles of the warehouse
//! benchmark map blocked by units parked on their goals.
//! Every unit must arrive, with every tick checked by the validator.

use std::path::Path;
use std::sync::Arc;

mod common;

use throng::engine::{SimConfig, Simulation};
use throng::map::{parse_map, random_instance, read_map, Connectivity, Grid, Instance};
use throng::planner::PlannerKind;

/// A unit's start and goal, as (x, y).
type Order = ((u32, u32), (u32, u32));

/// A map from rows of `.` (open) and `@` (wall), in the MovingAI format.
fn grid(rows: &[&str], connectivity: Connectivity) -> Arc<Grid> {
    let text = format!(
        "type octile\nheight {}\nwidth {}\nmap\n{}\n",
        rows.len(),
        rows[0].len(),
        rows.join("\n")
    );
    Arc::new(parse_map(&text, Path::new("deadlock.map"), connectivity).expect("a valid map"))
}

/// A scene drawn as rows: `@` walls, `o` units parked on their own goals,
/// other letters (`marks`) cells named by the test, `.` open. Returns the
/// open map and the parked units' orders.
fn scene(rows: &[&str], marks: &[char]) -> (Arc<Grid>, Vec<Order>) {
    let open: Vec<String> = rows
        .iter()
        .map(|r| r.replace(|c: char| c == 'o' || marks.contains(&c), "."))
        .collect();
    let open: Vec<&str> = open.iter().map(String::as_str).collect();
    let mut parked = Vec::new();
    for (y, r) in rows.iter().enumerate() {
        for (x, ch) in r.chars().enumerate() {
            if ch == 'o' {
                parked.push(((x as u32, y as u32), (x as u32, y as u32)));
            }
        }
    }
    (grid(&open, Connectivity::Four), parked)
}

/// Runs WHCA*(`window`) on one and on two threads until every unit is home
/// (at most `max_ticks`); fails on any collision or unit left out.
fn all_home(name: &str, grid: &Arc<Grid>, units: &[Order], window: u32, max_ticks: u32) {
    let instance = Instance {
        starts: units.iter().map(|&(s, _)| grid.cell(s.0, s.1)).collect(),
        goals: units.iter().map(|&(_, g)| grid.cell(g.0, g.1)).collect(),
        grid: grid.clone(),
        map_name: name.into(),
    };
    for threads in [1, 2] {
        let config = SimConfig {
            planner: PlannerKind::Whca { window },
            max_ticks,
            threads,
            check_moves: true,
            ..SimConfig::default()
        };
        let mut sim = Simulation::new(&instance, config).expect("a valid instance");
        let summary = sim.run();
        assert_eq!(summary.collisions, 0, "{name}: {summary:?}");
        assert_eq!(
            summary.at_goal_at_end,
            units.len(),
            "{name}, {threads} thread(s): {} of {} home after {} ticks",
            summary.at_goal_at_end,
            units.len(),
            summary.ticks
        );
    }
}

#[test]
fn two_lines_meet_in_a_one_cell_corridor() {
    // Two rooms joined by a corridor ten cells long and one cell wide; four
    // units in each room queue at its mouth to cross to the other side.
    let g = grid(
        &[
            "@@@@@@@@@@@@@@@@@@@@",
            "@....@@@@@@@@@@....@",
            "@...............@..@",
            "@....@@@@@@@@@@....@",
            "@@@@@@@@@@@@@@@@@@@@",
        ],
        Connectivity::Four,
    );
    let west = [(4, 2), (3, 2), (2, 2), (1, 2)];
    let east = [(15, 2), (17, 1), (17, 3), (18, 2)];
    let mut units = Vec::new();
    for (k, &w) in west.iter().enumerate() {
        units.push((w, [(15, 1), (16, 1), (15, 3), (16, 3)][k]));
    }
    for (k, &e) in east.iter().enumerate() {
        units.push((e, [(1, 1), (2, 1), (1, 3), (2, 3)][k]));
    }
    all_home("corridor", &g, &units, 16, 400);
}

#[test]
fn a_ring_of_units_each_wanting_the_next_ones_cell() {
    // A 3×3 block with a pillar in the middle: eight units on the ring,
    // each ordered to the cell its neighbour stands on (a rotation).
    let g = grid(
        &["@@@@@", "@...@", "@.@.@", "@...@", "@@@@@"],
        Connectivity::Four,
    );
    let ring = [
        (1, 1),
        (2, 1),
        (3, 1),
        (3, 2),
        (3, 3),
        (2, 3),
        (1, 3),
        (1, 2),
    ];
    let units: Vec<_> = (0..ring.len())
        .map(|k| (ring[k], ring[(k + 1) % ring.len()]))
        .collect();
    all_home("full ring", &g, &units, 8, 100);
    // The same ring turning the other way, and a ring with one gap.
    let back: Vec<_> = (0..ring.len())
        .map(|k| (ring[(k + 1) % ring.len()], ring[k]))
        .collect();
    all_home("ring backwards", &g, &back, 8, 100);
    let gap: Vec<_> = (0..ring.len() - 1)
        .map(|k| (ring[k], ring[(k + 2) % ring.len()]))
        .collect();
    all_home("ring with a gap", &g, &gap, 8, 100);
}

#[test]
fn units_pass_each_other_through_a_single_bay() {
    // A one-cell corridor with one bay above its middle: two units from
    // both ends swap sides, one stepping into the bay while the other
    // passes.
    let g = grid(
        &[
            "@@@@@@@@@@@@@",
            "@@@@@@.@@@@@@",
            "@...........@",
            "@@@@@@@@@@@@@",
        ],
        Connectivity::Four,
    );
    all_home(
        "one pair",
        &g,
        &[((1, 2), (11, 2)), ((11, 2), (1, 2))],
        16,
        200,
    );
    // One unit against two that must also change places with each other:
    // the bay serves every swap in turn. Single searches, even promoted,
    // leave the pair facing each other at the end (one of three home);
    // the joint repair of the units around the stuck one finds the way.
    all_home(
        "one against two",
        &g,
        &[((1, 2), (11, 2)), ((10, 2), (2, 2)), ((11, 2), (1, 2))],
        16,
        300,
    );
    all_home(
        "two against two",
        &g,
        &[
            ((1, 2), (11, 2)),
            ((2, 2), (10, 2)),
            ((10, 2), (2, 2)),
            ((11, 2), (1, 2)),
        ],
        16,
        300,
    );
}

#[test]
fn units_in_a_corridor_change_places_through_its_side_aisles() {
    // Warehouse aisles: a one-cell corridor between shelves, crossed by
    // side aisles. Units whose goals lie in it in the other order must
    // change places through a side aisle; one by one they push each other
    // off their goals and back for good (a unit that has reached its goal
    // once never looks stuck by its best distance) until the units pushed
    // off a goal are planned jointly.
    let g = grid(
        &[
            ".......................",
            ".@@@@@@@@@.@@@@@@@@@@@.",
            ".@@@@@@@@@.@@@@@@@@@@@.",
            ".......................",
            ".@@@@@@@@@.@@@@@@@@@@@.",
            ".@@@@@@@@@.@@@@@@@@@@@.",
            ".......................",
        ],
        Connectivity::Four,
    );
    all_home(
        "two",
        &g,
        &[((12, 3), (14, 3)), ((13, 3), (12, 3))],
        16,
        300,
    );
    all_home(
        "three",
        &g,
        &[((12, 3), (15, 3)), ((13, 3), (17, 3)), ((14, 3), (13, 3))],
        16,
        300,
    );
}

#[test]
fn units_climb_out_of_a_hollow_in_their_lower_bounds() {
    // A map so large that per-unit true distances do not fit (1024×1024,
    // 40 units: the units get landmark lower bounds), with a cup open to
    // the north between the units and their goals. Inside the cup the
    // bounds fall towards its bottom wall, where every window would wait
    // for good; such a unit must get true distances of its own.
    let side = 1024;
    let mut open = vec![true; side * side];
    let mut wall = |x: usize, y: usize| open[y * side + x] = false;
    for x in 480..=560 {
        wall(x, 520);
    }
    for y in 470..=520 {
        wall(480, y);
        wall(560, y);
    }
    let g = Arc::new(Grid::new(
        side as u32,
        side as u32,
        open,
        Connectivity::Four,
    ));
    let units: Vec<Order> = (0..40)
        .map(|k| ((490 + k, 500 + k % 3), (500 + k, 540 + k % 3)))
        .collect();
    all_home("cup", &g, &units, 16, 600);
}

#[test]
fn three_units_rotate_in_a_corridor_among_parked_ones() {
    // A small warehouse of one-cell corridors (`o`: a unit parked on its
    // own goal). Three units stand in a row in one corridor, each ordered
    // to a neighbour's cell (a to c's, b to a's, c to b's): a must get
    // past the two others, so they must leave the corridor by the side
    // gaps and come back. The joint search for such a knot
    // needs more nodes than a first repair may take; repeated failures
    // grow its limit.
    let rows = [
        "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
        "@....o.......o...........o..o..o..@",
        "@..o@@@@@@.@@@@@@.@@@@@@.@@@@@@oo.@",
        "@o..o...oo.o............o.....o...@",
        "@...@@@@@@.@@@@@@.@@@@@@.@@@@@@...@",
        "@...oo.................o..........@",
        "@o..@@@@@@o@@@@@@.@@@@@@.@@@@@@.o.@",
        "@..o...o.o......o...oo..o...o.....@",
        "@...@@@@@@o@@@@@@.@@@@@@.@@@@@@..o@",
        "@o....o......o.o.........o....o..o@",
        "@...@@@@@@.@@@@@@.@@@@@@.@@@@@@...@",
        "@...oo.o...abc..o.....o.....oo....@",
        "@.o.@@@@@@.@@@@@@o@@@@@@.@@@@@@o..@",
        "@.......o......o.o..o..o..o.ooo...@",
        "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
    ];
    let (g, parked) = scene(&rows, &['a', 'b', 'c']);
    let g = Arc::new(Grid::clone(&g).with_lanes(true));
    let mut units = vec![
        ((11, 11), (13, 11)),
        ((12, 11), (11, 11)),
        ((13, 11), (12, 11)),
    ];
    units.extend(parked);
    all_home("rotation among parked units", &g, &units, 16, 600);
}

#[test]
fn a_unit_behind_a_parked_one_goes_round_to_the_far_end() {
    // A warehouse aisle between two shelves, with units parked on their
    // goals (`o`, `a`) at both ends and in the middle. Unit `b` stands
    // behind `a` and two more, and is bound past them (`B`). Stepping
    // aside along the aisle only makes units take turns: the parked ones
    // step past `B`, `b` arrives, then they ask their way back and `b`
    // steps out again (6 of 7 home after 600 ticks, for good). `b` must
    // leave by its own end and come round to the other: after joint
    // repairs fail, it walks around the units parked on its way.
    let rows = [
        "@@@@@@@@@@@@@@@@@@",
        "@................@",
        "@..@@@@@@@@@@.@@.@",
        "@..obaoo.B.oo.@@.@",
        "@..@@@@@@@@@@.@@.@",
        "@................@",
        "@@@@@@@@@@@@@@@@@@",
    ];
    let (g, parked) = scene(&rows, &['a', 'b', 'B']);
    // `a` is parked on its goal too.
    let mut units = vec![((4, 3), (9, 3)), ((5, 3), (5, 3))];
    units.extend(parked);
    all_home("round to the far end", &g, &units, 16, 600);
}

/// 300 units cross a wall through a gap eight cells wide to a block of
/// 15×20 goals, each unit ordered to a goal of its own in shuffled order:
/// the first to arrive park across the way to the goals deep in the block,
/// and only holes inside it are left (a sliding puzzle). Stuck units shove
/// their way in, a cell at a time. On two threads, without shoves 276 of
/// the 300 were home after 3,000 ticks; with them all by tick 415.
#[test]
fn units_ordered_one_by_one_fill_a_block_through_a_gap() {
    let rows = common::wall_with_gap();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let g = grid(&rows, Connectivity::Four);
    let starts = (0..5).flat_map(|x| (2..62).map(move |y| (x, y)));
    let mut goals: Vec<(u32, u32)> = (49..64)
        .flat_map(|x| (22..42).map(move |y| (x, y)))
        .collect();
    // A fixed shuffle (xorshift).
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in (1..goals.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        goals.swap(i, (s % (i as u64 + 1)) as usize);
    }
    let units: Vec<Order> = starts.zip(goals).collect();
    all_home("block through a gap", &g, &units, 16, 1500);
}

/// The warehouse benchmark map with 1,000 units (random distinct starts and
/// goals, as `throng run --map … --units 1000 --seed S`): knots of units
/// parked on their goals across one-cell aisles. Seed 6 with lanes and
/// seed 7 without each once left a unit off its goal for good: it walked
/// round the units parked on its way, others then parked across the way
/// round, and it kept those distances, under which nothing cleared its
/// way. Every unit must end on its goal.
#[test]
fn warehouse_aisles_blocked_by_parked_units_are_cleared() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/movingai/warehouse-10-20-10-2-1.map");
    for (seed, lanes) in [(6, true), (7, false)] {
        let grid = read_map(&path, Connectivity::Four)
            .unwrap()
            .with_lanes(lanes);
        let inst = random_instance(Arc::new(grid), 1000, seed).unwrap();
        let config = SimConfig {
            planner: PlannerKind::Whca { window: 16 },
            max_ticks: 3000,
            seed,
            threads: 2,
            ..SimConfig::default()
        };
        let mut sim = Simulation::new(&inst, config).unwrap();
        let summary = sim.run();
        assert_eq!(summary.collisions, 0, "seed {seed}");
        assert!(
            sim.all_home(),
            "seed {seed}, lanes {lanes}: a unit is off its goal at tick {}",
            sim.ticks()
        );
    }
}
