//! File formats beyond the map's own: executed plans.

mod plan;

pub use plan::{PlanError, PlanFile};
