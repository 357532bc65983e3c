//! `throng run --planner odid-split|odid|od|astar-joint` solves optimally, writes a plan
//! the validator accepts and a summary whose `soc` is the seed's cost; past
//! `--time-limit-ms` it reports "not solved" cleanly with the groups found.

use std::process::Command;

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("throng-odid-{}-{name}", std::process::id()))
}

#[test]
fn optimal_solvers_agree_and_validate() {
    let mut costs = Vec::new();
    for planner in ["odid-split", "odid", "od", "astar-joint"] {
        let (plan, json, map) = (
            tmp(&format!("{planner}.txt")),
            tmp(&format!("{planner}.json")),
            tmp("m.map"),
        );
        let status = Command::new(env!("CARGO_BIN_EXE_throng"))
            .args([
                "run",
                "--quiet",
                "--planner",
                planner,
                "--connectivity",
                "8",
                "--generate",
                "12x12:0.2",
                "--agents",
                "4",
                "--seed",
                "3",
            ])
            .arg("--out")
            .arg(&plan)
            .arg("--summary-json")
            .arg(&json)
            .arg("--save-map")
            .arg(&map)
            .status()
            .unwrap();
        assert!(status.success(), "{planner}");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(v["solved"], true, "{planner}");
        assert_eq!(v["collisions"], 0, "{planner}");
        costs.push(v["soc"].as_u64().unwrap());
        let out = Command::new(env!("CARGO_BIN_EXE_throng"))
            .args(["validate", "--connectivity", "8", "--corner-cutting"])
            .arg(&map)
            .arg(&plan)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{planner}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    assert!(
        costs.windows(2).all(|w| w[0] == w[1]),
        "optimal costs differ: {costs:?}"
    );
}

#[test]
fn time_limit_reports_not_solved() {
    let json = tmp("limit.json");
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args([
            "run",
            "--planner",
            "od",
            "--connectivity",
            "8",
            "--generate",
            "32x32:0.2",
            "--agents",
            "60",
            "--time-limit-ms",
            "20",
        ])
        .arg("--summary-json")
        .arg(&json)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("not solved: time-limit"), "{text}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["solved"], false);
    assert_eq!(
        v["largest_group"], 60,
        "plain OD puts all 60 units in one group"
    );
}
