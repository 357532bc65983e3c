//! Every setting of `throng run` has a range: out of it, the command exits
//! with status 2 and an error naming the flag, the value and the range,
//! quickly and without allocating what the value asked for. The reader
//! checks of `throng validate` and scenarios are here too: an empty or
//! truncated plan is an error, and every scenario row must fit the map.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn throng(args: &[&str]) -> (Output, Duration) {
    let t0 = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(args)
        .output()
        .unwrap();
    (out, t0.elapsed())
}

fn expect_usage_error(args: &[&str], needle: &str) {
    let (out, took) = throng(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: stderr: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected `{needle}` in: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(took < Duration::from_secs(5), "{args:?} took {took:?}");
}

fn run_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["run", "--quiet"];
    v.extend_from_slice(extra);
    v
}

#[test]
fn a_huge_window_is_a_usage_error_not_a_wrapped_horizon() {
    expect_usage_error(
        &run_args(&["--generate", "32x32:0.2", "--window", "4294967295"]),
        "--window 4294967295 is out of range: expected 2..=1024",
    );
}

#[test]
fn a_window_beyond_the_range_allocates_nothing() {
    expect_usage_error(
        &run_args(&[
            "--generate",
            "32x32:0.2",
            "--max-ticks",
            "50",
            "--window",
            "100000",
        ]),
        "--window 100000 is out of range: expected 2..=1024",
    );
}

#[test]
fn threads_are_bounded() {
    for threads in ["100000", "10000"] {
        expect_usage_error(
            &run_args(&[
                "--generate",
                "32x32:0.2",
                "--max-ticks",
                "50",
                "--threads",
                threads,
            ]),
            &format!("--threads {threads} is out of range: expected 0..=256"),
        );
    }
}

#[test]
fn the_turn_limit_is_bounded() {
    expect_usage_error(
        &run_args(&[
            "--generate",
            "16x16:0.1",
            "--agents",
            "5",
            "--max-ticks",
            "4294967295",
        ]),
        "--max-ticks 4294967295 is out of range: expected 0..=10000000",
    );
    // In range, but a full-depth planner would reserve every tick of it.
    expect_usage_error(
        &run_args(&[
            "--generate",
            "16x16:0.1",
            "--agents",
            "5",
            "--planner",
            "hca",
            "--max-ticks",
            "10000000",
        ]),
        "GiB (at most 4 GiB): lower --max-ticks",
    );
}

#[test]
fn window_and_threads_together_are_bounded_by_memory() {
    expect_usage_error(
        &run_args(&[
            "--generate",
            "32x32:0.2",
            "--window",
            "1024",
            "--threads",
            "256",
        ]),
        "WHCA*(1024) with 100 units on a 32x32 map",
    );
}

#[test]
fn counts_sizes_and_budgets_are_bounded() {
    let cases: [(&[&str], &str); 10] = [
        (
            &["--generate", "100000x100000"],
            "--generate: generator spec `100000x100000`: 100000x100000 is out of range",
        ),
        (&["--generate", "4097x4096"], "at most 16777216 cells"),
        (
            &["--generate", "8x8", "--agents", "65"],
            "--units 65 is out of range: a 8x8 map has 64 cells",
        ),
        (
            &["--agents", "1000001"],
            "--units 1000001 is out of range: expected 0..=1000000",
        ),
        (
            &["--agents", "18446744073709551615"],
            "--units 18446744073709551615 is out of range",
        ),
        (
            &["--budget-us", "18446744073709551615"],
            "--budget-us 18446744073709551615 is out of range: expected 1..=60000000",
        ),
        (&["--budget-nodes", "0"], "--budget-nodes 0 is out of range"),
        (&["--frame-ms", "0"], "--frame-ms 0 is out of range"),
        (&["--frame-ms", "NaN"], "--frame-ms NaN is out of range"),
        (
            &["--planner", "odid", "--time-limit-ms", "0"],
            "--time-limit-ms 0 is out of range",
        ),
    ];
    for (extra, needle) in cases {
        expect_usage_error(&run_args(extra), needle);
    }
}

