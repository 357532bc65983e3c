//! Which planner a simulation runs, with its parameters, by name.

use super::CoVariant;

/// Which planner, with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlannerKind {
    /// Local Repair A* with agitation noise.
    Lra,
    /// Cooperative A*: full-depth space-time search, Manhattan heuristic.
    Ca,
    /// Hierarchical Cooperative A*: full depth, RRA* true distances.
    Hca,
    /// Windowed HCA* with window `w`, replanning every `w/2` ticks.
    Whca {
        /// Window size.
        window: u32,
    },
    /// The conflict-oriented family (Bnaya & Felner 2014): CO-WHCA*,
    /// CO-WHCA*P, CO-HCA*, with a reservation window of `window` ticks
    /// centred on each conflict.
    Co {
        /// Reservation window size.
        window: u32,
        /// Which member.
        variant: CoVariant,
        /// Plan the whole run before the first tick (always for CO-HCA*).
        offline: bool,
    },
}

impl PlannerKind {
    /// Parses `lra`, `ca`, `hca`, `whca`, `co-whca`, `co-whcap`, `co-hca`,
    /// `co-hcap`, `co-whca-offline` or `co-whcap-offline` (window given
    /// separately).
    pub fn parse(name: &str, window: u32) -> Option<Self> {
        let co = |variant, offline| {
            Some(Self::Co {
                window,
                variant,
                offline,
            })
        };
        match name {
            "lra" => Some(Self::Lra),
            "ca" => Some(Self::Ca),
            "hca" => Some(Self::Hca),
            "whca" => Some(Self::Whca { window }),
            "co-whca" => co(CoVariant::Whca, false),
            "co-whcap" => co(CoVariant::WhcaP, false),
            "co-hca" => co(CoVariant::Hca, true),
            "co-hcap" => co(CoVariant::HcaP, true),
            "co-whca-offline" => co(CoVariant::Whca, true),
            "co-whcap-offline" => co(CoVariant::WhcaP, true),
            _ => None,
        }
    }

    /// Display name, e.g. `WHCA*(16)`.
    pub fn label(self) -> String {
        match self {
            Self::Lra => "LRA*".into(),
            Self::Ca => "CA*".into(),
            Self::Hca => "HCA*".into(),
            Self::Whca { window } => format!("WHCA*({window})"),
            Self::Co {
                window,
                variant,
                offline,
            } => variant.label(window, offline),
        }
    }

    /// How many ticks ahead this planner reserves, given the run's turn limit.
    /// Saturates at the reservation table's
    /// [`MAX_HORIZON`](crate::reservation::MAX_HORIZON), so any window and
    /// turn limit give a horizon the table accepts.
    pub fn horizon(self, max_ticks: u32) -> u32 {
        let ahead = match self {
            Self::Lra => 2,
            Self::Ca | Self::Hca => max_ticks.saturating_add(2),
            Self::Whca { window } => window.saturating_add(2),
            Self::Co { window, .. } => max_ticks.saturating_add(window).saturating_add(4),
        };
        ahead.min(crate::reservation::MAX_HORIZON)
    }
}
