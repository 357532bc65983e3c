//! The order in which due units plan within a tick: higher priority first,
//! then a rotating order so every unit is sometimes first (Silver: "every
//! unit will have the highest priority for a short period of time").

use crate::units::{Slot, Units};

/// Sorts `due` by priority (high first), then by how long each has been due
/// (carried-over work first), then by id rotated by `rotation`.
pub fn rotate_order(due: &mut [Slot], units: &Units, rotation: u32) {
    let n = units.len().max(1) as u32;
    let r = rotation % n;
    due.sort_unstable_by_key(|&a| {
        (
            std::cmp::Reverse(units.priority[a.index()]),
            units.next_replan[a.index()],
            (a.0 + n - r) % n,
        )
    });
}
