//! Unit shapes and the footprints of their actions.

use std::sync::OnceLock;

use crate::map::{Cell, Connectivity, Grid, MOVE_OFFSETS};
use crate::units::UnitKind;

/// One block of reservation entries of an action: the cell at (`dx`, `dy`)
/// from the unit's anchor where the action starts, for ticks `t0..=t1` after
/// it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Column offset from the anchor.
    pub dx: i32,
    /// Row offset from the anchor.
    pub dy: i32,
    /// First tick (after the action's start) the cell is reserved.
    pub t0: u32,
    /// Last tick the cell is reserved.
    pub t1: u32,
}

/// An action of a unit: where it takes the anchor, how long it takes, and
/// every reservation entry it sweeps (its *footprint*, Silver's figure 6).
/// Two units whose footprints share no entry never touch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// Column change of the anchor.
    pub dx: i32,
    /// Row change of the anchor.
    pub dy: i32,
    /// Ticks the action takes.
    pub duration: u32,
    /// The footprint.
    pub entries: Vec<Entry>,
    /// The cells the anchor passes, each one step from the one before (one
    /// for a step, none for a wait), a pace's ticks apiece.
    pub waypoints: Vec<(i32, i32)>,
}

impl Action {
    /// Waiting one tick: the body's cells, at the tick and the next.
    pub fn wait(shape: UnitKind) -> Action {
        let mut entries = Vec::new();
        square(shape.size as u32, (0, 0), 0, 1, &mut entries);
        Action {
            dx: 0,
            dy: 0,
            duration: 1,
            entries,
            waypoints: Vec::new(),
        }
    }

    /// A step of one cell (`dx`, `dy` in -1..=1, not both 0), taking the
    /// shape's `ticks_per_move`: every cell the body sweeps, for every tick
    /// of the step. Straight, that is the body's squares at both ends; on a
    /// diagonal, the whole box around them, so that two units cannot cross
    /// through one square (the cube of eight entries of Silver's figure 6A).
    pub fn step(shape: UnitKind, dx: i32, dy: i32) -> Action {
        assert!(
            dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0),
            "a step moves one cell"
        );
        let mut entries = Vec::new();
        sweep(shape, (0, 0), (dx, dy), 0, &mut entries);
        Action {
            dx,
            dy,
            duration: shape.pace.max(1) as u32,
            entries,
            waypoints: vec![(dx, dy)],
        }
    }

    /// A curved move through `waypoints` (anchor offsets from the start, each
    /// one step from the one before) in one go, a step's time per waypoint:
    /// the entries its motion intersects, segment by segment (Silver's figure
    /// 6C). A unit cannot stop or turn back half-way through, as a vehicle
    /// on a turn cannot. Its duration is never less than its steps' time,
    /// so true distances over steps stay admissible.
    pub fn curve(shape: UnitKind, waypoints: &[(i32, i32)]) -> Action {
        assert!(!waypoints.is_empty(), "a curve has waypoints");
        let s = shape.pace.max(1) as u32;
        let mut entries = Vec::new();
        let mut at = (0, 0);
        for (i, &w) in waypoints.iter().enumerate() {
            let d = (w.0 - at.0, w.1 - at.1);
            assert!(
                d.0.abs() <= 1 && d.1.abs() <= 1 && d != (0, 0),
                "curve waypoints are one step apart"
            );
            sweep(shape, at, d, i as u32 * s, &mut entries);
            at = w;
        }
        Action {
            dx: at.0,
            dy: at.1,
            duration: waypoints.len() as u32 * s,
            entries,
            waypoints: waypoints.to_vec(),
        }
    }

    /// Whether this is the wait action.
    pub fn is_wait(&self) -> bool {
        (self.dx, self.dy) == (0, 0)
    }

    /// Where the anchor ends if the action starts at `from`, if on the map.
    pub fn target(&self, grid: &Grid, from: Cell) -> Option<Cell> {
        let (x, y) = grid.xy(from);
        grid.cell_checked(x as i64 + self.dx as i64, y as i64 + self.dy as i64)
    }

    /// Calls `f(cell, tick)` for every reservation entry of the action
    /// started at `from` at tick `start`; false if some entry is off the map
    /// or on a blocked cell (then the action is illegal there).
    pub fn for_each_entry(
        &self,
        grid: &Grid,
        from: Cell,
        start: u32,
        f: &mut dyn FnMut(Cell, u32) -> bool,
    ) -> bool {
        let (x, y) = grid.xy(from);
        for e in &self.entries {
            let Some(c) = grid.cell_checked(x as i64 + e.dx as i64, y as i64 + e.dy as i64) else {
                return false;
            };
            if !grid.is_passable(c) {
                return false;
            }
            for t in e.t0..=e.t1 {
                if !f(c, start + t) {
                    return false;
                }
            }
        }
        true
    }
}

