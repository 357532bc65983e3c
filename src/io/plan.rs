//! Plan files in the plain-text layout of the mapf-visualizer family:
//! a few `key=value` lines, then `solution=` and one line per tick
//! `t:(x,y),(x,y),...,` with a comma after every pair. Coordinates are
//! `(column, row)`, origin top-left.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// A problem reading a plan file.
#[derive(Debug, Error)]
pub enum PlanError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// File concerned.
        path: PathBuf,
        /// Underlying error.
        source: std::io::Error,
    },
    /// The text does not follow the layout.
    #[error("{path}:{line}: {message}")]
    Syntax {
        /// Plan file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What was expected.
        message: String,
    },
}

/// Executed trajectories of all units, one row of positions per tick.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlanFile {
    /// Map file name the plan refers to.
    pub map_file: String,
    /// Planner that produced it.
    pub solver: String,
    /// Whether every unit ended on its goal.
    pub solved: bool,
    /// Sum of costs.
    pub soc: u64,
    /// Last tick at which a unit arrived for good.
    pub makespan: u64,
    /// Planning time in milliseconds.
    pub comp_time_ms: f64,
    /// Start of each unit.
    pub starts: Vec<(u32, u32)>,
    /// Goal of each unit.
    pub goals: Vec<(u32, u32)>,
    /// `steps[t][i]` is unit `i`'s position at tick `t`.
    pub steps: Vec<Vec<(u32, u32)>>,
}

fn write_pairs(out: &mut String, pairs: &[(u32, u32)]) {
    for &(x, y) in pairs {
        let _ = write!(out, "({x},{y}),");
    }
}

impl PlanFile {
    /// The plan as text.
    pub fn to_text(&self) -> String {
        let n = self.starts.len();
        let mut s = String::with_capacity(64 + self.steps.len() * n * 10);
        let _ = writeln!(s, "agents={n}");
        let _ = writeln!(s, "map_file={}", self.map_file);
        let _ = writeln!(s, "solver={}", self.solver);
        let _ = writeln!(s, "solved={}", u8::from(self.solved));
        let _ = writeln!(s, "soc={}", self.soc);
        let _ = writeln!(s, "makespan={}", self.makespan);
        let _ = writeln!(s, "comp_time={:.3}", self.comp_time_ms);
        s.push_str("starts=");
        write_pairs(&mut s, &self.starts);
        s.push('\n');
        s.push_str("goals=");
        write_pairs(&mut s, &self.goals);
        s.push('\n');
        s.push_str("solution=\n");
        for (t, row) in self.steps.iter().enumerate() {
            let _ = write!(s, "{t}:");
            write_pairs(&mut s, row);
            s.push('\n');
        }
        s
    }

