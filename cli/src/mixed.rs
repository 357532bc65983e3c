//! `throng run --large/--huge/--slow`: a mixed crowd of unit kinds on one
//! map. Places the bodies (starts apart from each other, goals apart from
//! each other, each goal reachable by its body), and reports how the kinds
//! fared: home at the end, and home within three times a lower bound of
//! their travel time.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use throng::engine::{claims_of, Simulation};
use throng::footprint::{fit_grid, mixed_crowd};
use throng::map::{Cell, Grid, Instance};
use throng::search::SpatialAStar;
use throng::units::{UnitId, UnitKind, MAX_SIZE};

use super::error::CliError;
use super::run::RunArgs;

/// Ticks a cell of the slow units when `--pace` is not given.
pub const DEFAULT_PACE: u8 = 3;

/// Arrival within this many times its lower bound counts a unit as on time.
pub const ON_TIME_FACTOR: u32 = 3;

/// The crowd's make-up, from the flags.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdSpec {
    /// Share of 2×2 bodies.
    pub large: f64,
    /// Share of 3×3 bodies.
    pub huge: f64,
    /// Share of one-cell units taking `pace` ticks a cell.
    pub slow: f64,
    /// Ticks a cell of the slow units.
    pub pace: u8,
    /// Whether every unit with a footprint (large, huge, slow) turns on
    /// curves.
    pub curves: bool,
}

impl CrowdSpec {
    /// The make-up the arguments ask for, if any of the shares is given.
    pub fn from_args(args: &RunArgs) -> Option<CrowdSpec> {
        if args.large.is_none() && args.huge.is_none() && args.slow.is_none() {
            return None;
        }
        Some(CrowdSpec {
            large: args.large.unwrap_or(0.0),
            huge: args.huge.unwrap_or(0.0),
            slow: args.slow.unwrap_or(0.0),
            pace: args.pace.unwrap_or(DEFAULT_PACE as u32) as u8,
            curves: args.curves.unwrap_or(false),
        })
    }

    /// How many units of each kind a crowd of `n` has: one-cell units
    /// first, then 2×2, 3×3 and slow ones. Shares are rounded on their
    /// running sum, so the counts add up to `n` exactly.
    pub fn counts(&self, n: usize) -> Vec<(UnitKind, usize)> {
        let footprint = |k: UnitKind| if self.curves { k.with_curves() } else { k };
        let shares = [
            (footprint(UnitKind::new(2, 1)), self.large),
            (footprint(UnitKind::new(3, 1)), self.huge),
            (footprint(UnitKind::new(1, self.pace)), self.slow),
        ];
        let mut out = Vec::with_capacity(4);
        let (mut sum, mut given) = (0.0, 0usize);
        for (kind, share) in shares {
            sum += share;
            let upto = ((n as f64 * sum).round() as usize).min(n);
            out.push((kind, upto.saturating_sub(given)));
            given = given.max(upto);
        }
        out.insert(0, (UnitKind::CELL, n - given));
        out
    }
}

/// One unit of the crowd.
#[derive(Clone, Copy, Debug)]
pub struct CrowdUnit {
    /// Its body, pace and moves.
    pub kind: UnitKind,
    /// Its body's top-left cell at the start.
    pub start: Cell,
    /// Where that cell is to go.
    pub goal: Cell,
    /// Fewest ticks it can take: the fewest steps between start and goal
    /// on the anchors where its body fits, times its pace.
    pub lower_bound: u32,
}

/// A placed crowd, units in label order: the one-cell, one-tick units
/// first (the simulation is created with them, as a fixed instance's
/// units, which sets up their shared distance tables), then the others
/// (spawned before the first tick).
#[derive(Clone, Debug)]
pub struct Crowd {
    /// The units.
    pub units: Vec<CrowdUnit>,
}

impl Crowd {
    /// Reservation-table room the units other than one-cell ones need, in
    /// claims per tick (see [`claims_of`]).
    pub fn footprint_claims(&self) -> usize {
        self.units
            .iter()
            .filter(|u| !u.kind.is_cell())
            .map(|u| claims_of(u.kind))
            .sum()
    }

    /// Every unit's body size, in label order.
    pub fn sizes(&self) -> Vec<u8> {
        self.units.iter().map(|u| u.kind.size).collect()
    }

    /// `map` (an instance with no units) with the crowd's one-cell units.
    pub fn instance(&self, map: Instance) -> Instance {
        let cells = self.units.iter().filter(|u| u.kind.is_cell());
        Instance {
            starts: cells.clone().map(|u| u.start).collect(),
            goals: cells.map(|u| u.goal).collect(),
            ..map
        }
    }
}

/// A readable name of a kind: `2x2`, `1x1 pace 3`, `3x3 curves`.
pub fn kind_label(k: UnitKind) -> String {
    let mut s = format!("{}x{}", k.size, k.size);
    if k.pace > 1 {
        s.push_str(&format!(" pace {}", k.pace));
    }
    if k.curves == 1 {
        s.push_str(" curves");
    }
    if k.four_way == 1 {
        s.push_str(" four-way");
    }
    s
}

