//! The A* machinery shared by the joint search and operator decomposition:
//! a node arena, the open list with the seed's tie-breaking, and duplicate
//! detection that keeps the best (cost, conflicts) node per state key.

use std::cmp::Ordering;
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
            dead: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    f: u32,
    conflicts: u32,
    h: u32,
    seq: u64,
    node: u32,
}

impl Ord for Entry {
    /// Max-heap order: lowest f, then fewest conflicts, then lowest h, then newest.
    fn cmp(&self, o: &Self) -> Ordering {
        o.f.cmp(&self.f)
            .then(o.conflicts.cmp(&self.conflicts))
            .then(o.h.cmp(&self.h))
            .then(self.seq.cmp(&o.seq))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Nodes of one search. Each holds `2k` cells (pre-move then post-move
/// positions) and its duplicate-detection key, at most `2k + 2` words padded
/// to that stride: one flat arena instead of an allocation per node.
pub(crate) struct Frontier {
    k: usize,
    cells: Vec<Cell>,
    keys: Vec<u32>,
    meta: Vec<Meta>,
    heap: BinaryHeap<Entry>,
    /// Key hash to the best node with that key.
    best: FxHashMap<u64, u32>,
    seq: u64,
    /// Nodes taken off the open list and expanded.
    pub expanded: u64,
}

impl Frontier {
    pub(crate) fn new(k: usize) -> Self {
        Self {
            k,
            cells: Vec::new(),
            keys: Vec::new(),
            meta: Vec::new(),
            heap: BinaryHeap::new(),
            best: FxHashMap::default(),
            seq: 0,
            expanded: 0,
        }
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
        match self.best.get_mut(&hash) {
            Some(old) => {
                let s = *old as usize * stride;
                let stored = &self.keys[s..s + stride];
                // A true hash collision keeps the old entry; the new node is then
                // simply not deduplicated, which costs time but not correctness.
                if stored[..key.len()] == *key && stored[key.len()..].iter().all(|&w| w == PAD) {
                    let o = &mut self.meta[*old as usize];
                    if (o.g, o.conflicts) <= (meta.g, meta.conflicts) {
                        return false;
                    }
                    o.dead = true;
                    *old = id;
                }
            }
            None => {
                self.best.insert(hash, id);
            }
        }
        self.keys.extend_from_slice(key);
        self.keys
            .extend(std::iter::repeat_n(PAD, stride - key.len()));
        self.cells.extend_from_slice(pre);
        self.cells.extend_from_slice(post);
        self.meta.push(meta);
        self.seq += 1;
        self.heap.push(Entry {
            f: meta.g + meta.h,
            conflicts: meta.conflicts,
            h: meta.h,
            seq: self.seq,
            node: id,
        });
        true
    }

    /// The next live node to expand, if any.
    pub(crate) fn pop(&mut self) -> Option<u32> {
        while let Some(e) = self.heap.pop() {
            if !self.meta[e.node as usize].dead {
                self.expanded += 1;
                return Some(e.node);
            }
        }
        None
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
