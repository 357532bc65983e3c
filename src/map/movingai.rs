//! MovingAI `.map` and `.scen` files, the MAPF benchmark's formats.

use std::path::{Path, PathBuf};

use super::MAX_CELLS;
use super::{Cell, Connectivity, Grid, MapError};

/// Reads a MovingAI `.map` file.
pub fn read_map(path: &Path, connectivity: Connectivity) -> Result<Grid, MapError> {
    let text = std::fs::read_to_string(path).map_err(|source| MapError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_map(&text, path, connectivity)
}

/// Whether a MovingAI tile is passable, or `None` for an unknown tile.
pub fn tile_passable(ch: char) -> Option<bool> {
    match ch {
        '.' | 'G' | 'S' => Some(true),
        '@' | 'O' | 'T' | 'W' => Some(false),
        _ => None,
    }
}

/// Parses the text of a `.map` file; `path` is used in error messages.
pub fn parse_map(text: &str, path: &Path, connectivity: Connectivity) -> Result<Grid, MapError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end()));
    let mut header = |key: &str| -> Result<(usize, String), MapError> {
        let (no, line) = lines.next().ok_or_else(|| {
            MapError::syntax(path, 0, format!("file ends before the `{key}` line"))
        })?;
        let mut parts = line.split_whitespace();
        match parts.next() {
            Some(k) if k == key => Ok((no, parts.collect::<Vec<_>>().join(" "))),
            other => Err(MapError::syntax(
                path,
                no,
                format!("expected `{key}`, found `{}`", other.unwrap_or("")),
            )),
        }
    };
    let (_, _kind) = header("type")?;
    let (hl, h) = header("height")?;
    let height: u32 = h.parse().map_err(|_| {
        MapError::syntax(
            path,
            hl,
            format!("height must be a positive integer, found `{h}`"),
        )
    })?;
    let (wl, w) = header("width")?;
    let width: u32 = w.parse().map_err(|_| {
        MapError::syntax(
            path,
            wl,
            format!("width must be a positive integer, found `{w}`"),
        )
    })?;
    if width == 0 || height == 0 {
        return Err(MapError::syntax(
            path,
            hl,
            "width and height must be positive",
        ));
    }
    let cells = width as u64 * height as u64;
    if cells > MAX_CELLS as u64 {
        return Err(MapError::syntax(
            path,
            hl,
            format!("map too large: {width}x{height} is {cells} cells, at most {MAX_CELLS}"),
        ));
    }
    header("map")?;
    // Never reserve more than the text can fill: a header may claim a huge
    // map over a few bytes of rows.
    let mut passable = Vec::with_capacity((cells as usize).min(text.len()));
    let mut rows = 0u32;
    let mut last_line = wl + 1;
    for (no, line) in lines.by_ref() {
        last_line = no;
        if rows == height {
            if line.trim().is_empty() {
                continue;
            }
            return Err(MapError::syntax(
                path,
                no,
                format!("more than the {height} rows the header announces"),
            ));
        }
        let len = line.chars().count();
        if len != width as usize {
            return Err(MapError::syntax(
                path,
                no,
                format!("row {rows} has {len} tiles, expected {width}"),
            ));
        }
        for (col, ch) in line.chars().enumerate() {
            let p = tile_passable(ch).ok_or_else(|| {
                MapError::syntax(
                    path,
                    no,
                    format!("unknown tile `{ch}` at column {col}; expected one of . G S @ O T W"),
                )
            })?;
            passable.push(p);
        }
        rows += 1;
    }
    if rows != height {
        return Err(MapError::syntax(
            path,
            last_line,
            format!("map has {rows} rows, header says {height}"),
        ));
    }
    Ok(Grid::new(width, height, passable, connectivity))
}

/// Writes a grid in MovingAI `.map` format.
pub fn write_map(grid: &Grid) -> String {
    let mut s = format!(
        "type octile\nheight {}\nwidth {}\nmap\n",
        grid.height(),
        grid.width()
    );
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            s.push(if grid.is_passable(grid.cell(x, y)) {
                '.'
            } else {
                '@'
            });
        }
        s.push('\n');
    }
    s
}

/// One row of a `.scen` file.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioEntry {
    /// Difficulty bucket.
    pub bucket: u32,
    /// Map file named by the row.
    pub map: String,
    /// Start column and row.
    pub start: (u32, u32),
    /// Goal column and row.
    pub goal: (u32, u32),
    /// Map width and height the row declares.
    pub map_size: (u32, u32),
    /// Optimal single-unit path length given by the file.
    pub optimal_length: f64,
    /// 1-based line in the file.
    pub line: usize,
}

