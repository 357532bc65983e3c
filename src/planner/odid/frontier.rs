//! The A* machinery shared by the joint search and operator decomposition:
//! a node arena, the open list with the seed's tie-breaking, and duplicate
//! detection that keeps the best (cost, conflicts) node per state key.

use std::collections::hash_map::Entry;
use std::collections::BTreeMap;
use std::hash::Hasher;

use rustc_hash::{FxHashMap, FxHasher};

use crate::map::Cell;

/// A node's numbers; its positions live in the arena.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Meta {
    /// Cost so far.
    pub g: u32,
    /// Sum of single-unit distances from the post-move positions.
    pub h: u32,
    /// Conflict avoidance table violations so far.
    pub conflicts: u32,
    /// Tick of the pre-move positions.
    pub t: u32,
    /// Units already assigned a move this tick (0: a standard node).
    pub next: u16,
    /// Parent node, or `u32::MAX` for the root.
    pub parent: u32,
    /// The share of `g` and of `h` of the first part of a split group
    /// (see [`Frontier::set_split`]; zero otherwise).
    pub ga: u32,
    pub ha: u32,
    /// Superseded by a better duplicate: skipped when popped.
    dead: bool,
}

impl Meta {
    pub(crate) fn new(g: u32, h: u32, conflicts: u32, t: u32, next: u16, parent: u32) -> Self {
        Self {
            g,
            h,
            conflicts,
            t,
            next,
            parent,
            ga: 0,
            ha: 0,
            dead: false,
        }
    }

    /// The same numbers with the first part's share of `g` and `h`.
    pub(crate) fn with_part(mut self, ga: u32, ha: u32) -> Self {
        self.ga = ga;
        self.ha = ha;
        self
    }
}

/// Open-list priority: f, then conflicts, then h, packed so that a smaller
/// key is expanded first (21 bits each; conflicts saturate, they only break ties).
fn priority(f: u32, conflicts: u32, h: u32) -> u64 {
    const MASK: u64 = (1 << 21) - 1;
    (u64::from(f).min(MASK) << 42) | (u64::from(conflicts).min(MASK) << 21) | u64::from(h).min(MASK)
}

/// Nodes of one search. Each holds `2k` cells (pre-move then post-move
/// positions) and its duplicate-detection key, at most `2k + 2` words padded
/// to that stride: one flat arena instead of an allocation per node.
pub(crate) struct Frontier {
    k: usize,
    cells: Vec<Cell>,
    keys: Vec<u32>,
    meta: Vec<Meta>,
    /// The open list: a stack of nodes per priority (few distinct priorities
    /// exist, so this beats a binary heap over millions of nodes; the stack
    /// makes equal priorities newest-first).
    open: BTreeMap<u64, Vec<u32>>,
    /// Key hash to the best node with that key.
    best: FxHashMap<u64, u32>,
    /// Nodes taken off the open list and expanded.
    pub expanded: u64,
    /// A known lower bound on the solution cost: nodes are queued at
    /// `max(f, floor)`, so below it they are ordered by the tie-breaks alone.
    floor: u32,
    /// Optimal costs of the two parts of a merged group, each planned alone.
    split: Option<(u32, u32)>,
}

impl Frontier {
    pub(crate) fn new(k: usize) -> Self {
        Self {
            k,
            cells: Vec::new(),
            keys: Vec::new(),
            meta: Vec::new(),
            open: BTreeMap::new(),
            best: FxHashMap::default(),
            expanded: 0,
            floor: 0,
            split: None,
        }
    }

    /// Declares the group the union of two parts whose optimal costs alone are
    /// `cost_a` and `cost_b` (nodes then carry part A's share in `ga`, `ha`).
    /// A plan's part costs at least that part's optimum alone, and at least its
    /// own g + h, so `max(ga + ha, cost_a) + max(gb + hb, cost_b)` is an
    /// admissible f that never decreases along a path.
    pub(crate) fn set_split(&mut self, cost_a: u32, cost_b: u32) {
        self.split = Some((cost_a, cost_b));
    }

    /// Sets a lower bound on the cost of every solution. Nodes with f below it
    /// are queued at it: A* stays exact (the first goal popped still has the
    /// least cost), and it need not exhaust the f levels under the bound.
    pub(crate) fn set_floor(&mut self, floor: u32) {
        self.floor = floor;
    }

    /// The f a node is queued at: its g + h, raised to the floor and, for a
    /// split group, to the sum of the parts' bounds.
    #[inline]
    pub(crate) fn queue_f(&self, m: &Meta) -> u32 {
        let f = match self.split {
            None => m.g + m.h,
            Some((ca, cb)) => (m.ga + m.ha).max(ca) + (m.g - m.ga + m.h - m.ha).max(cb),
        };
        f.max(self.floor)
    }

