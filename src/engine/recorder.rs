//! Recording the game's calls as an event script (the format of
//! [`crate::io::parse_events`]), so that a live run can be replayed from
//! the command line, traced and profiled:
//! `throng run --map M --events S --trace T`. Each call is written as the
//! engine applies it (a group order as the goals it gave each unit), with
//! the tick it was applied before; units are labelled by their ids
//! (`3v0`: slot 3, generation 0). A replay plans as the game's run did
//! unless that run had a wall-clock budget (use a node budget to compare).

use std::fmt::Write as _;
use std::io::Write;

use super::command::Command;
use crate::map::Grid;
use crate::units::UnitId;

/// Writes the applied calls to the game's writer.
pub(super) struct CallRecorder {
    out: Box<dyn Write + Send>,
    /// The line being written (reused).
    line: String,
    /// The first write that failed; nothing is written after it.
    error: Option<std::io::Error>,
}

impl CallRecorder {
    pub fn new(out: Box<dyn Write + Send>) -> Self {
        CallRecorder {
            out,
            line: String::new(),
            error: None,
        }
    }

    /// Writes the script's head: where it came from, how to replay it.
    pub fn head(&mut self, grid: &Grid) {
        self.line.clear();
        let _ = writeln!(
            self.line,
            "# Calls recorded from a live Throng world on a {}×{} map.\n\
             # Replay: throng run --map MAP --events THIS_FILE --trace trace.csv",
            grid.width(),
            grid.height()
        );
        self.emit();
    }

    /// Writes `cmd`, applied before tick `tick`.
    pub fn command(&mut self, tick: u32, cmd: &Command, grid: &Grid) {
        if self.error.is_some() {
            return;
        }
        self.line.clear();
        let xy = |c| grid.xy(c);
        let l = &mut self.line;
        let _ = match cmd {
            Command::Spawn(id, spec) => {
                let (x, y) = xy(spec.cell);
                let (gx, gy) = xy(spec.goal);
                let _ = write!(l, "{tick} spawn {} {x} {y} {gx} {gy}", label(*id));
                let k = spec.kind;
                if k.size != 1 {
                    let _ = write!(l, " size {}", k.size);
                }
                if k.pace != 1 {
                    let _ = write!(l, " pace {}", k.pace);
                }
                if k.curves != 0 {
                    let _ = write!(l, " curves");
                }
                if k.four_way != 0 {
                    let _ = write!(l, " four_way");
                }
                if spec.priority != 0 {
                    let _ = write!(l, " priority {}", spec.priority);
                }
                writeln!(l)
            }
            Command::Despawn(id) => writeln!(l, "{tick} despawn {}", label(*id)),
            Command::SetGoal(id, goal, 0) => {
                let (x, y) = xy(*goal);
                writeln!(l, "{tick} goal {} {x} {y}", label(*id))
            }
            Command::SetGoal(id, goal, group) => {
                let (x, y) = xy(*goal);
                writeln!(l, "{tick} goal {} {x} {y} group {group}", label(*id))
            }
            Command::PushGoal(id, goal) => {
                let (x, y) = xy(*goal);
                writeln!(l, "{tick} push_goal {} {x} {y}", label(*id))
            }
            Command::Stop(id) => writeln!(l, "{tick} stop {}", label(*id)),
            Command::Block(r) => writeln!(l, "{tick} block {} {} {} {}", r.x0, r.y0, r.x1, r.y1),
            Command::Unblock(r) => {
                writeln!(l, "{tick} unblock {} {} {} {}", r.x0, r.y0, r.x1, r.y1)
            }
        };
        self.emit();
    }

    fn emit(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(self.line.as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    /// Hands what was written to the writer's destination (once a tick, so
    /// that a crash loses at most the calls of the tick under way).
    pub fn flush(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.flush() {
                self.error = Some(e);
            }
        }
    }

    /// Flushes, and gives the first write error if there was one.
    pub fn finish(mut self) -> Result<(), std::io::Error> {
        self.flush();
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// A unit's label in the script: its id.
fn label(id: UnitId) -> impl std::fmt::Display {
    id
}
