//! `throng run` with a mixed crowd (`--large`, `--huge`, `--slow`, `--pace`,
//! `--curves`, or kinds per unit in an event script): the settings it
//! refuses (exit 2, naming the flag or the script's line), and what a small
//! run reports: the crowd per kind, units home and home within three times
//! their lower bound, and a trace of rectangles.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn throng(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(args)
        .output()
        .expect("the throng binary runs")
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("throng-mixed-{}-{name}", std::process::id()))
}

fn path(p: &Path) -> &str {
    p.to_str().expect("temporary paths are UTF-8")
}

fn expect_usage_error(args: &[&str], needle: &str) {
    let out = throng(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: stderr: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected `{needle}` in: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// A small mixed run's arguments.
fn small(extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "run",
        "--quiet",
        "--generate",
        "24x24:0.1",
        "--units",
        "20",
        "--threads",
        "2",
        "--max-ticks",
        "300",
        "--seed",
        "3",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

#[test]
fn settings_a_mixed_crowd_cannot_run_with_are_refused() {
    let shares = ["--large", "0.2"];
    for (extra, needle) in [
        (
            vec!["--planner", "hca"],
            "--large, --huge and --slow need the WHCA* planner (--planner whca), not `hca`",
        ),
        (
            vec!["--planner", "odid"],
            "need the WHCA* planner (--planner whca), not `odid`",
        ),
        (
            vec!["--out", "plan.txt"],
            "with --large, --huge or --slow use --trace",
        ),
        (
            vec!["--orders-every", "10"],
            "--orders-every draws one-cell goals and spawns",
        ),
        (
            vec!["--churn-every", "10"],
            "--churn-every draws one-cell goals",
        ),
    ] {
        let mut args: Vec<&str> = vec!["run", "--quiet", "--generate", "16x16:0.1"];
        args.extend_from_slice(&shares);
        args.extend_from_slice(&extra);
        expect_usage_error(&args, needle);
    }
    let out = throng(&["run", "--large", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--large"));
}

#[test]
fn a_crowd_too_large_for_the_map_is_a_clear_error() {
    expect_usage_error(
        &[
            "run",
            "--quiet",
            "--generate",
            "12x12:0.1",
            "--units",
            "30",
            "--huge",
            "1",
        ],
        "no room on the map for 30 units (30 3x3) with their bodies apart",
    );
}

#[test]
fn a_profile_sets_the_crowd_and_its_ranges_hold_there_too() {
    let bad = temp("bad.toml");
    std::fs::write(&bad, "generate = \"16x16:0.1\"\nlarge = 0.7\nhuge = 0.5\n").unwrap();
    expect_usage_error(
        &["run", "--quiet", "--profile", path(&bad)],
        "--large 0.7 + --huge 0.5 add up to 1.2",
    );
    let good = temp("good.toml");
    std::fs::write(
        &good,
        "generate = \"24x24:0.1\"\nagents = 12\nlarge = 0.25\nslow = 0.25\npace = 2\nmax_ticks = 200\nthreads = 2\n",
    )
    .unwrap();
    let json = temp("profile.json");
    let out = throng(&[
        "run",
        "--quiet",
        "--profile",
        path(&good),
        "--summary-json",
        path(&json),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let kinds: Vec<(String, u64)> = v["mixed"]["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["kind"].as_str().unwrap().to_string(),
                k["units"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("1x1".to_string(), 6),
            ("2x2".to_string(), 3),
            ("1x1 pace 2".to_string(), 3)
        ]
    );
    for f in [bad, good, json] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn a_small_mixed_run_reports_its_kinds_and_traces_rectangles() {
    let (json, trace) = (temp("summary.json"), temp("trace.csv"));
    let args = small(&[
        "--large",
        "0.2",
        "--huge",
        "0.1",
        "--slow",
        "0.2",
        "--connectivity",
        "8",
        "--curves",
        "--summary-json",
        path(&json),
        "--trace",
        path(&trace),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = throng(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["collisions"], 0);
    assert_eq!(v["units"], 20);
    let mixed = &v["mixed"];
    assert_eq!(mixed["units"], 20);
    let kinds = mixed["kinds"].as_array().unwrap();
    let count = |name: &str| {
        kinds
            .iter()
            .find(|k| k["kind"] == name)
            .map_or(0, |k| k["units"].as_u64().unwrap())
    };
    assert_eq!(
        (
            count("1x1"),
            count("2x2 curves"),
            count("3x3 curves"),
            count("1x1 pace 3 curves")
        ),
        (10, 4, 2, 4)
    );
    let home = mixed["home"].as_u64().unwrap();
    let on_time = mixed["home_within_3x"].as_u64().unwrap();
    assert!(on_time <= 20 && home <= 20, "{mixed}");
    let rate = mixed["home_within_3x_rate"].as_f64().unwrap();
    assert!((rate - on_time as f64 / 20.0).abs() < 1e-9, "{mixed}");
    for key in ["tick_ms_p99", "tick_ms_p999", "tick_ms_mean"] {
        assert!(v[key].is_number(), "{key} in {v}");
    }

    // The trace: a row per unit at tick 0, each its body (the kinds' sizes).
    let text = std::fs::read_to_string(&trace).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("tick,unit,x,y,w,h"));
    let mut sides: Vec<u32> = lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[0] == "0")
        .map(|f| {
            assert_eq!(f[4], f[5], "a body is square at tick 0: {f:?}");
            f[4].parse().unwrap()
        })
        .collect();
    sides.sort();
    let expected: Vec<u32> = [vec![1; 14], vec![2; 4], vec![3; 2]].concat();
    assert_eq!(sides, expected);

    // The same text summary says so too.
    let args = small(&["--large", "0.2", "--huge", "0.1"]);
    let args: Vec<&str> = args
        .iter()
        .filter(|a| **a != "--quiet")
        .map(String::as_str)
        .collect();
    let out = throng(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("mixed crowd          20 units:"), "{text}");
    assert!(text.contains("  2x2 "), "{text}");
    assert!(text.contains("home within 3× their lower bound"), "{text}");
    for f in [json, trace] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn an_event_script_gives_kinds_per_unit_and_its_errors_name_the_line() {
    let script = temp("kinds.txt");
    std::fs::write(
        &script,
        "# a tank, a slow unit and a wagon with curves\n\
         0 spawn tank 0 0 10 10 size 2 pace 2\n\
         0 spawn slow 20 0 0 20 pace 3 priority 2\n\
         3 spawn wagon 0 20 20 20 curves size 3\n\
         40 goal tank 2 2\n",
    )
    .unwrap();
    let (json, trace) = (temp("kinds.json"), temp("kinds.csv"));
    let out = throng(&[
        "run",
        "--quiet",
        "--generate",
        "24x24:0.0",
        "--units",
        "0",
        "--connectivity",
        "8",
        "--max-ticks",
        "200",
        "--events",
        path(&script),
        "--summary-json",
        path(&json),
        "--trace",
        path(&trace),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["collisions"], 0);
    assert_eq!(v["events"]["spawned"], 3);
    let text = std::fs::read_to_string(&trace).unwrap();
    let first = |unit: &str| {
        text.lines()
            .find(|l| l.split(',').nth(1) == Some(unit))
            .unwrap_or_else(|| panic!("{unit} in the trace"))
            .to_string()
    };
    assert_eq!(first("tank"), "0,tank,0,0,2,2");
    assert_eq!(first("slow"), "0,slow,20,0,1,1");
    assert!(
        first("wagon").ends_with(",wagon,0,20,3,3"),
        "{}",
        first("wagon")
    );

    for (line, needle) in [
        ("0 spawn a 0 0 5 5 size 9", "kinds-bad.txt:2: size `9` is out of range: expected a whole number from 1 to 8"),
        ("0 spawn a 0 0 5 5 pace", "kinds-bad.txt:2: `pace` needs a number from 1 to 8"),
        ("0 spawn a 0 0 5 5 fast", "kinds-bad.txt:2: unknown `spawn` option `fast`"),
        ("0 spawn a 22 0 5 5 size 3", "kinds-bad.txt:2: spawn cell (22, 0): a 3×3 body there reaches (24, 2), outside the 24×24 map"),
    ] {
        let dir = temp("bad");
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("kinds-bad.txt");
        std::fs::write(&bad, format!("# bad\n{line}\n")).unwrap();
        expect_usage_error(
            &[
                "run", "--quiet", "--generate", "24x24:0.0", "--units", "0", "--events",
                path(&bad),
            ],
            needle,
        );
    }
    for f in [script, json, trace] {
        let _ = std::fs::remove_file(f);
    }
}
