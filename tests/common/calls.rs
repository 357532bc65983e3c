//! Call sequences on a live simulation, decoded from bytes: shared by the
//! `calls` fuzz target (`fuzz/fuzz_targets/calls.rs`) and the stable test
//! `tests/calls_fuzz.rs`, which include this file by path.
//!
//! [`decode`] turns any bytes into a [`Setup`] (a generated map of 16×16 to
//! 24×24 cells, 4- or 8-connected, some starting units, the planner and its
//! limits) and a list of [`Call`]s: spawns, despawns, goals, queued goals,
//! stops, group orders, blocks and unblocks, steps, applied commands and
//! queries, with cells off the map or on walls, inverted rectangles, and
//! unit ids that are alive, despawned or made up. [`play`] runs them and
//! checks, after every call, that the engine answered exactly as the input
//! deserves (a despawned id gives `SimError::StaleUnit`, a cell off the map
//! `OffMap`, a wall `Wall`, one unit too many `TooManyUnits`, any call on a
//! planner of fixed instances `NotLive`, and good input no error), and
//! after every step that the validator counted no violation. A broken rule
//! panics with the call that broke it.
#![allow(dead_code)]

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use throng::engine::{Budget, EventKind, SimConfig, SimError, Simulation, UnitSpec};
use throng::map::{generate_map, random_instance, Cell, Connectivity, GeneratorSpec, Rect};
use throng::planner::PlannerKind;
use throng::units::{UnitId, UnitKind};

/// Most ticks one input steps (its calls' steps and the settling ones).
pub const MAX_STEPS: u32 = 200;
/// Ticks stepped after the calls, to let the last orders play out.
pub const SETTLE_STEPS: u32 = 20;

/// Whether [`play`] plays the calls that meet the engine faults known
/// today (each listed at [`Faults::Avoid`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Faults {
    /// Every call as decoded.
    Meet,
    /// Around the known faults, so the checks look for new ones (none are
    /// known today).
    Avoid,
}

/// The world an input starts from.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Map columns and rows, 16 to 24.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Obstacle density of the generated map.
    pub density: f64,
    /// 8-connected (else 4-connected).
    pub eight: bool,
    /// One-way lanes in the map's one-cell corridors.
    pub lanes: bool,
    /// Seed of the map and the starting units.
    pub seed: u64,
    /// Units of the instance, on the map from the start.
    pub start_units: usize,
    /// The planner (WHCA* plans live; the others refuse the live calls).
    pub planner: PlannerKind,
    /// Most units alive at once.
    pub max_units: usize,
    /// Ticks without progress before a unit is stuck.
    pub stuck_after: u32,
    /// Node budget per tick (`None`: unbounded).
    pub nodes: Option<u64>,
    /// Plan every starting unit before the first tick.
    pub initialize: bool,
}

/// A cell given as column and row, on the map or not.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Xy(pub i64, pub i64);

impl fmt::Debug for Xy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.0, self.1)
    }
}

/// Which unit a call names, resolved when it is played: a living unit (by
/// index among the living, in spawn order), a despawned one, or an id made
/// up from slot and generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The `k`-th living unit (modulo their number).
    Live(usize),
    /// The `k`-th despawned unit (modulo their number).
    Dead(usize),
    /// `UnitId::from_bits` of this slot and generation.
    MadeUp {
        /// Slot.
        slot: u32,
        /// Generation.
        generation: u32,
    },
}

/// A rectangle as its four fields, in any order (an inverted one is
/// refused).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RectSpec {
    /// Left column.
    pub x0: u32,
    /// Top row.
    pub y0: u32,
    /// Right column.
    pub x1: u32,
    /// Bottom row.
    pub y1: u32,
}

impl fmt::Debug for RectSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})..=({}, {})", self.x0, self.y0, self.x1, self.y1)
    }
}

impl RectSpec {
    fn rect(self) -> Rect {
        Rect {
            x0: self.x0,
            y0: self.y0,
            x1: self.x1,
            y1: self.y1,
        }
    }
}