/// Places `n` units of the kinds `spec` asks for on `grid`, deterministic
/// from `seed` (see [`mixed_crowd`]: starts apart from each other, goals
/// apart from each other, each goal reachable by its body). Kinds are
/// shuffled over the units, then the one-cell units take the first labels
/// (see [`Crowd`]).
pub fn place_crowd(
    grid: &Arc<Grid>,
    n: usize,
    spec: &CrowdSpec,
    seed: u64,
) -> Result<Crowd, CliError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6b69_6e64_735f_6d69);
    let counts = spec.counts(n);
    let mut kinds: Vec<UnitKind> = counts
        .iter()
        .flat_map(|&(k, c)| std::iter::repeat_n(k, c))
        .collect();
    kinds.shuffle(&mut rng);
    kinds.sort_by_key(|k| !k.is_cell());
    let placed = mixed_crowd(grid, &kinds, rng.gen()).ok_or_else(|| {
        let made: Vec<String> = counts
            .iter()
            .filter(|&&(_, c)| c > 0)
            .map(|&(k, c)| format!("{c} {}", kind_label(k)))
            .collect();
        CliError::Usage(format!(
            "no room on the map for {n} units ({}) with their bodies apart at the starts and at \
             the goals: lower --units, --large or --huge, or use a larger or emptier map",
            made.join(", ")
        ))
    })?;
    // The anchors each body size fits on, for the lower bounds.
    let mut fits: Vec<Option<Grid>> = (0..=MAX_SIZE).map(|_| None).collect();
    // The fewest steps, whatever a step's direction (each takes `pace`
    // ticks). A breadth-first table per unit took 2 s of 2,000 units'
    // set-up on 256×256.
    let mut search = SpatialAStar::new(grid);
    let units = kinds
        .into_iter()
        .zip(placed)
        .map(|(kind, (start, goal))| {
            let s = kind.size as usize;
            if s > 1 && fits[s].is_none() {
                fits[s] = Some(fit_grid(grid, s as u32));
            }
            let fit = fits[s].as_ref().unwrap_or(grid);
            let steps = search.steps(fit, start, goal);
            debug_assert!(steps.is_some(), "goals are reachable from the starts");
            let steps = steps.unwrap_or(0);
            CrowdUnit {
                kind,
                start,
                goal,
                lower_bound: steps.saturating_mul(kind.pace as u32),
            }
        })
        .collect();
    Ok(Crowd { units })
}

/// Spawns the crowd's units other than one-cell ones into `sim`, created
/// from [`Crowd::instance`], in label order; returns every unit's id, in
/// label order.
pub fn spawn_crowd(sim: &mut Simulation, crowd: &Crowd) -> Result<Vec<UnitId>, CliError> {
    let mut ids: Vec<UnitId> = sim.units().collect();
    for u in crowd.units.iter().skip(ids.len()) {
        let spec = throng::engine::UnitSpec::new(u.start, u.goal).with_kind(u.kind);
        ids.push(sim.spawn(spec)?);
    }
    Ok(ids)
}

/// How one kind of the crowd fared.
#[derive(Clone, Debug, Default, Serialize)]
pub struct KindReport {
    /// `2x2`, `1x1 pace 3`, ...
    pub kind: String,
    /// Body side, cells.
    pub size: u8,
    /// Ticks a cell.
    pub pace: u8,
    /// Whether it turns on curves.
    pub curves: bool,
    /// Units of the kind.
    pub units: usize,
    /// Of which standing on their goal at the end.
    pub home: usize,
    /// Of which first arrived at their goal within [`ON_TIME_FACTOR`]
    /// times their lower bound.
    pub home_within_3x: usize,
    /// Mean of arrival tick over lower bound, over the units that arrived
    /// and had to move.
    pub mean_stretch: f64,
}

/// What a mixed run reports beyond the engine's summary.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MixedReport {
    /// The crowd's units.
    pub units: usize,
    /// Of which standing on their goal at the end.
    pub home: usize,
    /// Of which first arrived within [`ON_TIME_FACTOR`] times their lower
    /// bound.
    pub home_within_3x: usize,
    /// `home_within_3x / units`.
    pub home_within_3x_rate: f64,
    /// Per kind, by pace, then size: one-cell, 2×2, 3×3, then slow ones.
    pub kinds: Vec<KindReport>,
}

