//! A recording replays the run it came from: a live world driven by a game's
//! calls (spawns of cells and bodies, orders, a group order, a stop, a
//! building up and down, a despawn) under a node budget records them with
//! `record_calls`; the script, played back into a fresh world the way
//! `throng run --events` plays it, gives every unit the same cell at every
//! tick. And recording starts before the first step only.

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

use throng::engine::ScriptPlayer;
use throng::io::{check_events, parse_events};
use throng::prelude::*;
use throng::units::UnitKind;

/// A writer the test can read back.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn config() -> SimConfig {
    SimConfig {
        threads: 2,
        budget: Budget {
            wall_us: None,
            nodes: Some(4_000),
        },
        ..SimConfig::default()
    }
}

fn grid() -> Arc<Grid> {
    Arc::new(generate_map(
        "40x40:0.1".parse().unwrap(),
        Connectivity::Four,
        5,
    ))
}

/// Every slot's cell after each of `ticks` steps.
type Trajectory = Vec<Vec<Cell>>;

fn open_cells(sim: &Simulation, n: usize, skip: usize) -> Vec<Cell> {
    let g = sim.grid();
    (0..g.cell_count() as u32)
        .map(Cell)
        .filter(|&c| g.is_passable(c))
        .skip(skip)
        .step_by(7)
        .take(n)
        .collect()
}

/// The game: 60 units at once, a body, orders at later ticks.
fn live_run(out: Option<Shared>, ticks: u32) -> Trajectory {
    let mut sim = Simulation::with_map(grid(), config()).unwrap();
    if let Some(out) = out {
        sim.record_calls(out).unwrap();
    }
    let starts = open_cells(&sim, 60, 0);
    let goals = open_cells(&sim, 60, 3);
    let mut ids = Vec::new();
    for (k, (&s, &g)) in starts.iter().zip(goals.iter().rev()).enumerate() {
        let spec = UnitSpec::new(s, g).with_priority((k % 3) as u8 * 100);
        ids.push(sim.spawn(spec).unwrap());
    }
    let mut traj = Vec::new();
    for t in 1..=ticks {
        match t {
            5 => {
                // A 2×2 tank at two ticks a cell, where its body fits.
                let tank = UnitKind::new(2, 2);
                let spawned = (0..20).any(|k| {
                    let (Ok(at), Ok(goal)) = (sim.cell(k, 20 + k % 3), sim.cell(30 - k, 30)) else {
                        return false;
                    };
                    sim.spawn(UnitSpec::new(at, goal).with_kind(tank)).is_ok()
                });
                assert!(spawned, "no room for the tank");
            }
            10 => sim.set_goal(ids[0], goals[5]).unwrap(),
            12 => sim.push_goal(ids[1], goals[9]).unwrap(),
            15 => sim.order_group(&ids[10..20], goals[30]).unwrap(),
            20 => sim.block(Rect::new((15, 15), (19, 19))).unwrap(),
            25 => sim.stop(ids[2]).unwrap(),
            30 => sim.despawn(ids[3]).unwrap(),
            60 => sim.unblock(Rect::new((15, 15), (19, 19))).unwrap(),
            _ => {}
        }
        sim.step();
        traj.push(sim.positions().to_vec());
    }
    assert_eq!(sim.summary().collisions, 0);
    traj
}

/// The script played back as the command line plays it: events of tick
/// T applied before the step that produces T.
fn replay(script: &str, ticks: u32) -> Trajectory {
    let path = Path::new("recorded.events");
    let events = parse_events(path, script).expect("a valid script");
    let mut sim = Simulation::with_map(grid(), config()).unwrap();
    check_events(path, &events, sim.grid(), 0).expect("calls the map accepts");
    let mut player = ScriptPlayer::new(events, &sim);
    player.apply_due(&mut sim, 0, |_, _, _| {}).unwrap();
    sim.apply_commands();
    let mut traj = Vec::new();
    for _ in 0..ticks {
        let next = sim.ticks() + 1;
        player.apply_due(&mut sim, next, |_, _, _| {}).unwrap();
        sim.step();
        traj.push(sim.positions().to_vec());
    }
    traj
}

#[test]
fn a_recorded_run_replays_to_the_same_moves() {
    let out = Shared::default();
    let live = live_run(Some(out.clone()), 120);
    let script = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    for word in [
        "spawn",
        "goal",
        "push_goal",
        "stop",
        "block",
        "unblock",
        "despawn",
    ] {
        assert!(
            script.lines().any(|l| l.split(' ').nth(1) == Some(word)),
            "no `{word}` in\n{script}"
        );
    }
    assert!(script.contains(" size 2 pace 2"), "{script}");
    assert!(script.contains(" priority 200"), "{script}");
    // The group order is written as the goals it gave.
    assert!(script.lines().filter(|l| l.starts_with("15 goal")).count() == 10);
    // Recording changes nothing.
    assert_eq!(live, live_run(None, 120));
    assert_eq!(live, replay(&script, 120), "{script}");
}

#[test]
fn recording_starts_before_the_first_step_only() {
    let mut sim = Simulation::with_map(grid(), config()).unwrap();
    sim.step();
    let e = sim.record_calls(Shared::default()).unwrap_err();
    assert!(e.to_string().contains("before the first step"), "{e}");
    assert!(sim.stop_recording().is_ok());
}

#[test]
fn units_on_the_map_at_the_start_are_recorded_as_spawns() {
    let inst = random_instance(grid(), 30, 2).unwrap();
    let mut sim = Simulation::new(&inst, config()).unwrap();
    let out = Shared::default();
    sim.record_calls(out.clone()).unwrap();
    let script = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert_eq!(
        script.lines().filter(|l| l.starts_with("0 spawn")).count(),
        30
    );
    let events = parse_events(Path::new("s"), &script).unwrap();
    check_events(Path::new("s"), &events, &inst.grid, 0).unwrap();
}