/// A MovingAI scenario: units' starts and goals on one map.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// File it came from.
    pub path: PathBuf,
    /// Its rows in order.
    pub entries: Vec<ScenarioEntry>,
    /// Map size the first row declares (each row's own is in its entry).
    pub map_size: Option<(u32, u32)>,
}

/// Reads a MovingAI `.scen` file (`version 1`).
pub fn read_scenario(path: &Path) -> Result<Scenario, MapError> {
    let text = std::fs::read_to_string(path).map_err(|source| MapError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_scenario(&text, path)
}

/// Parses the text of a `.scen` file; `path` is used in error messages.
pub fn parse_scenario(text: &str, path: &Path) -> Result<Scenario, MapError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    match lines.next() {
        Some((_, l)) if l.split_whitespace().collect::<Vec<_>>() == ["version", "1"] => {}
        Some((_, l)) if l.split_whitespace().next() == Some("version") => {
            return Err(MapError::syntax(
                path,
                1,
                format!("unsupported scenario `{}`; expected `version 1`", l.trim()),
            ))
        }
        _ => {
            return Err(MapError::syntax(
                path,
                1,
                "expected `version 1` on the first line",
            ))
        }
    }
    let mut entries = Vec::new();
    let mut map_size = None;
    for (no, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let f: Vec<&str> = if f.len() == 9 {
            f
        } else {
            line.split_whitespace().collect()
        };
        if f.len() != 9 {
            return Err(MapError::syntax(
                path,
                no,
                format!(
                    "expected 9 tab-separated fields (bucket, map, width, height, start x, start y, goal x, goal y, optimal length), found {}",
                    f.len()
                ),
            ));
        }
        let int = |i: usize, name: &str| -> Result<u32, MapError> {
            f[i].trim().parse::<u32>().map_err(|_| {
                MapError::syntax(
                    path,
                    no,
                    format!("{name} must be a non-negative integer, found `{}`", f[i]),
                )
            })
        };
        let bucket = int(0, "bucket")?;
        let width = int(2, "width")?;
        let height = int(3, "height")?;
        let start = (int(4, "start x")?, int(5, "start y")?);
        let goal = (int(6, "goal x")?, int(7, "goal y")?);
        let optimal_length: f64 = f[8].trim().parse().map_err(|_| {
            MapError::syntax(
                path,
                no,
                format!("optimal length must be a number, found `{}`", f[8]),
            )
        })?;
        if !optimal_length.is_finite() || optimal_length < 0.0 {
            return Err(MapError::syntax(
                path,
                no,
                "optimal length must be a finite non-negative number",
            ));
        }
        map_size.get_or_insert((width, height));
        entries.push(ScenarioEntry {
            bucket,
            map: f[1].to_string(),
            map_size: (width, height),
            start,
            goal,
            optimal_length,
            line: no,
        });
    }
    Ok(Scenario {
        path: path.to_path_buf(),
        entries,
        map_size,
    })
}

/// A problem: a map and, for each unit, a start and a goal.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The map.
    pub grid: std::sync::Arc<Grid>,
    /// Start cell of each unit.
    pub starts: Vec<Cell>,
    /// Goal cell of each unit.
    pub goals: Vec<Cell>,
    /// Map file name, for plan files.
    pub map_name: String,
}

