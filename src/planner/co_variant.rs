//! The members of Bnaya and Felner's conflict-oriented family.

/// Which member of the CO-WHCA* family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CoVariant {
    /// CO-WHCA*: window centred on the conflict, owner chosen without looking
    /// at costs.
    Whca,
    /// CO-WHCA*P: as CO-WHCA*, owner by winner determination (Algorithm 3).
    WhcaP,
    /// CO-HCA* (CO-WHCA*(0)): window start fixed at the current tick, so all
    /// conflicts are planned away before any unit moves.
    Hca,
    /// CO-HCA*P: CO-HCA* with the winner determination.
    HcaP,
}

impl CoVariant {
    /// Whether the window starts at the current tick (the offline CO-HCA*).
    pub fn fixed_start(self) -> bool {
        matches!(self, Self::Hca | Self::HcaP)
    }

    /// Whether owners are chosen by winner determination (Algorithm 3).
    pub fn prioritized(self) -> bool {
        matches!(self, Self::WhcaP | Self::HcaP)
    }

    /// Display name with window `w`, e.g. `CO-WHCA*P(16)`; ` offline` is
    /// appended for the offline form of the windowed members.
    pub fn label(self, w: u32, offline: bool) -> String {
        let base = match self {
            Self::Whca => "CO-WHCA*",
            Self::WhcaP => "CO-WHCA*P",
            Self::Hca => "CO-HCA*",
            Self::HcaP => "CO-HCA*P",
        };
        let mode = if offline && !self.fixed_start() {
            " offline"
        } else {
            ""
        };
        format!("{base}({w}){mode}")
    }
}