/// One call of the game, or a step.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    /// `spawn(UnitSpec { cell: at, goal, priority, kind })`.
    Spawn {
        /// Entry cell (the body's top-left cell).
        at: Xy,
        /// Goal.
        goal: Xy,
        /// Priority: mostly 0 to 3, sometimes 4 to 19 or 240 to 255 (the
        /// reservation table ranks anything above 15 as 15).
        priority: u8,
        /// The unit's kind: one cell half the time, else any body of side
        /// 1 to 3, pace 1 to 3, four- or eight-way, with or without curves.
        kind: UnitKind,
    },
    /// `despawn`.
    Despawn(Pick),
    /// `set_goal`.
    Goal(Pick, Xy),
    /// `push_goal`.
    PushGoal(Pick, Xy),
    /// `stop`.
    Stop(Pick),
    /// `order_group` (the list may be empty, and name a unit twice).
    Group(Vec<Pick>, Xy),
    /// `block`.
    Block(RectSpec),
    /// `unblock` of the `k`-th rectangle blocked and not yet unblocked.
    UnblockPlaced(usize),
    /// `unblock` of any rectangle (blocked or not).
    Unblock(RectSpec),
    /// `step`, this many times.
    Step(u32),
    /// `apply_commands`.
    Apply,
    /// `state`, `position`, `goal`, `planned_path` of a unit.
    Query(Pick),
    /// `summary` and `drain_events`.
    Summary,
    /// `initialize` (planning every unit at once; a no-op after tick 0).
    Initialize,
}

/// The input bytes, read front to back; zeros once they run out.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    fn below(&mut self, n: u32) -> u32 {
        u32::from(self.byte()) % n
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }
    fn done(&self) -> bool {
        self.at >= self.data.len()
    }
}

/// A column or row: mostly around the map (-2 to size + 1), sometimes a
/// far-off value.
fn coord(b: &mut Bytes, size: u32) -> i64 {
    let v = b.byte();
    if v < 240 {
        return i64::from(v) % (i64::from(size) + 4) - 2;
    }
    match v % 8 {
        0 => -1,
        1 => i64::from(size),
        2 => i64::MIN,
        3 => i64::MAX,
        4 => i64::from(u32::MAX),
        5 => i64::from(u32::MAX) + 1,
        6 => -(1 << 32),
        _ => i64::from(size) * 1000,
    }
}

fn xy(b: &mut Bytes, s: &Setup) -> Xy {
    Xy(coord(b, s.width), coord(b, s.height))
}

fn pick(b: &mut Bytes) -> Pick {
    let v = b.byte();
    match v % 8 {
        0..=5 => Pick::Live(usize::from(v / 8)),
        6 => Pick::Dead(usize::from(v / 8)),
        _ => Pick::MadeUp {
            slot: u32::from(v / 8) % 48,
            generation: b.below(4),
        },
    }
}

fn rect(b: &mut Bytes, s: &Setup) -> RectSpec {
    let x0 = b.below(s.width + 2);
    let y0 = b.below(s.height + 2);
    let v = b.byte();
    if v >= 240 {
        // Corners in the wrong order, or one far off.
        return match v % 3 {
            0 => RectSpec {
                x0: x0 + 1,
                y0,
                x1: x0,
                y1: y0,
            },
            1 => RectSpec {
                x0,
                y0: y0 + 2,
                x1: x0,
                y1: y0,
            },
            _ => RectSpec {
                x0,
                y0,
                x1: u32::MAX,
                y1: y0,
            },
        };
    }
    RectSpec {
        x0,
        y0,
        x1: x0 + u32::from(v % 6),
        y1: y0 + u32::from(v / 6 % 6),
    }
}

