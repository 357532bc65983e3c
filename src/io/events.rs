//! Event files: a scripted stream of the game's calls, one per line, so a
//! live run can be driven and checked from outside.
//!
//! ```text
//! # comments start with '#'; fields are separated by blanks
//! TICK spawn UNIT X Y GX GY [size K] [pace P] [curves] [four_way] [priority P]
//! TICK despawn UNIT
//! TICK goal UNIT GX GY [group G]
//! TICK push_goal UNIT GX GY
//! TICK stop UNIT
//! TICK block X0 Y0 X1 Y1
//! TICK unblock X0 Y0 X1 Y1
//! ```
//!
//! `UNIT` is a label chosen by the file (units of a scenario are labelled
//! 0, 1, 2, … in row order). Coordinates are as in MovingAI scenarios:
//! x the column, y the row, from 0. An event of tick T is applied before
//! tick T is planned (tick 0: before the first tick, so spawns stand on
//! the map at tick 0); events of one tick in file order. Rectangles include
//! both corners.
//!
//! A spawn's options come in any order, each at most once: `size K` makes
//! the unit a K×K square (1 to 8 cells a side) anchored at its top-left
//! cell, so X Y and GX GY are where that corner enters and ends; `pace P`
//! makes a step of one cell take P ticks (1 to 8); `curves` lets it turn
//! on curves (on an 8-connected map); `four_way` keeps it to the four
//! straight steps; `priority P` (0 to 255) is Silver's unit priority.
//! Without them the unit is one cell moving a cell a tick, priority 0. A
//! goal order moves the same corner, so a body must fit there too; `group
//! G` marks it as one unit's goal of a group order, whose units may trade
//! goals.

use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;

use crate::map::Grid;
use crate::units::{UnitKind, MAX_PACE, MAX_SIZE};

/// Why an event file was refused: the file, the line, what was expected.
#[derive(Debug, thiserror::Error)]
pub enum EventsError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Underlying error.
        source: std::io::Error,
    },
    /// A line that breaks the format or names something that cannot be.
    #[error("{path}:{line}: {message}")]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// One event of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptedEvent {
    /// 1-based line it came from.
    pub line: usize,
    /// The tick it is applied before.
    pub tick: u32,
    /// What it does.
    pub action: Action,
}

/// What an event does.
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A new unit labelled `unit` of kind `kind` enters with its top-left
    /// cell at `at`, bound for `goal`.
    Spawn {
        unit: String,
        at: (u32, u32),
        goal: (u32, u32),
        priority: u8,
        kind: UnitKind,
    },
    Despawn {
        unit: String,
    },
    /// A new goal; `group` (0: none) is the group order it came from,
    /// whose units may trade goals.
    Goal {
        unit: String,
        goal: (u32, u32),
        group: u32,
    },
    PushGoal {
        unit: String,
        goal: (u32, u32),
    },
    Stop {
        unit: String,
    },
    /// A building over the rectangle between two corners.
    Block {
        from: (u32, u32),
        to: (u32, u32),
    },
    Unblock {
        from: (u32, u32),
        to: (u32, u32),
    },
}

impl Action {
    /// The unit label it names, if any.
    pub fn unit(&self) -> Option<&str> {
        match self {
            Action::Spawn { unit, .. }
            | Action::Despawn { unit }
            | Action::Goal { unit, .. }
            | Action::PushGoal { unit, .. }
            | Action::Stop { unit } => Some(unit),
            Action::Block { .. } | Action::Unblock { .. } => None,
        }
    }
}

/// Longest label accepted, in characters.
const MAX_LABEL: usize = 64;
/// Largest tick accepted.
pub const MAX_EVENT_TICK: u32 = 100_000_000;

