//! Time and node budgets, so a hard instance ends in a clean "not solved"
//! instead of a hang or an out-of-memory abort.

use std::time::{Duration, Instant};

/// Which clock the time limit reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Clock {
    /// Wall time.
    #[default]
    Wall,
    /// CPU time of the solving thread (Linux `/proc/thread-self/schedstat`;
    /// wall time where that is unreadable). On a shared machine this measures
    /// the algorithm rather than the other processes competing for the cores.
    ThreadCpu,
}

impl Clock {
    /// Reads the clock; `None` if it is unavailable here.
    pub fn now(self) -> Option<Duration> {
        match self {
            Clock::Wall => None,
            Clock::ThreadCpu => thread_cpu_time(),
        }
    }
}

/// CPU time the calling thread has run, from the scheduler's statistics.
pub fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Bounds on one solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time for the whole solve (all ID rounds together).
    pub time: Option<Duration>,
    /// Nodes one low-level search may store; this bounds memory.
    pub nodes: Option<u64>,
    /// The clock `time` is measured on.
    pub clock: Clock,
}

impl Limits {
    /// No bound at all.
    pub fn none() -> Self {
        Self::default()
    }

    /// A wall-time bound only.
    pub fn time(limit: Duration) -> Self {
        Self {
            time: Some(limit),
            ..Self::default()
        }
    }
}

/// Why a search stopped before finishing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The time limit passed.
    Time,
    /// A search stored more nodes than allowed.
    Nodes,
}

/// The running budget of one solve, checked by the searches.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    limit: Option<Duration>,
    started: Instant,
    /// Thread CPU time at the start, when the limit is on that clock.
    cpu_start: Option<Duration>,
    node_limit: Option<u64>,
}

impl Budget {
    pub(crate) fn start(limits: &Limits, started: Instant) -> Self {
        Self {
            limit: limits.time,
            started,
            cpu_start: limits.clock.now(),
            node_limit: limits.nodes,
        }
    }

    /// Time used so far on the limit's clock.
    pub(crate) fn used(&self) -> Duration {
        match self
            .cpu_start
            .and_then(|s| Some(thread_cpu_time()?.saturating_sub(s)))
        {
            Some(cpu) => cpu,
            None => self.started.elapsed(),
        }
    }

    /// Checks the clock (callers do it every few hundred expansions). A thread
    /// runs no longer than the wall time since it started, so the CPU clock is
    /// only read once the wall time alone has passed the limit.
    pub(crate) fn check_time(&self) -> Result<(), Stop> {
        match self.limit {
            Some(limit) if self.started.elapsed() >= limit && self.used() >= limit => {
                Err(Stop::Time)
            }
            _ => Ok(()),
        }
    }

    /// Checks how many nodes a search holds.
    pub(crate) fn check_nodes(&self, stored: usize) -> Result<(), Stop> {
        match self.node_limit {
            Some(n) if stored as u64 > n => Err(Stop::Nodes),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_cpu_clock_advances_with_work() {
        let Some(a) = thread_cpu_time() else {
            return; // Not Linux: the budget falls back to wall time.
        };
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_add(i * i));
        }
        let b = thread_cpu_time().expect("readable once");
        assert!(b > a, "{a:?} -> {b:?} ({x})");
    }
}
