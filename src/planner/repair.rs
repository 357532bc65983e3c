//! Joint repair of units stuck together: when a unit has made no progress
//! for a while, or has been pushed off a goal it had reached (units taking
//! turns on a corridor's goals), the few units around it and on its way
//! are planned at once, optimally, with Standley's operator decomposition
//! (OD) on a small window of the map, around every other unit's
//! reservations.
//!
//! A windowed planner plans one unit at a time; where units must pass each
//! other through a bay, or a line must back out of a corridor for another,
//! no order of single searches finds the way, and Silver's promotions only
//! push the weaker unit back. A joint search over the handful of units
//! involved does: one unit steps aside while the others pass. Units whose
//! goals lie outside the window are planned to the cell of the window
//! nearest their goals; after the joint plan they go on with their windows.
//!
//! The sub-problem is small (at most [`MAX_MEMBERS`] units on a window a few
//! cells wider than the stuck unit's next [`REACH`] steps) and its search
//! bounded in nodes, so the repair costs the same on every machine and
//! fails fast when the crowd is too dense for it. A repair's memory (its
//! window's map and distance tables, the OD search's nodes) is kept for the
//! next one ([`RepairMemory`]): once grown to the largest window and search
//! met, repairs allocate nothing.

use std::time::Instant;

use crate::map::{Cell, Grid};
use crate::units::{Slot, UnitFlags};
use crate::world::World;

use super::odid::{plan_group_around, GroupMemory, PathTable};

/// Steps of the stuck unit's way (down its distances) the window covers.
/// On the warehouse map (1,000 units, seed 1, 3,000 ticks, searches of
/// 8,000 nodes) 10 took 1,246 ms of repairs in all, 6 took 736 ms and kept
/// more of them (36 of 491).
pub const REACH: u32 = 6;
/// Cells around that way the window adds on every side: a window with no
/// way for its units (a bay just outside it, say) is widened once.
const MARGINS: [u32; 2] = [2, 6];
/// The windows tried, by margin, and whether the units standing next to
/// the units on the way join them (see [`keep_units_on_the_way`]).
const ATTEMPTS: [(u32, bool); 3] = [(MARGINS[0], false), (MARGINS[1], false), (MARGINS[0], true)];
/// Most units planned together. A window holding more is a crowd, not a
/// knot: its repair is not tried (on the warehouse map nearly every such
/// search ran to its node limit; skipping them halved the repairs' time
/// and left as many units home).
pub const MAX_MEMBERS: usize = 6;
/// Nodes a first joint search may store (the planner grows it for knots
/// whose repairs keep failing). On the warehouse map (1,000 units, 3,000
/// ticks, seeds 1 and 2, runs side by side) 8,000 took 4.5 s of
/// ticks in all and left 974 and 981 units on their goals, 4,000 took
/// 3.0 and 3.9 s and left 985 and 972: about as many, for less (a build
/// without repairs: 2.9 and 3.1 s, 927 and 903). 20,000 took up to 27 ms
/// for one repair.
pub const MAX_NODES: u64 = 4_000;

/// A joint plan found for a stuck cluster: its units and their paths (one
/// cell per tick from the current tick, all the same length; possibly
/// longer than the reservation table reaches, to be committed in pieces).
#[derive(Clone, Debug, Default)]
pub struct JointPlan {
    pub units: Vec<Slot>,
    /// The path of `units[i]` is `paths[i]`; entries past the units' count
    /// are memory kept for later plans.
    pub paths: Vec<Vec<Cell>>,
}

/// What joint repairs keep between calls: a planner that repairs again
/// and again allocates nothing once these buffers have grown.
#[derive(Default)]
pub struct RepairMemory {
    members: Vec<Slot>,
    /// Units standing in the window (see [`keep_units_on_the_way`]).
    standing: Vec<Slot>,
    /// Units next to the units on the way (see [`add_neighbours`]).
    near: Vec<Slot>,
    /// Other units with reservations inside the window, and their cells
    /// there tick by tick (`horizon` per unit).
    others: Vec<Slot>,
    other_cells: Vec<Cell>,
    starts: Vec<Cell>,
    goals: Vec<Cell>,
    /// Window cells covered by units of several cells (walls for the search).
    bodies: Vec<bool>,
    stack: Vec<Cell>,
    /// The window's map.
    sub: Option<Grid>,
    /// The other units' paths in it.
    around: Option<PathTable>,
    group: GroupMemory,
    /// The last joint plan found.
    pub plan: JointPlan,
}

