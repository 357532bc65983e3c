//! Event files: a scripted stream of the game's calls, one per line, so a
//! live run can be driven and checked from outside.
//!
//! ```text
//! # comments start with '#'; fields are separated by blanks
//! TICK spawn UNIT X Y GX GY [priority P]
//! TICK despawn UNIT
//! TICK goal UNIT GX GY
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

use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;

use crate::map::Grid;

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
    /// A new unit labelled `unit` enters at `at`, bound for `goal`.
    Spawn {
        unit: String,
        at: (u32, u32),
        goal: (u32, u32),
        priority: u8,
    },
    Despawn {
        unit: String,
    },
    Goal {
        unit: String,
        goal: (u32, u32),
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
                let priority = match f.len() {
                    7 => 0,
                    9 if f[7] == "priority" => {
                        let p = num(8, "priority")?;
                        u8::try_from(p).ok().filter(|&p| p <= 15).ok_or_else(|| {
                            err(line, format!("priority {p} is out of range 0 to 15"))
                        })?
                    }
                    _ => {
                        return Err(err(
                            line,
                            "`spawn` takes UNIT X Y GX GY, optionally followed by `priority P`".into(),
                        ))
                    }
                };
                Action::Spawn {
                    unit: label(2)?,
                    at: (num(3, "x")?, num(4, "y")?),
                    goal: (num(5, "goal x")?, num(6, "goal y")?),
                    priority,
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
            "goal" | "push_goal" => {
                fields(5)?;
                let (unit, goal) = (label(2)?, (num(3, "goal x")?, num(4, "goal y")?));
                if kind == "goal" {
                    Action::Goal { unit, goal }
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
/// spawned again).
pub fn check_events(
    path: &Path,
    events: &[ScriptedEvent],
    grid: &Grid,
    initial: usize,
) -> Result<(), EventsError> {
    let mut alive: FxHashMap<&str, bool> = FxHashMap::default();
    let labels: Vec<String> = (0..initial).map(|i| i.to_string()).collect();
    for l in &labels {
        alive.insert(l, true);
    }
    for e in events {
        let err = |message: String| EventsError::Line {
            path: path.to_path_buf(),
            line: e.line,
            message,
        };
        let cell = |what: &str, (x, y): (u32, u32)| -> Result<(), EventsError> {
            if x >= grid.width() || y >= grid.height() {
                return Err(err(format!(
                    "{what} ({x}, {y}) is outside the {}×{} map",
                    grid.width(),
                    grid.height()
                )));
            }
            if !grid.is_open_terrain(grid.cell(x, y)) {
                return Err(err(format!("{what} ({x}, {y}) is a wall of the map")));
            }
            Ok(())
        };
        let corner = |what: &str, (x, y): (u32, u32)| -> Result<(), EventsError> {
            if x >= grid.width() || y >= grid.height() {
                return Err(err(format!(
                    "{what} ({x}, {y}) is outside the {}×{} map",
                    grid.width(),
                    grid.height()
                )));
            }
            Ok(())
        };
        match &e.action {
            Action::Spawn { unit, at, goal, .. } => {
                cell("spawn cell", *at)?;
                cell("goal", *goal)?;
                if alive.get(unit.as_str()) == Some(&true) {
                    return Err(err(format!("unit `{unit}` is already alive")));
                }
                alive.insert(unit, true);
            }
            Action::Block { from, to } | Action::Unblock { from, to } => {
                corner("corner", *from)?;
                corner("corner", *to)?;
            }
            other => {
                let unit = other.unit().expect("unit actions name a unit");
                if alive.get(unit) != Some(&true) {
                    return Err(err(format!(
                        "unit `{unit}` is not alive at tick {} (never spawned, or despawned)",
                        e.tick
                    )));
                }
                match other {
                    Action::Goal { goal, .. } | Action::PushGoal { goal, .. } => {
                        cell("goal", *goal)?
                    }
                    Action::Despawn { .. } => {
                        alive.insert(unit, false);
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
            ("1 spawn a 0 0 1 1 priority 99", "priority 99"),
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