/// The kind numbered `k` (0 to 55): even numbers one cell, odd ones every
/// mix of side, pace, four-way moves and curves.
fn kind_of(k: u8) -> UnitKind {
    if k % 2 == 0 {
        return UnitKind::CELL;
    }
    let k = k / 2;
    let kind = UnitKind::new(1 + k % 3, 1 + k / 3 % 3);
    let kind = if k / 9 % 2 == 1 {
        kind.four_way()
    } else {
        kind
    };
    if k >= 18 {
        kind.with_curves()
    } else {
        kind
    }
}

/// Reads the setup and the calls from `data`. Any bytes decode; the calls
/// stop when the bytes run out (after at least one).
pub fn decode(data: &[u8]) -> (Setup, Vec<Call>) {
    let mut b = Bytes { data, at: 0 };
    let width = 16 + b.below(9);
    let height = 16 + b.below(9);
    let density = [0.0, 0.1, 0.2, 0.3][b.below(4) as usize];
    let flags = b.byte();
    let eight = flags & 1 == 1;
    let initialize = flags & 2 == 2;
    let lanes = flags & 64 == 64;
    let planner = match flags >> 2 & 15 {
        0 => PlannerKind::Hca,
        1 => PlannerKind::Ca,
        2 => PlannerKind::Lra,
        k => PlannerKind::Whca {
            window: [2, 3, 4, 8, 16][k as usize % 5],
        },
    };
    let seed = u64::from(b.u16());
    let start_units = b.below(13) as usize;
    let max_units = start_units + 1 + b.below(40) as usize;
    let stuck_after = 1 + b.below(40);
    let nodes = [None, Some(100), Some(1_000), Some(10_000)][b.below(4) as usize];
    let setup = Setup {
        width,
        height,
        density,
        eight,
        lanes,
        seed,
        start_units,
        planner,
        max_units,
        stuck_after,
        nodes,
        initialize,
    };
    let mut calls = Vec::new();
    while calls.is_empty() || !b.done() {
        let call = match b.below(24) {
            0..=4 => {
                let at = xy(&mut b, &setup);
                let goal = xy(&mut b, &setup);
                // One byte for both: the priority from its low bits, the
                // kind from the rest (inputs made before kinds, with small
                // bytes here, still spawn one-cell units).
                let p = b.byte();
                let (priority, kind) = match p {
                    0..=223 => (p % 4, kind_of(p / 4)),
                    224..=239 => (p - 220, UnitKind::CELL),
                    _ => (p, UnitKind::CELL),
                };
                Call::Spawn {
                    at,
                    goal,
                    priority,
                    kind,
                }
            }
            5 => Call::Despawn(pick(&mut b)),
            6 | 7 => Call::Goal(pick(&mut b), xy(&mut b, &setup)),
            8 => Call::PushGoal(pick(&mut b), xy(&mut b, &setup)),
            9 => Call::Stop(pick(&mut b)),
            10 => {
                let n = b.below(8) as usize;
                let units = (0..n).map(|_| pick(&mut b)).collect();
                Call::Group(units, xy(&mut b, &setup))
            }
            11 | 12 => Call::Block(rect(&mut b, &setup)),
            13 => Call::UnblockPlaced(usize::from(b.byte())),
            14 => Call::Unblock(rect(&mut b, &setup)),
            15..=19 => Call::Step(1 + b.below(12)),
            20 => Call::Apply,
            21 => Call::Query(pick(&mut b)),
            22 => Call::Summary,
            _ => Call::Initialize,
        };
        calls.push(call);
    }
    (setup, calls)
}

/// The simulation under test and what the calls should have made of it.
struct Model {
    sim: Simulation,
    live: Vec<UnitId>,
    dead: Vec<UnitId>,
    /// Spawned units not yet seen on the map, with their entry cells (a
    /// unit despawned before the step that applies its spawn still enters,
    /// and leaves in the same step).
    entering: HashMap<UnitId, Cell>,
    /// Every spawned unit's kind (the starting units are one cell).
    kinds: HashMap<UnitId, UnitKind>,
    placed: Vec<RectSpec>,
    /// The map's own passability (blocks come and go; walls stay).
    open: Vec<bool>,
    width: u32,
    height: u32,
    max_units: usize,
    is_live: bool,
    steps: u32,
    /// Calls recorded since the last step or `apply_commands`.
    pending: bool,
    faults: Faults,
}

