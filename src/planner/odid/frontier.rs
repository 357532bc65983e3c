//! The A* machinery shared by the joint search and operator decomposition:
//! a node arena, the open list with the seed's tie-breaking, and duplicate
//! detection that keeps the best (cost, conflicts) node per state key.

use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::BinaryHeap;
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
    /// Admissible estimate of the cost of a plan through this node, at least
    /// `g + h` (higher with the merge-history bound of a merged group).
    pub f: u32,
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
            f: g + h,
            dead: false,
        }
    }

    /// The same numbers with a higher admissible f.
    pub(crate) fn with_f(mut self, f: u32) -> Self {
        debug_assert!(f >= self.g + self.h);
        self.f = f;
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
    open: OpenList,
    /// Key hash to the best node with that key.
    best: FxHashMap<u64, u32>,
    /// Nodes taken off the open list and expanded.
    pub expanded: u64,
    /// A known lower bound on the solution cost: nodes are queued at
    /// `max(f, floor)`, so below it they are ordered by the tie-breaks alone.
    floor: u32,
    /// Per-unit words stored with each node (see [`Frontier::unit_words`]).
    words: usize,
    unit_words: Vec<u32>,
}

impl Frontier {
    pub(crate) fn new(k: usize) -> Self {
        Self {
            k,
            cells: Vec::new(),
            keys: Vec::new(),
            meta: Vec::new(),
            open: OpenList::default(),
            best: FxHashMap::default(),
            expanded: 0,
            floor: 0,
            words: 0,
            unit_words: Vec::new(),
        }
    }

    /// Empties the frontier for a new search of `k` units, keeping its
    /// memory.
    pub(crate) fn reset(&mut self, k: usize) {
        self.k = k;
        self.cells.clear();
        self.keys.clear();
        self.meta.clear();
        self.open.clear();
        self.best.clear();
        self.expanded = 0;
        self.floor = 0;
        self.words = 0;
        self.unit_words.clear();
    }

    /// Stores `words` per-unit numbers with each node (given to
    /// [`Frontier::push_with`], read back with [`Frontier::unit_words`]).
    pub(crate) fn set_unit_words(&mut self, words: usize) {
        self.words = words;
    }

    /// The per-unit numbers stored with node `n`.
    pub(crate) fn unit_words(&self, n: u32) -> &[u32] {
        let s = n as usize * self.words;
        &self.unit_words[s..s + self.words]
    }

    /// Sets a lower bound on the cost of every solution. Nodes with f below it
    /// are queued at it: A* stays exact (the first goal popped still has the
    /// least cost), and it need not exhaust the f levels under the bound.
    pub(crate) fn set_floor(&mut self, floor: u32) {
        self.floor = floor;
    }

    /// The f a node is queued at: its f raised to the floor.
    #[inline]
    pub(crate) fn queue_f(&self, m: &Meta) -> u32 {
        m.f.max(self.floor)
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
        self.push_with(key, pre, post, meta, &[])
    }

    /// [`Frontier::push`] with the node's per-unit numbers (as many as set
    /// with [`Frontier::set_unit_words`]).
    pub(crate) fn push_with(
        &mut self,
        key: &[u32],
        pre: &[Cell],
        post: &[Cell],
        meta: Meta,
        words: &[u32],
    ) -> bool {
        debug_assert_eq!(words.len(), self.words);
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
        self.unit_words.extend_from_slice(words);
        self.meta.push(meta);
        self.open
            .push(priority(self.queue_f(&meta), meta.conflicts, meta.h), id);
        true
    }

    /// The next live node to expand, if any.
    pub(crate) fn pop(&mut self) -> Option<u32> {
        self.pop_with_f().map(|(n, _)| n)
    }

    /// The next live node to expand and the f value it was queued at (above
    /// its own f when [`Frontier::requeue`] put it back).
    pub(crate) fn pop_with_f(&mut self) -> Option<(u32, u32)> {
        while let Some((key, n)) = self.open.pop() {
            if !self.meta[n as usize].dead {
                self.expanded += 1;
                return Some((n, (key >> 42) as u32));
            }
        }
        None
    }

