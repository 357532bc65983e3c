//! `throng run --events --trace` checked from outside: heavy seeded event
//! scripts (spawns on taken cells, despawns, respawned labels, goal changes,
//! goal queues, stops, overlapping blocks over crowded areas) go through the
//! command line, and a checker of this file's own, sharing no code with the
//! engine, holds the trace to the map and the script. The trace gives, per
//! unit and tick, the rectangle of cells the unit holds: its body, or in the
//! middle of a step taking several ticks, the box the step sweeps. The
//! rules: no two rectangles overlap at a tick; no held cell is a wall, and
//! none enters a block (a unit inside one when it went up may stay or
//! leave); no two units swap places (each one's rectangle meeting where the
//! other's was); bodies move by legal steps, a slow step holds its box
//! until it ends at the box's far end; a one-cell unit's diagonal passes no
//! wall or block at its corners and crosses no other's, and a larger body's
//! diagonal sweeps a box that holds no other unit at either tick; every
//! unit enters at its spawn cell with its body, no earlier than its spawn
//! tick, is gone from its despawn tick and never vanishes; and the
//! engine's own validator counts no collision. Both the full stream and
//! reduced streams (without late spawns, separate lifts of touching blocks,
//! orders in a unit's spawn tick, blocks over starting units at tick 0) run,
//! so a fault that appears points at the pattern behind it; a minimal case
//! of each fault found so far stays as a test of its own.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A cell as `(x, y)`: column and row, from 0.
type Xy = (u32, u32);

// ---------------------------------------------------------------------------
// The map, read from a MovingAI file.

/// Walls of a MovingAI map.
struct Map {
    width: u32,
    height: u32,
    wall: Vec<bool>,
}

impl Map {
    /// Reads `type`, `height`, `width`, `map` and the rows.
    fn parse(text: &str) -> Map {
        let mut lines = text.lines();
        let mut width = None;
        let mut height = None;
        for line in lines.by_ref() {
            let f: Vec<&str> = line.split_whitespace().collect();
            match f.as_slice() {
                ["type", _] => {}
                ["height", h] => height = Some(h.parse::<u32>().expect("height")),
                ["width", w] => width = Some(w.parse::<u32>().expect("width")),
                ["map"] => break,
                other => panic!("unexpected map header line {other:?}"),
            }
        }
        let (width, height) = (width.expect("width line"), height.expect("height line"));
        let mut wall = Vec::with_capacity((width * height) as usize);
        for y in 0..height {
            let row = lines
                .next()
                .unwrap_or_else(|| panic!("map row {y} missing"));
            assert_eq!(row.chars().count(), width as usize, "map row {y}: {row}");
            for ch in row.chars() {
                wall.push(match ch {
                    '.' | 'G' | 'S' => false,
                    '@' | 'O' | 'T' | 'W' => true,
                    other => panic!("map row {y}: unexpected `{other}`"),
                });
            }
        }
        Map {
            width,
            height,
            wall,
        }
    }

    fn index(&self, (x, y): Xy) -> usize {
        (y * self.width + x) as usize
    }

    fn inside(&self, (x, y): Xy) -> bool {
        x < self.width && y < self.height
    }

    fn is_wall(&self, p: Xy) -> bool {
        self.wall[self.index(p)]
    }

    /// Whether a body of side `s` with top-left cell `p` lies on the map's
    /// open cells.
    fn fits(&self, p: Xy, s: u32) -> bool {
        s > 0
            && p.0 + s <= self.width
            && p.1 + s <= self.height
            && Rect::square(p, s).cells().all(|c| !self.is_wall(c))
    }

    fn open_cells(&self) -> Vec<Xy> {
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&p| !self.is_wall(p))
            .collect()
    }
}

/// A rectangle of cells, both corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

impl Rect {
    fn new(a: Xy, b: Xy) -> Rect {
        Rect {
            x0: a.0.min(b.0),
            y0: a.1.min(b.1),
            x1: a.0.max(b.0),
            y1: a.1.max(b.1),
        }
    }

    fn contains(&self, (x, y): Xy) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }

    fn cells(&self) -> impl Iterator<Item = Xy> + '_ {
        (self.y0..=self.y1).flat_map(move |y| (self.x0..=self.x1).map(move |x| (x, y)))
    }

    /// The single cell `p`.
    fn cell(p: Xy) -> Rect {
        Rect::new(p, p)
    }

    /// The `s`×`s` square with top-left cell `p`.
    fn square(p: Xy, s: u32) -> Rect {
        Rect::new(p, (p.0 + s - 1, p.1 + s - 1))
    }

    fn anchor(&self) -> Xy {
        (self.x0, self.y0)
    }

    fn w(&self) -> u32 {
        self.x1 - self.x0 + 1
    }

    fn h(&self) -> u32 {
        self.y1 - self.y0 + 1
    }

    fn is_square(&self, s: u32) -> bool {
        self.w() == s && self.h() == s
    }

    /// Whether the two share a cell.
    fn meets(&self, o: &Rect) -> bool {
        self.x0 <= o.x1 && o.x0 <= self.x1 && self.y0 <= o.y1 && o.y0 <= self.y1
    }

    fn holds(&self, o: &Rect) -> bool {
        self.x0 <= o.x0 && o.x1 <= self.x1 && self.y0 <= o.y0 && o.y1 <= self.y1
    }

    /// The smallest rectangle holding both.
    fn around(&self, o: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
}

/// A single cell as `(x, y)`, a larger rectangle as `(x, y) w×h`.
impl std::fmt::Display for Rect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x0, self.y0)?;
        if self.w() > 1 || self.h() > 1 {
            write!(f, " {}×{}", self.w(), self.h())?;
        }
        Ok(())
    }
}

/// A unit's kind as a spawn line gives it: body side, ticks a cell, curves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Kind {
    size: u32,
    pace: u32,
    curves: bool,
}

/// One cell, a cell a tick: a spawn line without options.
const CELL: Kind = Kind {
    size: 1,
    pace: 1,
    curves: false,
};

// ---------------------------------------------------------------------------
// Event scripts.

#[derive(Clone, Debug)]
enum Action {
    Spawn {
        unit: String,
        at: Xy,
        goal: Xy,
        priority: Option<u8>,
        kind: Kind,
    },
    Despawn(String),
    Goal(String, Xy),
    PushGoal(String, Xy),
    Stop(String),
    /// Corners as written (in any order).
    Block(Xy, Xy),
    Unblock(Xy, Xy),
}

#[derive(Clone, Debug)]
struct Event {
    tick: u32,
    action: Action,
    /// 1-based line of the script file.
    line: usize,
}

impl Event {
    fn text(&self) -> String {
        let t = self.tick;
        match &self.action {
            Action::Spawn {
                unit,
                at,
                goal,
                priority,
                kind,
            } => {
                let mut s = format!("{t} spawn {unit} {} {} {} {}", at.0, at.1, goal.0, goal.1);
                // The options in either order, as the format allows.
                let mut options = Vec::new();
                if kind.size > 1 {
                    options.push(format!("size {}", kind.size));
                }
                if kind.pace > 1 {
                    options.push(format!("pace {}", kind.pace));
                }
                if kind.curves {
                    options.push("curves".to_string());
                }
                if let Some(p) = priority {
                    options.push(format!("priority {p}"));
                }
                if self.line % 2 == 1 {
                    options.reverse();
                }
                for o in options {
                    write!(s, " {o}").unwrap();
                }
                s
            }
            Action::Despawn(u) => format!("{t} despawn {u}"),
            Action::Goal(u, g) => format!("{t} goal {u} {} {}", g.0, g.1),
            Action::PushGoal(u, g) => format!("{t} push_goal {u} {} {}", g.0, g.1),
            Action::Stop(u) => format!("{t} stop {u}"),
            Action::Block(a, b) => format!("{t} block {} {} {} {}", a.0, a.1, b.0, b.1),
            Action::Unblock(a, b) => format!("{t} unblock {} {} {} {}", a.0, a.1, b.0, b.1),
        }
    }

    fn names(&self, label: &str) -> bool {
        match &self.action {
            Action::Spawn { unit, .. } => unit == label,
            Action::Despawn(u) | Action::Goal(u, _) | Action::PushGoal(u, _) | Action::Stop(u) => {
                u == label
            }
            Action::Block(..) | Action::Unblock(..) => false,
        }
    }
}

/// The script file: a comment line, then one event a line (line numbers
/// are stored in the events).
fn script_text(events: &mut [Event], title: &str) -> String {
    let mut s = format!("# {title}\n");
    for (k, e) in events.iter_mut().enumerate() {
        e.line = k + 2;
        s.push_str(&e.text());
        s.push('\n');
    }
    s
}

/// What a drawn script may hold. With every feature on it is the full
/// stream; each feature is a pattern that once met an engine fault (see the
/// minimal cases at the end).
#[derive(Clone, Copy, Debug)]
struct Features {
    /// Spawns after tick 0, spawns on taken cells (they wait) and labels
    /// spawned again after their despawn.
    late_spawns: bool,
    /// Overlapping or touching blocks lifted at different ticks; without,
    /// a group of touching blocks comes down at one tick.
    separate_lifts: bool,
    /// Orders (`goal`, `push_goal`, `stop`) naming a unit in the tick of
    /// its spawn; without, a unit gets orders from the tick after.
    orders_at_spawn_tick: bool,
    /// Blocks over starting units at tick 0; without, those go up at
    /// tick 1 and the blocks of tick 0 keep clear of the units.
    blocks_over_starts_at_tick_0: bool,
    /// Spawns of every kind: bodies of 1×1 to 3×3, 1 to 3 ticks a cell,
    /// curves on 8-connected maps; without, every spawn is one cell.
    kinds: bool,
}

/// The full stream.
const FULL: Features = Features {
    late_spawns: true,
    separate_lifts: true,
    orders_at_spawn_tick: true,
    blocks_over_starts_at_tick_0: true,
    kinds: false,
};

/// The stream without those patterns: no spawn after tick 0 and none that
/// waits, touching blocks lifted together, no block over starting units at
/// tick 0. Spawns at tick 0 on free cells, despawns, orders, and
/// overlapping blocks (lifted together) stay.
const AROUND_KNOWN_FAULTS: Features = Features {
    late_spawns: false,
    separate_lifts: false,
    orders_at_spawn_tick: false,
    blocks_over_starts_at_tick_0: false,
    kinds: false,
};

/// A block placed by the script and not yet lifted.
struct Placed {
    rect: Rect,
    /// The corners its `unblock` names.
    corners: (Xy, Xy),
    /// The tick it is lifted at, if ever.
    lift: Option<u32>,
}

/// Whether two rectangles overlap or touch (sides or corners).
fn touching(a: &Rect, b: &Rect) -> bool {
    a.x0 <= b.x1 + 1 && b.x0 <= a.x1 + 1 && a.y0 <= b.y1 + 1 && b.y0 <= a.y1 + 1
}

/// Builds a heavy script: tick 0 brings spawns (with late spawns, on the
/// starting units' cells, where they wait) and blocks; blocks go up over
/// some starting units (they leave); then every tick brings a few events,
/// many of them aimed at a handful of hubs so that units crowd there and
/// the blocks land on crowds.
struct Generator<'a> {
    rng: ChaCha8Rng,
    map: &'a Map,
    features: Features,
    eight: bool,
    starts: Vec<Xy>,
    /// The starting units' bodies.
    start_bodies: Vec<Rect>,
    /// Body side of every living label.
    sizes: HashMap<String, u32>,
    /// Per body side (index), the anchors where such a body fits the map.
    anchors: Vec<Vec<Xy>>,
    /// Labels spawned in the tick being drawn.
    born_now: HashSet<String>,
    /// Starting cells to put blocks over at tick 1.
    start_blocks: Vec<Xy>,
    open: Vec<Xy>,
    hubs: Vec<Xy>,
    /// Cells likely to be taken: starts, hubs, recent spawn cells.
    busy: Vec<Xy>,
    alive: Vec<String>,
    dead: Vec<String>,
    next_label: usize,
    max_alive: usize,
    /// Despawns stop at this many living units.
    min_alive: usize,
    blocks: Vec<Placed>,
    events: Vec<Event>,
}