impl Model {
    fn resolve(&self, p: Pick) -> Option<UnitId> {
        match p {
            Pick::Live(k) if !self.live.is_empty() => Some(self.live[k % self.live.len()]),
            Pick::Dead(k) if !self.dead.is_empty() => Some(self.dead[k % self.dead.len()]),
            Pick::Live(_) | Pick::Dead(_) => None,
            Pick::MadeUp { slot, generation } => Some(UnitId::from_bits(
                (u64::from(generation) << 32) | u64::from(slot),
            )),
        }
    }

    fn alive(&self, id: UnitId) -> bool {
        self.live.contains(&id)
    }

    /// The cell at `p` (checking `Simulation::cell`), or one past the end
    /// of the map's cells when `p` is off the map.
    fn cell(&self, p: Xy) -> (Cell, bool) {
        let on =
            p.0 >= 0 && p.1 >= 0 && p.0 < i64::from(self.width) && p.1 < i64::from(self.height);
        let got = self.sim.cell(p.0, p.1);
        if on {
            let c = got.expect("a cell on the map");
            assert_eq!(c, Cell((p.1 * i64::from(self.width) + p.0) as u32));
            (c, true)
        } else {
            assert!(
                matches!(got, Err(SimError::OffMap { what: "cell", x, y, .. }) if x == p.0 && y == p.1),
                "{p:?}: {got:?}"
            );
            let past = self.width * self.height + (p.0.unsigned_abs() % 1000) as u32;
            (Cell(past), false)
        }
    }

    /// The error a body's cell input deserves (see `Simulation::spawn`):
    /// its top-left cell's, then off the map if the body reaches past its
    /// edge, then the first wall under the body, row by row.
    fn body_error(&self, what: &'static str, p: Xy, size: u8) -> Option<Expected> {
        if let Some(e) = self.cell_error(what, p) {
            return Some(e);
        }
        let (x, y, size) = (p.0 as u32, p.1 as u32, u32::from(size));
        if x + size > self.width || y + size > self.height {
            return Some(Expected::OffMap(what));
        }
        (0..size)
            .flat_map(|dy| (0..size).map(move |dx| (x + dx, y + dy)))
            .find(|&(x, y)| !self.open[(y * self.width + x) as usize])
            .map(|(x, y)| Expected::Wall(what, x, y))
    }

    /// The error a cell input deserves, if any.
    fn cell_error(&self, what: &'static str, p: Xy) -> Option<Expected> {
        let (c, on) = self.cell(p);
        if !on {
            Some(Expected::OffMap(what))
        } else if !self.open[c.index()] {
            Some(Expected::Wall(what, p.0 as u32, p.1 as u32))
        } else {
            None
        }
    }

    fn unit_error(&self, id: UnitId) -> Option<Expected> {
        (!self.alive(id)).then_some(Expected::Stale(id))
    }

    fn rect_error(&self, r: RectSpec) -> Option<Expected> {
        let ok = r.x0 <= r.x1 && r.y0 <= r.y1 && r.x1 < self.width && r.y1 < self.height;
        (!ok).then_some(Expected::OffMap("rectangle corner"))
    }
}

