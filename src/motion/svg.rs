//! SVG pictures of a planned trip: the map (blocked cells merged into one
//! rectangle per run of a row, so large maps stay small), the grid path and
//! the final curve. Written as plain text: no drawing library is needed.

use std::fmt::Write;

use crate::map::{Cell, Grid};

use super::curve::CurvePath;
use super::pose::Point;

/// Pixels per tile for a map: about 800 pixels across, between 2 and 24 per tile.
fn scale(grid: &Grid) -> f64 {
    (800.0 / grid.width().max(grid.height()) as f64).clamp(2.0, 24.0)
}

/// The SVG text showing `grid`, the grid path (blue, through cell centres),
/// the curve (red) and the start (green) and goal (black) cells.
pub fn render_svg(grid: &Grid, grid_path: &[Cell], curve: &CurvePath, title: &str) -> String {
    let s = scale(grid);
    let (w, h) = (grid.width() as f64 * s, grid.height() as f64 * s);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}">"#
    );
    let _ = writeln!(
        out,
        "<title>{}</title>",
        title.replace('&', "&amp;").replace('<', "&lt;")
    );
    let _ = writeln!(
        out,
        r##"<rect width="{w:.0}" height="{h:.0}" fill="#ffffff"/>"##
    );
    let _ = writeln!(out, r##"<g fill="#404040">"##);
    for y in 0..grid.height() {
        let mut x = 0;
        while x < grid.width() {
            if grid.is_passable(grid.cell(x, y)) {
                x += 1;
                continue;
            }
            let x0 = x;
            while x < grid.width() && !grid.is_passable(grid.cell(x, y)) {
                x += 1;
            }
            let _ = writeln!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"/>"#,
                x0 as f64 * s,
                y as f64 * s,
                (x - x0) as f64 * s,
                s
            );
        }
    }
    let _ = writeln!(out, "</g>");
    let stroke = (s / 8.0).max(0.6);
    let poly = |pts: &mut dyn Iterator<Item = Point>| {
        pts.map(|p| format!("{:.2},{:.2}", p.x * s, p.y * s))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let grid_pts = poly(&mut grid_path.iter().map(|&c| Point::centre(grid, c)));
    let _ = writeln!(
        out,
        r##"<polyline points="{grid_pts}" fill="none" stroke="#3070ff" stroke-width="{stroke:.2}" stroke-dasharray="{:.1}"/>"##,
        stroke * 3.0
    );
    let curve_pts = poly(&mut curve.samples(0.1).into_iter().map(|p| p.point()));
    let _ = writeln!(
        out,
        r##"<polyline points="{curve_pts}" fill="none" stroke="#e02020" stroke-width="{:.2}"/>"##,
        stroke * 1.5
    );
    for (c, colour) in [
        (grid_path.first(), "#10a010"),
        (grid_path.last(), "#000000"),
    ] {
        if let Some(&c) = c {
            let p = Point::centre(grid, c);
            let _ = writeln!(
                out,
                r#"<circle cx="{:.2}" cy="{:.2}" r="{:.2}" fill="{colour}"/>"#,
                p.x * s,
                p.y * s,
                s * 0.4
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Connectivity;
    use crate::motion::Curve;

    #[test]
    fn blocked_runs_become_one_rectangle_and_paths_are_drawn() {
        let rows = ["@@@..", ".....", "..@@@"];
        let p = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '.'))
            .collect();
        let g = Grid::new(5, 3, p, Connectivity::Eight);
        let path = [g.cell(0, 1), g.cell(4, 1)];
        let curve = CurvePath {
            curves: vec![Curve::line(
                Point::centre(&g, path[0]),
                Point::centre(&g, path[1]),
            )],
        };
        let svg = render_svg(&g, &path, &curve, "a < b");
        // Two runs of three blocked cells, plus the white background.
        assert_eq!(svg.matches("<rect").count(), 3);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("a &lt; b") && svg.trim_end().ends_with("</svg>"));
    }
}
