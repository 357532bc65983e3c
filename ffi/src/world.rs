//! `ThrongWorld`: one live simulation behind an opaque pointer, and the
//! calls a game makes on it — DetourCrowd's habits: add a unit, request a
//! move target, step, read its state and the events.
//!
//! Every call checks its pointers and arguments, returns a
//! [`ThrongStatus`] and never unwinds into C: a panic inside Throng is
//! caught, reported as [`ThrongStatus::Internal`], and leaves the world
//! refusing every later call but `throng_world_free`. Calls on one world
//! must not overlap (the world itself plans on its own worker threads).

use std::ffi::{c_char, CStr};
use std::path::Path;
use std::sync::Arc;

use throng::engine::{Budget, SimConfig, Simulation, UnitSpec};
use throng::map::{read_map, write_map, Cell, Connectivity, Grid, Rect, MAX_CELLS};
use throng::planner::PlannerKind;
use throng::units::{UnitId, UnitKind};

use crate::status::{guarded, Failure, ThrongStatus};
use crate::types::{
    state_code, ThrongConfig, ThrongEvent, ThrongStats, ThrongTick, ThrongUnitDesc, ThrongUnitInfo,
};

/// A live world (opaque to C).
pub struct ThrongWorld {
    sim: Simulation,
    /// The last step's events, copied out by `throng_poll_events` from
    /// `read` on.
    events: Vec<ThrongEvent>,
    read: usize,
    /// Scratch for `throng_planned_path`.
    path: Vec<Cell>,
    /// Set when a call panicked: the world's state is not to be trusted.
    broken: bool,
}

/// Fills `config` with the defaults: WHCA*(16), all cores, no budget,
/// 1,024 units, stuck after 64 ticks, four-connected, moves checked.
///
/// # Safety
/// `config` is null or points to a writable `ThrongConfig`.
#[no_mangle]
pub unsafe extern "C" fn throng_config_default(config: *mut ThrongConfig) -> ThrongStatus {
    guarded(
        || {
            // SAFETY: the caller passes null or a valid, writable config.
            let out = unsafe { config.as_mut() }.ok_or_else(|| Failure::null("config"))?;
            *out = ThrongConfig::default();
            Ok(())
        },
        || {},
    )
}

/// The settings a `ThrongConfig` stands for (`None`: the defaults).
fn sim_config(config: Option<&ThrongConfig>) -> (SimConfig, Connectivity) {
    let c = config.copied().unwrap_or_default();
    let sim = SimConfig {
        planner: PlannerKind::Whca { window: c.window },
        threads: c.threads as usize,
        budget: Budget {
            wall_us: (c.budget_us > 0).then_some(c.budget_us),
            nodes: (c.budget_nodes > 0).then_some(c.budget_nodes),
        },
        max_units: c.max_units as usize,
        stuck_after: c.stuck_after,
        check_moves: c.check_moves != 0,
        ..SimConfig::default()
    };
    let connectivity = if c.eight_connected != 0 {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    (sim, connectivity)
}

/// Builds the world on `grid` and hands it out through `out`.
fn open(grid: Grid, config: SimConfig, out: &mut *mut ThrongWorld) -> Result<(), Failure> {
    if config.max_units == 0 {
        return Err(Failure::new(
            ThrongStatus::InvalidArgument,
            "setting max_units = 0: expected at least 1",
        ));
    }
    let sim = Simulation::with_map(Arc::new(grid), config)?;
    let world = ThrongWorld {
        sim,
        // A step rarely has more events than units.
        events: Vec::with_capacity(config.max_units),
        read: 0,
        path: Vec::new(),
        broken: false,
    };
    *out = Box::into_raw(Box::new(world));
    Ok(())
}

/// Creates a world on a `width` × `height` map given row by row, one byte
/// a cell (non-zero: passable), with `config` (null: the defaults). On
/// success `*out` owns the world: free it with `throng_world_free`.
///
/// # Safety
/// `passable` is null or points to `width * height` readable bytes;
/// `config` is null or points to a `ThrongConfig`; `out` is null or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn throng_world_new(
    passable: *const u8,
    width: u32,
    height: u32,
    config: *const ThrongConfig,
    out: *mut *mut ThrongWorld,
) -> ThrongStatus {
    guarded(
        || {
            // SAFETY: the caller passes null or a writable pointer.
            let out = unsafe { out.as_mut() }.ok_or_else(|| Failure::null("out"))?;
            *out = std::ptr::null_mut();
            if passable.is_null() {
                return Err(Failure::null("passable"));
            }
            let cells = u64::from(width) * u64::from(height);
            if width == 0 || height == 0 || cells > u64::from(MAX_CELLS) {
                return Err(Failure::new(
                    ThrongStatus::InvalidArgument,
                    format!(
                        "map {width}×{height}: expected 1 to {MAX_CELLS} cells, neither side 0"
                    ),
                ));
            }
            // SAFETY: non-null (checked), and the caller vouches for
            // `width * height` readable bytes.
            let bytes = unsafe { std::slice::from_raw_parts(passable, cells as usize) };
            // SAFETY: the caller passes null or a valid config.
            let (sim, connectivity) = sim_config(unsafe { config.as_ref() });
            let grid = Grid::new(
                width,
                height,
                bytes.iter().map(|&b| b != 0).collect(),
                connectivity,
            );
            open(grid, sim, out)
        },
        || {},
    )
}

