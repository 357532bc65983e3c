//! The unit columns and each unit's reserved plan.

use bytemuck::{Pod, Zeroable};

use super::kind::UnitKind;
use crate::map::Cell;

/// A unit's index into every unit column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Pod, Zeroable)]
#[repr(transparent)]
pub struct Slot(pub u32);

impl Slot {
    /// The index into the columns.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Bit flags of a unit's state, one byte per unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
#[repr(transparent)]
pub struct UnitFlags(pub u8);

impl UnitFlags {
    /// The goal lies in another connected region: the unit can never arrive.
    pub const UNREACHABLE: u8 = 1;
    /// The unit has been on its goal at least once.
    pub const ARRIVED: u8 = 2;
    /// The last search failed; the unit holds its cell until it finds a path.
    pub const STUCK: u8 = 4;
    /// The unit waits in the planner's replanning queue.
    pub const QUEUED: u8 = 8;
    /// The slot holds no unit (despawned; free for a later spawn).
    pub const DEAD: u8 = 16;
    /// Spawned but not on the map yet: its cell was taken.
    pub const UNPLACED: u8 = 32;
    /// Inside a block placed on it: leaving by an escape plan of the
    /// engine's, not planned by the planner meanwhile.
    pub const EVICTING: u8 = 64;
    /// Placed on the map during the step under way: it holds its cell
    /// until the next step, so it appears on its spawn cell.
    pub const ENTERING: u8 = 128;
    /// Not planned by the planner: dead, unplaced, evicting or entering.
    pub const INACTIVE: u8 = Self::DEAD | Self::UNPLACED | Self::EVICTING | Self::ENTERING;

    /// Whether all bits of `bit` are set.
    #[inline]
    pub fn has(self, bit: u8) -> bool {
        self.0 & bit == bit
    }

    /// Whether any bit of `bits` is set.
    #[inline]
    pub fn any(self, bits: u8) -> bool {
        self.0 & bits != 0
    }
}

/// What a unit is doing, as the game sees it (one byte per unit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum UnitState {
    /// On its way to its goal (or planned and about to move).
    #[default]
    Moving = 0,
    /// On its goal with no further goal queued.
    Arrived = 1,
    /// Spawned on a cell another unit holds: it enters the map once the
    /// cell is free.
    Waiting = 2,
    /// No progress towards its goal for the configured number of ticks.
    Stuck = 3,
    /// Its goal cannot be reached in the current map (a wall or a block
    /// separates them, or a block covers the goal).
    Unreachable = 4,
}

/// All units, as columns. `plans` holds each unit's reserved path: unit `a`'s
/// plan occupies `plans[a * plan_capacity ..][.. plan_len[a]]`, its first
/// entry being the unit's cell at tick `plan_start[a]`. Past the end of its
/// plan a unit holds its last cell.
#[derive(Clone, Debug, Default)]
pub struct Units {
    /// Cell each unit stands on now.
    pub position: Vec<Cell>,
    /// Where each unit started.
    pub start: Vec<Cell>,
    /// Where each unit is going.
    pub goal: Vec<Cell>,
    /// Higher plans first within a tick (Silver's unit priorities).
    pub priority: Vec<u8>,
    /// State bits, see [`UnitFlags`].
    pub flags: Vec<UnitFlags>,
    /// Tick of the first entry of each plan.
    pub plan_start: Vec<u32>,
    /// Number of cells in each plan.
    pub plan_len: Vec<u32>,
    /// Tick at which each unit next replans.
    pub next_replan: Vec<u32>,
    /// Tick each unit first stood on its goal (`u32::MAX`: not yet).
    pub first_arrival: Vec<u32>,
    /// Times each unit has had to reroute (LRA*'s agitation).
    pub agitation: Vec<u32>,
    /// Flat plan storage, `plan_capacity` cells per unit.
    pub plans: Vec<Cell>,
    /// Cells reserved per unit plan at most.
    pub plan_capacity: usize,
    /// What each unit is doing (see [`UnitState`]).
    pub state: Vec<UnitState>,
    /// Goals each unit takes after its current one, in order.
    pub goal_queue: Vec<std::collections::VecDeque<Cell>>,
    /// The least distance to its goal each unit has had (the planner's
    /// measure), and the tick it got there: no better for long means stuck.
    pub best_distance: Vec<u32>,
    /// See [`Units::best_distance`].
    pub progress_tick: Vec<u32>,
    /// Tick each unit last stepped onto its goal and has stayed since
    /// (`u32::MAX`: not on it), for the sum of costs.
    pub settled_at: Vec<u32>,
    /// Each unit's body, pace and moves.
    pub kind: Vec<UnitKind>,
    /// Beside `plans`, for units of a kind other than [`UnitKind::CELL`]:
    /// per tick of the plan, the motion from that tick to the next (see
    /// the footprint layer's `Motion`). One-cell units leave theirs unused:
    /// their moves are their cells'.
    pub motions: Vec<u8>,
}

