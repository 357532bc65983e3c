//! SVG line charts, drawn with plotters: the experiments' (one line per
//! planner over the unit counts) and a run's tick times.

use std::path::Path;

use plotters::prelude::*;

use super::error::{write_file, CliError};

/// Writes an SVG chart to `path`: one `(label, points)` line per planner,
/// x = units, y = the measure (`log`: a logarithmic y axis).
pub fn planner_lines(
    path: &Path,
    title: &str,
    lines: &[(String, Vec<(f64, f64)>)],
    log: bool,
) -> Result<(), CliError> {
    lines_chart(path, title, "units", lines, log)
}

/// Writes an SVG line chart to `path`: one `(label, points)` line each,
/// x described by `x_desc`, y by `title` (`log`: a logarithmic y axis).
pub fn lines_chart(
    path: &Path,
    title: &str,
    x_desc: &str,
    lines: &[(String, Vec<(f64, f64)>)],
    log: bool,
) -> Result<(), CliError> {
    let err =
        |e: &dyn std::fmt::Display| CliError::Other(format!("{}: chart: {e}", path.display()));
    let all = || {
        lines
            .iter()
            .flat_map(|(_, pts)| pts.iter())
            .filter(|p| p.1.is_finite())
    };
    let ymax = all().map(|p| p.1).fold(0.0, f64::max).max(1e-3) * 1.1;
    let ymin = all().map(|p| p.1).fold(f64::INFINITY, f64::min).max(1e-3) * 0.9;
    let xmax = all().map(|p| p.0).fold(1.0, f64::max);
    let xmin = all().map(|p| p.0).fold(xmax, f64::min).min(xmax - 1.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64);
        macro_rules! draw {
            ($c:expr) => {{
                let mut c = $c;
                c.configure_mesh()
                    .x_desc(x_desc)
                    .y_desc(title)
                    .draw()
                    .map_err(|e| err(&e))?;
                for (k, (label, points)) in lines.iter().enumerate() {
                    let color = Palette99::pick(k).to_rgba();
                    c.draw_series(LineSeries::new(
                        points.iter().copied(),
                        color.stroke_width(2),
                    ))
                    .map_err(|e| err(&e))?
                    .label(label.clone())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
                    });
                }
                c.configure_series_labels()
                    .border_style(BLACK)
                    .background_style(WHITE)
                    .draw()
                    .map_err(|e| err(&e))?;
            }};
        }
        if log {
            draw!(builder
                .build_cartesian_2d(xmin..xmax, (ymin..ymax).log_scale())
                .map_err(|e| err(&e))?);
        } else {
            draw!(builder
                .build_cartesian_2d(xmin..xmax, 0.0..ymax)
                .map_err(|e| err(&e))?);
        }
        root.present().map_err(|e| err(&e))?;
    }
    write_file(path, svg)
}
