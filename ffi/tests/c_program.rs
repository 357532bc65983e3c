//! The C interface from C: `examples/game_loop.c` is compiled against
//! `include/throng.h` and the static library (built by the test), then
//! run; it exits 0 only if every unit arrived without a
//! collision and every bad call failed with the expected status. The
//! header is also compiled as C++ (its `extern "C"` guards).
//!
//! Needs a C compiler (`$CC`, else `cc`); without one the test says so and
//! checks nothing else.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The directory cargo put this test binary's profile in (`target/<profile>`).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    // target/<profile>/deps/<test binary>
    exe.parent()
        .and_then(Path::parent)
        .expect("the test binary lies in target/<profile>/deps")
        .to_path_buf()
}

/// `libthrong_c.a` as it stands in the sources: `cargo test` builds the
/// crate only as a Rust library, so the static one is built here, in a
/// target directory of its own beside this one (the test run holds its
/// own), with this run's profile.
fn static_lib() -> PathBuf {
    let profile = profile_dir();
    let release = profile.file_name().is_some_and(|n| n == "release");
    let target = profile
        .parent()
        .expect("target/<profile> has a parent")
        .join("c-interface");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut build = Command::new(cargo);
    build
        .args([
            "build",
            "--offline",
            "-p",
            "throng-ffi",
            "--lib",
            "--target-dir",
        ])
        .arg(&target)
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    if release {
        build.arg("--release");
    }
    let status = build.status().expect("cargo runs");
    assert!(status.success(), "cargo could not build libthrong_c.a");
    target
        .join(if release { "release" } else { "debug" })
        .join("libthrong_c.a")
}

fn compiler(var: &str, fallback: &str) -> Option<String> {
    let cc = std::env::var(var).unwrap_or_else(|_| fallback.to_string());
    Command::new(&cc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| cc)
}

