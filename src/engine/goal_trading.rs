//! Goal trading inside a group order: units sent to an area together fill
//! it, whichever goal each was handed (see `trade_group_goals`).

use super::live::Clock;
use super::Simulation;
use crate::map::Cell;
use crate::units::{Slot, UnitFlags, UnitId};

/// Ticks a unit handed a deeper goal by a groupmate keeps it before the
/// first trading rule may take it back (see
/// [`Simulation::trade_group_goals`]). One group order of 500 units across
/// den520d, seeds 1–10: all home in nine runs by tick 2,202 and 493 in
/// one; 488–500 home by tick 5,000 without it (measured with trades by
/// straight-line distances, before they went by the planner's).
const KEEP_HANDED_GOAL: u32 = 128;

impl Simulation {
    /// Records the group order unit `id`'s goal came from (0: none).
    pub(super) fn set_group(&mut self, id: UnitId, group: u32) {
        let s = id.slot() as usize;
        if self.group_of.len() <= s {
            if group == 0 {
                return;
            }
            self.group_of.resize(s + 1, 0);
            self.keeps_goal_until.resize(s + 1, 0);
        }
        self.keeps_goal_until[s] = 0;
        let was = std::mem::replace(&mut self.group_of[s], group);
        self.grouped = self.grouped + usize::from(group != 0) - usize::from(was != 0);
        if (was != 0) != (group != 0) {
            self.planner.group_changed(Slot(s as u32), group != 0);
        }
    }

    /// Units of one group order trade goals, in the manner of TSWAP (K.
    /// Okumura and X. Défago, *Solving Simultaneous Target Assignment and
    /// Path Planning Efficiently with Time-Independent Execution*, ICAPS
    /// 2022): a group sent to an area asks for the area filled, not each
    /// unit on a given cell. Before each tick's planning, for every
    /// one-cell unit of a group off its goal, in slot order:
    /// - a unit of its group waiting on its goal, off its own goal, takes
    ///   that goal and hands over its own (one passing over it is left to
    ///   pass: taken, the goal went back and forth between two units);
    /// - else, if it waits this tick and a unit of its group stands home on
    ///   a neighbouring cell nearer its goal (by the planner's distances,
    ///   round walls), the two trade: it goes to the neighbour's cell, and
    ///   the neighbour on towards the deeper goal.
    ///
    /// A unit handed a deeper goal by the second rule keeps it for
    /// [`KEEP_HANDED_GOAL`] ticks: the first rule took it straight back
    /// (the unit handed it waited, blocked, on the other's goal), and the
    /// goal went back and forth for good. A trade keeps both units' clocks
    /// of progress (see [`Self::trade_goals`]).
    ///
    /// Goals move only towards where units are going, so the trading ends.
    /// Without it, units coming late into a block of goals that filled in
    /// the wrong order never reached theirs (300 units through an 8-cell
    /// gap: 13 off their goals at tick 3,000).
    pub(super) fn trade_group_goals(&mut self) {
        if self.grouped == 0 {
            return;
        }
        let now = self.world.now();
        for s in 0..self.group_of.len() {
            let group = self.group_of[s];
            let a = Slot(s as u32);
            let ag = &self.world.units;
            if group == 0
                || !ag.on_map(a)
                || !ag.kind[s].is_cell()
                || ag.at_goal(a)
                || !ag.goal_queue[s].is_empty()
                || ag.flags[s].has(UnitFlags::UNREACHABLE)
            {
                continue;
            }
            let (pos, goal) = (ag.position[s], ag.goal[s]);
            let grid = &self.world.grid;
            let mate = |b: Slot| {
                let j = b.index();
                b != a
                    && self.group_of.get(j) == Some(&group)
                    && ag.kind[j].is_cell()
                    && ag.on_map(b)
                    && ag.goal_queue[j].is_empty()
            };
            // Someone of the group waiting on its goal, not home itself
            // (one passing over it is left to pass).
            let keeps = &self.keeps_goal_until;
            let on_goal = self.world.table.occupant(goal, now).filter(|&b| {
                mate(b)
                    && keeps[b.index()] <= now
                    && ag.position[b.index()] == goal
                    && !ag.at_goal(b)
                    && ag.planned_cell(b, now + 1) == goal
            });
            let partner = on_goal.or_else(|| {
                if ag.planned_cell(a, now + 1) != pos {
                    return None;
                }
                // Nearer by the way round walls: by straight lines, a
                // goal beside a wall went to a unit on its far side.
                let (planner, world) = (&mut self.planner, &self.world);
                let mut dist = |c: Cell| {
                    planner
                        .distance(world, a, c)
                        .unwrap_or_else(|| grid.grid_distance(c, goal))
                };
                let here = dist(pos);
                let mut next = [Cell(0); 8];
                let k = grid.neighbors(pos, &mut next);
                next[..k]
                    .iter()
                    .filter(|&&c| dist(c) < here)
                    .filter_map(|&c| self.world.table.occupant(c, now))
                    .find(|&b| mate(b) && ag.position[b.index()] == ag.goal[b.index()])
            });
            let Some(b) = partner else {
                continue;
            };
            if on_goal.is_none() {
                self.keeps_goal_until[b.index()] = now + KEEP_HANDED_GOAL;
            }
            self.trade_goals(a, b);
        }
    }

    /// Units `a` and `b` of one group swap goals, each keeping its clock
    /// of progress ([`Clock::Keep`]): a trade is no order, and restarting
    /// the clocks at every trade hid units that traded a goal back and
    /// forth in a packed block for good (never stuck, so never shoving; see
    /// the planner's shoves).
    fn trade_goals(&mut self, a: Slot, b: Slot) {
        let units = &self.world.units;
        let (goal_a, goal_b) = (units.goal[a.index()], units.goal[b.index()]);
        self.change_goal(a, goal_b, false, Clock::Keep);
        self.change_goal(b, goal_a, false, Clock::Keep);
    }
}