impl<'a> Generator<'a> {
    fn new(
        map: &'a Map,
        eight: bool,
        starts: &[Rect],
        seed: u64,
        max_alive: usize,
        features: Features,
    ) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_1e55_a11c_e5e7);
        let open = map.open_cells();
        let anchors = (0..=3)
            .map(|s| open.iter().copied().filter(|&p| map.fits(p, s)).collect())
            .collect();
        let sizes = starts
            .iter()
            .enumerate()
            .map(|(i, b)| (i.to_string(), b.w()))
            .collect();
        let start_bodies = starts.to_vec();
        let starts: Vec<Xy> = starts.iter().map(Rect::anchor).collect();
        let hubs: Vec<Xy> = (0..5).map(|_| open[rng.gen_range(0..open.len())]).collect();
        let mut busy: Vec<Xy> = starts.to_vec();
        busy.extend(&hubs);
        Generator {
            rng,
            map,
            features,
            eight,
            alive: (0..starts.len()).map(|i| i.to_string()).collect(),
            starts,
            start_bodies,
            sizes,
            anchors,
            born_now: HashSet::new(),
            start_blocks: Vec::new(),
            open,
            hubs,
            busy,
            dead: Vec::new(),
            next_label: 0,
            max_alive,
            min_alive: 4,
            blocks: Vec::new(),
            events: Vec::new(),
        }
    }

    fn push(&mut self, tick: u32, action: Action) {
        self.events.push(Event {
            tick,
            action,
            line: 0,
        });
    }

    fn any_open(&mut self) -> Xy {
        self.open[self.rng.gen_range(0..self.open.len())]
    }

    /// An open cell within two cells of a hub.
    fn near_hub(&mut self, hub: usize) -> Xy {
        let (hx, hy) = self.hubs[hub];
        for _ in 0..32 {
            let x = hx as i64 + self.rng.gen_range(-2..=2);
            let y = hy as i64 + self.rng.gen_range(-2..=2);
            if x >= 0 && y >= 0 {
                let p = (x as u32, y as u32);
                if self.map.inside(p) && !self.map.is_wall(p) {
                    return p;
                }
            }
        }
        (hx, hy)
    }

    fn some_hub(&mut self) -> usize {
        self.rng.gen_range(0..self.hubs.len())
    }

    fn goal_cell(&mut self) -> Xy {
        if self.rng.gen_bool(0.55) {
            let h = self.some_hub();
            self.near_hub(h)
        } else {
            self.any_open()
        }
    }

    fn spawn_cell(&mut self) -> Xy {
        if self.rng.gen_bool(0.5) {
            self.busy[self.rng.gen_range(0..self.busy.len())]
        } else if self.rng.gen_bool(0.4) {
            let h = self.some_hub();
            self.near_hub(h)
        } else {
            self.any_open()
        }
    }

    /// A living label that may take an order now.
    fn some_alive(&mut self) -> Option<String> {
        for _ in 0..8 {
            if self.alive.is_empty() {
                return None;
            }
            let u = &self.alive[self.rng.gen_range(0..self.alive.len())];
            if self.features.orders_at_spawn_tick || !self.born_now.contains(u) {
                return Some(u.clone());
            }
        }
        None
    }

    /// A random anchor where a body of side `s` fits.
    fn any_anchor(&mut self, s: u32) -> Xy {
        let list = &self.anchors[s as usize];
        list[self.rng.gen_range(0..list.len())]
    }

    /// `p` if a body of side `s` fits there, else a random anchor where it
    /// does (one-cell bodies fit every open cell: no draw).
    fn fit_or_any(&mut self, p: Xy, s: u32) -> Xy {
        if self.map.fits(p, s) {
            p
        } else {
            self.any_anchor(s)
        }
    }

    /// A goal for a body of side `s`.
    fn goal_for(&mut self, s: u32) -> Xy {
        let g = self.goal_cell();
        self.fit_or_any(g, s)
    }

    /// A goal for the living unit `u`.
    fn goal_of(&mut self, u: &str) -> Xy {
        let s = self.sizes.get(u).copied().unwrap_or(1);
        self.goal_for(s)
    }

    /// A spawn's kind: with kinds, often a body or a slow pace; else one cell.
    fn draw_kind(&mut self) -> Kind {
        if !self.features.kinds {
            return CELL;
        }
        let mut size = [1, 1, 1, 2, 2, 3][self.rng.gen_range(0..6)];
        // No larger than the map has room for.
        while size > 1 && self.anchors[size as usize].is_empty() {
            size -= 1;
        }
        let pace = [1, 1, 1, 1, 2, 3][self.rng.gen_range(0..6)];
        let curves = self.eight && (size > 1 || pace > 1) && self.rng.gen_bool(0.3);
        Kind { size, pace, curves }
    }

    fn spawn_at(&mut self, tick: u32, label: String, at: Xy, priority: Option<u8>, kind: Kind) {
        let goal = self.goal_for(kind.size);
        self.sizes.insert(label.clone(), kind.size);
        self.busy.push(at);
        if self.busy.len() > 400 {
            self.busy.swap_remove(0);
        }
        self.alive.push(label.clone());
        self.born_now.insert(label.clone());
        self.push(
            tick,
            Action::Spawn {
                unit: label,
                at,
                goal,
                priority,
                kind,
            },
        );
    }

    fn spawn(&mut self, tick: u32, label: String) {
        let kind = self.draw_kind();
        let at = self.spawn_cell();
        let at = self.fit_or_any(at, kind.size);
        let priority = self.rng.gen_bool(0.2).then(|| self.rng.gen_range(0..=15));
        self.spawn_at(tick, label, at, priority, kind);
    }

    fn fresh_label(&mut self) -> String {
        self.next_label += 1;
        format!("u{}", self.next_label)
    }

    /// A rectangle of 1×1 to 6×6 cells holding `centre`.
    fn rect_around(&mut self, centre: Xy) -> Rect {
        let (w, h) = (self.rng.gen_range(1..=6u32), self.rng.gen_range(1..=6u32));
        let x0 = (centre.0 as i64 - self.rng.gen_range(0..w as i64)).max(0) as u32;
        let y0 = (centre.1 as i64 - self.rng.gen_range(0..h as i64)).max(0) as u32;
        let x1 = (x0 + w - 1).min(self.map.width - 1);
        let y1 = (y0 + h - 1).min(self.map.height - 1);
        Rect::new((x0, y0), (x1, y1))
    }

    /// A block of 1×1 to 6×6 around `centre`, lifted `life` ticks later
    /// (never if `None`).
    fn block(&mut self, tick: u32, centre: Xy, life: Option<u32>) {
        let r = self.rect_around(centre);
        self.block_rect(tick, r, life);
    }

    /// The placed blocks touching `r`, and those touching them, and so on.
    fn touching_group(&self, r: &Rect) -> Vec<usize> {
        let mut group: Vec<usize> = Vec::new();
        let mut frontier = vec![*r];
        while let Some(f) = frontier.pop() {
            for (k, p) in self.blocks.iter().enumerate() {
                if !group.contains(&k) && touching(&f, &p.rect) {
                    group.push(k);
                    frontier.push(p.rect);
                }
            }
        }
        group
    }

    /// Places a block over `r`, corners written in a random order, lifted
    /// `life` ticks later (never if `None`). Without separate lifts it joins
    /// the group of blocks it touches, all lifted at the latest of their
    /// ticks; it is left out if that group stays for good or comes down
    /// now, or if it would stay for good itself next to others.
    fn block_rect(&mut self, tick: u32, r: Rect, life: Option<u32>) {
        let mut lift = life.map(|l| tick + l);
        let group = if self.features.separate_lifts {
            Vec::new()
        } else {
            self.touching_group(&r)
        };
        for &k in &group {
            match (self.blocks[k].lift, lift) {
                (Some(l), Some(m)) if l > tick => lift = Some(l.max(m)),
                _ => return,
            }
        }
        for &k in &group {
            self.blocks[k].lift = lift;
        }
        let Rect { x0, y0, x1, y1 } = r;
        let (a, b) = match self.rng.gen_range(0..3) {
            0 => ((x0, y0), (x1, y1)),
            1 => ((x1, y1), (x0, y0)),
            _ => ((x0, y1), (x1, y0)),
        };
        // The unblock names the same rectangle, maybe by its other corners.
        let corners = if self.rng.gen_bool(0.5) {
            (a, b)
        } else {
            ((x1, y0), (x0, y1))
        };
        self.push(tick, Action::Block(a, b));
        self.blocks.push(Placed {
            rect: r,
            corners,
            lift,
        });
    }

    fn tick_zero(&mut self) {
        let starts = self.starts.clone();
        let late = self.features.late_spawns;
        // The bodies of the tick-0 spawns.
        let mut spawn_cells: Vec<Rect> = Vec::new();
        if late {
            // Spawns on starting units' cells: they wait until those leave.
            for _ in 0..(starts.len() / 4).max(3) {
                let label = self.fresh_label();
                let kind = self.draw_kind();
                let at = if starts.is_empty() || self.rng.gen_bool(0.3) {
                    self.any_open()
                } else {
                    starts[self.rng.gen_range(0..starts.len())]
                };
                let at = self.fit_or_any(at, kind.size);
                spawn_cells.push(Rect::square(at, kind.size));
                self.spawn_at(0, label, at, None, kind);
            }
            // Two spawns on one cell: the second waits for the first to leave.
            let kind = self.draw_kind();
            let at = self.any_open();
            let at = self.fit_or_any(at, kind.size);
            for _ in 0..2 {
                let label = self.fresh_label();
                spawn_cells.push(Rect::square(at, kind.size));
                self.spawn_at(0, label, at, Some(3), kind);
            }
        } else {
            // Spawns on free cells: they stand on the map at tick 0.
            let mut taken: HashSet<Xy> = self.start_bodies.iter().flat_map(Rect::cells).collect();
            for _ in 0..(30 + starts.len() / 4) {
                let kind = self.draw_kind();
                let at = self.any_open();
                let at = self.fit_or_any(at, kind.size);
                let body = Rect::square(at, kind.size);
                if body.cells().all(|c| !taken.contains(&c)) {
                    taken.extend(body.cells());
                    let label = self.fresh_label();
                    spawn_cells.push(body);
                    let priority = self.rng.gen_bool(0.2).then(|| self.rng.gen_range(0..=15));
                    self.spawn_at(0, label, at, priority, kind);
                }
            }
        }
        self.min_alive = if late { 4 } else { self.alive.len() * 2 / 3 };
        // Blocks over starting units: they stand inside from the start.
        for _ in 0..3 {
            if !starts.is_empty() {
                let c = starts[self.rng.gen_range(0..starts.len())];
                if self.features.blocks_over_starts_at_tick_0 {
                    let life = self.rng.gen_range(4..60);
                    self.block(0, c, Some(life));
                } else {
                    self.start_blocks.push(c);
                }
            }
        }
        // Blocks at tick 0 elsewhere, one of them for good: with late
        // spawns, over spawn cells (those spawns wait).
        for k in 0..3 {
            let clear_of: Vec<Rect> = match (late, self.features.blocks_over_starts_at_tick_0) {
                (true, true) => Vec::new(),
                (true, false) => self.start_bodies.clone(),
                (false, _) => self
                    .start_bodies
                    .iter()
                    .chain(&spawn_cells)
                    .copied()
                    .collect(),
            };
            let mut r = None;
            for attempt in 0..50 {
                let c = if late && attempt == 0 && !spawn_cells.is_empty() {
                    spawn_cells[self.rng.gen_range(0..spawn_cells.len())].anchor()
                } else {
                    self.any_open()
                };
                let candidate = self.rect_around(c);
                if !clear_of.iter().any(|b| candidate.meets(b)) {
                    r = Some(candidate);
                    break;
                }
            }
            if let Some(r) = r {
                let life = self.rng.gen_range(4..60);
                self.block_rect(0, r, (k != 0).then_some(life));
            }
        }
        // A third of the units head for the hubs.
        for i in 0..starts.len() {
            if self.rng.gen_bool(0.33) {
                let g = self.goal_of(&i.to_string());
                self.push(0, Action::Goal(i.to_string(), g));
            }
        }
    }

    fn tick(&mut self, t: u32, span: u32) {
        self.born_now.clear();
        let mut k = 0;
        while k < self.blocks.len() {
            if self.blocks[k].lift == Some(t) {
                let (a, b) = self.blocks.remove(k).corners;
                self.push(t, Action::Unblock(a, b));
            } else {
                k += 1;
            }
        }
        for c in std::mem::take(&mut self.start_blocks) {
            let life = self.rng.gen_range(4..60);
            self.block(t, c, Some(life));
        }
        let n = match self.rng.gen_range(0..10) {
            0..=2 => 0,
            3..=5 => 1,
            6..=7 => 2,
            8 => 3,
            _ => 5,
        };
        let late = self.features.late_spawns;
        for _ in 0..n {
            let roll = self.rng.gen_range(0..100);
            match roll {
                0..=17 => {
                    if late && self.alive.len() < self.max_alive {
                        let label = self.fresh_label();
                        self.spawn(t, label);
                    }
                }
                18..=23 => {
                    if late && !self.dead.is_empty() && self.alive.len() < self.max_alive {
                        let k = self.rng.gen_range(0..self.dead.len());
                        let label = self.dead.swap_remove(k);
                        self.spawn(t, label);
                    }
                }
                24..=36 => {
                    if self.alive.len() > self.min_alive {
                        let k = self.rng.gen_range(0..self.alive.len());
                        let label = self.alive.swap_remove(k);
                        self.dead.push(label.clone());
                        self.push(t, Action::Despawn(label));
                    }
                }
                37..=55 => {
                    if let Some(u) = self.some_alive() {
                        let g = self.goal_of(&u);
                        self.push(t, Action::Goal(u, g));
                    }
                }
                56..=67 => {
                    if let Some(u) = self.some_alive() {
                        for _ in 0..self.rng.gen_range(1..=3) {
                            let g = self.goal_of(&u);
                            self.push(t, Action::PushGoal(u.clone(), g));
                        }
                    }
                }
                68..=72 => {
                    if let Some(u) = self.some_alive() {
                        self.push(t, Action::Stop(u));
                    }
                }
                73..=86 => {
                    // Over a hub, where units gather; often overlapping
                    // another block there.
                    let h = self.some_hub();
                    let c = self.near_hub(h);
                    let life = self.rng.gen_range(3..90).min(span.saturating_sub(t).max(1));
                    let life = (!self.rng.gen_bool(0.08)).then_some(life);
                    self.block(t, c, life);
                }
                87..=91 => {
                    let c = self.any_open();
                    let life = self.rng.gen_range(2..40).min(span.saturating_sub(t).max(1));
                    self.block(t, c, Some(life));
                }
                92..=95 => {
                    // A wave: many units sent to one hub at once.
                    let h = self.some_hub();
                    for _ in 0..self.rng.gen_range(5..=20) {
                        if let Some(u) = self.some_alive() {
                            let g = self.near_hub(h);
                            let s = self.sizes.get(&u).copied().unwrap_or(1);
                            let g = self.fit_or_any(g, s);
                            self.push(t, Action::Goal(u, g));
                        }
                    }
                }
                _ => {
                    // Hubs move now and then, so crowds form elsewhere.
                    let h = self.some_hub();
                    self.hubs[h] = self.any_open();
                }
            }
        }
    }

    /// The script, by tick; blocks due to be lifted after the last tick
    /// drawn stay for good.
    fn finish(self) -> Vec<Event> {
        let mut events = self.events;
        events.sort_by_key(|e| e.tick);
        events
    }
}

