//! Bad input gets a clear error naming the file and line or the unit, and exit
//! status 2 from the CLI, never a panic or a hang; an unreachable goal only
//! fails that unit and the run goes on.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Dir(PathBuf);

impl Dir {
    fn new(tag: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("throng-bad-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
    fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

fn run(map: &Path, scen: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(["run", "--quiet", "--max-ticks", "20"])
        .arg("--map")
        .arg(map)
        .arg("--scen")
        .arg(scen)
        .args(extra)
        .output()
        .unwrap()
}

fn expect_error(out: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(err.contains(needle), "expected `{needle}` in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

const MAP: &str = "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n";

fn scen(rows: &[(u32, u32, u32, u32)]) -> String {
    let mut s = String::from("version 1\n");
    for &(sx, sy, gx, gy) in rows {
        s.push_str(&format!("0\tm.map\t4\t3\t{sx}\t{sy}\t{gx}\t{gy}\t3\n"));
    }
    s
}

#[test]
fn malformed_maps() {
    let d = Dir::new("map");
    let sc = d.file("s.scen", &scen(&[(0, 0, 3, 0)]));
    let cases = [
        (
            "type octile\nheigth 3\nwidth 4\nmap\n",
            "m.map:2: expected `height`",
        ),
        (
            "type octile\nheight 3\nwidth 4\nmap\n....\n...\n....\n",
            "m.map:6: row 1 has 3 tiles, expected 4",
        ),
        (
            "type octile\nheight 3\nwidth 4\nmap\n....\n.x..\n....\n",
            "m.map:6: unknown tile `x`",
        ),
        (
            "type octile\nheight three\nwidth 4\nmap\n",
            "m.map:2: height must be a positive integer",
        ),
        (
            "type octile\nheight 3\nwidth 4\nmap\n....\n",
            "m.map:5: map has 1 rows, header says 3",
        ),
    ];
    for (text, needle) in cases {
        let m = d.file("m.map", text);
        expect_error(&run(&m, &sc, &[]), needle);
    }
    expect_error(
        &run(&d.0.join("missing.map"), &sc, &[]),
        "missing.map: cannot read file",
    );
}

#[test]
fn malformed_scenarios_and_units() {
    let d = Dir::new("scen");
    let m = d.file("m.map", MAP);
    let cases: [(String, &str, &[&str]); 8] = [
        ("version 2\n".into(), "s.scen:1: unsupported scenario", &[]),
        (
            "version 1\n0\tm.map\t4\t3\t0\t0\n".into(),
            "s.scen:2: expected 9 tab-separated fields",
            &[],
        ),
        (
            "version 1\n0\tm.map\t4\t3\tx\t0\t3\t0\t3\n".into(),
            "s.scen:2: start x must be a non-negative integer",
            &[],
        ),
        (
            scen(&[(1, 1, 3, 0)]),
            "s.scen:2: unit 0: start (1,1) is on a blocked cell",
            &[],
        ),
        (
            scen(&[(0, 0, 9, 0)]),
            "s.scen:2: unit 0: goal (9,0) is outside the 4x3 map",
            &[],
        ),
        (
            scen(&[(0, 0, 3, 0), (0, 0, 3, 2)]),
            "s.scen:3: unit 1: start (0,0) is also the start of unit 0",
            &[],
        ),
        (
            scen(&[(0, 0, 3, 0), (0, 2, 3, 0)]),
            "s.scen:3: unit 1: goal (3,0) is also the goal of unit 0",
            &[],
        ),
        (
            scen(&[(0, 0, 3, 0)]),
            "s.scen: 5 units asked for, but the scenario holds only 1",
            &["--agents", "5"],
        ),
    ];
    for (text, needle, extra) in cases {
        let s = d.file("s.scen", &text);
        expect_error(&run(&m, &s, extra), needle);
    }
}

#[test]
fn bad_arguments_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(["run", "--planner", "nope"])
        .output()
        .unwrap();
    expect_error(&out, "unknown planner `nope`");
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(["run", "--generate", "32by32"])
        .output()
        .unwrap();
    expect_error(&out, "generator spec `32by32`");
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(["run", "--connectivity", "6"])
        .output()
        .unwrap();
    expect_error(&out, "--connectivity must be 4 or 8");
    let d = Dir::new("plan");
    let m = d.file("m.map", MAP);
    let p = d.file("p.txt", "agents=1\nsolution=\n0:(0,0),\n2:(1,0),\n");
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .arg("validate")
        .arg(&m)
        .arg(&p)
        .output()
        .unwrap();
    expect_error(&out, "p.txt:4: expected tick 1, found 2");
}

#[test]
fn unreachable_goal_fails_only_that_unit() {
    let d = Dir::new("unreach");
    let m = d.file(
        "m.map",
        "type octile\nheight 3\nwidth 4\nmap\n..@.\n..@.\n..@.\n",
    );
    let s = d.file("s.scen", &scen(&[(0, 0, 3, 0), (0, 1, 1, 2)]));
    let json = d.0.join("sum.json");
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(["run", "--max-ticks", "20"])
        .arg("--map")
        .arg(&m)
        .arg("--scen")
        .arg(&s)
        .arg("--summary-json")
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unit 0: goal (3,0) cannot be reached"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(v["reached"], 1);
    assert_eq!(v["unreachable"], 1);
    assert_eq!(v["collisions"], 0);
}