/// The cells of a `size` square with its anchor at `at`, for ticks `t0..=t1`.
fn square(size: u32, at: (i32, i32), t0: u32, t1: u32, out: &mut Vec<Entry>) {
    for dy in 0..size as i32 {
        for dx in 0..size as i32 {
            out.push(Entry {
                dx: at.0 + dx,
                dy: at.1 + dy,
                t0,
                t1,
            });
        }
    }
}

/// The box swept by a body stepping from `at` by `d`, for the step's ticks
/// starting at `t0`; cells already listed for an overlapping time are
/// merged so each cell appears once per segment.
fn sweep(shape: UnitKind, at: (i32, i32), d: (i32, i32), t0: u32, out: &mut Vec<Entry>) {
    let k = shape.size as i32;
    let s = shape.pace.max(1) as u32;
    let (x0, x1) = (at.0.min(at.0 + d.0), at.0.max(at.0 + d.0) + k - 1);
    let (y0, y1) = (at.1.min(at.1 + d.1), at.1.max(at.1 + d.1) + k - 1);
    for y in y0..=y1 {
        for x in x0..=x1 {
            if let Some(e) = out
                .iter_mut()
                .find(|e| (e.dx, e.dy) == (x, y) && e.t1 >= t0)
            {
                e.t1 = e.t1.max(t0 + s);
            } else {
                out.push(Entry {
                    dx: x,
                    dy: y,
                    t0,
                    t1: t0 + s,
                });
            }
        }
    }
}

/// The actions a unit chooses from: the wait first, then the steps of the
/// map's connectivity (straight ones only for a four-way kind), then its
/// curved turns.
/// Made with [`Self::grid`] or [`Self::for_kind`]; actions added before
/// the first search (see [`Self::masks`]).
#[derive(Clone, Debug)]
pub struct ActionSet {
    /// The kind the footprints are for.
    pub shape: UnitKind,
    /// The actions; index 0 is the wait.
    pub actions: Vec<Action>,
    masks: OnceLock<Option<ActionMasks>>,
}

impl PartialEq for ActionSet {
    fn eq(&self, other: &Self) -> bool {
        (self.shape, &self.actions) == (other.shape, &other.actions)
    }
}

impl Eq for ActionSet {}

/// The curved turns of a vehicle: a straight cell, then a diagonal one
/// bending off it (each of the four headings, to either side).
const CURVES: [[(i32, i32); 2]; 8] = [
    [(1, 0), (2, 1)],
    [(1, 0), (2, -1)],
    [(-1, 0), (-2, 1)],
    [(-1, 0), (-2, -1)],
    [(0, 1), (1, 2)],
    [(0, 1), (-1, 2)],
    [(0, -1), (1, -2)],
    [(0, -1), (-1, -2)],
];

impl ActionSet {
    /// Waits and steps for `shape` under `connectivity`.
    pub fn grid(shape: UnitKind, connectivity: Connectivity) -> Self {
        let steps = match connectivity {
            Connectivity::Eight if shape.four_way == 0 => &MOVE_OFFSETS[..],
            _ => &MOVE_OFFSETS[..4],
        };
        let mut actions = vec![Action::wait(shape)];
        actions.extend(steps.iter().map(|&(dx, dy)| Action::step(shape, dx, dy)));
        ActionSet {
            shape,
            actions,
            masks: OnceLock::new(),
        }
    }

    /// Everything a unit of `kind` may do on a map of `connectivity`: the
    /// grid's waits and steps, and its curves if it turns on curves (on an
    /// 8-connected map, where their diagonal half is a legal step).
    pub fn for_kind(kind: UnitKind, connectivity: Connectivity) -> Self {
        let mut set = Self::grid(kind, connectivity);
        if kind.curves == 1 && connectivity == Connectivity::Eight {
            for c in &CURVES {
                set.actions.push(Action::curve(kind, c));
            }
        }
        set
    }

