//! Windowed cooperative planning for units of any shape and pace, over the
//! shared reservation table: Silver's WHCA* with action footprints.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::action::{ActionSet, UnitShape};
use super::body::{body, fit_grid};
use super::search::{Ask, Asks, FootprintSearch, SearchGoal};
use super::FootprintError;
use crate::agents::AgentId;
use crate::distance::{ReverseResumableAStar, UNREACHABLE};
use crate::map::{Cell, Grid};
use crate::reservation::ReservationTable;

/// One unit to plan for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FootprintUnit {
    /// The anchor (top-left cell of its square) where it starts.
    pub start: Cell,
    /// The anchor it is bound for.
    pub goal: Cell,
    /// Its size and pace.
    pub shape: UnitShape,
}

/// One action of a plan or of what a unit did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedAction {
    /// The tick it starts.
    pub start: u32,
    /// The anchor it starts from.
    pub from: Cell,
    /// Index into the unit's [`ActionSet`].
    pub action: u16,
}

/// Windowed cooperative A* for units with footprints. Each unit searches
/// space-time for a window of `window` of its own steps (`window` times its
/// ticks per move), every action checked entry by entry against the
/// reservation table, the window closed by a terminal edge priced by its
/// true distance (Reverse Resumable A* on the grid of anchors where its body
/// fits, times its ticks per move); it replans every `window / 2` ticks, in
/// staggered order. Every plan ends in a hold of the body's cells, so a unit
/// whose search fails keeps a safe plan. A unit stalled for two replans asks
/// the units on its way to make way (see `search::Asks`).
pub struct FootprintPlanner {
    grid: Arc<Grid>,
    units: Vec<FootprintUnit>,
    actions: Vec<Arc<ActionSet>>,
    /// Per unit: the grid of anchors its body fits on.
    fits: Vec<Arc<Grid>>,
    heuristics: Vec<ReverseResumableAStar>,
    table: ReservationTable,
    window: u32,
    /// Per unit, the planned actions from the one in progress (or next) on.
    plans: Vec<Vec<PlannedAction>>,
    /// Per unit, its anchor now (the start of an action in progress).
    position: Vec<Cell>,
    /// Per unit, what it did.
    log: Vec<Vec<PlannedAction>>,
    next_replan: Vec<u32>,
    /// Way asked for, by cell.
    asks: FxHashMap<Cell, Ask>,
    /// Per unit, replans in a row that brought it no nearer its goal.
    stalled: Vec<u32>,
    arrival: Vec<Option<u32>>,
    now: u32,
    search: FootprintSearch,
    /// Searches run.
    pub searches: u64,
    /// Searches that found no plan (the unit kept its old one).
    pub failed_searches: u64,
}