impl Instance {
    /// Takes the first `units` rows of a scenario (all when `None`) and checks them
    /// against the map: in bounds, on free cells, no two units sharing a start or a goal.
    pub fn from_scenario(
        grid: std::sync::Arc<Grid>,
        scenario: &Scenario,
        units: Option<usize>,
        map_name: &str,
    ) -> Result<Instance, MapError> {
        let n = units.unwrap_or(scenario.entries.len());
        if n > scenario.entries.len() {
            return Err(MapError::File {
                path: scenario.path.clone(),
                message: format!(
                    "{n} units asked for, but the scenario holds only {}",
                    scenario.entries.len()
                ),
            });
        }
        if let Some((w, h)) = scenario.map_size {
            if (w, h) != (grid.width(), grid.height()) {
                return Err(MapError::File {
                    path: scenario.path.clone(),
                    message: format!(
                        "scenario is for a {w}x{h} map, but the map is {}x{}",
                        grid.width(),
                        grid.height()
                    ),
                });
            }
        }
        // Every row names the map's size, not only the first: a row for
        // another map is a corrupt or spliced file even when unused.
        if let Some(e) = scenario
            .entries
            .iter()
            .find(|e| e.map_size != (grid.width(), grid.height()))
        {
            let (w, h) = e.map_size;
            return Err(MapError::syntax(
                &scenario.path,
                e.line,
                format!(
                    "row is for a {w}x{h} map, but the map is {}x{}",
                    grid.width(),
                    grid.height()
                ),
            ));
        }
        let mut starts = Vec::with_capacity(n);
        let mut goals = Vec::with_capacity(n);
        for (unit, e) in scenario.entries[..n].iter().enumerate() {
            let err = |message: String| MapError::Unit {
                path: scenario.path.clone(),
                line: e.line,
                unit,
                message,
            };
            let place = |(x, y): (u32, u32), what: &str| -> Result<Cell, MapError> {
                let c = grid.cell_checked(x as i64, y as i64).ok_or_else(|| {
                    err(format!(
                        "{what} ({x},{y}) is outside the {}x{} map",
                        grid.width(),
                        grid.height()
                    ))
                })?;
                if !grid.is_passable(c) {
                    return Err(err(format!("{what} ({x},{y}) is on a blocked cell")));
                }
                Ok(c)
            };
            starts.push(place(e.start, "start")?);
            goals.push(place(e.goal, "goal")?);
        }
        let inst = Instance {
            grid,
            starts,
            goals,
            map_name: map_name.to_string(),
        };
        inst.check_distinct()
            .map_err(|(unit, message)| MapError::Unit {
                path: scenario.path.clone(),
                line: scenario.entries[unit].line,
                unit,
                message,
            })?;
        Ok(inst)
    }

    /// Number of units.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether there are no units.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Checks that no two units share a start or a goal; returns the later unit and why.
    pub fn check_distinct(&self) -> Result<(), (usize, String)> {
        let mut seen_start = rustc_hash::FxHashMap::default();
        let mut seen_goal = rustc_hash::FxHashMap::default();
        for i in 0..self.starts.len() {
            if let Some(j) = seen_start.insert(self.starts[i], i) {
                let (x, y) = self.grid.xy(self.starts[i]);
                return Err((i, format!("start ({x},{y}) is also the start of unit {j}")));
            }
            if let Some(j) = seen_goal.insert(self.goals[i], i) {
                let (x, y) = self.grid.xy(self.goals[i]);
                return Err((i, format!("goal ({x},{y}) is also the goal of unit {j}")));
            }
        }
        Ok(())
    }

    /// Units whose goal lies in another connected region than their start.
    pub fn unreachable_units(&self) -> Vec<usize> {
        (0..self.len())
            .filter(|&i| !self.grid.reachable(self.starts[i], self.goals[i]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_small_map() {
        let g = parse_map(
            "type octile\nheight 2\nwidth 3\nmap\n.@T\nGS.\n",
            Path::new("m.map"),
            Connectivity::Four,
        )
        .unwrap();
        assert_eq!((g.width(), g.height()), (3, 2));
        assert!(!g.is_passable(g.cell(1, 0)));
        assert!(g.is_passable(g.cell(0, 1)));
    }

    #[test]
    fn huge_header_over_short_text_is_an_error() {
        let e = parse_map(
            "type octile\nheight 16000\nwidth 16000\nmap\n...\n",
            Path::new("m.map"),
            Connectivity::Four,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "m.map:5: row 0 has 3 tiles, expected 16000");
        let e = parse_map(
            "type octile\nheight 65536\nwidth 65536\nmap\n",
            Path::new("m.map"),
            Connectivity::Four,
        )
        .unwrap_err();
        assert!(e.to_string().contains("map too large"), "{e}");
    }

    #[test]
    fn every_scenario_row_is_checked_against_the_map() {
        let grid = std::sync::Arc::new(
            parse_map(
                "type octile\nheight 2\nwidth 3\nmap\n...\n...\n",
                Path::new("m.map"),
                Connectivity::Four,
            )
            .unwrap(),
        );
        let scen = parse_scenario(
            "version 1\n0\tm.map\t3\t2\t0\t0\t2\t0\t2\n0\tm.map\t9\t9\t0\t1\t2\t1\t2\n",
            Path::new("s.scen"),
        )
        .unwrap();
        // Even when only the first row's unit is asked for.
        let e = Instance::from_scenario(grid.clone(), &scen, Some(1), "m.map").unwrap_err();
        assert_eq!(
            e.to_string(),
            "s.scen:3: row is for a 9x9 map, but the map is 3x2"
        );
    }

    #[test]
    fn ragged_row_names_line() {
        let e = parse_map(
            "type octile\nheight 2\nwidth 3\nmap\n...\n..\n",
            Path::new("m.map"),
            Connectivity::Four,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "m.map:6: row 1 has 2 tiles, expected 3");
    }
}