impl Units {
    /// Columns for units at `starts` going to `goals`, each with room for a plan
    /// of `plan_capacity` cells.
    pub fn new(starts: &[Cell], goals: &[Cell], plan_capacity: usize) -> Self {
        let n = starts.len();
        let mut plans = vec![Cell(0); n * plan_capacity];
        for (i, &s) in starts.iter().enumerate() {
            plans[i * plan_capacity] = s;
        }
        Units {
            position: starts.to_vec(),
            start: starts.to_vec(),
            goal: goals.to_vec(),
            priority: vec![0; n],
            flags: vec![UnitFlags(0); n],
            plan_start: vec![0; n],
            plan_len: vec![1; n],
            next_replan: vec![0; n],
            first_arrival: vec![u32::MAX; n],
            agitation: vec![0; n],
            plans,
            plan_capacity,
            state: vec![UnitState::Moving; n],
            goal_queue: vec![std::collections::VecDeque::new(); n],
            best_distance: vec![u32::MAX; n],
            progress_tick: vec![0; n],
            settled_at: (0..n)
                .map(|i| if starts[i] == goals[i] { 0 } else { u32::MAX })
                .collect(),
            kind: vec![UnitKind::CELL; n],
            motions: vec![0; n * plan_capacity],
        }
    }

    /// Reserves room for `extra` more units in every column, so spawning
    /// them later allocates nothing.
    pub fn reserve(&mut self, extra: usize) {
        self.position.reserve(extra);
        self.start.reserve(extra);
        self.goal.reserve(extra);
        self.priority.reserve(extra);
        self.flags.reserve(extra);
        self.plan_start.reserve(extra);
        self.plan_len.reserve(extra);
        self.next_replan.reserve(extra);
        self.first_arrival.reserve(extra);
        self.agitation.reserve(extra);
        self.plans.reserve(extra * self.plan_capacity);
        self.state.reserve(extra);
        self.goal_queue.reserve(extra);
        self.best_distance.reserve(extra);
        self.progress_tick.reserve(extra);
        self.settled_at.reserve(extra);
        self.kind.reserve(extra);
        self.motions.reserve(extra * self.plan_capacity);
    }

    /// Adds a slot for a unit at `cell` going to `goal`, not on the map yet
    /// ([`UnitFlags::UNPLACED`]); returns its id. Columns grow by one.
    pub fn push_slot(&mut self, cell: Cell, goal: Cell, priority: u8, kind: UnitKind) -> Slot {
        let a = Slot(self.len() as u32);
        self.position.push(cell);
        self.start.push(cell);
        self.goal.push(goal);
        self.priority.push(priority);
        self.flags.push(UnitFlags(UnitFlags::UNPLACED));
        self.plan_start.push(0);
        self.plan_len.push(1);
        self.next_replan.push(u32::MAX);
        self.first_arrival.push(u32::MAX);
        self.agitation.push(0);
        self.plans
            .extend(std::iter::repeat_n(cell, self.plan_capacity));
        self.state.push(UnitState::Waiting);
        self.goal_queue.push(std::collections::VecDeque::new());
        self.best_distance.push(u32::MAX);
        self.progress_tick.push(0);
        self.settled_at.push(u32::MAX);
        self.kind.push(kind);
        self.motions
            .extend(std::iter::repeat_n(0, self.plan_capacity));
        a
    }