impl FootprintPlanner {
    /// A planner for `units` on `grid`, each with the steps of the grid's
    /// connectivity plus the `extra` actions made for its shape (curves).
    /// Bodies must fit the map at their starts and goals, and no two may
    /// overlap there; `window` may be at most [`MAX_WINDOW`](super::MAX_WINDOW).
    pub fn new(
        grid: Arc<Grid>,
        units: Vec<FootprintUnit>,
        window: u32,
        extra: &dyn Fn(UnitShape) -> Vec<super::Action>,
    ) -> Result<Self, FootprintError> {
        if window > super::MAX_WINDOW {
            return Err(FootprintError::BadWindow { window });
        }
        let window = window.max(2);
        let mut sets: FxHashMap<UnitShape, Arc<ActionSet>> = FxHashMap::default();
        let mut fit_grids: FxHashMap<u32, Arc<Grid>> = FxHashMap::default();
        let mut actions = Vec::with_capacity(units.len());
        let mut fits = Vec::with_capacity(units.len());
        for (i, u) in units.iter().enumerate() {
            let s = u.shape;
            if s.size == 0 || s.ticks_per_move == 0 || s.size > 16 || s.ticks_per_move > 16 {
                return Err(FootprintError::BadShape { unit: i, shape: s });
            }
            let set = sets
                .entry(s)
                .or_insert_with(|| {
                    let mut set = ActionSet::grid(s, grid.connectivity());
                    for a in extra(s) {
                        set = set.with(a);
                    }
                    Arc::new(set)
                })
                .clone();
            actions.push(set);
            fits.push(
                fit_grids
                    .entry(s.size)
                    .or_insert_with(|| Arc::new(fit_grid(&grid, s.size)))
                    .clone(),
            );
        }
        // Bodies on the map, and apart, at the starts and at the goals.
        for (what, pick) in [("start", 0), ("goal", 1)] {
            let mut owner: FxHashMap<Cell, usize> = FxHashMap::default();
            for (i, u) in units.iter().enumerate() {
                let at = if pick == 0 { u.start } else { u.goal };
                if at.index() >= grid.cell_count() || !fits[i].is_passable(at) {
                    return Err(FootprintError::DoesNotFit { unit: i, what });
                }
                for c in body(&grid, at, u.shape.size) {
                    if let Some(j) = owner.insert(c, i) {
                        return Err(FootprintError::Overlap {
                            first: j,
                            second: i,
                            what,
                        });
                    }
                }
            }
        }
        let longest = actions.iter().map(|a| a.longest()).max().unwrap_or(1);
        let slowest = units
            .iter()
            .map(|u| u.shape.ticks_per_move)
            .max()
            .unwrap_or(1);
        let horizon = window * slowest + 2 * longest + 4;
        let table = ReservationTable::for_map(
            grid.cell_count() as u32,
            grid.width(),
            horizon,
            units
                .iter()
                .map(|u| (u.shape.size * u.shape.size) as usize * 4)
                .sum::<usize>()
                .max(64),
        );
        let heuristics = units
            .iter()
            .zip(&fits)
            .map(|(u, f)| ReverseResumableAStar::new(f, u.goal, u.start, true))
            .collect();
        let n = units.len();
        let mut planner = FootprintPlanner {
            position: units.iter().map(|u| u.start).collect(),
            grid,
            actions,
            fits,
            heuristics,
            table,
            window,
            plans: vec![Vec::new(); n],
            log: vec![Vec::new(); n],
            next_replan: vec![0; n],
            asks: FxHashMap::default(),
            stalled: vec![0; n],
            arrival: units
                .iter()
                .map(|u| (u.start == u.goal).then_some(0))
                .collect(),
            now: 0,
            search: FootprintSearch::default(),
            searches: 0,
            failed_searches: 0,
            units,
        };
        // Everyone holds its start until it has a plan.
        for i in 0..n {
            planner.set_holds(i, planner.units[i].start, 0);
        }
        Ok(planner)
    }

    /// The current tick.
    pub fn now(&self) -> u32 {
        self.now
    }

    /// The units.
    pub fn units(&self) -> &[FootprintUnit] {
        &self.units
    }

    /// Unit `i`'s actions.
    pub fn action_set(&self, i: usize) -> &ActionSet {
        &self.actions[i]
    }

    /// What unit `i` did, action by action (waits included).
    pub fn log(&self, i: usize) -> &[PlannedAction] {
        &self.log[i]
    }

    /// Unit `i`'s anchor now (where an action in progress started).
    pub fn position(&self, i: usize) -> Cell {
        self.position[i]
    }

    /// The tick unit `i` first stood on its goal, if it has.
    pub fn arrival(&self, i: usize) -> Option<u32> {
        self.arrival[i]
    }

    /// Whether every unit that can reach its goal stands on it.
    pub fn all_home(&self) -> bool {
        (0..self.units.len()).all(|i| {
            self.position[i] == self.units[i].goal && self.in_progress(i).is_none()
                || !self.fits[i].reachable(self.units[i].start, self.units[i].goal)
        })
    }

    /// The action unit `i` is in the middle of at the current tick, if any.
    fn in_progress(&self, i: usize) -> Option<PlannedAction> {
        let p = self.plans[i].first()?;
        let d = self.actions[i].actions[p.action as usize].duration;
        (p.start < self.now && self.now < p.start + d).then_some(*p)
    }

    /// When and where unit `i` is next free to choose an action.
    fn free_at(&self, i: usize) -> (Cell, u32) {
        match self.in_progress(i) {
            Some(p) => {
                let a = &self.actions[i].actions[p.action as usize];
                (
                    a.target(&self.grid, p.from).expect("planned on the map"),
                    p.start + a.duration,
                )
            }
            None => (self.position[i], self.now),
        }
    }

