//! Random maps and instances as in the seeds' experiments: a W×H grid with a
//! share of randomly placed obstacles, every part but the largest connected
//! region filled in, and units given distinct random starts and distinct goals.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Cell, Connectivity, Grid, Instance, MapError};

/// Most cells a generated map may have: 4096×4096, about five times the
/// largest benchmark map the project runs (1800×1912) and well under what
/// the reservation table can address
/// ([`MAX_CELLS`](super::MAX_CELLS)). A larger spec is an error
/// rather than minutes of generation and gigabytes of memory.
pub const MAX_GENERATED_CELLS: u64 = 1 << 24;

/// Size and obstacle density of a generated map, written `WxH[:DENSITY]`
/// (`32x32:0.2`; the density defaults to 0.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeneratorSpec {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Share of cells made obstacles before disconnected parts are filled, in [0, 1).
    pub density: f64,
}

impl std::str::FromStr for GeneratorSpec {
    type Err = MapError;

    fn from_str(s: &str) -> Result<Self, MapError> {
        let bad = || {
            MapError::Invalid(format!(
                "generator spec `{s}`: expected WIDTHxHEIGHT[:DENSITY], e.g. 32x32:0.2"
            ))
        };
        let (size, density) = match s.split_once(':') {
            Some((a, b)) => (a, b.parse::<f64>().map_err(|_| bad())?),
            None => (s, 0.2),
        };
        let (w, h) = size.split_once(['x', 'X']).ok_or_else(bad)?;
        let width: u32 = w.parse().map_err(|_| bad())?;
        let height: u32 = h.parse().map_err(|_| bad())?;
        let cells = width as u64 * height as u64;
        if width == 0 || height == 0 || cells > MAX_GENERATED_CELLS {
            return Err(MapError::Invalid(format!(
                "generator spec `{s}`: {width}x{height} is out of range; width and height must be \
                 at least 1 and the map at most {MAX_GENERATED_CELLS} cells (e.g. 4096x4096)"
            )));
        }
        if !(0.0..1.0).contains(&density) {
            return Err(MapError::Invalid(format!(
                "generator spec `{s}`: density must be in [0, 1)"
            )));
        }
        Ok(GeneratorSpec {
            width,
            height,
            density,
        })
    }
}

/// Generates a fully connected random map (the seed's "disconnected subregions
/// filled with obstacles"), deterministically from `seed`.
pub fn generate_map(spec: GeneratorSpec, connectivity: Connectivity, seed: u64) -> Grid {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = spec.width as usize * spec.height as usize;
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(&mut rng);
    let blocked = ((n as f64) * spec.density).round() as usize;
    let mut passable = vec![true; n];
    for &i in &order[..blocked.min(n)] {
        passable[i] = false;
    }
    let grid = Grid::new(spec.width, spec.height, passable, connectivity);
    let sizes = grid.region_sizes();
    let Some((largest, _)) = sizes
        .iter()
        .enumerate()
        .max_by_key(|&(i, &s)| (s, usize::MAX - i))
    else {
        return grid;
    };
    let passable = (0..n)
        .map(|i| grid.region(Cell(i as u32)) == largest as u32)
        .collect();
    Grid::new(spec.width, spec.height, passable, connectivity)
        .with_corner_cutting(grid.corner_cutting())
}

/// Places `units` units with distinct random starts and distinct random goals
/// on the passable cells of `grid`, deterministically from `seed`.
pub fn random_instance(grid: Arc<Grid>, units: usize, seed: u64) -> Result<Instance, MapError> {
    let free: Vec<Cell> = (0..grid.cell_count() as u32)
        .map(Cell)
        .filter(|&c| grid.is_passable(c))
        .collect();
    if units > free.len() {
        return Err(MapError::Invalid(format!(
            "{units} units asked for, but the map has only {} free cells",
            free.len()
        )));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
    let starts: Vec<Cell> = free.choose_multiple(&mut rng, units).copied().collect();
    let goals: Vec<Cell> = free.choose_multiple(&mut rng, units).copied().collect();
    Ok(Instance {
        grid,
        starts,
        goals,
        map_name: "generated".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_map_is_connected_and_seeded() {
        let spec: GeneratorSpec = "32x32:0.2".parse().unwrap();
        let a = generate_map(spec, Connectivity::Four, 7);
        let b = generate_map(spec, Connectivity::Four, 7);
        assert_eq!(a.passability(), b.passability());
        assert_eq!(a.region_count(), 1);
        let blocked = a.cell_count() - a.passable_count();
        assert!(blocked >= 204, "at least the 20% obstacles: {blocked}");
    }

    #[test]
    fn instance_has_distinct_starts_and_goals() {
        let g = Arc::new(generate_map(
            "16x16".parse().unwrap(),
            Connectivity::Four,
            1,
        ));
        let inst = random_instance(g, 50, 3).unwrap();
        assert!(inst.check_distinct().is_ok());
        assert_eq!(inst.len(), 50);
    }

    #[test]
    fn bad_spec_is_an_error() {
        assert!("32by32".parse::<GeneratorSpec>().is_err());
        assert!("32x32:1.5".parse::<GeneratorSpec>().is_err());
        assert!("32x32:NaN".parse::<GeneratorSpec>().is_err());
        assert!("0x32".parse::<GeneratorSpec>().is_err());
        assert!("4096x4096".parse::<GeneratorSpec>().is_ok());
        let e = "4097x4096"
            .parse::<GeneratorSpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("at most 16777216 cells"), "{e}");
        assert!("4294967295x4294967295".parse::<GeneratorSpec>().is_err());
    }
}
