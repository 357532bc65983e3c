//! Throng's C interface: a live world driven from C or C++, declared in
//! `include/throng.h` and built as `libthrong_c.a` / `libthrong_c.so`.
//!
//! The calls follow a crowd library's habits (DetourCrowd's): create a
//! world on a map, spawn units, request move targets, step once a frame,
//! read states, routes and events. Unit ids are 64-bit handles (slot and
//! generation): a despawned unit's id stays stale even when its slot is
//! reused. Every call returns a `ThrongStatus`; `throng_last_error` says
//! what went wrong. See `examples/game_loop.c`.

mod status;
mod types;
mod world;

pub use status::{throng_last_error, throng_version, ThrongStatus};
pub use types::{
    ThrongConfig, ThrongEvent, ThrongStats, ThrongTick, ThrongUnitDesc, ThrongUnitInfo,
};
pub use world::*;
