//! The plain structs passed across the C interface, laid out as in
//! `include/throng.h` (`#[repr(C)]`; a test checks their sizes).

use throng::engine::{Event, EventKind, TickReport};
use throng::units::UnitState;

/// A world's settings (`throng_config_default` fills in the defaults).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThrongConfig {
    /// WHCA* window, ticks (16).
    pub window: u32,
    /// Worker threads for the searches (0: all cores).
    pub threads: u32,
    /// Wall-clock planning budget per tick, µs (0: none).
    pub budget_us: u64,
    /// Node budget per tick (0: none); deterministic for any thread count.
    pub budget_nodes: u64,
    /// Most units alive at once (memory is sized for them up front).
    pub max_units: u32,
    /// Ticks without progress after which a unit is stuck (64).
    pub stuck_after: u32,
    /// 1: eight moves a cell (diagonals, no corner cutting); 0: four.
    pub eight_connected: u8,
    /// 1: every tick's moves are checked by the validator (the default).
    pub check_moves: u8,
}

impl Default for ThrongConfig {
    fn default() -> Self {
        ThrongConfig {
            window: 16,
            threads: 0,
            budget_us: 0,
            budget_nodes: 0,
            max_units: 1024,
            stuck_after: 64,
            eight_connected: 0,
            check_moves: 1,
        }
    }
}

/// A unit to spawn: where it enters, where it goes, its kind.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThrongUnitDesc {
    /// The cell it enters on (its body's top-left cell).
    pub x: u32,
    /// Row of that cell.
    pub y: u32,
    /// Its goal's column.
    pub goal_x: u32,
    /// Its goal's row.
    pub goal_y: u32,
    /// Side of its square body, cells (1 to 8; 0 reads as 1).
    pub size: u8,
    /// Ticks a move of one cell takes (1 to 8; 0 reads as 1).
    pub pace: u8,
    /// Silver's unit priority: higher plans first, lower ones make room.
    pub priority: u8,
    /// 1: only the four straight steps, even on an eight-connected map.
    pub four_way: u8,
    /// 1: curved turns too (a vehicle's).
    pub curves: u8,
}

impl ThrongUnitDesc {
    /// A one-cell unit at one tick a move, priority 0, entering on
    /// `(x, y)` bound for `(goal_x, goal_y)` (for Rust callers of the
    /// interface: its tests and benches).
    pub fn one_cell(x: u32, y: u32, goal_x: u32, goal_y: u32) -> Self {
        ThrongUnitDesc {
            x,
            y,
            goal_x,
            goal_y,
            size: 1,
            pace: 1,
            priority: 0,
            four_way: 0,
            curves: 0,
        }
    }
}

/// A unit's state, as `throng_unit_info` reads it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThrongUnitInfo {
    /// Left column of the rectangle it covers (its body; in the middle of
    /// a slow step, the box the step sweeps).
    pub x: u32,
    /// Top row of that rectangle.
    pub y: u32,
    /// Width of that rectangle, cells.
    pub width: u32,
    /// Height of that rectangle, cells.
    pub height: u32,
    /// Its goal's column.
    pub goal_x: u32,
    /// Its goal's row.
    pub goal_y: u32,
    /// `THRONG_MOVING`, `THRONG_ARRIVED`, `THRONG_WAITING`, `THRONG_STUCK`
    /// or `THRONG_UNREACHABLE`.
    pub state: u32,
}

/// What the last step did.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ThrongTick {
    /// The tick the step produced.
    pub tick: u32,
    /// Units that changed cell.
    pub moved: u32,
    /// Searches run.
    pub searches: u64,
    /// Nodes expanded.
    pub nodes: u64,
    /// Due searches left for a later tick (the budget ran out).
    pub carried_over: u64,
    /// Wall-clock time of the whole step, µs.
    pub step_us: f64,
    /// Of which planning, µs.
    pub plan_us: f64,
}

impl From<TickReport> for ThrongTick {
    fn from(r: TickReport) -> Self {
        ThrongTick {
            tick: r.tick,
            moved: r.moved,
            searches: r.searches,
            nodes: r.nodes,
            carried_over: r.carried_over,
            step_us: r.step_us,
            plan_us: r.plan_us,
        }
    }
}

/// Something that happened to a unit (`throng_poll_events`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThrongEvent {
    /// The unit.
    pub unit: u64,
    /// The tick it happened at.
    pub tick: u32,
    /// `THRONG_EVENT_SPAWNED`, `THRONG_EVENT_ARRIVED`, ...
    pub kind: u32,
    /// The cell it entered or arrived on (`UINT32_MAX` for other kinds).
    pub x: u32,
    /// Row of that cell.
    pub y: u32,
}

impl ThrongEvent {
    /// The event `e` on a map `width` cells wide.
    pub(crate) fn new(e: &Event, width: u32) -> Self {
        let (kind, cell) = match e.kind {
            EventKind::Spawned(c) => (0, Some(c)),
            EventKind::Arrived(c) => (1, Some(c)),
            EventKind::Stuck => (2, None),
            EventKind::Unstuck => (3, None),
            EventKind::Unreachable => (4, None),
            EventKind::Reachable => (5, None),
            EventKind::Evicted => (6, None),
            EventKind::Despawned => (7, None),
        };
        let (x, y) = cell.map_or((u32::MAX, u32::MAX), |c| (c.0 % width, c.0 / width));
        ThrongEvent {
            unit: e.unit.to_bits(),
            tick: e.tick,
            kind,
            x,
            y,
        }
    }
}

/// The C constant of a unit state.
pub(crate) fn state_code(s: UnitState) -> u32 {
    s as u32
}

/// The run so far, for a debug overlay (`throng_stats`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ThrongStats {
    /// Ticks stepped.
    pub ticks: u32,
    /// Living units (spawned ones waiting to enter included).
    pub units: u32,
    /// Living units in each state, indexed by `THRONG_MOVING` ..
    /// `THRONG_UNREACHABLE`.
    pub states: [u32; 5],
    /// Ticks whose step overran the wall-clock budget.
    pub overruns: u64,
    /// Violations the validator found (0 unless Throng has a bug).
    pub collisions: u64,
    /// Mean step time, ms.
    pub tick_mean_ms: f64,
    /// 99th percentile step time, ms.
    pub tick_p99_ms: f64,
    /// Longest step, ms.
    pub tick_max_ms: f64,
}