/// Creates a world on a MovingAI `.map` file (`path`, UTF-8), with
/// `config` (null: the defaults). A file that cannot be read or parsed
/// fails with `THRONG_ERROR_MAP_FILE` and a message naming the file and
/// line.
///
/// # Safety
/// `path` is null or a NUL-terminated string; `config` is null or points
/// to a `ThrongConfig`; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn throng_world_load(
    path: *const c_char,
    config: *const ThrongConfig,
    out: *mut *mut ThrongWorld,
) -> ThrongStatus {
    guarded(
        || {
            // SAFETY: the caller passes null or a writable pointer.
            let out = unsafe { out.as_mut() }.ok_or_else(|| Failure::null("out"))?;
            *out = std::ptr::null_mut();
            if path.is_null() {
                return Err(Failure::null("path"));
            }
            // SAFETY: non-null (checked) and NUL-terminated (the caller's word).
            let path = unsafe { CStr::from_ptr(path) }
                .to_str()
                .map_err(|_| Failure::new(ThrongStatus::InvalidArgument, "path: expected UTF-8"))?;
            // SAFETY: the caller passes null or a valid config.
            let (sim, connectivity) = sim_config(unsafe { config.as_ref() });
            let grid = read_map(Path::new(path), connectivity)?;
            open(grid, sim, out)
        },
        || {},
    )
}

/// Frees a world and everything it holds (null: nothing happens).
///
/// # Safety
/// `world` is null or came from `throng_world_new`/`throng_world_load` and
/// was not freed yet; no other call on it runs or follows.
#[no_mangle]
pub unsafe extern "C" fn throng_world_free(world: *mut ThrongWorld) {
    if world.is_null() {
        return;
    }
    // A panic while dropping is caught too: it must not cross into C.
    let _ = guarded(
        || {
            // SAFETY: the pointer came from `Box::into_raw` in `open` and
            // is freed once (the caller's word).
            drop(unsafe { Box::from_raw(world) });
            Ok(())
        },
        || {},
    );
}

/// Runs `call` on the world behind `world`: a null or broken world fails
/// without running it, and a panic inside breaks the world.
fn with_world(
    world: *mut ThrongWorld,
    call: impl FnOnce(&mut ThrongWorld) -> Result<(), Failure>,
) -> ThrongStatus {
    guarded(
        || {
            // SAFETY: `world` is null or a live world no other call is
            // using (every public function's contract).
            let w = unsafe { world.as_mut() }.ok_or_else(|| Failure::null("world"))?;
            if w.broken {
                return Err(Failure::new(
                    ThrongStatus::Internal,
                    "an earlier call hit an internal error in this world: free it",
                ));
            }
            call(w)
        },
        || {
            // SAFETY: as above; the call that panicked holds no reference
            // any more.
            if let Some(w) = unsafe { world.as_mut() } {
                w.broken = true;
            }
        },
    )
}

