//! Harnesses for the readers, shared by the `cargo fuzz` targets in `fuzz/`
//! and the stable mutation test (`cli/tests/readers_fuzz.rs`). Each takes
//! arbitrary bytes, feeds them to one reader and checks what must hold
//! whatever the input: no panic, an error that displays, and for accepted
//! input the reader's own guarantees (a map re-reads as written, a plan
//! re-reads with the same steps and has units and ticks, a scenario's units
//! are checked against a map without panicking). A broken guarantee panics,
//! which is what the fuzzer reports. Each returns whether the reader
//! accepted the input.
//!
//! Readers see text: bytes that are not UTF-8 are rejected before parsing,
//! as reading a file to a string does.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use throng::io::PlanFile;
use throng::map::{parse_map, parse_scenario, write_map, Connectivity, Grid, Instance};
use throng::validate::validate_plan;

use crate::limits;
use crate::run::parse_profile;

/// The map the scenario and plan harnesses check against: 8×8, a wall with
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
            for agents in [None, Some(1), Some(scen.entries.len() + 1)] {
                match Instance::from_scenario(grid.clone(), &scen, agents, "m.map") {
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
