//! File formats beyond the map's own: executed plans, event scripts (read,
//! or generated as a game's load; `engine::ScriptPlayer` plays them).

mod events;
mod load;
mod plan;

pub use events::{
    check_events, check_events_sized, parse_events, read_events, Action, EventsError,
    ScriptedEvent, MAX_EVENT_TICK,
};
pub use load::Load;
pub use plan::{PlanError, PlanFile};
