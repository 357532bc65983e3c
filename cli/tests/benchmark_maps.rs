//! WHCA*(16) with 100 units on the small MovingAI benchmark maps (first
//! scenario of each) runs to completion and its executed plan passes the
//! validator, both in memory and through `throng run --out` + `throng validate`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use throng::engine::{SimConfig, Simulation};
use throng::io::PlanFile;
use throng::map::{read_map, read_scenario, Connectivity, Instance};
use throng::planner::PlannerKind;
use throng::validate::validate_plan;

/// The small MovingAI maps and scenarios committed with the library's tests
/// (sources and licence in `tests/data/README.md`).
fn maps_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/movingai")
}

const SMALL_MAPS: [&str; 7] = [
    "empty-32-32",
    "empty-48-48",
    "maze-32-32-2",
    "random-32-32-20",
    "random-64-64-20",
    "room-32-32-4",
    "warehouse-10-20-10-2-1",
];

#[test]
fn whca16_with_100_units_is_valid_on_small_benchmark_maps() {
    for name in SMALL_MAPS {
        let dir = maps_dir();
        let grid =
            Arc::new(read_map(&dir.join(format!("{name}.map")), Connectivity::Four).unwrap());
        let scen = read_scenario(&dir.join(format!("scen/{name}-random-1.scen"))).unwrap();
        let inst = Instance::from_scenario(grid.clone(), &scen, Some(100), name).unwrap();
        let mut sim = Simulation::new(
            &inst,
            SimConfig {
                history: throng::engine::History::Full,
                planner: PlannerKind::Whca { window: 16 },
                max_ticks: 300,
                seed: 1,
                ..SimConfig::default()
            },
        )
        .expect("a valid instance");
        let summary = sim.run();
        let plan = PlanFile::parse(&sim.plan_file().to_text(), Path::new("mem")).unwrap();
        let report = validate_plan(&grid, &plan);
        assert!(report.is_valid(), "{name}: {}", report.summary());
        assert_eq!(summary.collisions, 0, "{name}");
        assert!(
            summary.reached >= 25,
            "{name}: only {} of 100 reached their goal",
            summary.reached
        );
    }
}

#[test]
fn cli_run_out_then_validate() {
    let dir = maps_dir();
    let tmp = std::env::temp_dir().join(format!("throng-cli-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let plan = tmp.join("plan.txt");
    let json = tmp.join("summary.json");
    let map = dir.join("random-32-32-20.map");
    let status = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args([
            "run",
            "--quiet",
            "--agents",
            "100",
            "--planner",
            "whca",
            "--window",
            "16",
        ])
        .arg("--map")
        .arg(&map)
        .arg("--scen")
        .arg(dir.join("scen/random-32-32-20-random-1.scen"))
        .arg("--out")
        .arg(&plan)
        .arg("--summary-json")
        .arg(&json)
        .status()
        .unwrap();
    assert!(status.success());
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for key in [
        "planner",
        "units",
        "reached",
        "success_rate",
        "soc",
        "makespan",
        "mean_path_len",
        "lower_bound_path_len",
        "cycles_per_agent",
        "collisions",
        "ticks",
        "threads",
        "init_ms",
        "plan_ms_total",
        "tick_ms_mean",
        "tick_ms_p99",
        "tick_ms_max",
        "budget_overruns",
    ] {
        assert!(summary.get(key).is_some(), "summary lacks `{key}`");
    }
    assert_eq!(summary["units"], 100);
    assert_eq!(summary["collisions"], 0);
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .arg("validate")
        .arg(&map)
        .arg(&plan)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("valid: 100 units"), "{text}");

    // A plan with a swap is rejected with status 1.
    let mut bad = PlanFile::read(&plan).unwrap();
    let (a, b) = (bad.steps[0][0], bad.steps[0][1]);
    bad.steps[1][0] = b;
    bad.steps[1][1] = a;
    bad.write(&tmp.join("bad.txt")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .arg("validate")
        .arg(&map)
        .arg(tmp.join("bad.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("INVALID"));
}