/// Parses an event file's text (`path` names it in errors). Events come out
/// sorted by tick, file order kept within a tick.
pub fn parse_events(path: &Path, text: &str) -> Result<Vec<ScriptedEvent>, EventsError> {
    let err = |line: usize, message: String| EventsError::Line {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut out = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let content = raw.split('#').next().unwrap_or("");
        let f: Vec<&str> = content.split_whitespace().collect();
        if f.is_empty() {
            continue;
        }
        let num = |i: usize, what: &str| -> Result<u32, EventsError> {
            let s = f
                .get(i)
                .ok_or_else(|| err(line, format!("missing {what}")))?;
            s.parse::<u32>().map_err(|_| {
                err(
                    line,
                    format!("{what} `{s}` is not a whole number from 0 to 4294967295"),
                )
            })
        };
        let tick = num(0, "tick")?;
        if tick > MAX_EVENT_TICK {
            return Err(err(line, format!("tick {tick} is beyond {MAX_EVENT_TICK}")));
        }
        let kind = *f
            .get(1)
            .ok_or_else(|| err(line, "missing event kind after the tick".into()))?;
        let label = |i: usize| -> Result<String, EventsError> {
            let s = f
                .get(i)
                .ok_or_else(|| err(line, "missing unit label".into()))?;
            if s.chars().count() > MAX_LABEL {
                return Err(err(
                    line,
                    format!("unit label longer than {MAX_LABEL} characters"),
                ));
            }
            Ok(s.to_string())
        };
        let fields = |n: usize| -> Result<(), EventsError> {
            if f.len() != n {
                return Err(err(
                    line,
                    format!(
                        "`{kind}` takes {} fields after the tick, found {}",
                        n - 2,
                        f.len() - 2
                    ),
                ));
            }
            Ok(())
        };
        let action = match kind {
            "spawn" => {
                if f.len() < 7 {
                    return Err(err(
                        line,
                        format!(
                            "`spawn` takes UNIT X Y GX GY, then any of {SPAWN_OPTIONS}; found {} fields after the tick",
                            f.len() - 2
                        ),
                    ));
                }
                let (kind, priority) = spawn_options(&f[7..]).map_err(|m| err(line, m))?;
                Action::Spawn {
                    unit: label(2)?,
                    at: (num(3, "x")?, num(4, "y")?),
                    goal: (num(5, "goal x")?, num(6, "goal y")?),
                    priority,
                    kind,
                }
            }
            "despawn" => {
                fields(3)?;
                Action::Despawn { unit: label(2)? }
            }
            "stop" => {
                fields(3)?;
                Action::Stop { unit: label(2)? }
            }
            "goal" if f.len() == 7 && f[5] == "group" => {
                let (unit, goal) = (label(2)?, (num(3, "goal x")?, num(4, "goal y")?));
                let group = num(6, "group")?;
                Action::Goal { unit, goal, group }
            }
            "goal" | "push_goal" => {
                fields(5)?;
                let (unit, goal) = (label(2)?, (num(3, "goal x")?, num(4, "goal y")?));
                if kind == "goal" {
                    Action::Goal {
                        unit,
                        goal,
                        group: 0,
                    }
                } else {
                    Action::PushGoal { unit, goal }
                }
            }
            "block" | "unblock" => {
                fields(6)?;
                let from = (num(2, "x0")?, num(3, "y0")?);
                let to = (num(4, "x1")?, num(5, "y1")?);
                if kind == "block" {
                    Action::Block { from, to }
                } else {
                    Action::Unblock { from, to }
                }
            }
            other => {
                return Err(err(
                    line,
                    format!("unknown event `{other}`; expected spawn, despawn, goal, push_goal, stop, block or unblock"),
                ))
            }
        };
        out.push(ScriptedEvent { line, tick, action });
    }
    out.sort_by_key(|e| e.tick);
    Ok(out)
}

/// The options a spawn line may end with, as its errors name them.
const SPAWN_OPTIONS: &str = "`size K`, `pace P`, `curves`, `four_way`, `priority P`";