// ---------------------------------------------------------------------------
// The trace and the summary.

/// Rows of the trace by tick: `(label, rectangle held)`.
fn parse_trace(text: &str, last_tick: u32) -> Vec<Vec<(String, Rect)>> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("tick,unit,x,y,w,h"), "trace header");
    let mut ticks: Vec<Vec<(String, Rect)>> = vec![Vec::new(); last_tick as usize + 1];
    let mut previous = 0;
    for (k, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 6, "trace line {}: `{line}`", k + 2);
        let num = |s: &str| -> u32 {
            s.parse()
                .unwrap_or_else(|_| panic!("trace line {}: `{line}`", k + 2))
        };
        let t = num(f[0]);
        assert!(
            t >= previous,
            "trace line {}: tick {t} after tick {previous}",
            k + 2
        );
        assert!(
            t <= last_tick,
            "trace line {}: tick {t} beyond the summary's last tick {last_tick}",
            k + 2
        );
        let (w, h) = (num(f[4]), num(f[5]));
        assert!(w >= 1 && h >= 1, "trace line {}: empty rectangle", k + 2);
        previous = t;
        let (x, y) = (num(f[2]), num(f[3]));
        ticks[t as usize].push((f[1].to_string(), Rect::new((x, y), (x + w - 1, y + h - 1))));
    }
    ticks
}

fn json_u64(v: &serde_json::Value, key: &str) -> u64 {
    v.get(key)
        .and_then(|x| x.as_u64())
        .unwrap_or_else(|| panic!("summary has no whole number `{key}`: {v}"))
}

fn json_count(v: &serde_json::Value, group: &str, key: &str) -> u64 {
    v.get(group)
        .and_then(|g| g.get(key))
        .and_then(|x| x.as_u64())
        .unwrap_or(0)
}

// ---------------------------------------------------------------------------
// The checker.

/// A unit's life as the script and the trace tell it.
#[derive(Clone, Debug)]
enum Life {
    /// Spawned, not yet on the map: its spawn cell, tick, script line and
    /// kind.
    Pending {
        at: Xy,
        tick: u32,
        line: usize,
        kind: Kind,
    },
    /// On the map.
    Present,
}

/// A broken rule: the tick, the units and a sentence.
struct Violation {
    tick: u32,
    units: Vec<String>,
    text: String,
}

/// What a checked run went through.
#[derive(Default, Debug, Clone, Copy)]
struct Stats {
    ticks: u32,
    events: usize,
    spawns: usize,
    despawns: usize,
    respawns: usize,
    blocks: usize,
    unblocks: usize,
    goal_orders: usize,
    stops: usize,
    entries: usize,
    /// Spawned units that entered after their spawn tick (their cell was taken or blocked).
    waited: usize,
    /// Units holding a cell when a block went up over it.
    trapped: usize,
    /// Units holding a blocked cell, summed over ticks.
    inside_ticks: usize,
    /// Diagonal moves checked.
    diagonals: usize,
    /// Of which by bodies larger than a cell.
    body_diagonals: usize,
    /// Unit-ticks of bodies larger than a cell.
    body_ticks: usize,
    /// Unit-ticks in the middle of a step taking several ticks.
    mid_step_ticks: usize,
    /// Steps of several ticks called off half-way: the unit back on the
    /// body it set out from, or setting out anew from it (a block over its
    /// way, a plan cut short). Allowed: no rule of the trace forbids it.
    steps_called_off: usize,
    /// Steps whose box a unit of a known pace held longer than the pace
    /// (pace − 1 ticks mid-step). Allowed, and noted.
    overlong_steps: usize,
    unit_ticks: usize,
    peak_units: usize,
    peak_blocked_cells: usize,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.ticks += o.ticks;
        self.events += o.events;
        self.spawns += o.spawns;
        self.despawns += o.despawns;
        self.respawns += o.respawns;
        self.blocks += o.blocks;
        self.unblocks += o.unblocks;
        self.goal_orders += o.goal_orders;
        self.stops += o.stops;
        self.entries += o.entries;
        self.waited += o.waited;
        self.trapped += o.trapped;
        self.inside_ticks += o.inside_ticks;
        self.diagonals += o.diagonals;
        self.body_diagonals += o.body_diagonals;
        self.body_ticks += o.body_ticks;
        self.mid_step_ticks += o.mid_step_ticks;
        self.steps_called_off += o.steps_called_off;
        self.overlong_steps += o.overlong_steps;
        self.unit_ticks += o.unit_ticks;
        self.peak_units = self.peak_units.max(o.peak_units);
        self.peak_blocked_cells = self.peak_blocked_cells.max(o.peak_blocked_cells);
    }
}

/// Blocks in force: the rectangles and, per cell, how many cover it.
struct Blocks {
    active: Vec<Rect>,
    cover: Vec<u32>,
}

impl Blocks {
    fn covered(&self, map: &Map, p: Xy) -> bool {
        self.cover[map.index(p)] > 0
    }

    /// The first cell of `r` under a block.
    fn covered_cell(&self, map: &Map, r: &Rect) -> Option<Xy> {
        r.cells().find(|&p| self.covered(map, p))
    }

    /// Neither a wall nor under a block.
    fn open(&self, map: &Map, p: Xy) -> bool {
        !map.is_wall(p) && !self.covered(map, p)
    }
}

struct Checked {
    violations: Vec<Violation>,
    /// The first few steps called off or overlong, described: no
    /// violations, but worth a look.
    notes: Vec<String>,
    stats: Stats,
    /// Labels alive at the end: on the map or waiting to enter.
    alive_at_end: usize,
    /// Despawn and spawn events applied within the run.
    despawns_applied: usize,
    spawns_applied: usize,
}