/// The unit id a C caller passed.
fn unit(id: u64) -> UnitId {
    UnitId::from_bits(id)
}

/// State of an entry of `throng_unit_infos` whose id is stale.
pub const GONE: u32 = 255;

/// Unit `id`'s rectangle, goal and state.
fn info(sim: &Simulation, id: UnitId) -> Result<ThrongUnitInfo, Failure> {
    let rect = sim.rect(id)?;
    let (goal_x, goal_y) = sim.grid().xy(sim.goal(id)?);
    Ok(ThrongUnitInfo {
        x: rect.x0,
        y: rect.y0,
        width: rect.width(),
        height: rect.height(),
        goal_x,
        goal_y,
        state: state_code(sim.state(id)?),
    })
}

/// The cell at `(x, y)`, checked against the map.
fn cell(sim: &Simulation, x: u32, y: u32) -> Result<Cell, Failure> {
    Ok(sim.cell(i64::from(x), i64::from(y))?)
}

/// Spawns a unit: it enters the map on its cell at the next step (or once
/// that cell is free). Its id is written to `*out`.
///
/// # Safety
/// `world` is null or a live world; `desc` is null or points to a
/// `ThrongUnitDesc`; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn throng_spawn(
    world: *mut ThrongWorld,
    desc: *const ThrongUnitDesc,
    out: *mut u64,
) -> ThrongStatus {
    with_world(world, |w| {
        // SAFETY: the caller passes null or valid pointers.
        let (d, out) = unsafe { (desc.as_ref(), out.as_mut()) };
        let d = d.ok_or_else(|| Failure::null("desc"))?;
        let out = out.ok_or_else(|| Failure::null("out"))?;
        let kind = UnitKind {
            size: d.size.max(1),
            pace: d.pace.max(1),
            four_way: u8::from(d.four_way != 0),
            curves: u8::from(d.curves != 0),
        };
        let spec = UnitSpec::new(cell(&w.sim, d.x, d.y)?, cell(&w.sim, d.goal_x, d.goal_y)?)
            .with_kind(kind)
            .with_priority(d.priority);
        *out = w.sim.spawn(spec)?.to_bits();
        Ok(())
    })
}

/// Removes a unit at the next step; its id is stale from now on.
///
/// # Safety
/// `world` is null or a live world.
#[no_mangle]
pub unsafe extern "C" fn throng_despawn(world: *mut ThrongWorld, unit_id: u64) -> ThrongStatus {
    with_world(world, |w| Ok(w.sim.despawn(unit(unit_id))?))
}

/// Sends a unit to `(x, y)`, dropping any goals it had queued
/// (DetourCrowd's `requestMoveTarget`).
///
/// # Safety
/// `world` is null or a live world.
#[no_mangle]
pub unsafe extern "C" fn throng_request_move(
    world: *mut ThrongWorld,
    unit_id: u64,
    x: u32,
    y: u32,
) -> ThrongStatus {
    with_world(world, |w| {
        let goal = cell(&w.sim, x, y)?;
        Ok(w.sim.set_goal(unit(unit_id), goal)?)
    })
}

/// Queues `(x, y)` after the unit's current goal (a waypoint order).
///
/// # Safety
/// `world` is null or a live world.
#[no_mangle]
pub unsafe extern "C" fn throng_queue_move(
    world: *mut ThrongWorld,
    unit_id: u64,
    x: u32,
    y: u32,
) -> ThrongStatus {
    with_world(world, |w| {
        let goal = cell(&w.sim, x, y)?;
        Ok(w.sim.push_goal(unit(unit_id), goal)?)
    })
}

/// Stops a unit where it stands (its goal becomes its cell).
///
/// # Safety
/// `world` is null or a live world.
#[no_mangle]
pub unsafe extern "C" fn throng_stop(world: *mut ThrongWorld, unit_id: u64) -> ThrongStatus {
    with_world(world, |w| Ok(w.sim.stop(unit(unit_id))?))
}

