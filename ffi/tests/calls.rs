//! The C interface's calls, made from Rust as C makes them: a world's life,
//! every bad argument refused with its status and message, events and
//! routes read through caller buffers, determinism under a node budget,
//! and the header declaring exactly the functions the library exports.

use std::ffi::{CStr, CString};
use std::ptr::{null, null_mut};

use throng_c::*;

fn last_error() -> String {
    // SAFETY: the library returns a NUL-terminated string it owns.
    unsafe { CStr::from_ptr(throng_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// A `w` × `h` open map with a wall along column `w / 2` except rows
/// `gap`.
fn walled(w: u32, h: u32, gap: std::ops::Range<u32>) -> Vec<u8> {
    let mut cells = vec![1u8; (w * h) as usize];
    for y in 0..h {
        if !gap.contains(&y) {
            cells[(y * w + w / 2) as usize] = 0;
        }
    }
    cells
}

fn world(cells: &[u8], w: u32, h: u32, config: &ThrongConfig) -> *mut ThrongWorld {
    let mut world = null_mut();
    // SAFETY: `cells` holds `w * h` bytes; the pointers are valid.
    let s = unsafe { throng_world_new(cells.as_ptr(), w, h, config, &mut world) };
    assert_eq!(s, ThrongStatus::Ok, "{}", last_error());
    world
}

fn desc(x: u32, y: u32, gx: u32, gy: u32) -> ThrongUnitDesc {
    ThrongUnitDesc::one_cell(x, y, gx, gy)
}

fn config(threads: u32) -> ThrongConfig {
    let mut c = ThrongConfig {
        window: 0,
        threads: 0,
        budget_us: 0,
        budget_nodes: 0,
        max_units: 0,
        stuck_after: 0,
        eight_connected: 0,
        check_moves: 0,
    };
    // SAFETY: a valid, writable config.
    assert_eq!(unsafe { throng_config_default(&mut c) }, ThrongStatus::Ok);
    c.threads = threads;
    c
}

#[test]
fn bad_worlds_are_refused_with_a_reason() {
    let c = config(1);
    let mut w = null_mut();
    let cells = [1u8; 4];
    // SAFETY: every pointer is null or valid for the sizes given.
    unsafe {
        assert_eq!(
            throng_world_new(null(), 2, 2, &c, &mut w),
            ThrongStatus::NullPointer
        );
        assert!(last_error().contains("passable"), "{}", last_error());
        assert_eq!(
            throng_world_new(cells.as_ptr(), 0, 2, &c, &mut w),
            ThrongStatus::InvalidArgument
        );
        assert!(last_error().contains("0×2"), "{}", last_error());
        assert!(w.is_null());
        let mut bad = c;
        bad.window = 0;
        assert_eq!(
            throng_world_new(cells.as_ptr(), 2, 2, &bad, &mut w),
            ThrongStatus::InvalidArgument
        );
        assert!(last_error().contains("window"), "{}", last_error());
        bad = c;
        bad.max_units = 0;
        assert_eq!(
            throng_world_new(cells.as_ptr(), 2, 2, &bad, &mut w),
            ThrongStatus::InvalidArgument
        );
        assert!(last_error().contains("max_units"), "{}", last_error());
        let path = CString::new("no/such/file.map").unwrap();
        assert_eq!(
            throng_world_load(path.as_ptr(), &c, &mut w),
            ThrongStatus::MapFile
        );
        assert!(
            last_error().contains("no/such/file.map"),
            "{}",
            last_error()
        );
        assert_eq!(
            throng_world_new(cells.as_ptr(), 2, 2, &c, null_mut()),
            ThrongStatus::NullPointer
        );
        // A null world is refused by every call, and freeing it is a no-op.
        assert_eq!(
            throng_step(null_mut(), null_mut()),
            ThrongStatus::NullPointer
        );
        assert_eq!(throng_despawn(null_mut(), 0), ThrongStatus::NullPointer);
        assert_eq!(throng_now(null()), 0);
        throng_world_free(null_mut());
    }
}

#[test]
fn a_world_loaded_from_a_map_file_plans_its_units_home() {
    let map = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/movingai/random-32-32-20.map"
    );
    let path = CString::new(map).unwrap();
    let c = config(2);
    let mut w = null_mut();
    // SAFETY: valid pointers throughout; the world is freed once.
    unsafe {
        assert_eq!(
            throng_world_load(path.as_ptr(), &c, &mut w),
            ThrongStatus::Ok,
            "{}",
            last_error()
        );
        let mut ids = Vec::new();
        let mut id = 0;
        for (x, y, gx, gy) in [(0, 0, 31, 31), (31, 31, 0, 0), (0, 31, 31, 0)] {
            let s = throng_spawn(w, &desc(x, y, gx, gy), &mut id);
            if s == ThrongStatus::Wall {
                continue;
            }
            assert_eq!(s, ThrongStatus::Ok, "{}", last_error());
            ids.push(id);
        }
        assert!(!ids.is_empty(), "some corner of the map is open");
        for _ in 0..200 {
            assert_eq!(throng_step(w, null_mut()), ThrongStatus::Ok);
        }
        for &id in &ids {
            let mut info = ThrongUnitInfo::default();
            assert_eq!(throng_unit_info(w, id, &mut info), ThrongStatus::Ok);
            assert_eq!((info.x, info.y), (info.goal_x, info.goal_y));
            assert_eq!(info.state, 1, "arrived");
        }
        assert_eq!(throng_collisions(w), 0);
        throng_world_free(w);
    }
}

#[test]
fn bad_calls_on_a_live_world_are_refused_and_change_nothing() {
    let (wd, ht) = (16, 12);
    let cells = walled(wd, ht, 4..8);
    let w = world(&cells, wd, ht, &config(1));
    let mut id = 0;
    // SAFETY: valid pointers throughout; the world is freed once.
    unsafe {
        assert_eq!(
            throng_spawn(w, &desc(0, 0, 15, 0), &mut id),
            ThrongStatus::Ok
        );
        let mut other = 0;
        assert_eq!(
            throng_spawn(w, &desc(8, 0, 0, 0), &mut other),
            ThrongStatus::Wall
        );
        assert!(last_error().contains("(8, 0)"), "{}", last_error());
        assert_eq!(
            throng_spawn(w, &desc(16, 0, 0, 0), &mut other),
            ThrongStatus::OffMap
        );
        assert!(last_error().contains("16×12"), "{}", last_error());
        assert_eq!(
            throng_spawn(w, null(), &mut other),
            ThrongStatus::NullPointer
        );
        let mut big = desc(0, 5, 1, 5);
        big.size = 9;
        assert_eq!(
            throng_spawn(w, &big, &mut other),
            ThrongStatus::InvalidArgument
        );
        assert_eq!(throng_request_move(w, id, 3, 99), ThrongStatus::OffMap);
        assert_eq!(
            throng_order_group(w, [id].as_ptr(), 0, 3, 3),
            ThrongStatus::InvalidArgument
        );
        assert_eq!(
            throng_block(w, 0, 0, 40, 3),
            ThrongStatus::OffMap,
            "{}",
            last_error()
        );
        // A stale id, even once its slot is reused.
        assert_eq!(throng_despawn(w, id), ThrongStatus::Ok);
        assert_eq!(throng_despawn(w, id), ThrongStatus::StaleUnit);
        assert!(last_error().contains("not alive"), "{}", last_error());
        assert_eq!(throng_step(w, null_mut()), ThrongStatus::Ok);
        assert_eq!(throng_step(w, null_mut()), ThrongStatus::Ok);
        let mut again = 0;
        assert_eq!(
            throng_spawn(w, &desc(0, 0, 15, 0), &mut again),
            ThrongStatus::Ok
        );
        assert_ne!(again, id);
        let mut info = ThrongUnitInfo::default();
        assert_eq!(throng_unit_info(w, id, &mut info), ThrongStatus::StaleUnit);
        // Many at once: the stale id is marked, the living one read.
        let mut infos = [ThrongUnitInfo::default(); 2];
        let mut gone = 9;
        assert_eq!(
            throng_unit_infos(w, [id, again].as_ptr(), 2, infos.as_mut_ptr(), &mut gone),
            ThrongStatus::Ok
        );
        assert_eq!((gone, infos[0].state), (1, 255));
        assert_eq!((infos[1].x, infos[1].y, infos[1].goal_x), (0, 0, 15));
        assert_eq!(
            throng_unit_infos(w, null(), 2, infos.as_mut_ptr(), null_mut()),
            ThrongStatus::NullPointer
        );
        // The map: its size, its walls and the gap in them.
        let (mut mw, mut mh) = (0, 0);
        throng_map_size(w, &mut mw, &mut mh);
        assert_eq!((mw, mh), (16, 12));
        assert_eq!(throng_cell_open(w, 8, 0), 0, "the wall");
        assert_eq!(throng_cell_open(w, 8, 5), 1, "the gap");
        assert_eq!(throng_cell_open(w, 99, 5), 0, "off the map");
        let mut count = 0;
        let mut ids = [0u64; 4];
        assert_eq!(
            throng_units(w, ids.as_mut_ptr(), 4, &mut count),
            ThrongStatus::Ok
        );
        assert_eq!((count, ids[0]), (1, again));
        throng_world_free(w);
    }
}

/// Runs 40 units across the walled map for `ticks` under a node budget on
/// `threads` threads; returns every unit's cell after each tick.
fn node_budget_run(threads: u32, ticks: u32) -> Vec<(u32, u32)> {
    let (wd, ht) = (24, 20);
    let cells = walled(wd, ht, 8..12);
    let mut c = config(threads);
    c.budget_nodes = 600;
    let w = world(&cells, wd, ht, &c);
    let mut ids = Vec::new();
    let mut trace = Vec::new();
    // SAFETY: valid pointers throughout; the world is freed once.
    unsafe {
        for k in 0..40u32 {
            let (x, y) = (k % 4, k / 4 * 2);
            let mut id = 0;
            let s = throng_spawn(w, &desc(x, y, wd - 1 - x, ht - 1 - y), &mut id);
            assert_eq!(s, ThrongStatus::Ok, "{}", last_error());
            ids.push(id);
        }
        for _ in 0..ticks {
            assert_eq!(throng_step(w, null_mut()), ThrongStatus::Ok);
            for &id in &ids {
                let mut info = ThrongUnitInfo::default();
                assert_eq!(throng_unit_info(w, id, &mut info), ThrongStatus::Ok);
                trace.push((info.x, info.y));
            }
        }
        assert_eq!(throng_collisions(w), 0);
        throng_world_free(w);
    }
    trace
}

#[test]
fn a_node_budget_gives_the_same_moves_on_any_thread_count() {
    let one = node_budget_run(1, 80);
    assert_eq!(one, node_budget_run(2, 80));
    assert_eq!(one, node_budget_run(4, 80));
}

#[test]
fn events_and_routes_come_through_the_caller_buffers() {
    let (wd, ht) = (20, 10);
    let cells = vec![1u8; (wd * ht) as usize];
    let w = world(&cells, wd, ht, &config(1));
    // SAFETY: valid pointers and capacities throughout; freed once.
    unsafe {
        let mut ids = Vec::new();
        for y in 0..5 {
            let mut id = 0;
            assert_eq!(
                throng_spawn(w, &desc(0, y, 19, y), &mut id),
                ThrongStatus::Ok
            );
            ids.push(id);
        }
        let mut tick = ThrongTick::default();
        assert_eq!(throng_step(w, &mut tick), ThrongStatus::Ok);
        assert_eq!(tick.tick, 1);
        // Five spawns, read two at a time.
        let mut events = [ThrongEvent::default(); 2];
        let mut seen = Vec::new();
        loop {
            let mut n = 0;
            assert_eq!(
                throng_poll_events(w, events.as_mut_ptr(), 2, &mut n),
                ThrongStatus::Ok
            );
            seen.extend_from_slice(&events[..n]);
            if n < 2 {
                break;
            }
        }
        assert_eq!(seen.len(), 5);
        assert!(seen.iter().all(|e| e.kind == 0 && e.x == 0 && e.tick == 1));
        // The route: its cell now, (0, 0), then 19 moves to (19, 0);
        // its length reported even when the buffer is short.
        let mut xy = [0u32; 8];
        let mut len = 0;
        assert_eq!(
            throng_planned_path(w, ids[0], xy.as_mut_ptr(), 4, &mut len),
            ThrongStatus::BufferTooSmall
        );
        assert_eq!(len, 20);
        assert_eq!(&xy, &[0, 0, 1, 0, 2, 0, 3, 0]);
        let mut full = vec![0u32; 2 * len];
        assert_eq!(
            throng_planned_path(w, ids[0], full.as_mut_ptr(), len, &mut len),
            ThrongStatus::Ok
        );
        assert_eq!(&full[2 * len - 2..], &[19, 0]);
        // Arrivals, with their cells.
        let mut arrived = 0;
        for _ in 0..40 {
            assert_eq!(throng_step(w, null_mut()), ThrongStatus::Ok);
            let mut buf = [ThrongEvent::default(); 16];
            let mut n = 0;
            assert_eq!(
                throng_poll_events(w, buf.as_mut_ptr(), 16, &mut n),
                ThrongStatus::Ok
            );
            for e in &buf[..n] {
                assert_eq!(e.kind, 1);
                assert_eq!(e.x, 19);
                arrived += 1;
            }
        }
        assert_eq!(arrived, 5);
        let mut stats = ThrongStats::default();
        assert_eq!(throng_stats(w, &mut stats), ThrongStatus::Ok);
        assert_eq!((stats.ticks, stats.units, stats.states[1]), (41, 5, 5));
        assert_eq!(stats.collisions, 0);
        assert!(stats.tick_max_ms >= stats.tick_p99_ms && stats.tick_p99_ms > 0.0);
        // A building on a unit's goal: it cannot get there any more.
        assert_eq!(throng_request_move(w, ids[0], 10, 5), ThrongStatus::Ok);
        assert_eq!(throng_block(w, 9, 4, 11, 6), ThrongStatus::Ok);
        assert_eq!(throng_step(w, null_mut()), ThrongStatus::Ok);
        let mut info = ThrongUnitInfo::default();
        assert_eq!(throng_unit_info(w, ids[0], &mut info), ThrongStatus::Ok);
        assert_eq!(info.state, 4, "unreachable");
        assert_eq!(throng_cell_open(w, 10, 5), 0, "under the building");
        assert_eq!(throng_unblock(w, 9, 4, 11, 6), ThrongStatus::Ok);
        for _ in 0..30 {
            assert_eq!(throng_step(w, null_mut()), ThrongStatus::Ok);
        }
        assert_eq!(throng_unit_info(w, ids[0], &mut info), ThrongStatus::Ok);
        assert_eq!((info.x, info.y, info.state), (10, 5, 1));
        assert_eq!(throng_collisions(w), 0);
        throng_world_free(w);
    }
}

#[test]
fn the_header_declares_exactly_the_exported_functions() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let header = std::fs::read_to_string(format!("{dir}/include/throng.h")).unwrap();
    let mut exported = Vec::new();
    for file in ["status.rs", "world.rs"] {
        let src = std::fs::read_to_string(format!("{dir}/src/{file}")).unwrap();
        let mut lines = src.lines();
        while let Some(line) = lines.next() {
            if line.trim() == "#[no_mangle]" {
                let sig = lines.next().unwrap();
                let name = sig.split("fn ").nth(1).unwrap().split('(').next().unwrap();
                exported.push(name.to_string());
            }
        }
    }
    let declared: Vec<String> = header
        .lines()
        .filter_map(|l| {
            let at = l.find("throng_")?;
            let rest = &l[at..];
            let end = rest.find('(')?;
            (!l.trim_start().starts_with("/*") && !l.trim_start().starts_with('*'))
                .then(|| rest[..end].to_string())
        })
        .collect();
    let mut a = exported.clone();
    let mut b = declared.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b, "exported (left) against declared in throng.h (right)");
    assert!(exported.len() >= 20);
}