    /// Puts an expanded node back on the open list at `f`, for its children
    /// of that f value (partial expansion).
    pub(crate) fn requeue(&mut self, n: u32, f: u32) {
        let m = self.meta[n as usize];
        self.open.push(priority(f, m.conflicts, m.h), n);
    }

    /// [`Self::paths_to`] into the first `k` entries of `out` (one path per
    /// unit; `out` only ever grows, so every path's memory is reused), with
    /// `nodes` as scratch.
    pub(crate) fn paths_into(&self, n: u32, nodes: &mut Vec<u32>, out: &mut Vec<Vec<Cell>>) {
        nodes.clear();
        let mut cur = n;
        loop {
            let m = self.meta(cur);
            if m.next == 0 {
                nodes.push(cur);
            }
            if m.parent == u32::MAX {
                break;
            }
            cur = m.parent;
        }
        if out.len() < self.k {
            out.resize_with(self.k, Vec::new);
        }
        for (i, path) in out[..self.k].iter_mut().enumerate() {
            path.clear();
            path.extend(nodes.iter().rev().map(|&n| self.post(n)[i]));
        }
    }

    /// Positions per tick of the standard nodes from the root to `n`, per unit.
    pub(crate) fn paths_to(&self, n: u32) -> Vec<Vec<Cell>> {
        let mut paths = Vec::new();
        self.paths_into(n, &mut Vec::new(), &mut paths);
        paths
    }
}

/// Stacks of nodes by priority: an index from priority to a stack, a heap
/// of the priorities that have one (smallest first), stacks reused once
/// empty, and a small cache in front of the index, since one expansion
/// pushes its children at a handful of priorities. Cleared, it keeps its
/// memory, so a search run again and again allocates nothing once warm.
struct OpenList {
    index: FxHashMap<u64, u32>,
    order: BinaryHeap<Reverse<(u64, u32)>>,
    stacks: Vec<Vec<u32>>,
    free: Vec<u32>,
    /// Priority and stack of recent pushes; `NO_PRIORITY` when empty.
    cache: [(u64, u32); 64],
}

/// No packed priority reaches it (they use 63 bits).
const NO_PRIORITY: u64 = u64::MAX;

impl Default for OpenList {
    fn default() -> Self {
        Self {
            index: FxHashMap::default(),
            order: BinaryHeap::new(),
            stacks: Vec::new(),
            free: Vec::new(),
            cache: [(NO_PRIORITY, 0); 64],
        }
    }
}

impl OpenList {
    /// Empties the list, keeping its memory.
    fn clear(&mut self) {
        self.index.clear();
        self.order.clear();
        for stack in &mut self.stacks {
            stack.clear();
        }
        self.free.clear();
        self.free.extend((0..self.stacks.len() as u32).rev());
        self.cache = [(NO_PRIORITY, 0); 64];
    }

    #[inline]
    fn cache_slot(key: u64) -> usize {
        ((key ^ (key >> 21) ^ (key >> 42)) & 63) as usize
    }

    fn push(&mut self, key: u64, n: u32) {
        let c = Self::cache_slot(key);
        let stack = if self.cache[c].0 == key {
            self.cache[c].1
        } else {
            let stack = match self.index.entry(key) {
                Entry::Occupied(e) => *e.get(),
                Entry::Vacant(e) => {
                    let s = self.free.pop().unwrap_or_else(|| {
                        self.stacks.push(Vec::new());
                        (self.stacks.len() - 1) as u32
                    });
                    self.order.push(Reverse((key, s)));
                    *e.insert(s)
                }
            };
            self.cache[c] = (key, stack);
            stack
        };
        self.stacks[stack as usize].push(n);
    }

    /// The newest node of the smallest priority, with that priority.
    fn pop(&mut self) -> Option<(u64, u32)> {
        let &Reverse((key, stack)) = self.order.peek()?;
        let nodes = &mut self.stacks[stack as usize];
        let n = nodes.pop().expect("stacks in the index are not empty");
        if nodes.is_empty() {
            self.order.pop();
            self.index.remove(&key);
            let c = Self::cache_slot(key);
            if self.cache[c].0 == key {
                self.cache[c].0 = NO_PRIORITY;
            }
            self.free.push(stack);
        }
        Some((key, n))
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