/// Sends `count` units as a group to `(x, y)`: each gets its own goal
/// around the target, so they do not fight over one cell; the group's
/// units may trade goals on the way (`throng_unit_info` reads each one's
/// goal of the moment).
///
/// # Safety
/// `world` is null or a live world; `units` is null or points to `count`
/// ids.
#[no_mangle]
pub unsafe extern "C" fn throng_order_group(
    world: *mut ThrongWorld,
    units: *const u64,
    count: usize,
    x: u32,
    y: u32,
) -> ThrongStatus {
    with_world(world, |w| {
        if units.is_null() {
            return Err(Failure::null("units"));
        }
        // SAFETY: non-null (checked); the caller vouches for `count` ids.
        let bits = unsafe { std::slice::from_raw_parts(units, count) };
        let ids: Vec<UnitId> = bits.iter().map(|&b| unit(b)).collect();
        let target = cell(&w.sim, x, y)?;
        Ok(w.sim.order_group(&ids, target)?)
    })
}

/// Places a building over the rectangle between `(x0, y0)` and `(x1, y1)`
/// (both included) at the next step: units inside leave it, plans through
/// it are replanned.
///
/// # Safety
/// `world` is null or a live world.
#[no_mangle]
pub unsafe extern "C" fn throng_block(
    world: *mut ThrongWorld,
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
) -> ThrongStatus {
    with_world(world, |w| Ok(w.sim.block(Rect::new((x0, y0), (x1, y1)))?))
}

/// Removes a building from the rectangle (both corners included) at the
/// next step.
///
/// # Safety
/// `world` is null or a live world.
#[no_mangle]
pub unsafe extern "C" fn throng_unblock(
    world: *mut ThrongWorld,
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
) -> ThrongStatus {
    with_world(world, |w| {
        Ok(w.sim.unblock(Rect::new((x0, y0), (x1, y1)))?)
    })
}

/// One tick: applies the calls made since the last step, plans within the
/// budget, moves every unit. Writes what it did to `*out` (null: not
/// wanted). The events of the previous step not yet polled are dropped.
///
/// # Safety
/// `world` is null or a live world; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn throng_step(
    world: *mut ThrongWorld,
    out: *mut ThrongTick,
) -> ThrongStatus {
    with_world(world, |w| {
        w.sim.step();
        w.events.clear();
        w.read = 0;
        let width = w.sim.grid().width();
        let ThrongWorld { sim, events, .. } = w;
        events.extend(sim.drain_events().map(|e| ThrongEvent::new(&e, width)));
        // SAFETY: the caller passes null or a writable pointer.
        if let Some(out) = unsafe { out.as_mut() } {
            *out = w.sim.last_tick().into();
        }
        Ok(())
    })
}

/// Copies up to `capacity` of the last step's events, oldest first, into
/// `out`, and writes how many it copied to `*count`. Events not copied
/// stay for the next poll (until the next step).
///
/// # Safety
/// `world` is null or a live world; `out` is null or points to `capacity`
/// writable events; `count` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn throng_poll_events(
    world: *mut ThrongWorld,
    out: *mut ThrongEvent,
    capacity: usize,
    count: *mut usize,
) -> ThrongStatus {
    with_world(world, |w| {
        // SAFETY: the caller passes null or a writable pointer.
        let count = unsafe { count.as_mut() }.ok_or_else(|| Failure::null("count"))?;
        *count = 0;
        let left = &w.events[w.read..];
        let n = left.len().min(capacity);
        if n > 0 {
            if out.is_null() {
                return Err(Failure::null("out"));
            }
            // SAFETY: non-null (checked); the caller vouches for `capacity`
            // writable events, and `n <= capacity`.
            let dst = unsafe { std::slice::from_raw_parts_mut(out, n) };
            dst.copy_from_slice(&left[..n]);
        }
        w.read += n;
        *count = n;
        Ok(())
    })
}

