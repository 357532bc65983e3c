//! `throng run --spawned`: the units spawned one by one into a world built
//! empty, as a game fills its world. On a map where both read landmarks,
//! the run plans exactly as the world built with the units; the flag is
//! refused where it has no meaning (plan files of fixed instances, mixed
//! crowds whose bodies are spawned anyway).

use std::path::PathBuf;
use std::process::{Command, Output};

fn throng(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(args)
        .output()
        .unwrap()
}

fn summary(extra: &[&str], tag: &str) -> serde_json::Value {
    let json: PathBuf =
        std::env::temp_dir().join(format!("throng-spawned-{}-{tag}.json", std::process::id()));
    let json_arg = json.display().to_string();
    let mut args = vec![
        "run",
        "--quiet",
        "--generate",
        "200x200:0.1",
        "--units",
        "900",
        "--max-units",
        "2000",
        "--max-ticks",
        "40",
        "--threads",
        "1",
        "--summary-json",
        &json_arg,
    ];
    args.extend_from_slice(extra);
    let out = throng(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&json).unwrap();
    let _ = std::fs::remove_file(&json);
    serde_json::from_str(&text).unwrap()
}

#[test]
fn spawned_units_plan_as_the_world_built_with_them() {
    let (built, spawned) = (summary(&[], "built"), summary(&["--spawned"], "spawned"));
    for key in ["soc", "reached", "collisions", "searches"] {
        assert_eq!(built[key], spawned[key], "{key}");
    }
    assert!(built["reached"].as_u64().unwrap() > 0);
    assert_eq!(spawned["collisions"], 0);
}

#[test]
fn spawned_is_refused_with_out_and_with_a_mixed_crowd() {
    for (extra, needle) in [
        (&["--out", "plan.txt"][..], "--trace rather than --out"),
        (&["--large", "0.2"][..], "spawned already"),
    ] {
        let mut args = vec![
            "run",
            "--generate",
            "32x32:0.1",
            "--units",
            "20",
            "--spawned",
        ];
        args.extend_from_slice(extra);
        let out = throng(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(needle),
            "{args:?}: expected `{needle}` in {err}"
        );
    }
}
