//! The hit-check table (the seed's Figure 13): for every start heading, end
//! heading and neighbour offset, the arc-line-arc curves between the two cell
//! centres (up to four, shortest first) and for each a 121-bit mask of the
//! 11×11 block around the origin cell marking every cell the unit may touch
//! on the way. Keeping all four, not just the shortest, answers the seed's
//! caveat that the shortest may be blocked where another would pass. A search then tests a
//! transition with one AND against the block's blocked-cell mask, instead of
//! trigonometry and sampling. Rebuilt whenever the radius or width change.

use super::curve::Curve;
use super::pose::{heading_angle, Pose, HEADINGS};
use super::turns::arc_line_arc_all;
use super::walkable::{Footprint, TABLE_SAMPLE_STEP};

/// Half-size of the checked block: 11×11 cells around the origin.
pub const BLOCK_HALF: i32 = 5;
const BLOCK_SIDE: i32 = 2 * BLOCK_HALF + 1;

/// Bit of block cell `(dx, dy)` (relative to the origin cell) in a mask.
#[inline]
pub fn block_bit(dx: i32, dy: i32) -> u32 {
    ((dy + BLOCK_HALF) * BLOCK_SIDE + dx + BLOCK_HALF) as u32
}

/// Neighbour offsets within Chebyshev distance `reach`, nearest ring first:
/// the seed's `DirTable` (8, 24 or 48 entries for reach 1, 2, 3).
pub fn ring_offsets(reach: i32) -> Vec<(i32, i32)> {
    let mut v = Vec::new();
    for ring in 1..=reach {
        for dy in -ring..=ring {
            for dx in -ring..=ring {
                if dx.abs().max(dy.abs()) == ring {
                    v.push((dx, dy));
                }
            }
        }
    }
    v
}

/// One transition of the table.
#[derive(Clone, Copy, Debug)]
pub struct Transition {
    /// Cells the unit may touch, as bits of the 11×11 block ([`block_bit`]).
    pub mask: u128,
    /// Curve length in thousandths of a tile; `u32::MAX` when no curve fits the block.
    pub cost: u32,
}

/// Candidate curves kept per transition (the four arc-line-arc curves).
pub const CANDIDATES: usize = 4;

const NONE: Transition = Transition {
    mask: 0,
    cost: u32::MAX,
};

/// Hit-check table for one radius, width and reach.
#[derive(Clone, Debug)]
pub struct HitTable {
    radius: f64,
    width: f64,
    offsets: Vec<(i32, i32)>,
    /// Index of each offset in `offsets`, by `(dy + 3) * 7 + dx + 3`.
    offset_index: [u8; 49],
    entries: Vec<[Transition; CANDIDATES]>,
    curves: Vec<[Curve; CANDIDATES]>,
}

impl HitTable {
    /// Builds the table for turning radius `radius`, unit `width` and
    /// neighbours up to `reach` (1..=3) tiles away.
    ///
    /// # Panics
    /// If `reach` is not 1, 2 or 3.
    pub fn build(radius: f64, width: f64, reach: i32) -> Self {
        assert!((1..=3).contains(&reach), "reach must be 1, 2 or 3");
        let offsets = ring_offsets(reach);
        let mut offset_index = [u8::MAX; 49];
        for (i, &(dx, dy)) in offsets.iter().enumerate() {
            offset_index[((dy + 3) * 7 + dx + 3) as usize] = i as u8;
        }
        let fp = Footprint::new(width).with_step(TABLE_SAMPLE_STEP);
        let n = HEADINGS * HEADINGS * offsets.len();
        let mut entries = Vec::with_capacity(n);
        let mut curves = Vec::with_capacity(n);
        for h0 in 0..HEADINGS as u8 {
            for h1 in 0..HEADINGS as u8 {
                for &(dx, dy) in &offsets {
                    let from = Pose::new(0.5, 0.5, heading_angle(h0));
                    let to = Pose::new(dx as f64 + 0.5, dy as f64 + 0.5, heading_angle(h1));
                    let mut cands: Vec<Curve> = arc_line_arc_all(from, to, radius)
                        .into_iter()
                        .flatten()
                        .collect();
                    cands.sort_by(|a, b| a.length().total_cmp(&b.length()));
                    let mut row = [NONE; CANDIDATES];
                    let mut row_curves = [Curve::new(); CANDIDATES];
                    // Those curves whose footprint stays inside the block, shortest first.
                    let mut k = 0;
                    for c in cands {
                        let mut mask = 0u128;
                        let inside = fp.curve_cells(&c, |x, y, _| {
                            let (x, y) = (x as i32, y as i32);
                            if x.abs() > BLOCK_HALF || y.abs() > BLOCK_HALF {
                                return false;
                            }
                            mask |= 1u128 << block_bit(x, y);
                            true
                        });
                        if inside {
                            row[k] = Transition {
                                mask,
                                cost: (c.length() * 1000.0).round() as u32,
                            };
                            row_curves[k] = c;
                            k += 1;
                        }
                    }
                    entries.push(row);
                    curves.push(row_curves);
                }
            }
        }
        HitTable {
            radius,
            width,
            offsets,
            offset_index,
            entries,
            curves,
        }
    }