/// Reads a unit's rectangle, goal and state into `*out`.
///
/// # Safety
/// `world` is null or a live world; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn throng_unit_info(
    world: *mut ThrongWorld,
    unit_id: u64,
    out: *mut ThrongUnitInfo,
) -> ThrongStatus {
    with_world(world, |w| {
        // SAFETY: the caller passes null or a writable pointer.
        let out = unsafe { out.as_mut() }.ok_or_else(|| Failure::null("out"))?;
        *out = info(&w.sim, unit(unit_id))?;
        Ok(())
    })
}

/// Reads `count` units' infos at once (for a renderer): `out[k]` for
/// `ids[k]`. A stale id's entry gets state `THRONG_GONE` and zeros; the
/// call still succeeds, and writes to `*gone` (if not null) how many were.
///
/// # Safety
/// `world` is null or a live world; `ids` and `out` are null or point to
/// `count` ids and `count` writable infos; `gone` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn throng_unit_infos(
    world: *mut ThrongWorld,
    ids: *const u64,
    count: usize,
    out: *mut ThrongUnitInfo,
    gone: *mut usize,
) -> ThrongStatus {
    with_world(world, |w| {
        if count == 0 {
            // SAFETY: the caller passes null or a writable pointer.
            if let Some(g) = unsafe { gone.as_mut() } {
                *g = 0;
            }
            return Ok(());
        }
        if ids.is_null() {
            return Err(Failure::null("ids"));
        }
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        // SAFETY: non-null (checked); the caller vouches for `count` ids
        // and `count` writable infos, which do not overlap.
        let (ids, out) = unsafe {
            (
                std::slice::from_raw_parts(ids, count),
                std::slice::from_raw_parts_mut(out, count),
            )
        };
        let mut stale = 0;
        for (o, &id) in out.iter_mut().zip(ids) {
            *o = info(&w.sim, unit(id)).unwrap_or_else(|_| {
                stale += 1;
                ThrongUnitInfo {
                    state: GONE,
                    ..ThrongUnitInfo::default()
                }
            });
        }
        // SAFETY: the caller passes null or a writable pointer.
        if let Some(g) = unsafe { gone.as_mut() } {
            *g = stale;
        }
        Ok(())
    })
}

/// Writes a unit's route as (x, y) pairs into `xy` (room for `capacity`
/// cells, so `2 * capacity` numbers): the cells it has reserved, one per
/// tick from now, then the rest of the way to its goal (for drawing
/// waypoints). `*len` receives the route's length in cells; if that is
/// more than `capacity`, the first `capacity` cells are written and the
/// call returns `THRONG_ERROR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `world` is null or a live world; `xy` is null or points to
/// `2 * capacity` writable numbers; `len` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn throng_planned_path(
    world: *mut ThrongWorld,
    unit_id: u64,
    xy: *mut u32,
    capacity: usize,
    len: *mut usize,
) -> ThrongStatus {
    with_world(world, |w| {
        // SAFETY: the caller passes null or a writable pointer.
        let len = unsafe { len.as_mut() }.ok_or_else(|| Failure::null("len"))?;
        *len = 0;
        let ThrongWorld { sim, path, .. } = w;
        sim.planned_path(unit(unit_id), path)?;
        *len = path.len();
        let n = path.len().min(capacity);
        if n > 0 {
            if xy.is_null() {
                return Err(Failure::null("xy"));
            }
            // SAFETY: non-null (checked); the caller vouches for
            // `2 * capacity` writable numbers, and `n <= capacity`.
            let dst = unsafe { std::slice::from_raw_parts_mut(xy, 2 * n) };
            let grid = sim.grid();
            for (pair, &c) in dst.chunks_exact_mut(2).zip(path.iter()) {
                let (x, y) = grid.xy(c);
                pair[0] = x;
                pair[1] = y;
            }
        }
        if path.len() > capacity {
            return Err(Failure::new(
                ThrongStatus::BufferTooSmall,
                format!("route of {} cells: capacity {capacity}", path.len()),
            ));
        }
        Ok(())
    })
}

