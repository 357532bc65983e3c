//! A mixed army in one simulation: tanks (2×2), siege engines (3×3, two
//! ticks a cell), a supply cart (one cell, three ticks a cell) and infantry
//! cross a walled field through a five-cell gate from both sides. Every
//! kind is planned by the same WHCA* on one reservation table; the
//! validator checks every tick. With `--svg FILE` it draws where every unit
//! went (the picture in the README).
//!
//! `cargo run --release --example mixed_army [TICKS] [--svg FILE]`

use std::fmt::Write as _;
use std::sync::Arc;

use throng::prelude::*;
use throng::units::UnitKind;

const W: u32 = 40;
const H: u32 = 20;

/// A unit of the army: its kind, where it enters and where it goes.
type Order = (UnitKind, (u32, u32), (u32, u32));

fn field() -> Grid {
    let rows: Vec<String> = (0..H)
        .map(|y| {
            (0..W)
                .map(|x| {
                    if x == 19 && !(8..13).contains(&y) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Grid::from_rows(&rows, Connectivity::Eight)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut ticks = 200;
    let mut svg = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--svg" => svg = args.next(),
            n => ticks = n.parse().expect("TICKS is a number"),
        }
    }
    let grid = Arc::new(field());
    let config = SimConfig {
        threads: 2,
        ..SimConfig::default()
    };
    let mut sim = Simulation::with_map(grid.clone(), config).expect("valid settings");
    // (kind, start, goal): the west side goes east and the east side west.
    let mut army: Vec<Order> = vec![
        (UnitKind::new(2, 1), (2, 2), (34, 14)),
        (UnitKind::new(2, 1), (2, 14), (34, 2)),
        (UnitKind::new(3, 2), (6, 8), (31, 8)),
        (UnitKind::new(1, 3), (10, 4), (30, 16)),
        (UnitKind::new(2, 1), (36, 2), (2, 17)),
        (UnitKind::new(3, 2), (33, 9), (5, 3)),
    ];
    for k in 0..8 {
        army.push((
            UnitKind::CELL,
            (12 + k % 2, 2 + 2 * k),
            (37 - k % 2, 3 + 2 * k),
        ));
        army.push((
            UnitKind::CELL,
            (27 - k % 2, 3 + 2 * k),
            (1 + k % 2, 2 + 2 * k),
        ));
    }
    let units: Vec<(UnitId, UnitKind)> = army
        .iter()
        .map(|&(kind, (x, y), (gx, gy))| {
            let spec = UnitSpec::new(grid.cell(x, y), grid.cell(gx, gy)).with_kind(kind);
            (sim.spawn(spec).expect("the body fits"), kind)
        })
        .collect();
    sim.apply_commands();
    let mut trails: Vec<Vec<Rect>> = vec![Vec::new(); units.len()];
    for _ in 0..ticks {
        sim.step();
        for (k, &(u, _)) in units.iter().enumerate() {
            trails[k].push(sim.rect(u).expect("alive"));
        }
        if units
            .iter()
            .all(|&(u, _)| sim.state(u) == Ok(UnitState::Arrived))
        {
            break;
        }
    }
    let home = units
        .iter()
        .filter(|&&(u, _)| sim.state(u) == Ok(UnitState::Arrived))
        .count();
    let (violations, first) = sim.violations();
    println!(
        "mixed army: {home} of {} units home after {} ticks, {violations} violations",
        units.len(),
        sim.ticks()
    );
    for &(u, kind) in &units {
        if sim.state(u) != Ok(UnitState::Arrived) {
            let r = sim.rect(u).expect("alive");
            println!(
                "  not home: {}×{} at {} ticks a cell, at ({}, {}), {:?}",
                kind.size,
                kind.size,
                kind.pace,
                r.x0,
                r.y0,
                sim.state(u).expect("alive")
            );
        }
    }
    assert_eq!(violations, 0, "{first:?}");
    if let Some(path) = svg {
        std::fs::write(&path, picture(&grid, &units, &trails)).expect("the SVG file is writable");
        println!("wrote {path}");
    }
}

/// The field, every unit's trail (the centre of what it covered, tick by
/// tick) and its body at the start and at the end.
fn picture(grid: &Grid, units: &[(UnitId, UnitKind)], trails: &[Vec<Rect>]) -> String {
    const S: u32 = 16;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}"><rect width="100%" height="100%" fill="#f4f1ea"/>"##,
        W * S,
        H * S,
        W * S,
        H * S
    );
    for y in 0..H {
        for x in 0..W {
            if !grid.is_passable(grid.cell(x, y)) {
                let _ = write!(
                    out,
                    r##"<rect x="{}" y="{}" width="{S}" height="{S}" fill="#555"/>"##,
                    x * S,
                    y * S
                );
            }
        }
    }
    let colour = |k: UnitKind| match (k.size, k.pace) {
        (1, 1) => "#3b7dd8",
        (1, _) => "#8e44ad",
        (2, _) => "#d35400",
        _ => "#27ae60",
    };
    for ((_, kind), trail) in units.iter().zip(trails) {
        let c = colour(*kind);
        let centre = |r: &Rect| {
            (
                (r.x0 + r.x1 + 1) as f32 * S as f32 / 2.0,
                (r.y0 + r.y1 + 1) as f32 * S as f32 / 2.0,
            )
        };
        let points: Vec<String> = trail
            .iter()
            .map(|r| {
                let (x, y) = centre(r);
                format!("{x:.0},{y:.0}")
            })
            .collect();
        let _ = write!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2" stroke-opacity="0.6"/>"#,
            points.join(" ")
        );
        for (r, opacity) in [(trail.first(), 0.25), (trail.last(), 0.85)] {
            if let Some(r) = r {
                let _ = write!(
                    out,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{c}" fill-opacity="{opacity}" stroke="{c}"/>"#,
                    r.x0 * S,
                    r.y0 * S,
                    r.width() * S,
                    r.height() * S
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}
