//! File formats beyond the map's own: executed plans, event scripts.

mod events;
mod plan;

pub use events::{
    check_events, parse_events, read_events, Action, EventsError, ScriptedEvent, MAX_EVENT_TICK,
};
pub use plan::{PlanError, PlanFile};