/// Writes the ids of up to `capacity` living units (spawned ones waiting
/// to enter included) into `out`, and their number to `*count`. Returns
/// `THRONG_ERROR_BUFFER_TOO_SMALL` if there are more than `capacity`.
///
/// # Safety
/// `world` is null or a live world; `out` is null or points to `capacity`
/// writable ids; `count` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn throng_units(
    world: *mut ThrongWorld,
    out: *mut u64,
    capacity: usize,
    count: *mut usize,
) -> ThrongStatus {
    with_world(world, |w| {
        // SAFETY: the caller passes null or a writable pointer.
        let count = unsafe { count.as_mut() }.ok_or_else(|| Failure::null("count"))?;
        *count = w.sim.unit_count();
        let n = (*count).min(capacity);
        if n > 0 {
            if out.is_null() {
                return Err(Failure::null("out"));
            }
            // SAFETY: non-null (checked); the caller vouches for `capacity`
            // writable ids, and `n <= capacity`.
            let dst = unsafe { std::slice::from_raw_parts_mut(out, n) };
            for (d, id) in dst.iter_mut().zip(w.sim.units()) {
                *d = id.to_bits();
            }
        }
        if *count > capacity {
            return Err(Failure::new(
                ThrongStatus::BufferTooSmall,
                format!("{count} units: capacity {capacity}"),
            ));
        }
        Ok(())
    })
}

/// Fills `*out` with the run so far: ticks, units per state, step times,
/// budget overruns and collisions. Counts every unit: for an overlay
/// refreshed now and then, not every frame.
///
/// # Safety
/// `world` is null or a live world; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn throng_stats(
    world: *mut ThrongWorld,
    out: *mut ThrongStats,
) -> ThrongStatus {
    with_world(world, |w| {
        // SAFETY: the caller passes null or a writable pointer.
        let out = unsafe { out.as_mut() }.ok_or_else(|| Failure::null("out"))?;
        let mut states = [0u32; 5];
        let mut units = 0;
        for id in w.sim.units() {
            units += 1;
            if let Ok(s) = w.sim.state(id) {
                states[state_code(s) as usize] += 1;
            }
        }
        let t = w.sim.tick_stats();
        *out = ThrongStats {
            ticks: w.sim.ticks(),
            units,
            states,
            overruns: t.overruns().0,
            collisions: w.sim.violations().0,
            tick_mean_ms: t.mean_ms(),
            tick_p99_ms: t.percentile_ms(99.0),
            tick_max_ms: t.max_ms(),
        };
        Ok(())
    })
}

/// The map's width and height, in cells (zeros for a null world).
///
/// # Safety
/// `world` is null or a live world; `width` and `height` are null or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn throng_map_size(
    world: *const ThrongWorld,
    width: *mut u32,
    height: *mut u32,
) {
    // SAFETY: the caller passes null or valid pointers, the world not in
    // use elsewhere.
    let (w, wd, ht) = unsafe { (world.as_ref(), width.as_mut(), height.as_mut()) };
    let (x, y) = w.map_or((0, 0), |w| (w.sim.grid().width(), w.sim.grid().height()));
    if let Some(wd) = wd {
        *wd = x;
    }
    if let Some(ht) = ht {
        *ht = y;
    }
}

/// 1 if a unit may stand on `(x, y)` now: on the map, not a wall, not
/// under a building; 0 otherwise (or for a null world).
///
/// # Safety
/// `world` is null or a live world.
#[no_mangle]
pub unsafe extern "C" fn throng_cell_open(world: *const ThrongWorld, x: u32, y: u32) -> u8 {
    // SAFETY: the caller passes null or a live world not in use elsewhere.
    let Some(w) = (unsafe { world.as_ref() }) else {
        return 0;
    };
    w.sim
        .cell(i64::from(x), i64::from(y))
        .is_ok_and(|c| w.sim.grid().is_passable(c))
        .into()
}

