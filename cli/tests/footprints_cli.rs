//! `throng footprints` reports no violation on a mixed crowd and refuses bad
//! input with exit status 2.

fn throng(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_footprints_command_reports_no_violation_and_rejects_bad_input() {
    let out = throng(&[
        "footprints",
        "--units",
        "30",
        "--connectivity",
        "8",
        "--curves",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("footprint violations: 0"), "{text}");
    assert!(text.contains("home 30/30"), "{text}");
    for bad in [
        &["footprints", "--slow", "1.5"][..],
        &["footprints", "--connectivity", "6"],
        &["footprints", "--map", "no-such.map"],
        &["footprints", "--generate", "8x8:0.1", "--units", "500"],
    ] {
        let out = throng(bad);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {err}");
        assert!(err.starts_with("error:"), "{bad:?}: {err}");
    }
}
