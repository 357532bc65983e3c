//! Every profile in `profiles/` parses; `--profile` values are used and
//! command-line flags override them; a bad profile is a clear error (exit 2).

use std::path::Path;
use std::process::Command;

use throng_cli::run::read_profile;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

#[test]
fn all_profiles_parse() {
    let mut n = 0;
    for entry in std::fs::read_dir(root().join("profiles")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let p = read_profile(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(p.planner.is_some(), "{} names its planner", path.display());
            n += 1;
        }
    }
    assert!(n >= 3);
}

#[test]
fn flags_override_the_profile() {
    let json = std::env::temp_dir().join(format!("throng-profile-{}.json", std::process::id()));
    let status = Command::new(env!("CARGO_BIN_EXE_throng"))
        .current_dir(root())
        .args([
            "run",
            "--quiet",
            "--profile",
            "profiles/silver.toml",
            "--agents",
            "40",
            "--threads",
            "1",
        ])
        .arg("--summary-json")
        .arg(&json)
        .status()
        .unwrap();
    assert!(status.success());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["units"], 40, "--agents overrides the profile's 100");
    assert_eq!(v["planner"], "WHCA*(16)", "the profile's planner is used");
    assert_eq!(v["collisions"], 0);
}

#[test]
fn bad_profile_is_an_error() {
    let bad = std::env::temp_dir().join(format!("throng-bad-profile-{}.toml", std::process::id()));
    std::fs::write(&bad, "agents = 10\nwindw = 8\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(["run", "--profile"])
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("throng-bad-profile") && err.contains("windw"),
        "{err}"
    );
}
