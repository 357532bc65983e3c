//! Harnesses for the readers, shared by the `cargo fuzz` targets in `fuzz/`
//! and the stable mutation test (`cli/tests/readers_fuzz.rs`). Each takes
//! arbitrary bytes, feeds them to one reader and checks what must hold
//! whatever the input: no panic, an error that displays, and for accepted
//! input the reader's own guarantees (a map re-reads as written, a plan
//! re-reads with the same steps and has units and ticks, a scenario's units
//! are checked against a map without panicking, an event script re-reads
//! as written and its check against a map agrees with the format's rules).
//! A broken guarantee panics,
//! which is what the fuzzer reports. Each returns whether the reader
//! accepted the input.
//!
//! Readers see text: bytes that are not UTF-8 are rejected before parsing,
//! as reading a file to a string does.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use throng::io::{check_events, parse_events, Action, PlanFile, ScriptedEvent, MAX_EVENT_TICK};
use throng::map::{parse_map, parse_scenario, write_map, Connectivity, Grid, Instance};
use throng::validate::validate_plan;

use crate::limits;
use crate::run::parse_profile;

/// The map the scenario, plan and event harnesses check against: 8×8, a wall with
/// a gap, 8-connected without corner cutting (so diagonal rules are tried).
fn test_grid() -> Arc<Grid> {
    static GRID: OnceLock<Arc<Grid>> = OnceLock::new();
    GRID.get_or_init(|| {
        Arc::new(Grid::from_rows(
            &[
                "........", "........", "..@@@@..", "........", "........", "...@....", "........",
                "........",
            ],
            Connectivity::Eight,
        ))
    })
    .clone()
}

