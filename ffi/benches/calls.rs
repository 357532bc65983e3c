//! What the C interface costs a game that reads every unit each frame:
//! 10,000 units on a generated 512×512 map, their rectangles, goals and
//! states read through the Rust API (the baseline), through
//! `throng_unit_info` once a unit, and through `throng_unit_infos` at once.

use std::ptr::null_mut;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use throng::engine::{SimConfig, Simulation, UnitSpec};
use throng::map::{generate_map, random_instance, Connectivity};
use throng::units::UnitId;
use throng_c::*;

const UNITS: usize = 10_000;

fn bench(c: &mut Criterion) {
    let grid = Arc::new(generate_map(
        "512x512:0.1".parse().unwrap(),
        Connectivity::Four,
        1,
    ));
    let inst = random_instance(grid.clone(), UNITS, 1).unwrap();
    let config = SimConfig {
        max_units: UNITS,
        ..SimConfig::default()
    };
    // The same units in a Rust world and in a C one.
    let mut sim = Simulation::with_map(grid.clone(), config).unwrap();
    let rust_ids: Vec<UnitId> = (0..UNITS)
        .map(|k| {
            sim.spawn(UnitSpec::new(inst.starts[k], inst.goals[k]))
                .unwrap()
        })
        .collect();
    sim.step();
    let bytes: Vec<u8> = grid.passability().iter().map(|&p| u8::from(p)).collect();
    let cfg = ThrongConfig {
        threads: 1,
        max_units: UNITS as u32,
        ..ThrongConfig::default()
    };
    let mut w = null_mut();
    let mut c_ids = vec![0u64; UNITS];
    // SAFETY: valid pointers and sizes throughout; the world is freed once.
    unsafe {
        assert_eq!(
            throng_world_new(bytes.as_ptr(), 512, 512, &cfg, &mut w),
            ThrongStatus::Ok
        );
        for (k, id) in c_ids.iter_mut().enumerate() {
            let (x, y) = grid.xy(inst.starts[k]);
            let (gx, gy) = grid.xy(inst.goals[k]);
            let d = ThrongUnitDesc::one_cell(x, y, gx, gy);
            assert_eq!(throng_spawn(w, &d, id), ThrongStatus::Ok);
        }
        assert_eq!(throng_step(w, null_mut()), ThrongStatus::Ok);
    }
    let mut out = vec![ThrongUnitInfo::default(); UNITS];
    let mut g = c.benchmark_group("read_10k_units");
    g.bench_function("rust api (baseline)", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &id in &rust_ids {
                let r = sim.rect(id).unwrap();
                let goal = sim.goal(id).unwrap();
                let s = sim.state(id).unwrap();
                sum += u64::from(r.x0 + r.y0 + goal.0) + s as u64;
            }
            std::hint::black_box(sum)
        })
    });
    g.bench_function("throng_unit_info per unit", |b| {
        b.iter(|| {
            for (o, &id) in out.iter_mut().zip(&c_ids) {
                // SAFETY: a live world and a writable info.
                unsafe { throng_unit_info(w, id, o) };
            }
            std::hint::black_box(&out);
        })
    });
    g.bench_function("throng_unit_infos at once", |b| {
        b.iter(|| {
            // SAFETY: `UNITS` ids and infos.
            unsafe { throng_unit_infos(w, c_ids.as_ptr(), UNITS, out.as_mut_ptr(), null_mut()) };
            std::hint::black_box(&out);
        })
    });
    g.finish();
    // SAFETY: created above, freed once.
    unsafe { throng_world_free(w) };
}

criterion_group!(benches, bench);
criterion_main!(benches);