/// Checks the trace (rows by tick) against the map, the connectivity, the
/// script and the starting units `0..initial` (whose body sides are those
/// of their rectangles at tick 0).
fn check(
    map: &Map,
    eight: bool,
    events: &[Event],
    initial: usize,
    trace: &[Vec<(String, Rect)>],
) -> Checked {
    let mut v: Vec<Violation> = Vec::new();
    let mut st = Stats {
        ticks: trace.len() as u32 - 1,
        ..Stats::default()
    };
    let mut blocks = Blocks {
        active: Vec::new(),
        cover: vec![0; (map.width * map.height) as usize],
    };
    let mut life: HashMap<String, Life> = (0..initial)
        .map(|i| (i.to_string(), Life::Present))
        .collect();
    let mut ever: HashSet<String> = life.keys().cloned().collect();
    // Body side of every unit that has entered.
    let mut size: HashMap<String, u32> = HashMap::new();
    // Ticks a cell of the units whose pace the script gave.
    let mut pace: HashMap<String, u32> = HashMap::new();
    // For a unit in the middle of a step: the body it set out from, and
    // the ticks it has held the step's box.
    let mut set_out: HashMap<String, (Rect, u32)> = HashMap::new();
    let mut notes: Vec<String> = Vec::new();
    // What each unit held at the previous tick (units whose life goes on).
    let mut prev: HashMap<String, Rect> = HashMap::new();
    let mut next_event = 0;
    let (mut despawns_applied, mut spawns_applied) = (0, 0);
    for (t, rows) in trace.iter().enumerate() {
        let t = t as u32;
        // Whether each unit held a cell under a block before this tick's events.
        let covered_before: HashMap<String, bool> = prev
            .iter()
            .map(|(u, r)| (u.clone(), blocks.covered_cell(map, r).is_some()))
            .collect();
        while let Some(e) = events.get(next_event).filter(|e| e.tick <= t) {
            next_event += 1;
            st.events += 1;
            match &e.action {
                Action::Spawn { unit, at, kind, .. } => {
                    pace.insert(unit.clone(), kind.pace);
                    assert!(
                        !life.contains_key(unit),
                        "script line {}: `{unit}` is alive",
                        e.line
                    );
                    st.spawns += 1;
                    spawns_applied += 1;
                    if !ever.insert(unit.clone()) {
                        st.respawns += 1;
                    }
                    life.insert(
                        unit.clone(),
                        Life::Pending {
                            at: *at,
                            tick: e.tick,
                            line: e.line,
                            kind: *kind,
                        },
                    );
                }
                Action::Despawn(u) => {
                    assert!(
                        life.remove(u).is_some(),
                        "script line {}: `{u}` is not alive",
                        e.line
                    );
                    prev.remove(u);
                    set_out.remove(u);
                    st.despawns += 1;
                    despawns_applied += 1;
                }
                Action::Goal(..) | Action::PushGoal(..) => st.goal_orders += 1,
                Action::Stop(_) => st.stops += 1,
                Action::Block(a, b) => {
                    let r = Rect::new(*a, *b);
                    for p in r.cells() {
                        let i = map.index(p);
                        blocks.cover[i] += 1;
                    }
                    blocks.active.push(r);
                    st.blocks += 1;
                }
                Action::Unblock(a, b) => {
                    let r = Rect::new(*a, *b);
                    let k = blocks
                        .active
                        .iter()
                        .position(|&x| x == r)
                        .unwrap_or_else(|| panic!("script line {}: no such block", e.line));
                    blocks.active.swap_remove(k);
                    for p in r.cells() {
                        let i = map.index(p);
                        blocks.cover[i] -= 1;
                    }
                    st.unblocks += 1;
                }
            }
        }
        let blocked_cells = blocks
            .cover
            .iter()
            .zip(&map.wall)
            .filter(|(&c, &w)| c > 0 && !w)
            .count();
        st.peak_blocked_cells = st.peak_blocked_cells.max(blocked_cells);
        for (u, r) in &prev {
            if blocks.covered_cell(map, r).is_some() && !covered_before[u] {
                st.trapped += 1;
            }
        }

        // Cells, walls, overlaps, entries.
        let mut here: HashMap<String, Rect> = HashMap::new();
        let mut at_cell: HashMap<Xy, String> = HashMap::new();
        let mut overlapping: HashSet<(String, String)> = HashSet::new();
        for (u, r) in rows {
            let (u, r) = (u.clone(), *r);
            if !map.inside((r.x1, r.y1)) {
                v.push(Violation {
                    tick: t,
                    units: vec![u.clone()],
                    text: format!("unit {u} at {r} is outside the map"),
                });
                continue;
            }
            if let Some(c) = r.cells().find(|&c| map.is_wall(c)) {
                v.push(Violation {
                    tick: t,
                    units: vec![u.clone()],
                    text: if r.is_square(1) {
                        format!("unit {u} at {r} stands on a wall of the map")
                    } else {
                        format!("unit {u} at {r} holds {}, a wall of the map", Rect::cell(c))
                    },
                });
            }
            if blocks.covered_cell(map, &r).is_some() {
                st.inside_ticks += 1;
            }
            if here.insert(u.clone(), r).is_some() {
                v.push(Violation {
                    tick: t,
                    units: vec![u.clone()],
                    text: format!("unit {u} has two rows"),
                });
            }
            for c in r.cells() {
                if let Some(w) = at_cell.insert(c, u.clone()) {
                    if w != u && overlapping.insert((w.clone(), u.clone())) {
                        v.push(Violation {
                            tick: t,
                            units: vec![w.clone(), u.clone()],
                            text: format!("units {w} and {u} share cell {}", Rect::cell(c)),
                        });
                    }
                }
            }
            match life.get(&u).cloned() {
                None => v.push(Violation {
                    tick: t,
                    units: vec![u.clone()],
                    text: if ever.contains(&u) {
                        format!("unit {u} at {r} is on the map after its despawn")
                    } else {
                        format!("unit {u} at {r} is on the map before any spawn names it")
                    },
                }),
                Some(Life::Pending {
                    at,
                    tick,
                    line,
                    kind,
                }) => {
                    let side = kind.size;
                    let spawned = format!("spawned at tick {tick}, script line {line}");
                    if r.anchor() != at {
                        v.push(Violation {
                            tick: t,
                            units: vec![u.clone()],
                            text: format!(
                                "unit {u} enters at {}, not at its spawn cell {} ({spawned})",
                                Rect::cell(r.anchor()),
                                Rect::cell(at)
                            ),
                        });
                    }
                    if !r.is_square(side) {
                        v.push(Violation {
                            tick: t,
                            units: vec![u.clone()],
                            text: format!(
                                "unit {u} enters holding {r}, not its {side}×{side} body ({spawned})"
                            ),
                        });
                    }
                    if let Some(c) = blocks.covered_cell(map, &r) {
                        v.push(Violation {
                            tick: t,
                            units: vec![u.clone()],
                            text: if r.is_square(1) {
                                format!(
                                    "unit {u} enters the map at {r}, a cell under a block ({spawned})"
                                )
                            } else {
                                format!(
                                    "unit {u} enters the map at {r} over {}, a cell under a block ({spawned})",
                                    Rect::cell(c)
                                )
                            },
                        });
                    }
                    size.insert(u.clone(), side);
                    st.entries += 1;
                    if t > tick {
                        st.waited += 1;
                    }
                    life.insert(u.clone(), Life::Present);
                }
                Some(Life::Present) => {
                    if !size.contains_key(&u) {
                        // A starting unit: its body is what it holds at tick 0.
                        if r.w() != r.h() {
                            v.push(Violation {
                                tick: t,
                                units: vec![u.clone()],
                                text: format!("starting unit {u} holds {r}, not a square body"),
                            });
                        }
                        size.insert(u.clone(), r.w());
                    }
                }
            }
            let side = size.get(&u).copied().unwrap_or(1);
            if side > 1 {
                st.body_ticks += 1;
            }
            if !r.is_square(side) {
                st.mid_step_ticks += 1;
            }
        }
        st.unit_ticks += here.len();
        st.peak_units = st.peak_units.max(here.len());

        // Nobody vanishes: present before and alive means present now;
        // starting units are present at tick 0.
        let mut missing: Vec<&String> = if t == 0 {
            life.iter()
                .filter(|(u, l)| matches!(l, Life::Present) && !here.contains_key(*u))
                .map(|(u, _)| u)
                .collect()
        } else {
            prev.keys().filter(|u| !here.contains_key(*u)).collect()
        };
        missing.sort();
        for u in missing {
            v.push(Violation {
                tick: t,
                units: vec![u.clone()],
                text: if t == 0 {
                    format!("starting unit {u} is not on the map at tick 0")
                } else {
                    format!(
                        "unit {u} was at {} at tick {} and is gone at tick {t} without a despawn",
                        prev[u],
                        t - 1
                    )
                },
            });
        }

        // Moves of the units present at both ticks.
        let mut prev_at: HashMap<Xy, &String> = HashMap::new();
        for (u, r) in &prev {
            for c in r.cells() {
                prev_at.insert(c, u);
            }
        }
        let mut diagonal: HashMap<Xy, (bool, &String)> = HashMap::new();
        let mut movers: Vec<(&String, Rect, Rect)> = here
            .iter()
            .filter_map(|(u, &q)| prev.get(u).map(|&p| (u, p, q)))
            .collect();
        movers.sort_by_key(|&(u, _, _)| u);
        let mut swapped: HashSet<(&String, &String)> = HashSet::new();
        for (u, p, q) in movers {
            let s = size.get(u).copied().unwrap_or(1);
            let step = if eight { "8-connected" } else { "4-connected" };
            match (p.is_square(s), q.is_square(s)) {
                (true, true) => {
                    let dx = p.x0.abs_diff(q.x0);
                    let dy = p.y0.abs_diff(q.y0);
                    let legal = if eight {
                        dx <= 1 && dy <= 1
                    } else {
                        dx + dy <= 1
                    };
                    if !legal {
                        v.push(Violation {
                            tick: t,
                            units: vec![u.clone()],
                            text: format!(
                                "unit {u} jumps from {p} (tick {}) to {q}, not a {step} move",
                                t - 1,
                            ),
                        });
                    }
                    if legal && dx == 1 && dy == 1 {
                        st.diagonals += 1;
                        // The box around both ends holds two cells beyond
                        // them: the corners the step passes.
                        let around = p.around(&q);
                        for c in around
                            .cells()
                            .filter(|c| !p.contains(*c) && !q.contains(*c))
                        {
                            if !blocks.open(map, c) {
                                v.push(Violation {
                                    tick: t,
                                    units: vec![u.clone()],
                                    text: format!(
                                        "unit {u} moves diagonally {p} -> {q} past the {} corner {}",
                                        if map.is_wall(c) { "wall" } else { "blocked" },
                                        Rect::cell(c)
                                    ),
                                });
                            }
                        }
                        if s == 1 {
                            let (p, q) = (p.anchor(), q.anchor());
                            let square = (p.0.min(q.0), p.1.min(q.1));
                            let falling = (p.0 < q.0) == (p.1 < q.1);
                            if let Some(&(other_falling, w)) = diagonal.get(&square) {
                                if other_falling != falling {
                                    v.push(Violation {
                                        tick: t,
                                        units: vec![w.clone(), u.clone()],
                                        text: format!(
                                            "units {w} ({} -> {}) and {u} ({}, {}) -> ({}, {}) cross diagonally in the square at {}",
                                            prev[w], here[w], p.0, p.1, q.0, q.1, Rect::cell(square)
                                        ),
                                    });
                                }
                            }
                            diagonal.insert(square, (falling, u));
                        } else {
                            // A body's diagonal sweeps the whole box, at
                            // both ticks: nobody else may hold any of it.
                            st.body_diagonals += 1;
                            let mut others: Vec<(&String, u32)> = Vec::new();
                            for c in around.cells() {
                                if let Some(&w) = prev_at.get(&c) {
                                    if w != u && !others.contains(&(w, t - 1)) {
                                        others.push((w, t - 1));
                                    }
                                }
                                if let Some(w) = at_cell.get(&c) {
                                    if w != u && !others.contains(&(w, t)) {
                                        others.push((w, t));
                                    }
                                }
                            }
                            for (w, when) in others {
                                v.push(Violation {
                                    tick: t,
                                    units: vec![u.clone(), w.clone()],
                                    text: format!(
                                        "unit {u}'s {s}×{s} body steps diagonally {p} -> {q}; the box it sweeps, {around}, meets unit {w} at tick {when}"
                                    ),
                                });
                            }
                        }
                    }
                }
                (true, false) => {
                    // A step of several ticks begins: it holds the box its
                    // body sweeps.
                    if !is_step_box(&q, &p, s, eight) {
                        v.push(Violation {
                            tick: t,
                            units: vec![u.clone()],
                            text: format!(
                                "unit {u} goes from {p} to {q}: not the box of a {step} step of its {s}×{s} body"
                            ),
                        });
                    }
                    set_out.insert(u.clone(), (p, 1));
                }
                (false, true) => {
                    // The step ends: at the far end of its box, or called
                    // off, back on the body it set out from.
                    if let Some((from, _)) = set_out.remove(u) {
                        let far = Rect::square(
                            (
                                if from.x0 == p.x0 { p.x1 + 1 - s } else { p.x0 },
                                if from.y0 == p.y0 { p.y1 + 1 - s } else { p.y0 },
                            ),
                            s,
                        );
                        if q == from {
                            st.steps_called_off += 1;
                            if notes.len() < 5 {
                                notes.push(format!(
                                    "tick {t}: unit {u} called off its step from {from} (box {p}) and is back on {from}"
                                ));
                            }
                        } else if q != far {
                            v.push(Violation {
                                tick: t,
                                units: vec![u.clone()],
                                text: format!(
                                    "unit {u} ends the step it began at {from} at {q}, neither at {far}, the far end of the box {p}, nor back where it began"
                                ),
                            });
                        }
                    }
                }
                (false, false) => {
                    // (A unit never seen on a body entered mid-step: that
                    // was flagged on entry.)
                    if let Some((from, held)) = set_out.get_mut(u) {
                        if p == q {
                            *held += 1;
                            if pace.get(u).is_some_and(|&k| *held == k) {
                                st.overlong_steps += 1;
                                if notes.len() < 5 {
                                    notes.push(format!(
                                        "tick {t}: unit {u} has held the box {q} of its step from {from} for {held} ticks, at {} ticks a cell",
                                        pace[u]
                                    ));
                                }
                            }
                        } else if is_step_box(&q, from, s, eight) {
                            // Called off, and a new step from the same body.
                            st.steps_called_off += 1;
                            *held = 1;
                            if notes.len() < 5 {
                                notes.push(format!(
                                    "tick {t}: unit {u} called off its step from {from} (box {p}) for another (box {q})"
                                ));
                            }
                        } else {
                            v.push(Violation {
                                tick: t,
                                units: vec![u.clone()],
                                text: format!(
                                    "unit {u} goes from the box {p} to the box {q} in the middle of a step"
                                ),
                            });
                        }
                    }
                }
            }
            if p != q && blocks.covered_cell(map, &p).is_none() {
                if let Some(c) = blocks.covered_cell(map, &q) {
                    v.push(Violation {
                        tick: t,
                        units: vec![u.clone()],
                        text: if q.is_square(1) && p.is_square(1) {
                            format!(
                                "unit {u} enters {q}, a cell under a block, from the open cell {p}"
                            )
                        } else {
                            format!(
                                "unit {u} goes from open ground at {p} to {q}, over {}, a cell under a block",
                                Rect::cell(c)
                            )
                        },
                    });
                }
            }
            if p != q {
                // Swaps: u now where w was, and w now where u was.
                for c in q.cells() {
                    let Some(&w) = prev_at.get(&c) else {
                        continue;
                    };
                    if w == u || swapped.contains(&(w, u)) || swapped.contains(&(u, w)) {
                        continue;
                    }
                    if here.get(w).is_some_and(|wq| wq.meets(&p)) {
                        swapped.insert((u, w));
                        v.push(Violation {
                            tick: t,
                            units: vec![u.clone(), w.clone()],
                            text: if p.is_square(1) && q.is_square(1) {
                                format!("units {u} and {w} swap cells {p} and {q}")
                            } else {
                                format!(
                                    "units {u} and {w} swap places: {u} goes {p} -> {q}, {w} goes {} -> {}",
                                    prev[w], here[w]
                                )
                            },
                        });
                    }
                }
            }
        }
        prev = here;
    }
    let alive_at_end = life.len();
    Checked {
        violations: v,
        notes,
        stats: st,
        alive_at_end,
        despawns_applied,
        spawns_applied,
    }
}

