//! `throng run --frame-ms`: ticks paced like a game's frames. Each tick
//! begins the frame's length after the one before, so a run of N ticks
//! lasts at least N frames; pinned and free workers plan the same.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs 12 ticks of 80 units on a generated map with the given extra flags
/// and returns the summary and how long the command took.
fn run(extra: &[&str], tag: &str) -> (serde_json::Value, Duration) {
    let json: PathBuf =
        std::env::temp_dir().join(format!("throng-frames-{}-{tag}.json", std::process::id()));
    let json_arg = json.display().to_string();
    let mut args = vec![
        "run",
        "--quiet",
        "--generate",
        "64x64:0.1",
        "--units",
        "80",
        "--max-ticks",
        "12",
        "--threads",
        "2",
        "--summary-json",
        &json_arg,
    ];
    args.extend_from_slice(extra);
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(&args)
        .output()
        .unwrap();
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(&json).ok();
    (summary, took)
}

#[test]
fn paced_ticks_take_their_frames_and_plan_the_same() {
    let (back_to_back, _) = run(&[], "b2b");
    let (paced, took) = run(&["--frame-ms", "40"], "paced");
    // 12 ticks of 40 ms frames: the run cannot end sooner.
    assert!(took >= Duration::from_millis(12 * 40), "{took:?}");
    let (free, _) = run(&["--frame-ms", "5", "--pin-workers", "false"], "free");
    for key in ["soc", "at_goal_at_end", "collisions", "searches"] {
        assert_eq!(back_to_back[key], paced[key], "{key}");
        assert_eq!(back_to_back[key], free[key], "{key}");
    }
    assert_eq!(paced["collisions"], 0);
}