/// The error an input deserves.
#[derive(Debug)]
enum Expected {
    OffMap(&'static str),
    Wall(&'static str, u32, u32),
    Stale(UnitId),
    TooMany(usize),
    NotLive,
    EmptyGroup,
}

impl Expected {
    fn matches(&self, e: &SimError) -> bool {
        match (self, e) {
            (Expected::OffMap(w), SimError::OffMap { what, .. }) => w == what,
            (Expected::Wall(w, x0, y0), SimError::Wall { what, x, y }) => {
                w == what && x0 == x && y0 == y
            }
            (Expected::Stale(a), SimError::StaleUnit(b)) => a == b,
            (Expected::TooMany(a), SimError::TooManyUnits { max }) => a == max,
            (Expected::NotLive, SimError::NotLive { .. }) => true,
            (Expected::EmptyGroup, SimError::EmptyGroup) => true,
            _ => false,
        }
    }
}

/// Checks a call's result against the error its input deserves.
fn check<T: fmt::Debug>(k: usize, call: &Call, got: &Result<T, SimError>, want: Option<Expected>) {
    match (got, want) {
        (Ok(_), None) => {}
        (Err(e), Some(w)) if w.matches(e) => assert!(!e.to_string().is_empty()),
        (got, want) => panic!("call {k} {call:?}: got {got:?}, expected {want:?}"),
    }
}

/// Builds the setup's simulation, plays the calls, then settles for a few
/// ticks; panics on the first broken rule (see the module docs).
pub fn play(setup: &Setup, calls: &[Call], faults: Faults) {
    let conn = if setup.eight {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    let spec = GeneratorSpec {
        width: setup.width,
        height: setup.height,
        density: setup.density,
    };
    let grid = Arc::new(generate_map(spec, conn, setup.seed).with_lanes(setup.lanes));
    let open: Vec<bool> = grid.passability().to_vec();
    let start_units = setup.start_units.min(open.iter().filter(|&&o| o).count());
    let inst = random_instance(grid, start_units, setup.seed).expect("enough open cells");
    let config = SimConfig {
        planner: setup.planner,
        max_ticks: MAX_STEPS + 10,
        seed: setup.seed,
        threads: 1,
        budget: Budget {
            wall_us: None,
            nodes: setup.nodes,
        },
        max_units: setup.max_units,
        stuck_after: setup.stuck_after,
        ..SimConfig::default()
    };
    let sim = Simulation::new(&inst, config).expect("a valid instance and settings");
    let live: Vec<UnitId> = sim.units().collect();
    assert_eq!(live.len(), start_units);
    let mut m = Model {
        is_live: matches!(setup.planner, PlannerKind::Whca { .. }),
        sim,
        live,
        dead: Vec::new(),
        entering: HashMap::new(),
        kinds: HashMap::new(),
        placed: Vec::new(),
        open,
        width: setup.width,
        height: setup.height,
        max_units: setup.max_units.max(start_units),
        steps: 0,
        pending: false,
        faults,
    };
    if setup.initialize {
        m.sim.initialize();
    }
    for (k, call) in calls.iter().enumerate() {
        if m.steps >= MAX_STEPS {
            break;
        }
        play_call(&mut m, k, call);
        check_units(&m, k, call);
    }
    let settle = Call::Step(SETTLE_STEPS.min(MAX_STEPS - m.steps));
    play_call(&mut m, calls.len(), &settle);
    check_units(&m, calls.len(), &settle);
    let summary = m.sim.summary();
    assert_eq!(summary.collisions, 0);
    if !m.pending {
        assert_eq!(summary.units, m.live.len(), "{summary:?}");
    }
}

fn not_live(m: &Model) -> Option<Expected> {
    (!m.is_live).then_some(Expected::NotLive)
}

fn play_call(m: &mut Model, k: usize, call: &Call) {
    match call {
        Call::Spawn {
            at,
            goal,
            priority,
            kind,
        } => {
            let (a, _) = m.cell(*at);
            let (g, _) = m.cell(*goal);
            let want = not_live(m)
                .or_else(|| m.body_error("spawn cell", *at, kind.size))
                .or_else(|| m.body_error("goal", *goal, kind.size))
                .or_else(|| {
                    (m.live.len() >= m.max_units).then_some(Expected::TooMany(m.max_units))
                });
            let spec = UnitSpec::new(a, g)
                .with_priority(*priority)
                .with_kind(*kind);
            let r = m.sim.spawn(spec);
            check(k, call, &r, want);
            m.pending |= r.is_ok();
            if let Ok(id) = r {
                assert!(
                    !m.live.contains(&id) && !m.dead.contains(&id),
                    "call {k}: id {id} reused"
                );
                assert!(m.sim.contains(id));
                m.live.push(id);
                m.entering.insert(id, a);
                m.kinds.insert(id, *kind);
            }
        }
        Call::Despawn(p) => {
            let Some(id) = m.resolve(*p) else { return };
            let want = not_live(m).or_else(|| m.unit_error(id));
            let r = m.sim.despawn(id);
            check(k, call, &r, want);
            m.pending |= r.is_ok();
            if r.is_ok() {
                m.live.retain(|&u| u != id);
                m.dead.push(id);
                assert!(!m.sim.contains(id));
            }
        }
        Call::Goal(p, at) | Call::PushGoal(p, at) => {
            let Some(id) = m.resolve(*p) else { return };
            let (c, _) = m.cell(*at);
            let want = not_live(m)
                .or_else(|| m.unit_error(id))
                .or_else(|| m.cell_error("goal", *at));
            let r = match call {
                Call::Goal(..) => m.sim.set_goal(id, c),
                _ => m.sim.push_goal(id, c),
            };
            check(k, call, &r, want);
            m.pending |= r.is_ok();
        }
        Call::Stop(p) => {
            let Some(id) = m.resolve(*p) else { return };
            let want = not_live(m).or_else(|| m.unit_error(id));
            let r = m.sim.stop(id);
            check(k, call, &r, want);
            m.pending |= r.is_ok();
        }
        Call::Group(picks, at) => {
            let units: Vec<UnitId> = picks.iter().filter_map(|&p| m.resolve(p)).collect();
            let (c, _) = m.cell(*at);
            let want = not_live(m)
                .or_else(|| units.is_empty().then_some(Expected::EmptyGroup))
                .or_else(|| m.cell_error("group target", *at))
                .or_else(|| units.iter().find_map(|&id| m.unit_error(id)));
            let r = m.sim.order_group(&units, c);
            check(k, call, &r, want);
            m.pending |= r.is_ok();
        }
        Call::Block(r) => {
            let want = not_live(m).or_else(|| m.rect_error(*r));
            let res = m.sim.block(r.rect());
            check(k, call, &res, want);
            m.pending |= res.is_ok();
            if res.is_ok() {
                m.placed.push(*r);
            }
        }
        Call::UnblockPlaced(i) => {
            if m.placed.is_empty() {
                return;
            }
            let r = m.placed.swap_remove(i % m.placed.len());
            let res = m.sim.unblock(r.rect());
            check(k, call, &res, None);
            m.pending = true;
        }
        Call::Unblock(r) => {
            let want = not_live(m).or_else(|| m.rect_error(*r));
            let res = m.sim.unblock(r.rect());
            check(k, call, &res, want);
            m.pending |= res.is_ok();
        }
        Call::Step(n) => {
            for _ in 0..*n {
                if m.steps >= MAX_STEPS {
                    break;
                }
                let before = m.sim.ticks();
                m.sim.step();
                m.steps += 1;
                m.pending = false;
                let now = m.sim.ticks();
                assert_eq!(now, before + 1, "call {k} {call:?}");
                let (count, first) = m.sim.violations();
                assert!(
                    count == 0,
                    "call {k} {call:?}, tick {now}: {count} violations, first {first:?}"
                );
                check_events(m, k, call, now);
            }
        }
        Call::Apply => {
            m.sim.apply_commands();
            m.pending = false;
            let (count, first) = m.sim.violations();
            assert!(
                count == 0,
                "call {k} {call:?}, tick {}: {count} violations, first {first:?}",
                m.sim.ticks()
            );
            let now = m.sim.ticks();
            check_events(m, k, call, now);
        }
        Call::Query(p) => {
            let Some(id) = m.resolve(*p) else { return };
            let stale = !m.alive(id);
            let want = || stale.then_some(Expected::Stale(id));
            let state = m.sim.state(id);
            check(k, call, &state, want());
            let pos = m.sim.position(id);
            check(k, call, &pos, want());
            let goal = m.sim.goal(id);
            check(k, call, &goal, want());
            // Kind and rectangle answer for a unit still waiting to enter.
            let kind = m.sim.kind(id);
            check(k, call, &kind, want());
            if let Ok(kind) = kind {
                let made = m.kinds.get(&id).copied().unwrap_or(UnitKind::CELL);
                assert_eq!(kind, made, "call {k} {call:?}");
            }
            let rect = m.sim.rect(id);
            check(k, call, &rect, want());
            if let (Ok(r), Ok(kind)) = (rect, kind) {
                let side = kind.size as u32;
                assert!(
                    r.x1 < m.width && r.y1 < m.height,
                    "call {k} {call:?}: {r:?}"
                );
                assert!(
                    r.x1 + 1 - r.x0 >= side && r.y1 + 1 - r.y0 >= side,
                    "call {k} {call:?}: {r:?} for a body of side {side}"
                );
            }
            let cells = m.width as usize * m.height as usize;
            if let (Ok(p), Ok(g)) = (&pos, &goal) {
                assert!(p.index() < cells && g.index() < cells, "call {k} {call:?}");
                assert!(m.open[p.index()] && m.open[g.index()], "call {k} {call:?}");
            }
            let mut path = Vec::new();
            let r = m.sim.planned_path(id, &mut path);
            check(k, call, &r, want());
            if r.is_ok() {
                assert_eq!(
                    path.first().copied(),
                    pos.ok(),
                    "call {k} {call:?}: {path:?}"
                );
                assert!(
                    path.iter().all(|c| c.index() < cells),
                    "call {k} {call:?}: {path:?}"
                );
            }
        }
        Call::Summary => {
            let s = m.sim.summary();
            assert_eq!(s.collisions, 0, "call {k} {call:?}");
            assert_eq!(s.ticks, m.sim.ticks());
            let _ = m.sim.drain_events().count();
        }
        Call::Initialize => m.sim.initialize(),
    }
}

/// The events of the step (or applied commands) that produced tick `now`:
/// stamped with it, naming units the calls made, a spawned unit entering on
/// its own cell and standing there at that tick.
fn check_events(m: &mut Model, k: usize, call: &Call, now: u32) {
    let events: Vec<_> = m.sim.drain_events().collect();
    for e in &events {
        assert_eq!(e.tick, now, "call {k} {call:?}: {e:?}");
        assert!(
            m.live.contains(&e.unit) || m.dead.contains(&e.unit),
            "call {k} {call:?}: {e:?} names a unit no call made"
        );
        if let EventKind::Spawned(c) = e.kind {
            let want = m.entering.remove(&e.unit);
            assert_eq!(want, Some(c), "call {k} {call:?}: {e:?}");
            if m.alive(e.unit) {
                let at = m.sim.position(e.unit);
                assert_eq!(
                    at,
                    Ok(c),
                    "call {k} {call:?}: {e:?} but the unit stands elsewhere"
                );
            }
        }
    }
}

/// After every call: each living unit answers, each despawned one is stale.
fn check_units(m: &Model, k: usize, call: &Call) {
    assert_eq!(m.sim.unit_count(), m.live.len(), "call {k} {call:?}");
    for &id in &m.live {
        assert!(m.sim.contains(id), "call {k} {call:?}: {id} lost");
        assert!(m.sim.state(id).is_ok() && m.sim.position(id).is_ok());
    }
    for &id in &m.dead {
        assert_eq!(
            m.sim.state(id),
            Err(SimError::StaleUnit(id)),
            "call {k} {call:?}"
        );
    }
}

/// Decodes and plays `data`.
pub fn run(data: &[u8], faults: Faults) {
    let (setup, calls) = decode(data);
    play(&setup, &calls, faults);
}