#[test]
fn the_c_game_loop_brings_every_unit_home() {
    let Some(cc) = compiler("CC", "cc") else {
        eprintln!("no C compiler found ($CC or cc): the C program was not built");
        return;
    };
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = static_lib();
    assert!(lib.exists(), "{} missing", lib.display());
    let out = std::env::temp_dir().join(format!("throng_game_loop_{}", std::process::id()));
    let status = Command::new(&cc)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O1", "-I"])
        .arg(crate_dir.join("include"))
        .arg(crate_dir.join("examples/game_loop.c"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&out)
        .status()
        .expect("the C compiler runs");
    assert!(status.success(), "examples/game_loop.c did not compile");
    let recording = out.with_extension("rec");
    let run = Command::new(&out)
        .arg("1000")
        .arg(&recording)
        .output()
        .expect("the C program runs");
    let _ = std::fs::remove_file(&out);
    let (events, map) = (
        recording.with_extension("rec.events"),
        recording.with_extension("rec.map"),
    );
    let script = std::fs::read_to_string(&events);
    let grid = throng::map::read_map(&map, throng::map::Connectivity::Four);
    let _ = std::fs::remove_file(&events);
    let _ = std::fs::remove_file(&map);
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "the C program failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("all 300 units home"), "{stdout}");
    assert!(stdout.contains("collisions 0"), "{stdout}");
    // The recording: every call the game made, a script the command line
    // accepts for this map.
    let script = script.expect("the recorded script");
    let grid = grid.expect("the recorded map");
    let parsed = throng::io::parse_events(&events, &script).expect("a valid script");
    throng::io::check_events(&events, &parsed, &grid, 0).expect("calls the map accepts");
    let count = |word: &str| {
        script
            .lines()
            .filter(|l| l.split(' ').nth(1) == Some(word))
            .count()
    };
    assert_eq!(
        (
            count("spawn"),
            count("despawn"),
            count("block"),
            count("unblock")
        ),
        (301, 1, 1, 1),
        "{script}"
    );
}

#[test]
fn the_header_compiles_as_cpp() {
    let Some(cxx) = compiler("CXX", "c++") else {
        eprintln!("no C++ compiler found ($CXX or c++): the header was not checked as C++");
        return;
    };
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = std::env::temp_dir().join(format!("throng_header_{}.cpp", std::process::id()));
    std::fs::write(
        &src,
        "#include \"throng.h\"\nint main() { ThrongConfig c; return throng_config_default(&c); }\n",
    )
    .expect("a temporary file");
    let status = Command::new(&cxx)
        .args(["-fsyntax-only", "-Wall", "-Werror", "-I"])
        .arg(crate_dir.join("include"))
        .arg(&src)
        .status()
        .expect("the C++ compiler runs");
    let _ = std::fs::remove_file(&src);
    assert!(status.success(), "include/throng.h does not compile as C++");
}

/// Each struct's size and field offsets as C lays them out from the header,
/// against Rust's `#[repr(C)]` layout.
#[test]
fn the_header_lays_out_the_structs_as_the_library_does() {
    let Some(cc) = compiler("CC", "cc") else {
        eprintln!("no C compiler found ($CC or cc): layouts not compared");
        return;
    };
    use std::mem::{offset_of, size_of};
    use throng_c::*;
    let fields: Vec<(&str, &str, usize)> = vec![
        ("ThrongConfig", "window", offset_of!(ThrongConfig, window)),
        (
            "ThrongConfig",
            "budget_us",
            offset_of!(ThrongConfig, budget_us),
        ),
        (
            "ThrongConfig",
            "budget_nodes",
            offset_of!(ThrongConfig, budget_nodes),
        ),
        (
            "ThrongConfig",
            "max_units",
            offset_of!(ThrongConfig, max_units),
        ),
        (
            "ThrongConfig",
            "stuck_after",
            offset_of!(ThrongConfig, stuck_after),
        ),
        (
            "ThrongConfig",
            "eight_connected",
            offset_of!(ThrongConfig, eight_connected),
        ),
        (
            "ThrongConfig",
            "check_moves",
            offset_of!(ThrongConfig, check_moves),
        ),
        (
            "ThrongUnitDesc",
            "goal_y",
            offset_of!(ThrongUnitDesc, goal_y),
        ),
        ("ThrongUnitDesc", "size", offset_of!(ThrongUnitDesc, size)),
        (
            "ThrongUnitDesc",
            "curves",
            offset_of!(ThrongUnitDesc, curves),
        ),
        (
            "ThrongUnitInfo",
            "goal_x",
            offset_of!(ThrongUnitInfo, goal_x),
        ),
        ("ThrongUnitInfo", "state", offset_of!(ThrongUnitInfo, state)),
        ("ThrongTick", "searches", offset_of!(ThrongTick, searches)),
        (
            "ThrongTick",
            "carried_over",
            offset_of!(ThrongTick, carried_over),
        ),
        ("ThrongTick", "step_us", offset_of!(ThrongTick, step_us)),
        ("ThrongTick", "plan_us", offset_of!(ThrongTick, plan_us)),
        ("ThrongEvent", "tick", offset_of!(ThrongEvent, tick)),
        ("ThrongEvent", "kind", offset_of!(ThrongEvent, kind)),
        ("ThrongEvent", "y", offset_of!(ThrongEvent, y)),
        ("ThrongStats", "states", offset_of!(ThrongStats, states)),
        ("ThrongStats", "overruns", offset_of!(ThrongStats, overruns)),
        (
            "ThrongStats",
            "tick_mean_ms",
            offset_of!(ThrongStats, tick_mean_ms),
        ),
        (
            "ThrongStats",
            "tick_max_ms",
            offset_of!(ThrongStats, tick_max_ms),
        ),
    ];
    let sizes = [
        ("ThrongConfig", size_of::<ThrongConfig>()),
        ("ThrongUnitDesc", size_of::<ThrongUnitDesc>()),
        ("ThrongUnitInfo", size_of::<ThrongUnitInfo>()),
        ("ThrongTick", size_of::<ThrongTick>()),
        ("ThrongEvent", size_of::<ThrongEvent>()),
        ("ThrongStats", size_of::<ThrongStats>()),
        ("ThrongStatus", size_of::<ThrongStatus>()),
    ];
    let mut program = String::from(
        "#include <stdio.h>\n#include <stddef.h>\n#include \"throng.h\"\nint main(void) {\n",
    );
    let mut expected = String::new();
    for (ty, size) in sizes {
        program.push_str(&format!("printf(\"{ty} %zu\\n\", sizeof({ty}));\n"));
        expected.push_str(&format!("{ty} {size}\n"));
    }
    for (ty, field, at) in &fields {
        program.push_str(&format!(
            "printf(\"{ty}.{field} %zu\\n\", offsetof({ty}, {field}));\n"
        ));
        expected.push_str(&format!("{ty}.{field} {at}\n"));
    }
    program.push_str("return 0;\n}\n");
    let stem = std::env::temp_dir().join(format!("throng_layout_{}", std::process::id()));
    let src = stem.with_extension("c");
    std::fs::write(&src, program).expect("a temporary file");
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new(&cc)
        .args(["-std=c99", "-I"])
        .arg(crate_dir.join("include"))
        .arg(&src)
        .arg("-o")
        .arg(&stem)
        .status()
        .expect("the C compiler runs");
    assert!(status.success(), "the layout program did not compile");
    let out = Command::new(&stem).output().expect("it runs");
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&stem);
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}