    /// One tick: the due units replan, then every unit moves on.
    pub fn step(&mut self) {
        for i in 0..self.units.len() {
            if self.next_replan[i] <= self.now {
                self.replan(i);
            }
        }
        self.advance();
    }

    /// Runs until every unit is home or `max_ticks` pass.
    pub fn run(&mut self, max_ticks: u32) {
        while self.now < max_ticks && !self.all_home() {
            self.step();
        }
    }

    fn replan(&mut self, i: usize) {
        let a = AgentId(i as u32);
        let (from, t) = self.free_at(i);
        let unit = self.units[i];
        if !self.fits[i].reachable(from, unit.goal) {
            self.next_replan[i] = u32::MAX;
            return;
        }
        self.searches += 1;
        // A unit parked where another has asked for way pays for waiting on
        // its goal and for ending its window on the asked cells (as in
        // WHCA*), so it steps aside and comes back.
        let parked = from == unit.goal;
        let asks = Asks {
            map: &self.asks,
            now: self.now,
            window: self.window,
            agent: a,
            parked,
            pace: unit.shape.ticks_per_move,
        };
        let asked = body(&self.grid, unit.goal, unit.shape.size).any(|c| asks.penalty(c) > 0);
        let found = self.search.run(
            &self.grid,
            &self.fits[i],
            &self.table,
            &self.actions[i],
            &mut self.heuristics[i],
            SearchGoal {
                agent: a,
                from,
                start: t,
                goal: unit.goal,
                // A slow unit's window spans as many of its own steps as a
                // fast one's: its space-time cells are deeper (Silver).
                window: self.window * unit.shape.ticks_per_move,
                goal_wait_cost: u32::from(asked),
                asks,
            },
        );
        let half = (self.window / 2).max(1);
        let Some(new) = found else {
            self.failed_searches += 1;
            self.next_replan[i] = self.now + 1;
            self.ask_way(i, from);
            return;
        };
        // Drop the old plan from `t` on (its hold too), take the new one.
        let keep = self.plans[i].iter().take_while(|p| p.start < t).count();
        let old_end = self.plan_end(i);
        let now = self.now;
        for p in self.plans[i].split_off(keep) {
            self.actions[i].actions[p.action as usize].for_each_entry(
                &self.grid,
                p.from,
                p.start,
                &mut |c, tick| {
                    self.table.release(c, tick, a);
                    true
                },
            );
        }
        for c in body(&self.grid, old_end, unit.shape.size) {
            self.table.release_hold(c, a);
        }
        // The action in progress (or, between actions, the one just done)
        // shares its last tick with the dropped one's first, and a release
        // frees a (cell, tick) whichever of the unit's actions claimed it:
        // claim their entries again, with the new plan's. (Without the one
        // just done, a unit leaving a cell lost that cell's claim at the
        // tick it left, and a slow unit stepped in on that very tick.)
        let last_done = self.log[i].last().copied();
        for p in last_done.iter().chain(self.plans[i].iter()).chain(&new) {
            let mut ok = true;
            self.actions[i].actions[p.action as usize].for_each_entry(
                &self.grid,
                p.from,
                p.start,
                // (The action in progress began in the past: its passed
                // ticks are gone from the table.)
                &mut |c, tick| {
                    ok &= tick < now || self.table.claim(c, tick, a, 0).is_ok();
                    true
                },
            );
            debug_assert!(ok, "the search checked every entry");
        }
        self.plans[i].extend_from_slice(&new);
        let (end, end_tick) = self.plan_end_tick(i);
        self.set_holds(i, end, end_tick);
        // No nearer after a whole window: ask whoever is parked on the way.
        let dist = |h: &mut ReverseResumableAStar, c| h.distance(&self.fits[i], c);
        let (before, after) = (
            dist(&mut self.heuristics[i], from),
            dist(&mut self.heuristics[i], end),
        );
        if end != unit.goal && after >= before {
            self.stalled[i] += 1;
            if self.stalled[i] >= 2 {
                self.ask_way(i, end);
            }
        } else {
            self.stalled[i] = 0;
        }
        // The first plans are made together; later ones are staggered, about
        // 2n/w units a tick.
        self.next_replan[i] = if self.now == 0 && self.searches <= self.units.len() as u64 {
            1 + i as u32 % half
        } else {
            self.now + half
        };
    }