/// The world's current tick (0 before the first step, or for a null
/// world).
///
/// # Safety
/// `world` is null or a live world.
#[no_mangle]
pub unsafe extern "C" fn throng_now(world: *const ThrongWorld) -> u32 {
    // SAFETY: the caller passes null or a live world not in use elsewhere.
    unsafe { world.as_ref() }.map_or(0, |w| w.sim.world().now())
}

/// Violations of the movement rules the validator has found so far (always
/// 0 unless Throng has a bug; 0 too with `check_moves` off or a null
/// world).
///
/// # Safety
/// `world` is null or a live world.
#[no_mangle]
pub unsafe extern "C" fn throng_collisions(world: *const ThrongWorld) -> u64 {
    // SAFETY: the caller passes null or a live world not in use elsewhere.
    unsafe { world.as_ref() }.map_or(0, |w| w.sim.violations().0)
}

/// A path argument: non-null, UTF-8.
///
/// # Safety
/// `p` is null or a NUL-terminated string.
unsafe fn path_arg<'a>(p: *const c_char, what: &str) -> Result<&'a Path, Failure> {
    if p.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: non-null (checked) and NUL-terminated (the caller's word).
    let s = unsafe { CStr::from_ptr(p) }.to_str().map_err(|_| {
        Failure::new(
            ThrongStatus::InvalidArgument,
            format!("{what}: expected UTF-8"),
        )
    })?;
    Ok(Path::new(s))
}

fn io_failure(path: &Path, e: std::io::Error) -> Failure {
    Failure::new(ThrongStatus::Io, format!("{}: {e}", path.display()))
}

/// Starts recording the world's calls into an event script at
/// `script_path`, and writes its map to `map_path` (null: not written), so
/// that `throng run --map MAP --events SCRIPT` replays the run. Before the
/// first step only.
///
/// # Safety
/// `world` is null or a live world; the paths are null or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn throng_record_start(
    world: *mut ThrongWorld,
    script_path: *const c_char,
    map_path: *const c_char,
) -> ThrongStatus {
    with_world(world, |w| {
        // SAFETY: the caller passes null or NUL-terminated strings.
        let script = unsafe { path_arg(script_path, "script_path") }?;
        if !map_path.is_null() {
            // SAFETY: as above.
            let map = unsafe { path_arg(map_path, "map_path") }?;
            std::fs::write(map, write_map(w.sim.grid())).map_err(|e| io_failure(map, e))?;
        }
        let file = std::fs::File::create(script).map_err(|e| io_failure(script, e))?;
        w.sim.record_calls(std::io::BufWriter::new(file))?;
        Ok(())
    })
}

/// Stops recording and flushes the script; fails with `THRONG_ERROR_IO` if
/// a write failed since the start (nothing was written after it).
///
/// # Safety
/// `world` is null or a live world.
#[no_mangle]
pub unsafe extern "C" fn throng_record_stop(world: *mut ThrongWorld) -> ThrongStatus {
    with_world(world, |w| {
        w.sim
            .stop_recording()
            .map_err(|e| Failure::new(ThrongStatus::Io, format!("recording the calls: {e}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game may create a world on one thread and step it on another.
    #[test]
    fn a_world_may_move_between_threads() {
        fn send<T: Send>() {}
        send::<ThrongWorld>();
    }

    /// A call that panics leaves its world refusing every later call but
    /// the free.
    #[test]
    fn a_world_a_call_panicked_in_refuses_later_calls() {
        let cells = [1u8; 16];
        let mut w = std::ptr::null_mut();
        // SAFETY: 16 readable bytes; valid pointers; the world is freed once.
        unsafe {
            assert_eq!(
                throng_world_new(cells.as_ptr(), 4, 4, std::ptr::null(), &mut w),
                ThrongStatus::Ok
            );
            assert_eq!(with_world(w, |_| panic!("a bug")), ThrongStatus::Internal);
            assert_eq!(throng_step(w, std::ptr::null_mut()), ThrongStatus::Internal);
            let msg = std::ffi::CStr::from_ptr(crate::status::throng_last_error());
            assert!(msg.to_string_lossy().contains("free it"));
            throng_world_free(w);
        }
    }
}