impl MixedReport {
    /// The report of `crowd` (spawned as `ids`) at the end of the run;
    /// `arrived[i]` is the tick unit `i` first stood on its goal, if it did.
    pub fn new(sim: &Simulation, crowd: &Crowd, ids: &[UnitId], arrived: &[Option<u32>]) -> Self {
        let mut kinds: Vec<(KindReport, f64, usize)> = Vec::new();
        for ((u, &id), &arrival) in crowd.units.iter().zip(ids).zip(arrived) {
            let k = match kinds
                .iter()
                .position(|(r, _, _)| r.kind == kind_label(u.kind))
            {
                Some(k) => k,
                None => {
                    kinds.push((
                        KindReport {
                            kind: kind_label(u.kind),
                            size: u.kind.size,
                            pace: u.kind.pace,
                            curves: u.kind.curves == 1,
                            ..KindReport::default()
                        },
                        0.0,
                        0,
                    ));
                    kinds.len() - 1
                }
            };
            let (r, stretch, moved) = &mut kinds[k];
            r.units += 1;
            if sim.contains(id) && sim.position(id).ok() == Some(u.goal) {
                r.home += 1;
            }
            if let Some(t) = arrival {
                if t <= ON_TIME_FACTOR.saturating_mul(u.lower_bound) {
                    r.home_within_3x += 1;
                }
                if u.lower_bound > 0 {
                    *stretch += t as f64 / u.lower_bound as f64;
                    *moved += 1;
                }
            }
        }
        kinds.sort_by_key(|(r, _, _)| (r.pace, r.size, r.curves));
        let kinds: Vec<KindReport> = kinds
            .into_iter()
            .map(|(mut r, stretch, moved)| {
                if moved > 0 {
                    r.mean_stretch = stretch / moved as f64;
                }
                r
            })
            .collect();
        let units = crowd.units.len();
        let home = kinds.iter().map(|r| r.home).sum();
        let within: usize = kinds.iter().map(|r| r.home_within_3x).sum();
        MixedReport {
            units,
            home,
            home_within_3x: within,
            home_within_3x_rate: if units == 0 {
                1.0
            } else {
                within as f64 / units as f64
            },
            kinds,
        }
    }

    /// Prints the report's lines after the summary table.
    pub fn print(&self) {
        let pct = |k: usize, n: usize| {
            if n == 0 {
                100.0
            } else {
                100.0 * k as f64 / n as f64
            }
        };
        println!(
            "mixed crowd          {} units: {} home ({:.1}%), {} ({:.1}%) home within 3× their lower bound",
            self.units,
            self.home,
            pct(self.home, self.units),
            self.home_within_3x,
            100.0 * self.home_within_3x_rate
        );
        for r in &self.kinds {
            println!(
                "  {:<18} {} units: {} home, {} ({:.1}%) within 3×, arrival {:.2}× the lower bound on average",
                r.kind,
                r.units,
                r.home,
                r.home_within_3x,
                pct(r.home_within_3x, r.units),
                r.mean_stretch
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use throng::map::{generate_map, Connectivity};

    fn spec(large: f64, huge: f64, slow: f64) -> CrowdSpec {
        CrowdSpec {
            large,
            huge,
            slow,
            pace: 3,
            curves: false,
        }
    }

    #[test]
    fn counts_add_up_to_the_crowd() {
        let c = spec(0.2, 0.1, 0.1).counts(2000);
        let n: Vec<usize> = c.iter().map(|&(_, n)| n).collect();
        assert_eq!(n, [1200, 400, 200, 200]);
        assert_eq!(c[3].0, UnitKind::new(1, 3));
        for n in [0, 1, 7, 99] {
            let c = spec(1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0).counts(n);
            assert_eq!(c.iter().map(|&(_, k)| k).sum::<usize>(), n);
        }
        let curved = CrowdSpec {
            curves: true,
            ..spec(0.5, 0.0, 0.5)
        };
        let c = curved.counts(4);
        assert_eq!(c[0].0, UnitKind::CELL, "one-cell units have no footprint");
        assert_eq!(c[1].0, UnitKind::new(2, 1).with_curves());
    }

    #[test]
    fn bodies_do_not_overlap_and_goals_are_reachable() {
        let grid = Arc::new(generate_map(
            "32x32:0.1".parse().unwrap(),
            Connectivity::Eight,
            3,
        ));
        let crowd = place_crowd(&grid, 60, &spec(0.25, 0.1, 0.1), 5).unwrap();
        assert_eq!(crowd.units.len(), 60);
        let again = place_crowd(&grid, 60, &spec(0.25, 0.1, 0.1), 5).unwrap();
        let cells = |c: &Crowd| {
            c.units
                .iter()
                .map(|u| (u.start, u.goal))
                .collect::<Vec<_>>()
        };
        assert_eq!(cells(&crowd), cells(&again), "deterministic from the seed");
        for pick in [|u: &CrowdUnit| u.start, |u: &CrowdUnit| u.goal] {
            let mut taken = vec![false; grid.cell_count()];
            for u in &crowd.units {
                let s = u.kind.size as u32;
                let (x, y) = grid.xy(pick(u));
                for dy in 0..s {
                    for dx in 0..s {
                        let c = grid.cell(x + dx, y + dy);
                        assert!(grid.is_passable(c));
                        assert!(!std::mem::replace(&mut taken[c.index()], true));
                    }
                }
            }
        }
        assert!(crowd
            .units
            .iter()
            .all(|u| u.lower_bound >= grid.grid_distance(u.start, u.goal) * u.kind.pace as u32));
        let err = place_crowd(&grid, 400, &spec(0.0, 1.0, 0.0), 5)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("no room on the map for 400 units (400 3x3)"),
            "{err}"
        );
    }
}
