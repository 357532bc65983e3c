//! Work counters summed over every low-level search of a solve.

/// How much searching a solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes taken off an open list and expanded.
    pub expanded: u64,
    /// Nodes stored (generated and not discarded as duplicates).
    pub generated: u64,
    /// Low-level searches run.
    pub searches: u64,
    /// The most nodes any one search stored.
    pub peak_nodes: u64,
}

impl SearchStats {
    pub(crate) fn record(&mut self, expanded: u64, stored: usize) {
        self.expanded += expanded;
        self.generated += stored as u64;
        self.searches += 1;
        self.peak_nodes = self.peak_nodes.max(stored as u64);
    }
}
