//! Struct-of-arrays unit storage: one column per field, plain-old-data types
//! (`bytemuck::Pod`) so whole columns can be handed to a renderer or across
//! FFI without copying.

mod kind;
mod store;
mod unit_id;

pub use kind::{UnitKind, MAX_PACE, MAX_SIZE};
pub use store::{Slot, UnitFlags, UnitState, Units};
pub use unit_id::{UnitId, UnitIds};