/// Whether `b` is the box a body of side `s` at `body` sweeps in one step
/// (straight, or diagonal on an 8-connected map).
fn is_step_box(b: &Rect, body: &Rect, s: u32, eight: bool) -> bool {
    let (gw, gh) = (b.w().saturating_sub(s), b.h().saturating_sub(s));
    b.holds(body) && gw <= 1 && gh <= 1 && gw + gh >= 1 && (eight || gw + gh == 1)
}

/// A violation with what led to it: the script's events of the ticks just
/// before, and the units' cells and events.
fn explain(x: &Violation, events: &[Event], trace: &[Vec<(String, Rect)>], map: &Map) -> String {
    let mut s = format!("tick {}: {}\n", x.tick, x.text);
    let from = x.tick.saturating_sub(3);
    let _ = writeln!(s, "  events of ticks {from}..={}:", x.tick);
    for e in events.iter().filter(|e| (from..=x.tick).contains(&e.tick)) {
        let _ = writeln!(s, "    line {}: {}", e.line, e.text());
    }
    for u in &x.units {
        let _ = write!(s, "  unit {u}:");
        let (first, last) = (
            x.tick.saturating_sub(4) as usize,
            (x.tick as usize + 1).min(trace.len() - 1),
        );
        for (t, rows) in trace.iter().enumerate().take(last + 1).skip(first) {
            match rows.iter().find(|(l, _)| l == u) {
                Some((_, p)) => {
                    let _ = write!(s, " t{t}={p}");
                }
                None => {
                    let _ = write!(s, " t{t}=absent");
                }
            }
        }
        s.push('\n');
        for e in events.iter().filter(|e| e.names(u) && e.tick <= x.tick) {
            let _ = writeln!(s, "    line {}: {}", e.line, e.text());
        }
    }
    // The 7×7 neighbourhood of the first unit's top-left cell at that tick.
    if let Some(u) = x.units.first() {
        if let Some((_, r)) = trace[x.tick as usize].iter().find(|(l, _)| l == u) {
            let c = r.anchor();
            let _ = writeln!(s, "  map around {c:?} ('@' wall, '.' open):");
            for y in c.1.saturating_sub(3)..=(c.1 + 3).min(map.height - 1) {
                s.push_str("    ");
                for xx in c.0.saturating_sub(3)..=(c.0 + 3).min(map.width - 1) {
                    s.push(if map.is_wall((xx, y)) { '@' } else { '.' });
                }
                s.push('\n');
            }
        }
    }
    s
}

// ---------------------------------------------------------------------------
// Runs.

/// Where a case's map comes from.
#[derive(Clone, Copy, Debug)]
enum MapSource {
    /// `--generate WxH:DENSITY`.
    Generated { w: u32, h: u32, density: f64 },
    /// A MovingAI file of rooms and doors written by this test (`--map`).
    Rooms { w: u32, h: u32 },
    /// A MovingAI file with this text (`--map`).
    Text {
        name: &'static str,
        text: &'static str,
    },
}

#[derive(Clone, Copy, Debug)]
struct Case {
    /// Names the case's files, with the map and the seed.
    tag: &'static str,
    map: MapSource,
    eight: bool,
    seed: u64,
    units: usize,
    /// Events are drawn for ticks 0..=span.
    span: u32,
    max_ticks: u32,
    features: Features,
    /// More flags of `throng run` (a mixed crowd's shares).
    flags: &'static [&'static str],
}

impl Case {
    fn name(&self) -> String {
        let m = match self.map {
            MapSource::Generated { w, h, density } => format!("gen{w}x{h}-{density}"),
            MapSource::Rooms { w, h } => format!("rooms{w}x{h}"),
            MapSource::Text { name, .. } => name.to_string(),
        };
        format!(
            "{}-{m}-c{}-s{}-n{}",
            self.tag,
            if self.eight { 8 } else { 4 },
            self.seed,
            self.units
        )
    }
}

/// A map of rooms joined by doors, with every wall letter MovingAI knows
/// and open cells marked `.`, `G` or `S`.
fn rooms_map(w: u32, h: u32, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = vec![vec!['.'; w as usize]; h as usize];
    for (y, row) in g.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            let (x, y) = (x as u32, y as u32);
            if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                *c = 'T';
            } else if x % 8 == 0 || y % 8 == 0 {
                *c = '@';
            } else if rng.gen_bool(0.04) {
                *c = 'O';
            } else if rng.gen_bool(0.02) {
                *c = if rng.gen_bool(0.5) { 'G' } else { 'S' };
            }
        }
    }
    // Doors (one or two cells wide) in every wall segment between rooms.
    for y0 in (0..h).step_by(8) {
        for x0 in (0..w).step_by(8) {
            if x0 > 0 && x0 < w - 1 && y0 + 1 < h - 1 {
                let y = (y0 + rng.gen_range(1..7)).min(h - 2);
                g[y as usize][x0 as usize] = '.';
                if rng.gen_bool(0.5) && y + 1 < h - 1 && (y + 1) % 8 != 0 {
                    g[y as usize + 1][x0 as usize] = '.';
                }
            }
            if y0 > 0 && y0 < h - 1 && x0 + 1 < w - 1 {
                let x = (x0 + rng.gen_range(1..7)).min(w - 2);
                g[y0 as usize][x as usize] = '.';
                if rng.gen_bool(0.5) && x + 1 < w - 1 && (x + 1) % 8 != 0 {
                    g[y0 as usize][x as usize + 1] = '.';
                }
            }
        }
    }
    // A pond in some rooms.
    for _ in 0..(w * h / 300) {
        let (x, y) = (rng.gen_range(2..w - 3), rng.gen_range(2..h - 3));
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let c = &mut g[(y + dy) as usize][(x + dx) as usize];
            if *c != 'T' {
                *c = 'W';
            }
        }
    }
    let mut s = format!("type octile\nheight {h}\nwidth {w}\nmap\n");
    for row in g {
        s.extend(row);
        s.push('\n');
    }
    s
}

fn throng() -> Command {
    Command::new(env!("CARGO_BIN_EXE_throng"))
}

/// The map and instance arguments of a case (its directory holds the map
/// file of a `Rooms` case).
fn instance_args(case: &Case, dir: &Path) -> Vec<String> {
    let mut a: Vec<String> = vec!["run".into()];
    match case.map {
        MapSource::Generated { w, h, density } => {
            a.extend(["--generate".into(), format!("{w}x{h}:{density}")])
        }
        MapSource::Rooms { .. } | MapSource::Text { .. } => {
            a.extend(["--map".into(), path_str(&dir.join("given.map"))])
        }
    }
    a.extend([
        "--seed".into(),
        case.seed.to_string(),
        "--units".into(),
        case.units.to_string(),
        "--connectivity".into(),
        if case.eight { "8" } else { "4" }.into(),
        "--threads".into(),
        "2".into(),
        "--quiet".into(),
    ]);
    a.extend(case.flags.iter().map(|f| f.to_string()));
    a
}

fn path_str(p: &Path) -> String {
    p.to_str().expect("temporary paths are UTF-8").to_string()
}