    /// Asks for way on unit `i`'s shortest route from `from`, a window's
    /// worth of steps ahead, and has the units parked there replan at once.
    fn ask_way(&mut self, i: usize, from: Cell) {
        let size = self.units[i].shape.size;
        let fits = self.fits[i].clone();
        let mut at = from;
        let mut buf = [Cell(0); 8];
        for rank in 1..=self.window {
            let d = self.heuristics[i].distance(&fits, at);
            if d == 0 || d == UNREACHABLE {
                break;
            }
            // Every step that brings the unit nearer is asked for, not only
            // the one the walk goes on along: whichever is blocked, its
            // blocker makes way.
            let n = fits.neighbors(at, &mut buf);
            let mut next = None;
            for &c in &buf[..n] {
                if self.heuristics[i].distance(&fits, c) + 1 != d {
                    continue;
                }
                next.get_or_insert(c);
                let (x, y) = self.grid.xy(c);
                for (dx, dy) in (0..size).flat_map(|dy| (0..size).map(move |dx| (dx, dy))) {
                    let b = self.grid.cell(x + dx, y + dy);
                    self.ask(i, b, rank);
                }
            }
            let Some(next) = next else {
                break;
            };
            at = next;
        }
    }

    /// Unit `i` asks for way on `cell`, `rank` steps along its route; a
    /// unit holding the cell replans at once. A fresh ask of a unit that
    /// comes first stays.
    fn ask(&mut self, i: usize, cell: Cell, rank: u32) {
        let ask = Ask {
            asker: i as u32,
            tick: self.now,
            rank,
        };
        match self.asks.get(&cell) {
            Some(k) if k.asker < ask.asker && k.tick + self.window >= self.now => {}
            _ => {
                self.asks.insert(cell, ask);
            }
        }
        if let Some((b, _)) = self.table.hold(cell) {
            let b = b.index();
            if b != i {
                self.next_replan[b] = self.next_replan[b].min(self.now + 1);
            }
        }
    }

    /// The anchor unit `i`'s plan ends on.
    fn plan_end(&self, i: usize) -> Cell {
        self.plan_end_tick(i).0
    }

    fn plan_end_tick(&self, i: usize) -> (Cell, u32) {
        match self.plans[i].last() {
            Some(p) => {
                let a = &self.actions[i].actions[p.action as usize];
                (
                    a.target(&self.grid, p.from).expect("planned on the map"),
                    p.start + a.duration,
                )
            }
            None => (self.position[i], self.now),
        }
    }

    fn set_holds(&mut self, i: usize, at: Cell, from: u32) {
        for c in body(&self.grid, at, self.units[i].shape.size) {
            let held = self.table.set_hold(c, from, AgentId(i as u32));
            debug_assert!(held.is_ok(), "the search checked the hold");
        }
    }

    fn advance(&mut self) {
        let next = self.now + 1;
        for i in 0..self.units.len() {
            // Log the action that starts now; waiting on the hold logs a wait.
            let starting = self.plans[i].iter().position(|p| p.start == self.now);
            let acting = match starting {
                Some(k) => {
                    self.plans[i].drain(..k);
                    Some(self.plans[i][0])
                }
                None if self.in_progress(i).is_some() => None,
                None => {
                    let wait = PlannedAction {
                        start: self.now,
                        from: self.position[i],
                        action: 0,
                    };
                    self.log[i].push(wait);
                    None
                }
            };
            if let Some(p) = acting {
                self.log[i].push(p);
            }
            // Finish an action that ends at the next tick.
            if let Some(p) = self.plans[i].first().copied() {
                let a = &self.actions[i].actions[p.action as usize];
                if p.start <= self.now && p.start + a.duration == next {
                    self.position[i] = a.target(&self.grid, p.from).expect("on the map");
                    self.plans[i].remove(0);
                }
            }
            if self.position[i] == self.units[i].goal && self.arrival[i].is_none() {
                self.arrival[i] = Some(next);
            }
        }
        self.now = next;
        self.table.advance();
    }
}
