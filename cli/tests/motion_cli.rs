//! `throng path`: prints the path, writes the JSON the issue specifies (curve
//! sampled at most 0.1 tile apart, in tile units, from the start cell's
//! centre to the goal's) and an SVG, and exits with status 2 and a reason when
//! the goal cannot be reached legally.

use std::path::PathBuf;
use std::process::Command;

const HAIRPIN: [&str; 9] = [
    "@@@@@@@@@@@@@@@@@@@@@",
    "@@@@@@@@@@@@@@......@",
    "@@..................@",
    "@@.@@@@@@@@@@@......@",
    "@@.@@@@@@@@@@@......@",
    "@@.@@@@@@@@@@@......@",
    "@@..................@",
    "@@@@@@@@@@@@@@......@",
    "@@@@@@@@@@@@@@@@@@@@@",
];

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("throng-motion-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write_map(dir: &std::path::Path) -> PathBuf {
    let mut text = format!(
        "type octile\nheight {}\nwidth {}\nmap\n",
        HAIRPIN.len(),
        HAIRPIN[0].len()
    );
    for r in HAIRPIN {
        text.push_str(r);
        text.push('\n');
    }
    let p = dir.join("hairpin.map");
    std::fs::write(&p, text).unwrap();
    p
}

fn throng(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_throng"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn json_and_svg_describe_a_legal_route() {
    let dir = temp_dir("ok");
    let map = write_map(&dir);
    let (json, svg) = (dir.join("p.json"), dir.join("p.svg"));
    let out = throng(&[
        "path",
        "--map",
        map.to_str().unwrap(),
        "--from",
        "4,2,0",
        "--to",
        "4,6",
        "--method",
        "directional24",
        "--radius",
        "1.5",
        "--width",
        "0.5",
        "--json",
        json.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("length:") && stdout.contains("search:"),
        "{stdout}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let grid_path = v["grid_path"].as_array().unwrap();
    assert_eq!(grid_path.first().unwrap(), &serde_json::json!([4, 2]));
    assert_eq!(grid_path.last().unwrap(), &serde_json::json!([4, 6]));
    let curve: Vec<[f64; 3]> = serde_json::from_value(v["curve"].clone()).unwrap();
    assert!(
        (curve[0][0] - 4.5).abs() < 1e-9
            && (curve[0][1] - 2.5).abs() < 1e-9
            && curve[0][2].abs() < 1e-9
    );
    let last = curve.last().unwrap();
    assert!((last[0] - 4.5).abs() < 1e-6 && (last[1] - 6.5).abs() < 1e-6);
    let mut length = 0.0;
    for w in curve.windows(2) {
        let d = (w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1]);
        assert!(d <= 0.1 + 1e-9, "samples {d} apart");
        length += d;
    }
    let reported = v["length"].as_f64().unwrap();
    assert!(
        reported >= length - 1e-6 && reported < length + 0.05,
        "{reported} vs sampled {length}"
    );
    assert!(v["search_ms"].as_f64().unwrap() >= 0.0);
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"));
}

#[test]
fn an_illegal_or_impossible_goal_exits_with_status_2_and_says_why() {
    let dir = temp_dir("err");
    let map = write_map(&dir);
    let m = map.to_str().unwrap();
    let out = throng(&[
        "path", "--map", m, "--from", "4,2,0", "--to", "4,6", "--method", "smooth", "--radius",
        "1.5",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("illegal turn"));
    // (0, 0) is blocked.
    let out = throng(&["path", "--map", m, "--from", "0,0", "--to", "4,6"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("blocked"));
    let out = throng(&[
        "path", "--map", m, "--from", "4,2", "--to", "4,6", "--method", "sideways",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown method"));
}