/// Reads a spawn line's options (the fields after GY): each at most once,
/// in any order. Returns the unit's kind and priority, or what was wrong.
fn spawn_options(fields: &[&str]) -> Result<(UnitKind, u8), String> {
    let mut kind = UnitKind::CELL;
    let mut priority = None;
    let (mut size, mut pace, mut curves, mut four_way) = (None, None, false, false);
    let mut k = 0;
    while k < fields.len() {
        let name = fields[k];
        // The number after `name`, within `range`.
        let value = |range: std::ops::RangeInclusive<u32>| -> Result<u8, String> {
            let s = fields.get(k + 1).ok_or_else(|| {
                format!(
                    "`{name}` needs a number from {} to {} after it",
                    range.start(),
                    range.end()
                )
            })?;
            let v = s.parse::<u32>().ok().filter(|v| range.contains(v));
            v.map(|v| v as u8).ok_or_else(|| {
                format!(
                    "{name} `{s}` is out of range: expected a whole number from {} to {}",
                    range.start(),
                    range.end()
                )
            })
        };
        let twice = |set: bool| -> Result<(), String> {
            if set {
                Err(format!("`{name}` is given twice"))
            } else {
                Ok(())
            }
        };
        match name {
            "size" => {
                twice(size.is_some())?;
                size = Some(value(1..=MAX_SIZE as u32)?);
                k += 2;
            }
            "pace" => {
                twice(pace.is_some())?;
                pace = Some(value(1..=MAX_PACE as u32)?);
                k += 2;
            }
            "priority" => {
                twice(priority.is_some())?;
                priority = Some(value(0..=255)?);
                k += 2;
            }
            "curves" => {
                twice(curves)?;
                curves = true;
                k += 1;
            }
            "four_way" => {
                twice(four_way)?;
                four_way = true;
                k += 1;
            }
            other => {
                let expected = format!("{SPAWN_OPTIONS} after UNIT X Y GX GY");
                return Err(format!(
                    "unknown `spawn` option `{other}`: expected {expected}"
                ));
            }
        }
    }
    kind.size = size.unwrap_or(1);
    kind.pace = pace.unwrap_or(1);
    if curves {
        kind = kind.with_curves();
    }
    if four_way {
        kind = kind.four_way();
    }
    Ok((kind, priority.unwrap_or(0)))
}

