//! The static grid, its file formats and the generators for the seeds' random maps.

mod blocks;
mod crowded;
mod error;
mod generate;
mod grid;
mod lanes;
mod movingai;
mod prefetch;

pub use blocks::Rect;
pub use crowded::crowded_instance;
pub use error::MapError;
pub use generate::{generate_map, random_instance, GeneratorSpec, MAX_GENERATED_CELLS};
pub use grid::{Cell, Connectivity, Grid, MAX_CELLS, MOVE_OFFSETS, NO_REGION};
pub use lanes::opposite_move;
pub use movingai::{
    parse_map, parse_scenario, read_map, read_scenario, tile_passable, write_map, Instance,
    Scenario, ScenarioEntry,
};
pub use prefetch::prefetch;