/// A rectangle of the map: the window of a repair.
#[derive(Clone, Copy, Debug)]
struct Window {
    x0: u32,
    y0: u32,
    w: u32,
    h: u32,
}

impl Window {
    /// The window's cell for map cell `c`, if inside.
    fn local(&self, grid: &Grid, c: Cell) -> Option<Cell> {
        let (x, y) = grid.xy(c);
        (x >= self.x0 && y >= self.y0 && x < self.x0 + self.w && y < self.y0 + self.h)
            .then(|| Cell((y - self.y0) * self.w + (x - self.x0)))
    }

    /// The map cell of window cell `c`.
    fn global(&self, grid: &Grid, c: Cell) -> Cell {
        grid.cell(self.x0 + c.0 % self.w, self.y0 + c.0 / self.w)
    }

    /// The cell outside the map where units outside the window are (a wall
    /// row below the window: no unit of the cluster ever goes there).
    fn away(&self) -> Cell {
        Cell(self.h * self.w)
    }
}

/// Finds a joint plan for the cluster around unit `stuck`. `distance(u, c)`
/// is unit `u`'s distance estimate from cell `c` to its goal; `max_len` the
/// most cells a plan may hold (the reservation table's reach: a plan that
/// moves nobody within it is no plan); the search stores at most
/// `max_nodes` nodes in each window and gives up at `deadline`.
/// Returns whether it found a plan that moves someone (then in
/// `memory.plan`), and the nodes expanded.
pub fn plan_cluster(
    memory: &mut RepairMemory,
    world: &World,
    stuck: Slot,
    distance: &mut dyn FnMut(Slot, Cell) -> u32,
    max_len: usize,
    max_nodes: u64,
    deadline: Option<Instant>,
) -> (bool, u64) {
    let grid = &world.grid;
    // The window: the stuck unit's next steps down its distances, widened.
    let start = world.units.position[stuck.index()];
    let (mut lo, mut hi) = (grid.xy(start), grid.xy(start));
    let mut at = start;
    for _ in 0..REACH {
        let Some(next) = step_down(grid, stuck, at, distance) else {
            break;
        };
        at = next;
        let (x, y) = grid.xy(at);
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    let mut expanded = 0;
    for (margin, ring) in ATTEMPTS {
        let x0 = lo.0.saturating_sub(margin);
        let y0 = lo.1.saturating_sub(margin);
        let window = Window {
            x0,
            y0,
            w: (hi.0 + margin + 1).min(grid.width()) - x0,
            h: (hi.1 + margin + 1).min(grid.height()) - y0,
        };
        let limits = (max_len, max_nodes, deadline);
        let (found, nodes) = plan_in_window(memory, world, stuck, window, ring, distance, limits);
        expanded += nodes;
        match found {
            Attempt::Plan => return (true, expanded),
            Attempt::NoWay => continue,
            Attempt::GaveUp => break,
        }
    }
    (false, expanded)
}

/// What [`plan_in_window`] found.
enum Attempt {
    /// A joint plan, in [`RepairMemory::plan`].
    Plan,
    /// The units have no way inside the window.
    NoWay,
    /// The search stopped at its node limit, or the window does not suit.
    GaveUp,
}

/// [`plan_cluster`] in one window (with its limits: plan length, nodes,
/// deadline), and the nodes expanded. With `ring`, a crowded window's units
/// on the way are joined by the units standing next to them (tried only
/// when the units on the way alone had no way).
#[allow(clippy::too_many_arguments)]
fn plan_in_window(
    memory: &mut RepairMemory,
    world: &World,
    stuck: Slot,
    window: Window,
    ring: bool,
    distance: &mut dyn FnMut(Slot, Cell) -> u32,
    (max_len, max_nodes, deadline): (usize, u64, Option<Instant>),
) -> (Attempt, u64) {
    let grid = &world.grid;
    let units = &world.units;
    let table = &world.table;
    let now = world.now();
    let start = units.position[stuck.index()];
    let cells = (window.w * window.h) as usize;
    let RepairMemory {
        members,
        standing,
        near,
        others,
        other_cells,
        starts,
        goals,
        bodies,
        stack,
        sub,
        around,
        group,
        plan,
    } = memory;
    // Its units: the stuck one, then the others by distance.
    members.clear();
    for c in 0..cells as u32 {
        let cell = window.global(grid, Cell(c));
        if let Some(u) = table.occupant(cell, now) {
            let f = units.flags[u.index()];
            if units.kind[u.index()].is_cell()
                && units.position[u.index()] == cell
                && !f.any(UnitFlags::INACTIVE)
                && !f.has(UnitFlags::UNREACHABLE)
            {
                members.push(u);
            }
        }
    }
    members.sort_unstable_by_key(|&u| {
        (
            u != stuck,
            grid.grid_distance(start, units.position[u.index()]),
            u.0,
        )
    });
    if members.first() != Some(&stuck) {
        return (Attempt::GaveUp, 0);
    }
    if members.len() > MAX_MEMBERS {
        keep_units_on_the_way(members, standing, world, window, distance);
        if members.len() > MAX_MEMBERS {
            return (Attempt::GaveUp, 0);
        }
        if ring {
            add_neighbours(members, standing, near, world);
        }
    } else if ring {
        // Every unit in the window was planned already.
        return (Attempt::GaveUp, 0);
    }
    // The window's map (with the wall row for units away), and every other
    // unit's reservations inside it, tick by tick from now: units of
    // several cells are walls throughout.
    let horizon = (table.last_tick() - now + 1) as usize;
    others.clear();
    other_cells.clear();
    bodies.clear();
    bodies.resize(cells, false);
    for c in 0..cells as u32 {
        let cell = window.global(grid, Cell(c));
        for t in 0..horizon {
            let Some(o) = table.occupant(cell, now + t as u32) else {
                continue;
            };
            if members.contains(&o) {
                continue;
            }
            if !units.kind[o.index()].is_cell() {
                bodies[c as usize] = true;
                continue;
            }
            let k = match others.iter().position(|&u| u == o) {
                Some(k) => k,
                None => {
                    others.push(o);
                    other_cells.resize(others.len() * horizon, window.away());
                    others.len() - 1
                }
            };
            other_cells[k * horizon + t] = Cell(c);
        }
    }
    let sub = sub.get_or_insert_with(|| Grid::new(1, 1, vec![false], grid.connectivity()));
    sub.rebuild(
        window.w,
        window.h + 1,
        grid.connectivity(),
        grid.corner_cutting(),
        (0..cells as u32 + window.w).map(|c| {
            c < cells as u32
                && grid.is_passable(window.global(grid, Cell(c)))
                && !bodies[c as usize]
        }),
        stack,
    );
    let around = around.get_or_insert_with(|| PathTable::new(sub, 0));
    around.reset(sub, others.len());
    for k in 0..others.len() {
        around.add(k, &other_cells[k * horizon..(k + 1) * horizon]);
    }
    // Starts, and goals: a unit's own goal if inside and free for good, else
    // the free cell it can reach in the window nearest its goal.
    starts.clear();
    for &u in members.iter() {
        let s = window
            .local(grid, units.position[u.index()])
            .expect("members stand inside");
        if !sub.is_passable(s) {
            return (Attempt::GaveUp, 0);
        }
        starts.push(s);
    }
    let last = horizon as u32 - 1;
    goals.clear();
    for (k, &u) in members.iter().enumerate() {
        let free = |c: Cell, goals: &[Cell]| {
            sub.reachable(starts[k], c)
                && !goals.contains(&c)
                && around.conflicts(sub, last, c, c) == 0
        };
        let own = window.local(grid, units.goal[u.index()]);
        let goal = match own.filter(|&g| free(g, goals)) {
            Some(g) => g,
            None => {
                let Some(best) = (0..cells as u32)
                    .map(Cell)
                    .filter(|&c| free(c, goals))
                    .min_by_key(|&c| (distance(u, window.global(grid, c)), c.0))
                else {
                    return (Attempt::GaveUp, 0);
                };
                best
            }
        };
        goals.push(goal);
    }
    let (found, expanded) =
        plan_group_around(group, sub, starts, goals, around, max_nodes, deadline);
    match found {
        Ok(true) => {}
        Ok(false) => return (Attempt::NoWay, expanded),
        Err(_) => return (Attempt::GaveUp, expanded),
    }
    let paths = &group.paths[..members.len()];
    let len = paths[0].len().min(max_len);
    if len < 2 || paths.iter().all(|p| p[..len].iter().all(|&c| c == p[0])) {
        return (Attempt::GaveUp, expanded);
    }
    plan.units.clear();
    plan.units.extend_from_slice(members);
    if plan.paths.len() < paths.len() {
        plan.paths.resize_with(paths.len(), Vec::new);
    }
    for (out, p) in plan.paths.iter_mut().zip(paths) {
        out.clear();
        out.extend(p.iter().map(|&c| window.global(grid, c)));
    }
    (Attempt::Plan, expanded)
}

/// Unit `u`'s next step down its distances from `at`: the neighbour
/// nearest its goal, if nearer than `at`.
fn step_down(
    grid: &Grid,
    u: Slot,
    at: Cell,
    distance: &mut dyn FnMut(Slot, Cell) -> u32,
) -> Option<Cell> {
    let mut around = [Cell(0); 8];
    let n = grid.neighbors(at, &mut around);
    let mut best = (distance(u, at), at);
    for &c in &around[..n] {
        best = best.min((distance(u, c), c));
    }
    (best.1 != at).then_some(best.1)
}

/// Narrows `members` (every unit standing in the window, the stuck one
/// first) to the units on the way: the stuck unit, the units standing on
/// its next [`REACH`] steps down its distances, the units on theirs, and
/// so on, save units that outrank the stuck one (they keep their right of
/// way). The rest stay where they are for the joint search (they hold
/// their cells, as every unit outside the cluster does). A knot in a
/// one-cell corridor among units parked on their goals (a warehouse's
/// aisles) fills a window with more units than one search can plan,
/// though only the three or four in the corridor need to move.
fn keep_units_on_the_way(
    members: &mut Vec<Slot>,
    standing: &mut Vec<Slot>,
    world: &World,
    window: Window,
    distance: &mut dyn FnMut(Slot, Cell) -> u32,
) {
    let grid = &world.grid;
    let now = world.now();
    standing.clear();
    standing.append(members);
    members.push(standing[0]);
    let priority = |u: Slot| world.units.priority[u.index()];
    let rank = priority(standing[0]);
    let mut k = 0;
    while k < members.len() && members.len() <= MAX_MEMBERS {
        let u = members[k];
        let mut at = world.units.position[u.index()];
        for _ in 0..REACH {
            match step_down(grid, u, at, distance) {
                Some(next) if window.local(grid, next).is_some() => at = next,
                _ => break,
            }
            if let Some(v) = world.table.occupant(at, now) {
                if standing.contains(&v) && !members.contains(&v) && priority(v) <= rank {
                    members.push(v);
                }
            }
        }
        k += 1;
    }
}

/// Adds to `members` (the units on the way, see [`keep_units_on_the_way`])
/// the units of `standing` next to them, nearest the stuck unit first, up
/// to [`MAX_MEMBERS`]: two units each standing on the other's goal in a
/// crowd swap only if a neighbour steps out and back. `near` is scratch.
fn add_neighbours(members: &mut Vec<Slot>, standing: &[Slot], near: &mut Vec<Slot>, world: &World) {
    let grid = &world.grid;
    let rank = world.units.priority[members[0].index()];
    let start = world.units.position[members[0].index()];
    near.clear();
    near.extend(
        standing
            .iter()
            .copied()
            .filter(|&v| !members.contains(&v) && world.units.priority[v.index()] <= rank)
            .filter(|&v| {
                let at = world.units.position[v.index()];
                members
                    .iter()
                    .any(|&m| grid.is_move(world.units.position[m.index()], at))
            }),
    );
    near.sort_unstable_by_key(|&v| {
        (
            grid.grid_distance(start, world.units.position[v.index()]),
            v.0,
        )
    });
    let room = MAX_MEMBERS.saturating_sub(members.len());
    members.extend(near.iter().copied().take(room));
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::distance::bfs_distances;
    use crate::map::{Connectivity, Instance};
    use crate::validate::validate_steps;

    /// A unit's start and goal, as (x, y).
    type Order = ((u32, u32), (u32, u32));

    /// A world of `units` on a map of `rows`, every unit holding its start,
    /// and each unit's true distances to its goal.
    fn world(rows: &[&str], units: &[Order]) -> (World, Vec<Vec<u32>>) {
        let grid = Arc::new(Grid::from_rows(rows, Connectivity::Four));
        let instance = Instance {
            starts: units.iter().map(|&(s, _)| grid.cell(s.0, s.1)).collect(),
            goals: units.iter().map(|&(_, g)| grid.cell(g.0, g.1)).collect(),
            grid: grid.clone(),
            map_name: "repair".into(),
        };
        let dist = instance
            .goals
            .iter()
            .map(|&g| bfs_distances(&grid, g))
            .collect();
        (
            World::new(&instance, 18, 18, 64).expect("a valid world"),
            dist,
        )
    }

    /// A scene drawn as rows (`@` walls, `o` units parked on their goals,
    /// the letters of `marks` cells of the test's own), with `units`
    /// first: the world and distances of [`world`], and the joint plan
    /// found for unit 0 (storing up to 64,000 nodes), if any.
    fn plan_scene(
        rows: &[&str],
        marks: &[char],
        mut units: Vec<Order>,
    ) -> (World, Option<JointPlan>) {
        let open: Vec<String> = rows
            .iter()
            .map(|r| r.replace(|c: char| c == 'o' || marks.contains(&c), "."))
            .collect();
        let open: Vec<&str> = open.iter().map(String::as_str).collect();
        for (y, r) in rows.iter().enumerate() {
            for (x, ch) in r.chars().enumerate() {
                if ch == 'o' {
                    units.push(((x as u32, y as u32), (x as u32, y as u32)));
                }
            }
        }
        let (world, dist) = world(&open, &units);
        let mut distance = |u: Slot, c: Cell| dist[u.index()][c.index()];
        let mut memory = RepairMemory::default();
        let (found, _) = plan_cluster(
            &mut memory,
            &world,
            Slot(0),
            &mut distance,
            18,
            64_000,
            None,
        );
        (world, found.then(|| memory.plan.clone()))
    }

    /// Checks a joint plan the way WHCA* commits it: each path starts on
    /// its unit, the paths never meet (the validator's rules), and once the
    /// units' own plans are released every first piece is free in the table.
    fn check(world: &mut World, plan: &JointPlan, max_len: usize) {
        let grid = world.grid.clone();
        let paths = &plan.paths[..plan.units.len()];
        let len = paths[0].len();
        assert!(paths.iter().all(|p| p.len() == len), "one length");
        for (&u, path) in plan.units.iter().zip(&plan.paths) {
            assert_eq!(path[0], world.units.position[u.index()]);
        }
        let steps: Vec<Vec<(u32, u32)>> = (0..len)
            .map(|t| paths.iter().map(|p| grid.xy(p[t])).collect())
            .collect();
        let report = validate_steps(&grid, &steps, &steps[0]);
        assert!(report.is_valid(), "{}", report.summary());
        for &u in &plan.units {
            world.release_plan(u);
        }
        for (&u, path) in plan.units.iter().zip(&plan.paths) {
            assert!(world.path_is_free(u, &path[..len.min(max_len)]));
        }
    }

    #[test]
    fn a_unit_in_a_bay_lets_two_pass() {
        // One unit against two in a corridor with a single bay; the two
        // must also change places. Their cluster is planned as one.
        let rows = [
            "@@@@@@@@@@@@@",
            "@@@@@@.@@@@@@",
            "@...........@",
            "@@@@@@@@@@@@@",
        ];
        let (mut world, dist) = world(
            &rows,
            &[((5, 2), (11, 2)), ((7, 2), (2, 2)), ((8, 2), (1, 2))],
        );
        let mut distance = |u: Slot, c: Cell| dist[u.index()][c.index()];
        let mut memory = RepairMemory::default();
        let (found, expanded) = plan_cluster(
            &mut memory,
            &world,
            Slot(0),
            &mut distance,
            18,
            MAX_NODES,
            None,
        );
        assert!(found, "a joint plan");
        let plan = memory.plan;
        assert!(expanded > 0);
        assert_eq!(plan.units.len(), 3, "all three planned together");
        // The stuck unit gets home; the pair, whose goals lie outside the
        // window, end nearer theirs.
        assert_eq!(*plan.paths[0].last().unwrap(), world.units.goal[0]);
        for (&u, path) in plan.units.iter().zip(&plan.paths) {
            let d = &dist[u.index()];
            assert!(d[path.last().unwrap().index()] < d[path[0].index()]);
        }
        check(&mut world, &plan, 18);
    }

    #[test]
    fn a_knot_among_parked_units_plans_only_the_units_on_the_way() {
        // Aisles of a warehouse (`o`: units parked on their goals). Unit
        // `a` wants the cell past `b` and `c`, who stand on their goals in
        // a one-cell corridor: they must step out by the side gap and come
        // back. The window holds nine units, more than one search plans;
        // only the three on the way are planned, the rest stand still.
        let rows = [
            "@@@@@@@@@@@@@@@@@@@",
            "@...o.o.o.........@",
            "@@@@@@.@@@@@@.@@@@@",
            "@o.o..abc..o......@",
            "@@@@@@.@@@@@@o@@@@@",
            "@..o..o...o.......@",
            "@@@@@@@@@@@@@@@@@@@",
        ];
        let units = vec![((6, 3), (9, 3)), ((7, 3), (7, 3)), ((8, 3), (8, 3))];
        let (mut world, plan) = plan_scene(&rows, &['a', 'b', 'c'], units);
        let plan = plan.expect("a joint plan");
        assert_eq!(plan.units, [Slot(0), Slot(1), Slot(2)]);
        check(&mut world, &plan, 18);
    }

    #[test]
    fn two_units_on_each_others_goals_swap_with_a_neighbours_help() {
        // The east edge of random-32-32-20 as 409 units left it: `a` and
        // `b` stand each on the other's goal among units parked on their
        // goals (`o`). The window holds more units than one search plans;
        // the two on the way alone have no way, so the units next to them
        // join, and one steps out into a free cell and back.
        let rows = [
            "@@@@@@@@@@@",
            "@o.oo@@o..@",
            "@o.o@o.o.o@",
            "@.ooo..o@.@",
            "@.o.@ooo.o@",
            "@..o@oo.@o@",
            "@@....ooab@",
            "@oo.oo..oo@",
            "@@@@..oo@.@",
            "@@@..oo@@@@",
            "@...o..@@@@",
            "@o.o@oo.o.@",
            "@@@@@@@@@@@",
        ];
        let units = vec![((8, 6), (9, 6)), ((9, 6), (8, 6))];
        let (mut world, plan) = plan_scene(&rows, &['a', 'b'], units);
        let plan = plan.expect("a joint plan");
        assert_eq!(&plan.units[..2], [Slot(0), Slot(1)]);
        assert!(plan.units.len() > 2, "{:?}", plan.units);
        // Both end on their goals.
        for k in 0..2 {
            let end = *plan.paths[k].last().unwrap();
            assert_eq!(end, world.units.goal[plan.units[k].index()]);
        }
        check(&mut world, &plan, 18);
    }

    #[test]
    fn a_crowded_window_is_left_alone() {
        // Two rows of seven units on an open map: the window around one of
        // them holds more than a joint search plans at once, so no repair
        // is tried and no node expanded.
        let rows = ["..........", "..........", ".........."];
        let units: Vec<_> = (0..14)
            .map(|k| ((k % 7, k / 7), (9 - k % 7, 1 + k / 7)))
            .collect();
        let (world, dist) = world(&rows, &units);
        let mut distance = |u: Slot, c: Cell| dist[u.index()][c.index()];
        let mut memory = RepairMemory::default();
        let (found, expanded) = plan_cluster(
            &mut memory,
            &world,
            Slot(3),
            &mut distance,
            18,
            MAX_NODES,
            None,
        );
        assert!(!found);
        assert_eq!(expanded, 0);
    }
}