    /// Turning radius the table was built for.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Unit width the table was built for.
    pub fn width(&self) -> f64 {
        self.width
    }

    /// The neighbour offsets, in table order.
    pub fn offsets(&self) -> &[(i32, i32)] {
        &self.offsets
    }

    /// The offsets copied into a fixed array (and their count), so a search
    /// can walk them while mutating itself without allocating.
    pub fn offsets_array(&self) -> ([(i32, i32); 48], usize) {
        let mut a = [(0, 0); 48];
        a[..self.offsets.len()].copy_from_slice(&self.offsets);
        (a, self.offsets.len())
    }

    #[inline]
    fn index(&self, h0: u8, h1: u8, o: usize) -> usize {
        (h0 as usize * HEADINGS + h1 as usize) * self.offsets.len() + o
    }

    /// The shortest curve's transition from heading `h0` to `h1` to offset
    /// number `o` (cost `u32::MAX` when no curve fits the block).
    #[inline]
    pub fn get(&self, h0: u8, h1: u8, o: usize) -> Transition {
        self.entries[self.index(h0, h1, o)][0]
    }

    /// All candidate transitions, shortest first; unused ones cost `u32::MAX`.
    #[inline]
    pub fn candidates(&self, h0: u8, h1: u8, o: usize) -> &[Transition; CANDIDATES] {
        &self.entries[self.index(h0, h1, o)]
    }

    /// The shortest candidate that misses every cell in `blocked` (a block
    /// mask): its number and cost.
    #[inline]
    pub fn legal(&self, h0: u8, h1: u8, o: usize, blocked: u128) -> Option<(usize, u32)> {
        self.entries[self.index(h0, h1, o)]
            .iter()
            .enumerate()
            .take_while(|(_, t)| t.cost != u32::MAX)
            .find(|(_, t)| t.mask & blocked == 0)
            .map(|(k, t)| (k, t.cost))
    }

    /// The offset number of `(dx, dy)`, if within reach.
    pub fn offset_number(&self, dx: i32, dy: i32) -> Option<usize> {
        if dx.abs() > 3 || dy.abs() > 3 {
            return None;
        }
        let i = self.offset_index[((dy + 3) * 7 + dx + 3) as usize];
        (i != u8::MAX).then_some(i as usize)
    }

    /// Candidate `k`'s curve, from the centre of cell `(x, y)`.
    pub fn curve(&self, h0: u8, h1: u8, o: usize, k: usize, x: u32, y: u32) -> Curve {
        self.curves[self.index(h0, h1, o)][k].translated(x as f64, y as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_sizes_are_the_seeds() {
        assert_eq!(ring_offsets(1).len(), 8);
        assert_eq!(ring_offsets(2).len(), 24);
        assert_eq!(ring_offsets(3).len(), 48);
    }

    #[test]
    fn straight_step_touches_only_its_row() {
        let t = HitTable::build(1.0, 0.4, 1);
        let o = t.offset_number(1, 0).unwrap();
        let tr = t.get(0, 0, o);
        assert_eq!(tr.cost, 1000);
        assert_eq!(
            tr.mask,
            (1u128 << block_bit(0, 0)) | (1u128 << block_bit(1, 0))
        );
        // A U-turn into the next cell needs a loop of the turning circle.
        assert!(t.get(0, 4, o).cost > 3000);
    }
}