/// An input the reader refused: its error must display. Returns `false`.
fn refused(e: impl std::fmt::Display) -> bool {
    assert!(!e.to_string().is_empty());
    false
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// MovingAI `.map` reader, 4- and 8-connected: an accepted map has the size
/// its header gives and reads back the same from [`write_map`].
pub fn map(data: &[u8]) -> bool {
    let Some(text) = text(data) else {
        return false;
    };
    let mut accepted = false;
    for conn in [Connectivity::Four, Connectivity::Eight] {
        match parse_map(text, Path::new("fuzz.map"), conn) {
            Ok(grid) => {
                assert_eq!(
                    grid.cell_count() as u64,
                    grid.width() as u64 * grid.height() as u64
                );
                let written = write_map(&grid);
                let again = parse_map(&written, Path::new("fuzz.map"), conn)
                    .expect("a written map reads back");
                assert_eq!(again.passability(), grid.passability());
                accepted = true;
            }
            Err(e) => {
                refused(e);
            }
        }
    }
    accepted
}

/// MovingAI `.scen` reader: an accepted scenario's units, all of them and
/// the first one, are checked against a small map (an error is fine, a
/// panic is not).
pub fn scenario(data: &[u8]) -> bool {
    let Some(text) = text(data) else {
        return false;
    };
    match parse_scenario(text, Path::new("fuzz.scen")) {
        Ok(scen) => {
            let grid = test_grid();
            for units in [None, Some(1), Some(scen.entries.len() + 1)] {
                match Instance::from_scenario(grid.clone(), &scen, units, "m.map") {
                    Ok(inst) => {
                        assert!(inst.check_distinct().is_ok());
                        let _ = inst.unreachable_units();
                    }
                    Err(e) => {
                        refused(e);
                    }
                }
            }
            true
        }
        Err(e) => refused(e),
    }
}

/// Plan file reader: an accepted plan has at least one unit and one tick,
/// every row lists every unit, it validates against a small map without
/// panicking, and it reads back from its own text with the same steps.
pub fn plan(data: &[u8]) -> bool {
    let Some(text) = text(data) else {
        return false;
    };
    match PlanFile::parse(text, Path::new("fuzz.txt")) {
        Ok(plan) => {
            let n = plan.starts.len();
            assert!(n > 0 && !plan.steps.is_empty());
            assert!(plan.steps.iter().all(|row| row.len() == n));
            assert!(plan.makespan < plan.steps.len() as u64);
            let report = validate_plan(&test_grid(), &plan);
            assert!(!report.summary().is_empty());
            let again = PlanFile::parse(&plan.to_text(), Path::new("fuzz.txt"))
                .expect("a written plan reads back");
            assert_eq!(again.steps, plan.steps);
            assert_eq!(again.starts, plan.starts);
            true
        }
        Err(e) => refused(e),
    }
}

/// TOML profile reader: an accepted profile goes through the range checks
/// of `throng run` (which accept or refuse it, never panic).
pub fn profile(data: &[u8]) -> bool {
    let Some(text) = text(data) else {
        return false;
    };
    match parse_profile(text, Path::new("fuzz.toml")) {
        Ok(args) => match limits::check(&args) {
            Ok(()) => true,
            Err(e) => refused(e),
        },
        Err(e) => refused(e),
    }
}

/// Event script reader: an accepted script is sorted by tick (file order
/// within a tick), its ticks, lines, labels and priorities lie in range, it
/// reads back the same from its own text, and `check_events` on a small map
/// (no starting units, and three) accepts it exactly when the format's
/// rules hold, naming the line that breaks them otherwise.
pub fn events(data: &[u8]) -> bool {
    let Some(text) = text(data) else {
        return false;
    };
    let path = Path::new("fuzz.events");
    match parse_events(path, text) {
        Ok(events) => {
            let lines = text.lines().count();
            for w in events.windows(2) {
                assert!(
                    w[0].tick < w[1].tick || (w[0].tick == w[1].tick && w[0].line < w[1].line),
                    "{w:?}"
                );
            }
            for e in &events {
                assert!(e.tick <= MAX_EVENT_TICK);
                assert!(e.line >= 1 && e.line <= lines);
                if let Some(unit) = e.action.unit() {
                    assert!(!unit.is_empty() && unit.chars().count() <= 64, "{unit:?}");
                    assert!(!unit.contains(char::is_whitespace) && !unit.contains('#'));
                }
                if let Action::Spawn { kind, .. } = e.action {
                    assert!(kind.is_valid(), "{kind:?}");
                }
            }
            let written = write_events(&events);
            let again = parse_events(path, &written).expect("a written script reads back");
            assert_eq!(again.len(), events.len());
            for (a, b) in again.iter().zip(&events) {
                assert_eq!((a.tick, &a.action), (b.tick, &b.action));
            }
            let grid = test_grid();
            for initial in [0, 3] {
                let expected = events_rule_broken(&events, &grid, initial);
                match check_events(path, &events, &grid, initial) {
                    Ok(()) => assert_eq!(expected, None, "accepted, but a rule is broken"),
                    Err(e) => {
                        let line = expected.expect("refused, but every rule holds");
                        let msg = e.to_string();
                        assert!(msg.starts_with(&format!("fuzz.events:{line}: ")), "{msg}");
                    }
                }
            }
            true
        }
        Err(e) => refused(e),
    }
}

/// An event script as text, one event a line in the file's format.
fn write_events(events: &[ScriptedEvent]) -> String {
    let mut out = String::new();
    for e in events {
        let t = e.tick;
        let line = match &e.action {
            Action::Spawn {
                unit,
                at,
                goal,
                priority,
                kind,
            } => {
                // The options in a varying order, as the format allows.
                let mut options = [
                    format!("priority {priority}"),
                    format!("size {}", kind.size),
                    format!("pace {}", kind.pace),
                ];
                options.rotate_left(e.line % 3);
                let curves = if kind.curves == 1 { " curves" } else { "" };
                let four_way = if kind.four_way == 1 { " four_way" } else { "" };
                format!(
                    "{t} spawn {unit} {} {} {} {} {}{curves}{four_way}",
                    at.0,
                    at.1,
                    goal.0,
                    goal.1,
                    options.join(" ")
                )
            }
            Action::Despawn { unit } => format!("{t} despawn {unit}"),
            Action::Goal {
                unit,
                goal,
                group: 0,
            } => format!("{t} goal {unit} {} {}", goal.0, goal.1),
            Action::Goal { unit, goal, group } => {
                format!("{t} goal {unit} {} {} group {group}", goal.0, goal.1)
            }
            Action::PushGoal { unit, goal } => {
                format!("{t} push_goal {unit} {} {}", goal.0, goal.1)
            }
            Action::Stop { unit } => format!("{t} stop {unit}"),
            Action::Block { from, to } => {
                format!("{t} block {} {} {} {}", from.0, from.1, to.0, to.1)
            }
            Action::Unblock { from, to } => {
                format!("{t} unblock {} {} {} {}", from.0, from.1, to.0, to.1)
            }
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The line of the first event that breaks the rules `check_events`
/// enforces, worked out on its own: bodies (a unit's square, one cell
/// unless its spawn gave a size) on the map and on no wall at spawn cells
/// and goals, rectangle corners on the map, units named only while alive
/// (labels `0`..`initial`, one cell each, alive from the start), no spawn
/// of a living label.
fn events_rule_broken(events: &[ScriptedEvent], grid: &Grid, initial: usize) -> Option<usize> {
    let mut alive: std::collections::HashMap<String, u32> =
        (0..initial).map(|i| (i.to_string(), 1)).collect();
    let on_map = |(x, y): (u32, u32)| x < grid.width() && y < grid.height();
    let open = |(x, y): (u32, u32), size: u32| {
        (0..size).all(|dy| {
            (0..size).all(|dx| {
                let c = (x.saturating_add(dx), y.saturating_add(dy));
                on_map(c) && grid.is_passable(grid.cell(c.0, c.1))
            })
        })
    };
    for e in events {
        let ok = match &e.action {
            Action::Spawn {
                unit,
                at,
                goal,
                kind,
                ..
            } => {
                let size = kind.size as u32;
                open(*at, size) && open(*goal, size) && alive.insert(unit.clone(), size).is_none()
            }
            Action::Block { from, to } | Action::Unblock { from, to } => {
                on_map(*from) && on_map(*to)
            }
            Action::Goal { unit, goal, .. } | Action::PushGoal { unit, goal } => {
                alive.get(unit).is_some_and(|&size| open(*goal, size))
            }
            Action::Stop { unit } => alive.contains_key(unit),
            Action::Despawn { unit } => alive.remove(unit).is_some(),
        };
        if !ok {
            return Some(e.line);
        }
    }
    None
}
