//! What the integration tests share: where they find their maps, and
//! measures of a run's trajectory. Each test crate uses a subset of these
//! helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use throng::map::Cell;

/// The small MovingAI maps and scenarios committed with the tests (the
/// 32×32, 48×48 and 64×64 maps and warehouse-10-20-10-2-1; sources and
/// licence in `tests/data/README.md`).
pub fn small_maps() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/movingai")
}

/// The environment variable naming the folder of the full MovingAI
/// benchmark set (den312d, den520d, brc202d, ...), which is not in the
/// repository.
pub const BENCHMARK_MAPS_VAR: &str = "THRONG_BENCHMARK_MAPS";

/// The full MovingAI benchmark set, from the folder `THRONG_BENCHMARK_MAPS`
/// names. Only `#[ignore]`d tests use it, and they fail here, saying what
/// to set, when it is not given.
pub fn benchmark_maps() -> PathBuf {
    match std::env::var_os(BENCHMARK_MAPS_VAR).map(PathBuf::from) {
        Some(dir) if dir.is_dir() => dir,
        Some(dir) => panic!("{BENCHMARK_MAPS_VAR}={} is not a folder", dir.display()),
        None => panic!(
            "set {BENCHMARK_MAPS_VAR} to the folder of the MovingAI benchmark maps \
             (den312d.map, den520d.map, brc202d.map, ...) to run this test"
        ),
    }
}

/// How many of the first `units` units end a recorded trajectory (ticks of
/// `units` cells each, as [`throng::engine::Simulation::trajectory`] keeps
/// them) on another cell than they started on.
pub fn units_moved(trajectory: &[Cell], units: usize) -> usize {
    trajectory[..units]
        .iter()
        .zip(&trajectory[trajectory.len() - units..])
        .filter(|(a, b)| a != b)
        .count()
}

/// A 64×64 open map split by a wall down column 32 with a gap 8 cells wide
/// (rows 28 to 35), as rows of `.` and `@`: crowds crossing it to a block
/// of goals on the far side fill the block in the order they arrive.
pub fn wall_with_gap() -> Vec<String> {
    (0..64)
        .map(|y| {
            (0..64)
                .map(|x| {
                    if x == 32 && !(28..=35).contains(&y) {
                        '@'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}