    fn key_stride(&self) -> usize {
        2 * self.k + 2
    }

    /// Nodes stored (the memory bound).
    pub(crate) fn stored(&self) -> usize {
        self.meta.len()
    }

    pub(crate) fn meta(&self, n: u32) -> Meta {
        self.meta[n as usize]
    }

    /// Pre-move positions of node `n`.
    pub(crate) fn pre(&self, n: u32) -> &[Cell] {
        let s = n as usize * 2 * self.k;
        &self.cells[s..s + self.k]
    }

    /// Post-move positions of node `n`.
    pub(crate) fn post(&self, n: u32) -> &[Cell] {
        let s = n as usize * 2 * self.k + self.k;
        &self.cells[s..s + self.k]
    }

    /// Adds a node unless a duplicate with `key` is at least as good
    /// (lower cost, or equal cost and no more conflicts). Returns whether added.
    pub(crate) fn push(&mut self, key: &[u32], pre: &[Cell], post: &[Cell], meta: Meta) -> bool {
        let stride = self.key_stride();
        debug_assert!(key.len() <= stride);
        let id = self.meta.len() as u32;
        let mut hasher = FxHasher::default();
        for &w in key {
            hasher.write_u32(w);
        }
        let hash = hasher.finish();
        match self.best.entry(hash) {
            Entry::Occupied(mut slot) => {
                let old = *slot.get() as usize;
                let stored = &self.keys[old * stride..(old + 1) * stride];
                // A true hash collision keeps the old entry; the new node is then
                // simply not deduplicated, which costs time but not correctness.
                if stored[..key.len()] == *key && stored[key.len()..].iter().all(|&w| w == PAD) {
                    let o = &mut self.meta[old];
                    if (o.g, o.conflicts) <= (meta.g, meta.conflicts) {
                        return false;
                    }
                    o.dead = true;
                    slot.insert(id);
                }
            }
            Entry::Vacant(slot) => {
                slot.insert(id);
            }
        }
        self.keys.extend_from_slice(key);
        self.keys
            .extend(std::iter::repeat_n(PAD, stride - key.len()));
        self.cells.extend_from_slice(pre);
        self.cells.extend_from_slice(post);
        self.meta.push(meta);
        self.open
            .entry(priority(self.queue_f(&meta), meta.conflicts, meta.h))
            .or_default()
            .push(id);
        true
    }

    /// The next live node to expand, if any.
    pub(crate) fn pop(&mut self) -> Option<u32> {
        self.pop_with_f().map(|(n, _)| n)
    }

    /// The next live node to expand and the f value it was queued at (above
    /// its own f when [`Frontier::requeue`] put it back).
    pub(crate) fn pop_with_f(&mut self) -> Option<(u32, u32)> {
        while let Some(mut entry) = self.open.first_entry() {
            let f = (*entry.key() >> 42) as u32;
            let node = entry.get_mut().pop();
            if entry.get().is_empty() {
                entry.remove();
            }
            if let Some(n) = node {
                if !self.meta[n as usize].dead {
                    self.expanded += 1;
                    return Some((n, f));
                }
            }
        }
        None
    }

    /// Puts an expanded node back on the open list at `f`, for its children
    /// of that f value (partial expansion).
    pub(crate) fn requeue(&mut self, n: u32, f: u32) {
        let m = self.meta[n as usize];
        self.open
            .entry(priority(f, m.conflicts, m.h))
            .or_default()
            .push(n);
    }

    /// Positions per tick of the standard nodes from the root to `n`, per unit.
    pub(crate) fn paths_to(&self, n: u32) -> Vec<Vec<Cell>> {
        let mut ticks = Vec::new();
        let mut cur = n;
        loop {
            let m = self.meta(cur);
            if m.next == 0 {
                ticks.push(self.post(cur).to_vec());
            }
            if m.parent == u32::MAX {
                break;
            }
            cur = m.parent;
        }
        ticks.reverse();
        (0..self.k)
            .map(|i| ticks.iter().map(|row| row[i]).collect())
            .collect()
    }
}

/// Fills unused key words (no cell index reaches it).
const PAD: u32 = u32::MAX;

/// Writes the duplicate-detection key of a standard node into `key`.
pub(crate) fn standard_key(key: &mut Vec<u32>, tick_key: u32, post: &[Cell]) {
    key.clear();
    key.push(tick_key);
    key.push(0);
    key.extend(post.iter().map(|c| c.0));
}
