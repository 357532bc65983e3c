//! Where the integration tests find their maps. Each test crate uses a
//! subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The small MovingAI maps and scenarios committed with the tests (the
/// 32×32, 48×48 and 64×64 maps and warehouse-10-20-10-2-1; sources and
/// licence in `tests/data/README.md`).
pub fn small_maps() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/movingai")
}

/// The full MovingAI benchmark set, which is not in the repository: it is
/// looked for in `shared/maps/movingai` beside the repository (or one level
/// further up). Only `#[ignore]`d tests use it, and they fail here, saying
/// where they looked, when it is absent.
pub fn benchmark_maps() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        here.join("../shared/maps/movingai"),
        here.join("../../shared/maps/movingai"),
    ];
    match candidates.iter().find(|p| p.is_dir()) {
        Some(dir) => dir.clone(),
        None => panic!(
            "the MovingAI benchmark maps are not beside the repository: looked in {} and {}",
            candidates[0].display(),
            candidates[1].display()
        ),
    }
}
