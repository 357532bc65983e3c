//! File formats beyond the map's own: executed plans, event scripts (read,
//! generated as a game's load, and played into a simulation).

mod events;
mod load;
mod plan;
mod script;

pub use events::{
    check_events, parse_events, read_events, Action, EventsError, ScriptedEvent, MAX_EVENT_TICK,
};
pub use load::Load;
pub use plan::{PlanError, PlanFile};
pub use script::ScriptPlayer;