    /// Adds an action (a curve made for this shape).
    pub fn with(mut self, action: Action) -> Self {
        self.actions.push(action);
        self.masks = OnceLock::new();
        self
    }

    /// The longest action, in ticks.
    pub fn longest(&self) -> u32 {
        self.actions.iter().map(|a| a.duration).max().unwrap_or(1)
    }

    /// The actions as masks over the square around the anchor, made at
    /// the first call (`None` if that square has more than 64 cells).
    pub fn masks(&self) -> Option<&ActionMasks> {
        self.masks.get_or_init(|| ActionMasks::new(self)).as_ref()
    }
}

/// An action set's footprints as bit masks over the square of cells
/// around the anchor that any of its actions reaches (the body and
/// `reach` cells on every side; bit `y * side + x`, from the square's
/// top-left cell): per action, per tick from its start to its end, the
/// cells it reserves. A search reads the table once per cell and tick of
/// that square around a node and tests every action against the result,
/// where reading each action's entries reads a 3×3 body's cells about six
/// times over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionMasks {
    /// Cells beyond the body, on each side, that some action reaches.
    pub reach: u32,
    /// The square's side: the body's plus twice `reach`.
    pub side: u32,
    /// Per action (in the set's order), per tick `0..=duration`, the
    /// square's cells it reserves.
    pub ticks: Vec<Vec<u64>>,
}

impl ActionMasks {
    /// The masks of `set`, if its square has at most 64 cells.
    pub fn new(set: &ActionSet) -> Option<ActionMasks> {
        let size = set.shape.size as i32;
        let reach = set
            .actions
            .iter()
            .flat_map(|a| &a.entries)
            .map(|e| (-e.dx).max(-e.dy).max(e.dx - size + 1).max(e.dy - size + 1))
            .max()
            .unwrap_or(0)
            .max(0);
        let side = size + 2 * reach;
        if side * side > 64 {
            return None;
        }
        let ticks = set
            .actions
            .iter()
            .map(|a| {
                let mut m = vec![0u64; a.duration as usize + 1];
                for e in &a.entries {
                    let bit = 1u64 << ((e.dy + reach) * side + e.dx + reach);
                    for t in e.t0..=e.t1 {
                        m[t as usize] |= bit;
                    }
                }
                m
            })
            .collect();
        Some(ActionMasks {
            reach: reach as u32,
            side: side as u32,
            ticks,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells_at(a: &Action, t: u32) -> Vec<(i32, i32)> {
        let mut v: Vec<_> = a
            .entries
            .iter()
            .filter(|e| e.t0 <= t && t <= e.t1)
            .map(|e| (e.dx, e.dy))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_diagonal_step_reserves_the_whole_square() {
        let a = Action::step(UnitKind::CELL, 1, 1);
        assert_eq!(a.entries.len(), 4);
        for t in 0..=1 {
            assert_eq!(cells_at(&a, t), vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
        }
    }

    #[test]
    fn a_large_slow_unit_sweeps_its_box_for_the_whole_step() {
        let shape = UnitKind::new(2, 3);
        let a = Action::step(shape, 1, 0);
        assert_eq!(a.duration, 3);
        for t in 0..=3 {
            assert_eq!(cells_at(&a, t).len(), 6, "a 3×2 box at tick {t}");
        }
        assert!(cells_at(&a, 4).is_empty());
    }

    #[test]
    fn a_curve_reserves_each_segment_only_while_it_is_swept() {
        let a = Action::curve(UnitKind::CELL, &[(1, 0), (2, 1)]);
        assert_eq!((a.dx, a.dy, a.duration), (2, 1, 2));
        assert_eq!(cells_at(&a, 0), vec![(0, 0), (1, 0)]);
        assert_eq!(
            cells_at(&a, 1),
            vec![(0, 0), (1, 0), (1, 1), (2, 0), (2, 1)]
        );
        assert_eq!(cells_at(&a, 2), vec![(1, 0), (1, 1), (2, 0), (2, 1)]);
    }
}