#[test]
fn a_profile_out_of_range_is_named_like_the_flag() {
    let dir = std::env::temp_dir().join(format!("throng-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let profile = dir.join("p.toml");
    std::fs::write(&profile, "window = 5000\n").unwrap();
    expect_usage_error(
        &run_args(&["--profile", profile.to_str().unwrap()]),
        "--window 5000 is out of range",
    );
}

#[test]
fn the_bounds_themselves_are_accepted() {
    let (out, _) = throng(&run_args(&[
        "--generate",
        "16x16:0.1",
        "--agents",
        "5",
        "--window",
        "1024",
        "--threads",
        "1",
        "--max-ticks",
        "10000000",
    ]));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

struct Dir(PathBuf);

impl Dir {
    fn new(tag: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("throng-limits-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
    fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

const MAP: &str = "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n";

#[test]
fn empty_and_truncated_plans_do_not_validate() {
    let d = Dir::new("plan");
    let m = d.file("m.map", MAP);
    let cases = [
        (
            "solution=\n",
            "p.txt:1: `solution=` lists no ticks: the plan is empty or truncated",
        ),
        (
            "agents=2\nmap_file=m.map\nsolution=\n",
            "p.txt:3: `solution=` lists no ticks",
        ),
        (
            "agents=1\nmakespan=3\nsolution=\n0:(0,0),\n1:(1,0),\n",
            "p.txt:5: makespan=3 but the plan ends at tick 1: the plan is truncated",
        ),
        (
            "agents=2\nsolution=\n0:(0,0),(0,2),\n1:(1,0),",
            "p.txt:4: tick 1 lists 1 units, expected 2",
        ),
    ];
    for (text, needle) in cases {
        let p = d.file("p.txt", text);
        let (m, p) = (m.to_str().unwrap(), p.to_str().unwrap());
        expect_usage_error(&["validate", m, p], needle);
    }
}

#[test]
fn every_scenario_row_must_fit_the_map() {
    let d = Dir::new("scen");
    let m = d.file("m.map", MAP);
    let s = d.file(
        "s.scen",
        "version 1\n0\tm.map\t4\t3\t0\t0\t3\t0\t3\n0\tm.map\t40\t30\t0\t2\t3\t2\t3\n",
    );
    let (m, s) = (m.to_str().unwrap(), s.to_str().unwrap());
    expect_usage_error(
        &run_args(&["--map", m, "--scen", s, "--agents", "1"]),
        "s.scen:3: row is for a 40x30 map, but the map is 4x3",
    );
}

#[test]
fn mixed_crowd_shares_and_pace_are_bounded() {
    for (extra, needle) in [
        (
            vec!["--large", "1.5"],
            "--large 1.5 is out of range: expected 0..=1, a share of the units",
        ),
        (vec!["--huge", "-0.1"], "--huge -0.1 is out of range"),
        (vec!["--slow", "NaN"], "--slow NaN is out of range"),
        (
            vec!["--large", "0.6", "--huge", "0.3", "--slow", "0.2"],
            "--large 0.6 + --huge 0.3 + --slow 0.2 add up to",
        ),
        (
            vec!["--slow", "0.1", "--pace", "9"],
            "--pace 9 is out of range: expected 1..=8",
        ),
        (
            vec!["--slow", "0.1", "--pace", "0"],
            "--pace 0 is out of range",
        ),
        (
            vec!["--pace", "2"],
            "--pace is the pace of the --slow units",
        ),
        (vec!["--curves"], "--curves turns on curves for the --large"),
    ] {
        let mut args = run_args(&["--generate", "32x32:0.1", "--max-ticks", "10"]);
        args.extend_from_slice(&extra);
        expect_usage_error(&args, needle);
    }
}
