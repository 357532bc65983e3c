//! A generated stream of a game's calls, for stress runs of the live world:
//! new orders for a batch of units every few ticks, buildings placed and
//! removed, units spawned and despawned. The same seed gives the same
//! stream, as an event script would.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Action, ScriptedEvent};
use crate::map::Grid;

/// How heavy the stream is. A rate of 0 turns that kind of call off.
#[derive(Clone, Copy, Debug, Default)]
pub struct Load {
    /// Every this many ticks, `orders` units (distinct) get a new goal.
    pub orders_every: u32,
    /// Units given a new goal each time.
    pub orders: u32,
    /// Every this many ticks a building goes up, or (when `max_buildings`
    /// stand) the oldest comes down.
    pub buildings_every: u32,
    /// Side of the square buildings, cells.
    pub building_size: u32,
    /// Most buildings standing at once.
    pub max_buildings: u32,
    /// Every this many ticks, `churn` units are despawned and as many new
    /// ones spawned.
    pub churn_every: u32,
    /// Units replaced each time.
    pub churn: u32,
    /// No new orders in the last this many ticks, so the last ones can
    /// arrive.
    pub quiet_ticks: u32,
}

impl Load {
    /// A busy game's load on a couple of thousand units (the `live-2k`
    /// profile's): every 10 ticks 50 new orders, every 100 ticks a 6×6
    /// building up (at most 4 standing) or down, every 50 ticks 10 units
    /// replaced; orders until the end.
    pub fn busy_game() -> Load {
        Load {
            orders_every: 10,
            orders: 50,
            buildings_every: 100,
            building_size: 6,
            max_buildings: 4,
            churn_every: 50,
            churn: 10,
            quiet_ticks: 0,
        }
    }

    /// Whether it generates anything.
    pub fn is_active(&self) -> bool {
        (self.orders_every > 0 && self.orders > 0)
            || (self.buildings_every > 0 && self.building_size > 0)
            || (self.churn_every > 0 && self.churn > 0)
    }

    /// The events of a run of `ticks` ticks on `grid` with `initial` units
    /// labelled 0, 1, ...; new units are labelled `n0`, `n1`, ...
    pub fn events(&self, grid: &Grid, initial: usize, ticks: u32, seed: u64) -> Vec<ScriptedEvent> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x10AD);
        let open: Vec<(u32, u32)> = (0..grid.cell_count() as u32)
            .map(crate::map::Cell)
            .filter(|&c| grid.is_passable(c))
            .map(|c| grid.xy(c))
            .collect();
        let mut alive: Vec<String> = (0..initial).map(|i| i.to_string()).collect();
        let mut next_label = 0usize;
        let mut standing: std::collections::VecDeque<((u32, u32), (u32, u32))> = Default::default();
        let mut out = Vec::new();
        let every = |n: u32, t: u32| n > 0 && t % n == 0;
        let orders_until = ticks.saturating_sub(self.quiet_ticks);
        for t in 1..=ticks {
            let mut push = |action: Action| {
                out.push(ScriptedEvent {
                    line: 0,
                    tick: t,
                    action,
                })
            };
            if every(self.churn_every, t) && self.churn > 0 && !open.is_empty() {
                for _ in 0..self.churn.min(alive.len() as u32) {
                    let k = rng.gen_range(0..alive.len());
                    push(Action::Despawn {
                        unit: alive.swap_remove(k),
                    });
                }
                for _ in 0..self.churn {
                    let unit = format!("n{next_label}");
                    next_label += 1;
                    push(Action::Spawn {
                        unit: unit.clone(),
                        at: open[rng.gen_range(0..open.len())],
                        goal: open[rng.gen_range(0..open.len())],
                        priority: 0,
                        kind: crate::units::UnitKind::CELL,
                    });
                    alive.push(unit);
                }
            }
            if every(self.orders_every, t) && t <= orders_until && !alive.is_empty() {
                let n = (self.orders as usize).min(alive.len());
                for k in rand::seq::index::sample(&mut rng, alive.len(), n) {
                    push(Action::Goal {
                        unit: alive[k].clone(),
                        goal: open[rng.gen_range(0..open.len())],
                        group: 0,
                    });
                }
            }
            if every(self.buildings_every, t) && self.building_size > 0 {
                if standing.len() as u32 >= self.max_buildings.max(1) {
                    let (from, to) = standing.pop_front().expect("one stands");
                    push(Action::Unblock { from, to });
                } else {
                    let s = self.building_size.min(grid.width()).min(grid.height());
                    let x = rng.gen_range(0..=grid.width() - s);
                    let y = rng.gen_range(0..=grid.height() - s);
                    let rect = ((x, y), (x + s - 1, y + s - 1));
                    standing.push_back(rect);
                    push(Action::Block {
                        from: rect.0,
                        to: rect.1,
                    });
                }
            }
        }
        out
    }
}