    /// Makes the dead slot `a` a new unit at `cell` going to `goal`, not on
    /// the map yet, keeping the slot's memory.
    pub fn reuse_slot(&mut self, a: Slot, cell: Cell, goal: Cell, priority: u8, kind: UnitKind) {
        let i = a.index();
        debug_assert!(self.flags[i].has(UnitFlags::DEAD));
        self.position[i] = cell;
        self.start[i] = cell;
        self.goal[i] = goal;
        self.priority[i] = priority;
        self.flags[i] = UnitFlags(UnitFlags::UNPLACED);
        self.plan_start[i] = 0;
        self.plan_len[i] = 1;
        self.plans[i * self.plan_capacity] = cell;
        self.next_replan[i] = u32::MAX;
        self.first_arrival[i] = u32::MAX;
        self.agitation[i] = 0;
        self.state[i] = UnitState::Waiting;
        self.goal_queue[i].clear();
        self.best_distance[i] = u32::MAX;
        self.progress_tick[i] = 0;
        self.settled_at[i] = u32::MAX;
        self.kind[i] = kind;
        self.motions[i * self.plan_capacity] = 0;
    }

    /// Whether slot `a` holds a unit on the map (alive and placed).
    #[inline]
    pub fn on_map(&self, a: Slot) -> bool {
        !self.flags[a.index()].any(UnitFlags::DEAD | UnitFlags::UNPLACED)
    }

    /// Number of units.
    #[inline]
    pub fn len(&self) -> usize {
        self.position.len()
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.position.is_empty()
    }

    /// All ids, in order.
    pub fn ids(&self) -> impl Iterator<Item = Slot> {
        (0..self.len() as u32).map(Slot)
    }

    /// Unit `a`'s reserved plan.
    #[inline]
    pub fn plan(&self, a: Slot) -> &[Cell] {
        let base = a.index() * self.plan_capacity;
        &self.plans[base..base + self.plan_len[a.index()] as usize]
    }

    /// Where unit `a`'s plan puts it at `tick` (its last cell past the end).
    #[inline]
    pub fn planned_cell(&self, a: Slot, tick: u32) -> Cell {
        self.plan(a)[self.plan_index(a, tick)]
    }

    /// The index of `tick` in unit `a`'s plan (its last entry from the
    /// plan's end on, its first before its start).
    #[inline]
    pub fn plan_index(&self, a: Slot, tick: u32) -> usize {
        let i = tick.saturating_sub(self.plan_start[a.index()]) as usize;
        i.min(self.plan_len[a.index()] as usize - 1)
    }

    /// Last tick covered by unit `a`'s plan (it holds its last cell after).
    #[inline]
    pub fn plan_end(&self, a: Slot) -> u32 {
        self.plan_start[a.index()] + self.plan_len[a.index()] - 1
    }

    /// Replaces unit `a`'s plan.
    ///
    /// # Panics
    /// If the path is empty or longer than the plan capacity.
    pub fn set_plan(&mut self, a: Slot, start_tick: u32, path: &[Cell]) {
        assert!(
            !path.is_empty() && path.len() <= self.plan_capacity,
            "plan does not fit"
        );
        let base = a.index() * self.plan_capacity;
        self.plans[base..base + path.len()].copy_from_slice(path);
        self.plan_start[a.index()] = start_tick;
        self.plan_len[a.index()] = path.len() as u32;
    }

    /// Replaces the plan of unit `a`, of a kind with footprints: its
    /// anchor per tick and the motion from each tick to the next.
    ///
    /// # Panics
    /// If the path is empty, longer than the plan capacity, or not as
    /// long as `motions`.
    pub fn set_footprint_plan(&mut self, a: Slot, start_tick: u32, path: &[Cell], motions: &[u8]) {
        assert_eq!(path.len(), motions.len(), "a motion per tick");
        self.set_plan(a, start_tick, path);
        let base = a.index() * self.plan_capacity;
        self.motions[base..base + motions.len()].copy_from_slice(motions);
    }

    /// Unit `a`'s plan motions (see [`Self::set_footprint_plan`]).
    #[inline]
    pub fn plan_motions(&self, a: Slot) -> &[u8] {
        let base = a.index() * self.plan_capacity;
        &self.motions[base..base + self.plan_len[a.index()] as usize]
    }

    /// Whether unit `a` stands on its goal.
    #[inline]
    pub fn at_goal(&self, a: Slot) -> bool {
        self.position[a.index()] == self.goal[a.index()]
    }

    /// Sets or clears a flag bit of unit `a`.
    #[inline]
    pub fn set_flag(&mut self, a: Slot, bit: u8, on: bool) {
        let f = &mut self.flags[a.index()].0;
        if on {
            *f |= bit;
        } else {
            *f &= !bit;
        }
    }

    /// The position column as raw bytes, e.g. for a renderer's vertex buffer.
    pub fn position_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.position)
    }
}