fn run_ok(args: &[String], what: &str) {
    let out = throng()
        .args(args)
        .output()
        .expect("the throng binary runs");
    assert!(
        out.status.success(),
        "{what}: throng {} exited with {:?}\nstderr: {}",
        args.join(" "),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A script drawn by [`Generator`] for the case.
fn drawn_script(case: &Case, map: &Map, starts: &[Rect]) -> Vec<Event> {
    let mut gen = Generator::new(
        map,
        case.eight,
        starts,
        case.seed,
        case.units + 150,
        case.features,
    );
    gen.tick_zero();
    for t in 1..=case.span {
        gen.tick(t, case.span);
    }
    gen.finish()
}

/// Makes a case's script from the map and the starting units' bodies.
type ScriptMaker<'a> = &'a dyn Fn(&Case, &Map, &[Rect]) -> Vec<Event>;

/// Runs one case: reads the map and the starting cells from a run of no
/// ticks, makes the script, runs it with a trace, checks the trace. Returns
/// the failure report, if any, and what was exercised.
fn run_case(case: &Case, make_script: ScriptMaker) -> (Option<String>, Stats) {
    let started = Instant::now();
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "throng-live-{}-{}",
        case.name(),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let given = match case.map {
        MapSource::Generated { .. } => None,
        MapSource::Rooms { w, h } => Some(rooms_map(w, h, case.seed)),
        MapSource::Text { text, .. } => Some(text.to_string()),
    };
    if let Some(text) = &given {
        std::fs::write(dir.join("given.map"), text).unwrap();
    }
    let inst = instance_args(case, &dir);

    // The map and the starting cells.
    let (map0, trace0) = (dir.join("first.map"), dir.join("first.csv"));
    let mut args = inst.clone();
    args.extend([
        "--max-ticks".into(),
        "0".into(),
        "--save-map".into(),
        path_str(&map0),
        "--trace".into(),
        path_str(&trace0),
    ]);
    run_ok(&args, "the run of no ticks");
    let map = Map::parse(&std::fs::read_to_string(&map0).unwrap());
    if let Some(text) = &given {
        let mine = Map::parse(text);
        assert_eq!(
            mine.wall, map.wall,
            "the saved map differs from the map read"
        );
    }
    let rows0 = parse_trace(&std::fs::read_to_string(&trace0).unwrap(), 0);
    let mut starts = vec![Rect::cell((0, 0)); case.units];
    for (u, r) in &rows0[0] {
        let i: usize = u.parse().expect("starting units have numeric labels");
        starts[i] = *r;
    }
    assert_eq!(rows0[0].len(), case.units, "every starting unit at tick 0");

    // The script.
    let mut events = make_script(case, &map, &starts);
    let script = script_text(&mut events, &format!("live trace check {}", case.name()));
    let events_path = dir.join("events.txt");
    std::fs::write(&events_path, script).unwrap();

    // The run.
    let (trace_path, summary_path, map_path) = (
        dir.join("trace.csv"),
        dir.join("summary.json"),
        dir.join("map.map"),
    );
    let mut args = inst;
    args.extend([
        "--events".into(),
        path_str(&events_path),
        "--trace".into(),
        path_str(&trace_path),
        "--summary-json".into(),
        path_str(&summary_path),
        "--save-map".into(),
        path_str(&map_path),
        "--max-ticks".into(),
        case.max_ticks.to_string(),
    ]);
    let command = format!("throng {}", args.join(" "));
    run_ok(&args, &case.name());
    let run_map = Map::parse(&std::fs::read_to_string(&map_path).unwrap());
    assert_eq!(
        run_map.wall,
        map.wall,
        "{}: the run's map changed",
        case.name()
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary_path).unwrap())
            .expect("the summary is JSON");
    let last_tick = json_u64(&summary, "ticks") as u32;
    let trace = parse_trace(&std::fs::read_to_string(&trace_path).unwrap(), last_tick);

    let checked = check(&map, case.eight, &events, case.units, &trace);
    let mut problems: Vec<String> = Vec::new();
    for x in checked.violations.iter().take(3) {
        problems.push(explain(x, &events, &trace, &map));
    }
    if checked.violations.len() > 3 {
        let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
        for x in &checked.violations {
            let kind: String = x
                .text
                .split_whitespace()
                .filter(|w| w.chars().all(|c| c.is_ascii_lowercase()))
                .take(4)
                .collect::<Vec<_>>()
                .join(" ");
            *by_kind.entry(kind).or_default() += 1;
        }
        let mut more = format!("{} violations in all:\n", checked.violations.len());
        for x in checked.violations.iter().skip(3).take(20) {
            let _ = writeln!(more, "  tick {}: {}", x.tick, x.text);
        }
        let _ = writeln!(more, "  by kind: {by_kind:?}");
        problems.push(more);
    }
    let collisions = json_u64(&summary, "collisions");
    if collisions != 0 {
        problems.push(format!("the summary counts {collisions} collisions"));
    }
    let despawned = json_count(&summary, "events", "despawned");
    if despawned != checked.despawns_applied as u64 {
        problems.push(format!(
            "the summary counts {despawned} despawns; the script applied {}",
            checked.despawns_applied
        ));
    }
    let spawned = json_count(&summary, "events", "spawned");
    // A crowd placed by flags spawns its units larger or slower than a
    // cell before the first tick.
    let crowd_spawns = if case.flags.is_empty() { 0 } else { case.units };
    if spawned < checked.stats.entries as u64
        || spawned > (checked.spawns_applied + crowd_spawns) as u64
    {
        problems.push(format!(
            "the summary counts {spawned} spawns; {} units entered the trace out of {} spawned",
            checked.stats.entries, checked.spawns_applied
        ));
    }
    let states: u64 = summary
        .get("states")
        .and_then(|s| s.as_object())
        .map(|o| o.values().filter_map(|x| x.as_u64()).sum())
        .unwrap_or(0);
    if states != checked.alive_at_end as u64 {
        problems.push(format!(
            "the summary's states count {states} living units; the script leaves {} alive",
            checked.alive_at_end
        ));
    }
    for note in &checked.notes {
        eprintln!("{}: note: {note}", case.name());
    }
    let st = checked.stats;
    eprintln!(
        "{}: {} ticks, {} events ({} spawns, {} respawns, {} despawns, {} blocks, {} unblocks, {} goals, {} stops), \
         peak {} units, {} unit-ticks, {} entries ({} waited), {} trapped by blocks, {} unit-ticks inside blocks, \
         {} diagonal moves ({} of bodies), {} body unit-ticks, {} mid-step unit-ticks ({} steps called off, {} overlong), \
         peak {} blocked cells, {:.1} s",
        case.name(),
        st.ticks,
        st.events,
        st.spawns,
        st.respawns,
        st.despawns,
        st.blocks,
        st.unblocks,
        st.goal_orders,
        st.stops,
        st.peak_units,
        st.unit_ticks,
        st.entries,
        st.waited,
        st.trapped,
        st.inside_ticks,
        st.diagonals,
        st.body_diagonals,
        st.body_ticks,
        st.mid_step_ticks,
        st.steps_called_off,
        st.overlong_steps,
        st.peak_blocked_cells,
        started.elapsed().as_secs_f64()
    );
    if problems.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
        (None, st)
    } else {
        let report = format!(
            "{}: the trace breaks the rules\nreproduce: {command}\n(files kept in {})\n{}",
            case.name(),
            dir.display(),
            problems.join("\n")
        );
        (Some(report), st)
    }
}