/// Reads and parses an event file.
pub fn read_events(path: &Path) -> Result<Vec<ScriptedEvent>, EventsError> {
    let text = std::fs::read_to_string(path).map_err(|source| EventsError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_events(path, &text)
}

/// Checks the events against the map and the units' lives before a run:
/// every cell on the map and no wall (a spawn or goal may lie under a
/// block: the unit waits, or its goal is unreachable, until the block
/// goes), every label alive when named (`initial` units are alive from the
/// start; a spawn may not reuse a living label; a despawned label may be
/// spawned again). A unit larger than a cell needs its whole body on open
/// ground at its spawn cell and at every goal it is given.
pub fn check_events(
    path: &Path,
    events: &[ScriptedEvent],
    grid: &Grid,
    initial: usize,
) -> Result<(), EventsError> {
    check_events_sized(path, events, grid, &vec![1; initial])
}

/// [`check_events`] for starting units of the given body sizes (labels
/// `0`, `1`, … in order), as a mixed crowd has.
pub fn check_events_sized(
    path: &Path,
    events: &[ScriptedEvent],
    grid: &Grid,
    initial_sizes: &[u8],
) -> Result<(), EventsError> {
    // Per label ever named: the body size of the unit alive under it, or
    // `None` once despawned.
    let mut alive: FxHashMap<&str, Option<u8>> = FxHashMap::default();
    let labels: Vec<String> = (0..initial_sizes.len()).map(|i| i.to_string()).collect();
    for (l, &size) in labels.iter().zip(initial_sizes) {
        alive.insert(l, Some(size));
    }
    for e in events {
        let err = |message: String| EventsError::Line {
            path: path.to_path_buf(),
            line: e.line,
            message,
        };
        let outside = |what: &str, (x, y): (u32, u32)| {
            err(format!(
                "{what} ({x}, {y}) is outside the {}×{} map",
                grid.width(),
                grid.height()
            ))
        };
        // The body of side `size` with its top-left cell at (x, y) lies on
        // the map's open ground.
        let body = |what: &str, (x, y): (u32, u32), size: u8| -> Result<(), EventsError> {
            if x >= grid.width() || y >= grid.height() {
                return Err(outside(what, (x, y)));
            }
            let s = size as u32;
            if size > 1 && (x + s > grid.width() || y + s > grid.height()) {
                return Err(err(format!(
                    "{what} ({x}, {y}): a {size}×{size} body there reaches ({}, {}), outside the {}×{} map",
                    x + s - 1,
                    y + s - 1,
                    grid.width(),
                    grid.height()
                )));
            }
            for (cx, cy) in (y..y + s).flat_map(|cy| (x..x + s).map(move |cx| (cx, cy))) {
                if !grid.is_open_terrain(grid.cell(cx, cy)) {
                    return Err(err(if size == 1 {
                        format!("{what} ({x}, {y}) is a wall of the map")
                    } else {
                        format!(
                            "{what} ({x}, {y}): the {size}×{size} body there covers ({cx}, {cy}), a wall of the map"
                        )
                    }));
                }
            }
            Ok(())
        };
        match &e.action {
            Action::Spawn {
                unit,
                at,
                goal,
                kind,
                ..
            } => {
                body("spawn cell", *at, kind.size)?;
                body("goal", *goal, kind.size)?;
                if matches!(alive.get(unit.as_str()), Some(Some(_))) {
                    return Err(err(format!("unit `{unit}` is already alive")));
                }
                alive.insert(unit, Some(kind.size));
            }
            Action::Block { from, to } | Action::Unblock { from, to } => {
                for c in [*from, *to] {
                    if c.0 >= grid.width() || c.1 >= grid.height() {
                        return Err(outside("corner", c));
                    }
                }
            }
            other => {
                let unit = other.unit().expect("unit actions name a unit");
                let Some(&Some(size)) = alive.get(unit) else {
                    return Err(err(format!(
                        "unit `{unit}` is not alive at tick {} (never spawned, or despawned)",
                        e.tick
                    )));
                };
                match other {
                    Action::Goal { goal, .. } | Action::PushGoal { goal, .. } => {
                        body("goal", *goal, size)?
                    }
                    Action::Despawn { .. } => {
                        alive.insert(unit, None);
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;

    fn parse(text: &str) -> Result<Vec<ScriptedEvent>, EventsError> {
        parse_events(Path::new("e.txt"), text)
    }

    #[test]
    fn reads_every_kind_and_sorts_by_tick() {
        let e = parse(
            "# a script\n5 block 1 1 2 2\n0 spawn a 0 0 3 3 priority 2\n0 goal a 1 0 # go\n\
             7 push_goal a 0 1\n8 stop a\n9 unblock 1 1 2 2\n10 despawn a\n",
        )
        .unwrap();
        assert_eq!(e.len(), 7);
        assert_eq!(e[0].line, 3);
        assert!(matches!(&e[0].action, Action::Spawn { priority: 2, .. }));
        assert!(matches!(&e[1].action, Action::Goal { .. }));
        assert!(matches!(&e[2].action, Action::Block { .. }));
        let grid = Grid::from_rows(&["....", "....", "....", "...."], Connectivity::Four);
        check_events(Path::new("e.txt"), &e, &grid, 0).unwrap();
    }

    #[test]
    fn refuses_bad_lines_with_their_number() {
        for (text, needle) in [
            ("x spawn a 0 0 1 1", "tick `x`"),
            ("1 fly a", "unknown event `fly`"),
            ("1 spawn a 0 0 1", "`spawn` takes"),
            (
                "1 spawn a 0 0 1 1 priority 999",
                "priority `999` is out of range",
            ),
            ("1 goal a 1", "`goal` takes 3 fields"),
            ("1 block 0 0 1", "`block` takes 4 fields"),
            ("1", "missing event kind"),
        ] {
            let msg = parse(&format!("# ok\n{text}\n")).unwrap_err().to_string();
            assert!(msg.starts_with("e.txt:2: "), "{msg}");
            assert!(msg.contains(needle), "{text}: {msg}");
        }
        let grid = Grid::from_rows(&["..@", "...", "..."], Connectivity::Four);
        for (text, needle) in [
            ("0 spawn a 5 0 1 1", "outside the 3×3 map"),
            ("0 spawn a 2 0 1 1", "wall"),
            ("0 goal b 1 1", "`b` is not alive"),
            ("0 spawn a 0 0 1 1\n1 spawn a 1 0 1 1", "already alive"),
            (
                "0 spawn a 0 0 1 1\n1 despawn a\n2 stop a",
                "not alive at tick 2",
            ),
            ("0 block 0 0 3 0", "outside"),
        ] {
            let e = parse(text).unwrap();
            let msg = check_events(Path::new("e.txt"), &e, &grid, 1)
                .unwrap_err()
                .to_string();
            assert!(msg.contains(needle), "{text}: {msg}");
        }
        let e = parse("0 goal 0 1 1\n0 spawn a 0 0 1 1\n3 despawn a\n4 spawn a 0 0 1 1").unwrap();
        check_events(Path::new("e.txt"), &e, &grid, 1).unwrap();
    }

    #[test]
    fn spawn_options_come_in_any_order() {
        let e = parse(
            "0 spawn a 0 0 3 3\n0 spawn b 0 0 2 2 size 2 pace 3\n\
             0 spawn c 0 0 1 1 priority 4 curves size 3\n0 spawn d 0 0 1 1 pace 2 priority 15\n",
        )
        .unwrap();
        let kinds: Vec<(UnitKind, u8)> = e
            .iter()
            .map(|e| match e.action {
                Action::Spawn { kind, priority, .. } => (kind, priority),
                _ => unreachable!("only spawns"),
            })
            .collect();
        assert_eq!(kinds[0], (UnitKind::CELL, 0));
        assert_eq!(kinds[1], (UnitKind::new(2, 3), 0));
        assert_eq!(kinds[2], (UnitKind::new(3, 1).with_curves(), 4));
        assert_eq!(kinds[3], (UnitKind::new(1, 2), 15));
    }

    #[test]
    fn refuses_bad_spawn_options_naming_what_was_expected() {
        for (text, needle) in [
            (
                "1 spawn a 0 0 1 1 size",
                "`size` needs a number from 1 to 8",
            ),
            (
                "1 spawn a 0 0 1 1 size 0",
                "size `0` is out of range: expected a whole number from 1 to 8",
            ),
            ("1 spawn a 0 0 1 1 size 9", "size `9` is out of range"),
            (
                "1 spawn a 0 0 1 1 pace 9",
                "pace `9` is out of range: expected a whole number from 1 to 8",
            ),
            ("1 spawn a 0 0 1 1 pace x", "pace `x` is out of range"),
            ("1 spawn a 0 0 1 1 size 2 size 2", "`size` is given twice"),
            ("1 spawn a 0 0 1 1 curves curves", "`curves` is given twice"),
            (
                "1 spawn a 0 0 1 1 priority 1 priority 2",
                "`priority` is given twice",
            ),
            (
                "1 spawn a 0 0 1 1 fast",
                "unknown `spawn` option `fast`: expected `size K`",
            ),
            ("1 spawn a 0 0 1 1 2", "unknown `spawn` option `2`"),
        ] {
            let msg = parse(&format!("# ok\n{text}\n")).unwrap_err().to_string();
            assert!(msg.starts_with("e.txt:2: "), "{msg}");
            assert!(msg.contains(needle), "{text}: {msg}");
        }
    }

    #[test]
    fn a_body_must_fit_on_open_ground_at_its_spawn_cell_and_goals() {
        let grid = Grid::from_rows(&["....", "..@.", "....", "...."], Connectivity::Four);
        let ok = parse("0 spawn a 0 0 2 2 size 2\n1 goal a 0 2\n2 push_goal a 2 2\n").unwrap();
        check_events(Path::new("e.txt"), &ok, &grid, 0).unwrap();
        for (text, needle) in [
            (
                "0 spawn a 1 0 0 0 size 2",
                "spawn cell (1, 0): the 2×2 body there covers (2, 1), a wall of the map",
            ),
            (
                "0 spawn a 0 0 3 3 size 2",
                "goal (3, 3): a 2×2 body there reaches (4, 4), outside the 4×4 map",
            ),
            (
                "0 spawn a 0 0 0 2 size 2\n1 goal a 1 1",
                "e.txt:2: goal (1, 1): the 2×2 body there covers (2, 1)",
            ),
            (
                "0 spawn a 0 1 0 0 size 3",
                "spawn cell (0, 1): the 3×3 body there covers (2, 1)",
            ),
        ] {
            let e = parse(text).unwrap();
            let msg = check_events(Path::new("e.txt"), &e, &grid, 0)
                .unwrap_err()
                .to_string();
            assert!(msg.contains(needle), "{text}: {msg}");
        }
        // Starting units of a mixed crowd have their own sizes.
        let e = parse("1 goal 0 1 1\n").unwrap();
        check_events(Path::new("e.txt"), &e, &grid, 1).unwrap();
        let msg = check_events_sized(Path::new("e.txt"), &e, &grid, &[2])
            .unwrap_err()
            .to_string();
        assert!(msg.contains("2×2 body there covers (2, 1)"), "{msg}");
    }

    #[test]
    fn labels_are_limited_in_characters_not_bytes() {
        // 64 three-byte characters (192 bytes) make a label; 65 do not.
        let ok = "\u{20ac}".repeat(64);
        let e = parse(&format!("0 spawn {ok} 0 0 1 1\n1 stop {ok}\n")).unwrap();
        assert_eq!(e[0].action.unit(), Some(ok.as_str()));
        let long = "\u{20ac}".repeat(65);
        let msg = parse(&format!("0 spawn {long} 0 0 1 1\n"))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("longer than 64 characters"), "{msg}");
    }
}