    /// Writes the plan to `path`.
    pub fn write(&self, path: &Path) -> Result<(), PlanError> {
        std::fs::write(path, self.to_text()).map_err(|source| PlanError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Reads a plan file.
    pub fn read(path: &Path) -> Result<PlanFile, PlanError> {
        let text = std::fs::read_to_string(path).map_err(|source| PlanError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses plan text; `path` is used in error messages.
    pub fn parse(text: &str, path: &Path) -> Result<PlanFile, PlanError> {
        let err = |line: usize, message: String| PlanError::Syntax {
            path: path.to_path_buf(),
            line,
            message,
        };
        let mut plan = PlanFile::default();
        let mut units: Option<usize> = None;
        let mut in_solution = false;
        let mut last_line = 0;
        for (i, raw) in text.lines().enumerate() {
            let no = i + 1;
            let line = raw.trim();
            if line.is_empty() {
                continue;
            }
            if in_solution {
                let (t, rest) = line
                    .split_once(':')
                    .ok_or_else(|| err(no, "expected `t:(x,y),...`".into()))?;
                let t: usize = t
                    .trim()
                    .parse()
                    .map_err(|_| err(no, format!("tick must be an integer, found `{t}`")))?;
                if t != plan.steps.len() {
                    return Err(err(
                        no,
                        format!("expected tick {}, found {t}", plan.steps.len()),
                    ));
                }
                let row = parse_pairs(rest).map_err(|m| err(no, m))?;
                // Without `units=`, the starts or else the first row set the count.
                let n = *units.get_or_insert(if plan.starts.is_empty() {
                    row.len()
                } else {
                    plan.starts.len()
                });
                if row.len() != n {
                    return Err(err(
                        no,
                        format!("tick {t} lists {} units, expected {n}", row.len()),
                    ));
                }
                plan.steps.push(row);
                last_line = no;
                continue;
            }
            let (key, value) = line
                .split_once('=')
                .ok_or_else(|| err(no, format!("expected `key=value`, found `{line}`")))?;
            let num = |v: &str| -> Result<u64, PlanError> {
                v.trim()
                    .parse()
                    .map_err(|_| err(no, format!("`{key}` must be an integer, found `{v}`")))
            };
            match key.trim() {
                "agents" => units = Some(num(value)? as usize),
                "map_file" => plan.map_file = value.to_string(),
                "solver" => plan.solver = value.to_string(),
                "solved" => plan.solved = num(value)? != 0,
                "soc" => plan.soc = num(value)?,
                "makespan" => plan.makespan = num(value)?,
                "comp_time" => plan.comp_time_ms = value.trim().parse().unwrap_or(0.0),
                "starts" => plan.starts = parse_pairs(value).map_err(|m| err(no, m))?,
                "goals" => plan.goals = parse_pairs(value).map_err(|m| err(no, m))?,
                "solution" => {
                    in_solution = true;
                    last_line = no;
                }
                _ => {}
            }
        }
        if !in_solution {
            return Err(err(0, "no `solution=` section".into()));
        }
        // An empty or cut-off plan must not pass as a valid one.
        let Some(first) = plan.steps.first() else {
            return Err(err(
                last_line,
                "`solution=` lists no ticks: the plan is empty or truncated".into(),
            ));
        };
        let n = units.unwrap_or(first.len());
        if n == 0 {
            return Err(err(last_line, "the plan has no units".into()));
        }
        if plan.starts.is_empty() {
            plan.starts = first.clone();
        }
        if plan.starts.len() != n {
            return Err(err(
                0,
                format!("{n} units but {} starts", plan.starts.len()),
            ));
        }
        if !plan.goals.is_empty() && plan.goals.len() != n {
            return Err(err(0, format!("{n} units but {} goals", plan.goals.len())));
        }
        let last_tick = plan.steps.len() as u64 - 1;
        if plan.makespan > last_tick {
            return Err(err(
                last_line,
                format!(
                    "makespan={} but the plan ends at tick {last_tick}: the plan is truncated",
                    plan.makespan
                ),
            ));
        }
        Ok(plan)
    }
}

fn parse_pairs(s: &str) -> Result<Vec<(u32, u32)>, String> {
    let mut out = Vec::new();
    let mut rest = s.trim();
    while !rest.is_empty() {
        let body = rest
            .strip_prefix('(')
            .ok_or_else(|| format!("expected `(` at `{}`", truncate(rest)))?;
        let close = body
            .find(')')
            .ok_or_else(|| format!("unclosed `(` at `{}`", truncate(rest)))?;
        let (x, y) = body[..close]
            .split_once(',')
            .ok_or_else(|| format!("expected `(x,y)`, found `({})`", &body[..close]))?;
        let x: u32 = x.trim().parse().map_err(|_| format!("bad x `{x}`"))?;
        let y: u32 = y.trim().parse().map_err(|_| format!("bad y `{y}`"))?;
        out.push((x, y));
        rest = body[close + 1..].trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Ok(out)
}

/// The first 20 characters of `s`, for messages.
fn truncate(s: &str) -> &str {
    s.char_indices().nth(20).map_or(s, |(i, _)| &s[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let plan = PlanFile {
            map_file: "m.map".into(),
            solver: "whca".into(),
            solved: true,
            soc: 1,
            makespan: 1,
            comp_time_ms: 1.5,
            starts: vec![(0, 0), (1, 1)],
            goals: vec![(1, 0), (1, 1)],
            steps: vec![vec![(0, 0), (1, 1)], vec![(1, 0), (1, 1)]],
        };
        let text = plan.to_text();
        assert!(text.contains("1:(1,0),(1,1),\n"));
        let back = PlanFile::parse(&text, Path::new("p.txt")).unwrap();
        assert_eq!(back, plan);
    }

    fn parse_err(text: &str) -> String {
        PlanFile::parse(text, Path::new("p.txt"))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn empty_and_truncated_plans_are_errors() {
        assert_eq!(
            parse_err("solution=\n"),
            "p.txt:1: `solution=` lists no ticks: the plan is empty or truncated"
        );
        assert_eq!(
            parse_err("agents=2\nsolution=\n\n"),
            "p.txt:2: `solution=` lists no ticks: the plan is empty or truncated"
        );
        assert_eq!(
            parse_err("solution=\n0:\n"),
            "p.txt:2: the plan has no units"
        );
        // A tail cut off: fewer ticks than the makespan says.
        assert_eq!(
            parse_err("agents=1\nmakespan=3\nsolution=\n0:(0,0),\n1:(1,0),\n"),
            "p.txt:5: makespan=3 but the plan ends at tick 1: the plan is truncated"
        );
        // A last row cut short, with or without `units=`.
        assert_eq!(
            parse_err("agents=2\nsolution=\n0:(0,0),(1,1),\n1:(1,0),\n"),
            "p.txt:4: tick 1 lists 1 units, expected 2"
        );
        assert_eq!(
            parse_err("solution=\n0:(0,0),(1,1),\n1:(1,0),\n"),
            "p.txt:3: tick 1 lists 1 units, expected 2"
        );
        assert_eq!(
            parse_err("solution=\n0:(0,0),(1,1),\n1:(1,0),(1,"),
            "p.txt:3: unclosed `(` at `(1,`"
        );
    }

    #[test]
    fn messages_cut_long_text_on_a_character_boundary() {
        // 19 ASCII bytes then a 3-byte character across byte 20.
        let e = parse_err("solution=\n0:(0,0),x234567890123456789\u{20ac}\u{20ac}\n");
        assert!(e.contains("expected `(`"), "{e}");
    }
}