/// Runs the cases and fails with every broken rule found; checks that the
/// scripts did what they are for (units trapped by blocks, blocks lifted,
/// despawns; with late spawns, spawns that waited and labels spawned again).
fn run_cases(cases: &[Case]) -> Stats {
    let mut failures = Vec::new();
    let mut total = Stats::default();
    for case in cases {
        let (failure, st) = run_case(case, &drawn_script);
        failures.extend(failure);
        total += st;
    }
    eprintln!("all: {total:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(total.trapped > 0, "no block went up over a unit: {total:?}");
    assert!(total.unblocks > 0 && total.despawns > 0, "{total:?}");
    if cases.iter().any(|c| c.features.late_spawns) {
        assert!(total.waited > 0, "no spawn ever waited: {total:?}");
        assert!(total.respawns > 0, "no label was spawned again: {total:?}");
    }
    total
}

fn generated(w: u32, h: u32, density: f64) -> MapSource {
    MapSource::Generated { w, h, density }
}

/// A case whose run may go on 60 ticks past its last event.
fn case(
    tag: &'static str,
    map: MapSource,
    eight: bool,
    seed: u64,
    units: usize,
    span: u32,
) -> Case {
    Case {
        tag,
        map,
        eight,
        seed,
        units,
        span,
        max_ticks: span + 60,
        features: AROUND_KNOWN_FAULTS,
        flags: &[],
    }
}

// ---------------------------------------------------------------------------
// The checker on traces made by hand.

fn ev(tick: u32, action: Action) -> Event {
    Event {
        tick,
        action,
        line: 0,
    }
}

fn spawn(unit: &str, at: Xy, goal: Xy) -> Action {
    spawn_kind(unit, at, goal, CELL)
}

fn spawn_kind(unit: &str, at: Xy, goal: Xy, kind: Kind) -> Action {
    Action::Spawn {
        unit: unit.into(),
        at,
        goal,
        priority: None,
        kind,
    }
}

/// The violations the checker finds in a hand-made trace of one-cell units
/// on a 5×4 map with one wall at (1, 1).
fn violations(
    eight: bool,
    events: Vec<Event>,
    initial: usize,
    ticks: &[&[(&str, Xy)]],
) -> Vec<String> {
    let rows: Vec<Vec<(&str, Rect)>> = ticks
        .iter()
        .map(|rows| rows.iter().map(|&(u, p)| (u, Rect::cell(p))).collect())
        .collect();
    violations_on(
        "type octile\nheight 4\nwidth 5\nmap\n.....\n.@...\n.....\n.....\n",
        eight,
        events,
        initial,
        &rows,
    )
}

/// The violations the checker finds in a hand-made trace of rectangles on
/// an 8×6 map with one wall at (6, 1).
fn rect_violations(
    eight: bool,
    events: Vec<Event>,
    initial: usize,
    ticks: &[Vec<(&str, Rect)>],
) -> Vec<String> {
    violations_on(
        "type octile\nheight 6\nwidth 8\nmap\n........\n......@.\n........\n........\n........\n........\n",
        eight,
        events,
        initial,
        ticks,
    )
}

fn violations_on(
    map: &str,
    eight: bool,
    mut events: Vec<Event>,
    initial: usize,
    ticks: &[Vec<(&str, Rect)>],
) -> Vec<String> {
    let map = Map::parse(map);
    script_text(&mut events, "hand-made");
    let trace: Vec<Vec<(String, Rect)>> = ticks
        .iter()
        .map(|rows| rows.iter().map(|&(u, r)| (u.to_string(), r)).collect())
        .collect();
    check(&map, eight, &events, initial, &trace)
        .violations
        .into_iter()
        .map(|v| format!("tick {}: {}", v.tick, v.text))
        .collect()
}

/// The checker is no rubber stamp: each broken rule, alone in a hand-made
/// trace, is found at its tick; a trace keeping the rules through
/// despawns, a same-tick respawn, a waiting spawn and a unit leaving a
/// block passes.
#[test]
fn checker_catches_each_broken_rule() {
    let block = |t: u32, a: Xy, b: Xy| ev(t, Action::Block(a, b));
    // What, 8-connected, the script, starting units, the trace by tick,
    // the violation expected.
    type Broken<'a> = (
        &'a str,
        bool,
        Vec<Event>,
        usize,
        Vec<&'a [(&'a str, Xy)]>,
        &'a str,
    );
    let cases: Vec<Broken> = vec![
        (
            "shared cell",
            false,
            vec![],
            2,
            vec![
                &[("0", (0, 0)), ("1", (2, 0))],
                &[("0", (1, 0)), ("1", (1, 0))],
            ],
            "tick 1: units 0 and 1 share cell (1, 0)",
        ),
        (
            "swap",
            false,
            vec![],
            2,
            vec![
                &[("0", (0, 0)), ("1", (1, 0))],
                &[("0", (1, 0)), ("1", (0, 0))],
            ],
            "tick 1: units 0 and 1 swap cells (0, 0) and (1, 0)",
        ),
        (
            "diagonal step on a 4-connected map",
            false,
            vec![],
            1,
            vec![&[("0", (2, 2))], &[("0", (3, 3))]],
            "not a 4-connected move",
        ),
        (
            "two cells in one tick",
            true,
            vec![],
            1,
            vec![&[("0", (2, 2))], &[("0", (4, 2))]],
            "not a 8-connected move",
        ),
        (
            "diagonal past a wall",
            true,
            vec![],
            1,
            vec![&[("0", (0, 1))], &[("0", (1, 2))]],
            "past the wall corner (1, 1)",
        ),
        (
            "diagonal past a block",
            true,
            vec![block(1, (3, 2), (3, 2))],
            1,
            vec![&[("0", (2, 2))], &[("0", (3, 3))]],
            "past the blocked corner (3, 2)",
        ),
        (
            "diagonal crossing",
            true,
            vec![],
            2,
            vec![
                &[("0", (2, 2)), ("1", (3, 2))],
                &[("0", (3, 3)), ("1", (2, 3))],
            ],
            "cross diagonally in the square at (2, 2)",
        ),
        (
            "entering a block",
            false,
            vec![block(1, (4, 3), (4, 0))],
            1,
            vec![&[("0", (3, 0))], &[("0", (4, 0))]],
            "tick 1: unit 0 enters (4, 0), a cell under a block, from the open cell (3, 0)",
        ),
        (
            "back into a block it had left",
            false,
            vec![block(1, (2, 2), (3, 3))],
            1,
            vec![
                &[("0", (2, 2))],
                &[("0", (3, 2))],
                &[("0", (4, 2))],
                &[("0", (3, 2))],
            ],
            "tick 3: unit 0 enters (3, 2), a cell under a block, from the open cell (4, 2)",
        ),
        (
            "into a block still up after its own was lifted",
            false,
            vec![
                block(1, (2, 2), (2, 2)),
                block(1, (3, 2), (3, 3)),
                ev(2, Action::Unblock((2, 2), (2, 2))),
            ],
            1,
            vec![&[("0", (2, 2))], &[("0", (2, 2))], &[("0", (3, 2))]],
            "tick 2: unit 0 enters (3, 2), a cell under a block, from the open cell (2, 2)",
        ),
        (
            "on the map before its spawn tick",
            false,
            vec![ev(2, spawn("a", (0, 0), (4, 3)))],
            0,
            vec![&[], &[("a", (0, 0))], &[("a", (0, 0))]],
            "tick 1: unit a at (0, 0) is on the map before any spawn names it",
        ),
        (
            "entering off its spawn cell",
            false,
            vec![ev(1, spawn("a", (0, 0), (4, 3)))],
            0,
            vec![&[], &[("a", (1, 0))]],
            "tick 1: unit a enters at (1, 0), not at its spawn cell (0, 0)",
        ),
        (
            "entering under a block",
            false,
            vec![block(1, (0, 0), (0, 0)), ev(1, spawn("a", (0, 0), (4, 3)))],
            0,
            vec![&[], &[("a", (0, 0))]],
            "tick 1: unit a enters the map at (0, 0), a cell under a block",
        ),
        (
            "on the map after its despawn",
            false,
            vec![ev(1, Action::Despawn("0".into()))],
            1,
            vec![&[("0", (0, 0))], &[("0", (0, 0))]],
            "tick 1: unit 0 at (0, 0) is on the map after its despawn",
        ),
        (
            "vanishing",
            false,
            vec![],
            1,
            vec![&[("0", (0, 0))], &[]],
            "tick 1: unit 0 was at (0, 0) at tick 0 and is gone at tick 1 without a despawn",
        ),
        (
            "a starting unit missing",
            false,
            vec![],
            2,
            vec![&[("0", (0, 0))]],
            "tick 0: starting unit 1 is not on the map at tick 0",
        ),
        (
            "on a wall",
            false,
            vec![],
            1,
            vec![&[("0", (1, 1))]],
            "tick 0: unit 0 at (1, 1) stands on a wall of the map",
        ),
    ];
    for (what, eight, events, initial, ticks, expected) in cases {
        let found = violations(eight, events, initial, &ticks);
        assert!(
            found.len() == 1 && found[0].contains(expected),
            "{what}: expected one violation `{expected}`, found {found:#?}"
        );
    }

    // A trace keeping every rule.
    let events = vec![
        ev(0, spawn("a", (0, 0), (4, 0))),
        ev(0, block(0, (2, 2), (3, 3)).action),
        ev(2, Action::Despawn("a".into())),
        ev(2, spawn("a", (4, 3), (0, 3))),
        ev(2, Action::Unblock((3, 3), (2, 2))),
        ev(3, Action::Goal("0".into(), (0, 3))),
        ev(3, Action::Despawn("1".into())),
        ev(3, spawn("1", (2, 3), (0, 0))),
    ];
    let found = violations(
        true,
        events,
        2,
        &[
            // 0 starts on a, which waits; 1 starts inside the block.
            &[("0", (0, 0)), ("1", (2, 2))],
            &[("0", (1, 0)), ("1", (3, 2)), ("a", (0, 0))],
            // a leaves and comes back elsewhere; 1 steps out of the block.
            &[("0", (2, 0)), ("1", (4, 2)), ("a", (4, 3))],
            // 1 comes back at its new spawn cell, on open ground now.
            &[("0", (3, 1)), ("1", (2, 3)), ("a", (3, 3))],
            &[("0", (4, 2)), ("1", (1, 3)), ("a", (4, 3))],
        ],
    );
    assert!(found.is_empty(), "a trace keeping the rules: {found:#?}");
}

/// The rectangle rules, each broken alone in a hand-made trace of bodies
/// and steps of several ticks, are found at their tick; a trace of a 2×2
/// body stepping straight and diagonally, a slow one-cell unit's step and
/// a 3×3 spawn passes.
#[test]
fn checker_catches_each_broken_rectangle_rule() {
    let sq = Rect::square;
    let bx = |a: Xy, b: Xy| Rect::new(a, b);
    let one = |p: Xy| Rect::cell(p);
    let block = |t: u32, a: Xy, b: Xy| ev(t, Action::Block(a, b));
    let big = |size: u32| Kind {
        size,
        pace: 1,
        curves: false,
    };
    // What, 8-connected, the script, starting units, the trace by tick,
    // a violation expected, whether it is the only one.
    type Broken<'a> = (
        &'a str,
        bool,
        Vec<Event>,
        usize,
        Vec<Vec<(&'a str, Rect)>>,
        &'a str,
        bool,
    );
    let cases: Vec<Broken> = vec![
        (
            "bodies overlapping",
            true,
            vec![],
            2,
            vec![
                vec![("0", sq((0, 0), 2)), ("1", sq((2, 0), 2))],
                vec![("0", sq((0, 0), 2)), ("1", sq((1, 0), 2))],
            ],
            "tick 1: units 0 and 1 share cell (1, 0)",
            true,
        ),
        (
            "a body on a wall",
            true,
            vec![],
            1,
            vec![vec![("0", sq((5, 0), 2))]],
            "tick 0: unit 0 at (5, 0) 2×2 holds (6, 1), a wall of the map",
            true,
        ),
        (
            "a body off the map",
            true,
            vec![],
            1,
            vec![vec![("0", sq((7, 0), 2))]],
            "tick 0: unit 0 at (7, 0) 2×2 is outside the map",
            false,
        ),
        (
            "bodies swapping places",
            true,
            vec![],
            2,
            vec![
                vec![("0", sq((0, 0), 2)), ("1", sq((2, 0), 2))],
                vec![("0", sq((2, 0), 2)), ("1", sq((0, 0), 2))],
            ],
            "tick 1: units 0 and 1 swap places: 0 goes (0, 0) 2×2 -> (2, 0) 2×2",
            false,
        ),
        (
            "a body's diagonal sweeping a unit",
            true,
            vec![],
            2,
            vec![
                vec![("0", sq((0, 0), 2)), ("1", one((2, 0)))],
                vec![("0", sq((1, 1), 2)), ("1", one((2, 0)))],
            ],
            "tick 1: unit 0's 2×2 body steps diagonally (0, 0) 2×2 -> (1, 1) 2×2; the box it sweeps, (0, 0) 3×3, meets unit 1 at tick 0",
            false,
        ),
        (
            "a body's diagonal past a wall",
            true,
            vec![],
            1,
            vec![vec![("0", sq((5, 2), 2))], vec![("0", sq((4, 1), 2))]],
            "tick 1: unit 0 moves diagonally (5, 2) 2×2 -> (4, 1) 2×2 past the wall corner (6, 1)",
            true,
        ),
        (
            "a body jumping",
            true,
            vec![],
            1,
            vec![vec![("0", sq((0, 0), 2))], vec![("0", sq((2, 0), 2))]],
            "tick 1: unit 0 jumps from (0, 0) 2×2 (tick 0) to (2, 0) 2×2, not a 8-connected move",
            true,
        ),
        (
            "a step's box longer than a step",
            true,
            vec![],
            1,
            vec![vec![("0", one((0, 0)))], vec![("0", bx((0, 0), (2, 0)))]],
            "tick 1: unit 0 goes from (0, 0) to (0, 0) 3×1: not the box of a 8-connected step of its 1×1 body",
            true,
        ),
        (
            "a diagonal step's box on a 4-connected map",
            false,
            vec![],
            1,
            vec![vec![("0", one((0, 0)))], vec![("0", bx((0, 0), (1, 1)))]],
            "not the box of a 4-connected step",
            true,
        ),
        (
            "a step ending where it began",
            true,
            vec![],
            1,
            vec![
                vec![("0", one((0, 0)))],
                vec![("0", bx((0, 0), (1, 1)))],
                vec![("0", one((1, 0)))],
            ],
            "tick 2: unit 0 ends the step it began at (0, 0) at (1, 0), neither at (1, 1), the far end of the box (0, 0) 2×2, nor back where it began",
            true,
        ),
        (
            "a step's box changing half-way",
            true,
            vec![],
            1,
            vec![
                vec![("0", one((0, 0)))],
                vec![("0", bx((0, 0), (1, 0)))],
                vec![("0", bx((1, 0), (2, 0)))],
            ],
            "tick 2: unit 0 goes from the box (0, 0) 2×1 to the box (1, 0) 2×1 in the middle of a step",
            true,
        ),
        (
            "a body stepping into a block",
            true,
            vec![block(1, (3, 0), (3, 0))],
            1,
            vec![vec![("0", sq((1, 0), 2))], vec![("0", sq((2, 0), 2))]],
            "tick 1: unit 0 goes from open ground at (1, 0) 2×2 to (2, 0) 2×2, over (3, 0), a cell under a block",
            true,
        ),
        (
            "a step's box into a block",
            true,
            vec![block(1, (1, 0), (1, 0))],
            1,
            vec![vec![("0", one((0, 0)))], vec![("0", bx((0, 0), (1, 0)))]],
            "tick 1: unit 0 goes from open ground at (0, 0) to (0, 0) 2×1, over (1, 0), a cell under a block",
            true,
        ),
        (
            "entering without its body",
            true,
            vec![ev(1, spawn_kind("a", (0, 0), (4, 4), big(2)))],
            0,
            vec![vec![], vec![("a", one((0, 0)))]],
            "tick 1: unit a enters holding (0, 0), not its 2×2 body",
            true,
        ),
        (
            "a body entering over a block",
            true,
            vec![
                block(1, (2, 2), (2, 2)),
                ev(1, spawn_kind("a", (1, 1), (4, 3), big(2))),
            ],
            0,
            vec![vec![], vec![("a", sq((1, 1), 2))]],
            "tick 1: unit a enters the map at (1, 1) 2×2 over (2, 2), a cell under a block",
            true,
        ),
        (
            "a starting unit that is no square",
            true,
            vec![],
            1,
            vec![vec![("0", bx((0, 0), (1, 0)))]],
            "tick 0: starting unit 0 holds (0, 0) 2×1, not a square body",
            true,
        ),
    ];
    for (what, eight, events, initial, ticks, expected, alone) in cases {
        let found = rect_violations(eight, events, initial, &ticks);
        let seen = found.iter().any(|f| f.contains(expected));
        assert!(
            seen && (!alone || found.len() == 1),
            "{what}: expected {}`{expected}`, found {found:#?}",
            if alone { "only " } else { "" }
        );
    }

    // A trace keeping every rule: a 2×2 body steps right, then diagonally;
    // a one-cell unit takes two ticks over a step, calls off the next half
    // way and sets out anew; a 3×3 body enters; a unit trapped by a block
    // steps out of it.
    let events = vec![
        ev(1, spawn_kind("b", (0, 3), (0, 3), big(3))),
        block(1, (7, 2), (7, 3)),
        ev(3, Action::Unblock((7, 3), (7, 2))),
    ];
    let found = rect_violations(
        true,
        events,
        3,
        &[
            vec![("0", sq((0, 0), 2)), ("1", one((4, 4))), ("2", one((7, 2)))],
            vec![
                ("0", sq((1, 0), 2)),
                ("1", bx((3, 4), (4, 4))),
                ("2", one((7, 3))),
                ("b", sq((0, 3), 3)),
            ],
            vec![
                ("0", sq((2, 1), 2)),
                ("1", one((3, 4))),
                ("2", one((7, 4))),
                ("b", sq((0, 3), 3)),
            ],
            vec![
                ("0", sq((2, 1), 2)),
                ("1", bx((3, 3), (4, 4))),
                ("2", one((7, 4))),
                ("b", sq((0, 3), 3)),
            ],
            vec![
                ("0", sq((2, 1), 2)),
                ("1", bx((3, 4), (4, 5))),
                ("2", one((7, 4))),
                ("b", sq((0, 3), 3)),
            ],
            vec![
                ("0", sq((2, 1), 2)),
                ("1", one((3, 4))),
                ("2", one((7, 4))),
                ("b", sq((0, 3), 3)),
            ],
        ],
    );
    assert!(found.is_empty(), "a trace keeping the rules: {found:#?}");
}

// ---------------------------------------------------------------------------
// Live runs.

/// The 4-connected cases: generated maps of 32×32 and 48×48 cells, 10 % to
/// 25 % obstacles, 20 to 150 starting units, 300 to 600 ticks of events.
fn four_connected_cases(tag: &'static str) -> Vec<Case> {
    vec![
        case(tag, generated(32, 32, 0.2), false, 11, 60, 450),
        case(tag, generated(48, 48, 0.1), false, 12, 150, 300),
        case(tag, generated(32, 32, 0.25), false, 13, 100, 400),
        case(tag, generated(48, 48, 0.2), false, 14, 20, 600),
        case(tag, generated(32, 32, 0.15), false, 15, 120, 450),
        case(tag, generated(48, 48, 0.25), false, 16, 60, 600),
    ]
}

/// The 8-connected cases, on the same kinds of maps.
fn eight_connected_cases(tag: &'static str) -> Vec<Case> {
    vec![
        case(tag, generated(32, 32, 0.25), true, 21, 40, 500),
        case(tag, generated(48, 48, 0.15), true, 22, 100, 350),
        case(tag, generated(32, 32, 0.1), true, 23, 150, 300),
        case(tag, generated(48, 48, 0.2), true, 24, 80, 600),
        case(tag, generated(32, 32, 0.2), true, 25, 120, 400),
        case(tag, generated(48, 48, 0.25), true, 26, 20, 600),
    ]
}

/// A MovingAI map of rooms joined by narrow doors (blocks there cut rooms
/// off), read with `--map`, in both connectivities; and runs with no
/// starting units, where every unit comes from the script.
fn rooms_and_script_only_cases(tag: &'static str) -> Vec<Case> {
    vec![
        case(tag, MapSource::Rooms { w: 40, h: 40 }, true, 31, 20, 600),
        case(tag, MapSource::Rooms { w: 48, h: 40 }, false, 32, 60, 450),
        case(tag, MapSource::Rooms { w: 48, h: 48 }, true, 35, 100, 400),
        case(tag, generated(32, 32, 0.1), false, 33, 0, 300),
        case(tag, generated(48, 48, 0.2), true, 34, 0, 400),
    ]
}

fn with_features(mut cases: Vec<Case>, features: Features) -> Vec<Case> {
    for c in &mut cases {
        c.features = features;
    }
    cases
}

/// 4-connected runs keep every rule, and the engine's own validator counts
/// no collision, with the reduced scripts (no spawn after tick 0, touching
/// blocks lifted together).
#[test]
fn four_connected_traces_keep_the_rules() {
    run_cases(&four_connected_cases("four"));
}

/// The same for 8-connected runs: diagonal steps never pass a wall or a
/// block at their corners, and never cross.
#[test]
fn eight_connected_traces_keep_the_rules() {
    run_cases(&eight_connected_cases("eight"));
}

/// The same on rooms joined by doors, and with every unit from the script.
#[test]
fn rooms_and_units_from_the_script_alone_keep_the_rules() {
    run_cases(&rooms_and_script_only_cases("rooms"));
}

// Minimal cases of engine faults this check found (each failed before
// its fix), then the full stream.

/// A unit spawned on a free cell and given a `goal` in the same tick is
/// first seen on its spawn cell.
#[test]
fn a_spawned_unit_is_first_seen_on_its_spawn_cell() {
    let c = case("spawn-goal", generated(8, 8, 0.0), false, 1, 1, 5);
    let script = |_: &Case, _: &Map, starts: &[Rect]| {
        let at = if starts[0].anchor() == (0, 0) {
            (7, 0)
        } else {
            (0, 0)
        };
        vec![
            ev(5, spawn("a", at, (7, 7))),
            ev(5, Action::Goal("a".into(), (7, 7))),
        ]
    };
    let (failure, _) = run_case(&c, &script);
    assert!(failure.is_none(), "{}", failure.unwrap_or_default());
}

/// A starting unit under a block placed at tick 0 stands inside it from
/// the start and walks out; the engine's validator counts no collision.
#[test]
fn a_starting_unit_inside_a_tick_0_block_is_no_collision() {
    let c = case("start-block", generated(8, 8, 0.0), false, 1, 1, 5);
    let script = |_: &Case, _: &Map, starts: &[Rect]| {
        let at = starts[0].anchor();
        vec![ev(0, Action::Block(at, at))]
    };
    let (failure, _) = run_case(&c, &script);
    assert!(failure.is_none(), "{}", failure.unwrap_or_default());
}

/// A one-row corridor: a unit inside a block leaves through a second,
/// overlapping block; when its own block is lifted it stands on open
/// ground, and from there it may not step into the second block.
#[test]
fn a_unit_out_of_a_lifted_block_does_not_walk_into_another() {
    let mut c = case(
        "escape",
        MapSource::Text {
            name: "corridor",
            text: "type octile\nheight 1\nwidth 10\nmap\n..........\n",
        },
        false,
        1,
        0,
        5,
    );
    c.max_ticks = 12;
    let script = |_: &Case, _: &Map, _: &[Rect]| {
        vec![
            ev(0, spawn("a", (3, 0), (3, 0))),
            ev(1, Action::Block((0, 0), (6, 0))),
            ev(1, Action::Block((5, 0), (6, 0))),
            ev(2, Action::Unblock((0, 0), (6, 0))),
        ]
    };
    let (failure, _) = run_case(&c, &script);
    assert!(failure.is_none(), "{}", failure.unwrap_or_default());
}

/// The full stream on the 4-connected cases: spawns all through the run
/// (many on taken cells, so they wait), labels spawned again, orders in
/// spawn ticks, touching blocks lifted apart, blocks over starting units
/// at tick 0.
#[test]
fn four_connected_traces_of_the_full_stream_keep_the_rules() {
    run_cases(&with_features(four_connected_cases("four-full"), FULL));
}

/// The full stream on the 8-connected cases.
#[test]
fn eight_connected_traces_of_the_full_stream_keep_the_rules() {
    run_cases(&with_features(eight_connected_cases("eight-full"), FULL));
}

/// The full stream on rooms, and with every unit from the script.
#[test]
fn rooms_and_units_from_the_script_alone_with_the_full_stream_keep_the_rules() {
    run_cases(&with_features(
        rooms_and_script_only_cases("rooms-full"),
        FULL,
    ));
}

/// Cases of mixed kinds: scripts spawning bodies of 1×1 to 3×3 taking 1 to
/// 3 ticks a cell (curves too, 8-connected), and crowds placed by
/// `--large`, `--huge` and `--slow`, on small maps for a few hundred ticks.
fn mixed_cases(tag: &'static str) -> Vec<Case> {
    let kinds = Features {
        kinds: true,
        ..AROUND_KNOWN_FAULTS
    };
    let mut cases = vec![
        case(tag, generated(32, 32, 0.1), false, 41, 20, 250),
        case(tag, generated(32, 32, 0.1), true, 42, 20, 250),
        case(tag, MapSource::Rooms { w: 40, h: 40 }, true, 43, 0, 250),
        Case {
            flags: &["--large", "0.2", "--huge", "0.1", "--slow", "0.2"],
            ..case(tag, generated(32, 32, 0.1), false, 44, 40, 200)
        },
        Case {
            flags: &[
                "--large", "0.25", "--huge", "0.1", "--slow", "0.15", "--pace", "2", "--curves",
            ],
            ..case(tag, generated(40, 40, 0.1), true, 45, 50, 200)
        },
    ];
    for c in &mut cases {
        c.features = kinds;
    }
    cases
}

/// Mixed kinds keep every rule, and the engine's validator counts no
/// collision; the runs had bodies larger than a cell, steps of several
/// ticks and diagonals of bodies.
#[test]
fn mixed_kinds_keep_the_rules() {
    let cases = mixed_cases("mixed");
    let total = run_cases(&cases);
    assert!(
        total.body_ticks > 0,
        "no body larger than a cell: {total:?}"
    );
    assert!(
        total.mid_step_ticks > 0,
        "no step of several ticks: {total:?}"
    );
    assert!(total.body_diagonals > 0, "no diagonal of a body: {total:?}");
}

/// Cases over many seeds: sizes, densities, rooms, both connectivities,
/// 20 to 150 starting units.
fn many_seeds(tag: &'static str, seeds: std::ops::Range<u64>, span: u32) -> Vec<Case> {
    let mut cases = Vec::new();
    for seed in seeds {
        let map = match seed % 4 {
            0 => generated(32, 32, [0.1, 0.15, 0.2][(seed / 4 % 3) as usize]),
            1 => generated(48, 48, 0.25),
            2 => MapSource::Rooms { w: 48, h: 40 },
            _ => generated(48, 32, 0.2),
        };
        let units = [20, 60, 100, 150][(seed / 4 % 4) as usize];
        cases.push(case(tag, map, seed % 2 == 0, seed, units, span));
    }
    cases
}

/// With the reduced scripts, 24 more seeds keep every rule.
#[test]
fn many_seeds_keep_the_rules() {
    run_cases(&many_seeds("seeds", 200..224, 500));
}

/// A longer soak of the full stream over 24 seeds.
#[test]
#[ignore = "soak: about 10 s; run with --ignored"]
fn soak_of_the_full_stream() {
    run_cases(&with_features(many_seeds("soak", 100..124, 600), FULL));
}
