//! Whole-map distance tables: breadth-first distances from one cell to
//! every cell (the reference RRA* is tested against, and the landmarks'
//! rows), and the costs to a goal with lanes (a shared table when many
//! units share a goal).

use super::UNREACHABLE;
use crate::map::{opposite_move, Cell, Grid};
use crate::queue::BucketQueue;

/// Moves from `source` to every cell (moves are reversible, so also to
/// `source` from every cell); [`UNREACHABLE`] where there is no path.
pub fn bfs_distances(grid: &Grid, source: Cell) -> Vec<u32> {
    let mut dist = Vec::new();
    bfs_distances_into(grid, source, &mut dist, &mut Vec::new());
    dist
}

/// [`bfs_distances`] into `dist`, with `queue` as scratch: both keep their
/// memory, so a caller filling tables again and again allocates nothing
/// once they are large enough.
pub fn bfs_distances_into(grid: &Grid, source: Cell, dist: &mut Vec<u32>, queue: &mut Vec<Cell>) {
    dist.clear();
    dist.resize(grid.cell_count(), UNREACHABLE);
    queue.clear();
    if !grid.is_passable(source) {
        return;
    }
    dist[source.index()] = 0;
    queue.push(source);
    let mut head = 0;
    let mut buf = [Cell(0); 8];
    while let Some(&c) = queue.get(head) {
        head += 1;
        let d = dist[c.index()] + 1;
        let n = grid.neighbors(c, &mut buf);
        for &nb in &buf[..n] {
            if dist[nb.index()] == UNREACHABLE {
                dist[nb.index()] = d;
                queue.push(nb);
            }
        }
    }
}

/// The cost of the cheapest way from every cell to `goal` as the planners
/// count it: moves, with those against a lane costing 2 (see
/// [`Grid::with_lanes`]); [`UNREACHABLE`] where there is no path. Without
/// lanes, the breadth-first distances.
pub fn goal_costs(grid: &Grid, goal: Cell) -> Vec<u32> {
    if !grid.has_lanes() {
        return bfs_distances(grid, goal);
    }
    let mut cost = vec![UNREACHABLE; grid.cell_count()];
    if !grid.is_passable(goal) {
        return cost;
    }
    // Dijkstra backwards from the goal: a cell's cost is settled when
    // popped (an entry above its cost is stale); the move priced is the
    // one from the neighbour into it.
    let mut open = BucketQueue::with_capacity(64);
    cost[goal.index()] = 0;
    open.push(0, goal.0);
    while let Some((d, c)) = open.pop() {
        let c = Cell(c);
        if d > cost[c.index()] {
            continue;
        }
        let mut bits = grid.move_bits(c);
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let from = Cell((c.0 as i64 + grid.move_delta(k)) as u32);
            let through = d + grid.move_cost(from, opposite_move(k));
            if through < cost[from.index()] {
                cost[from.index()] = through;
                open.push(through, from.0);
            }
        }
    }
    cost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{generate_map, Connectivity};

    /// Costs to `goal` by relaxing every move until nothing changes.
    fn relaxed(grid: &Grid, goal: Cell) -> Vec<u32> {
        let mut cost = vec![UNREACHABLE; grid.cell_count()];
        cost[goal.index()] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for c in 0..grid.cell_count() as u32 {
                let c = Cell(c);
                let mut bits = grid.move_bits(c);
                while bits != 0 {
                    let k = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let to = Cell((c.0 as i64 + grid.move_delta(k)) as u32);
                    let via = cost[to.index()].saturating_add(grid.move_cost(c, k));
                    if via < cost[c.index()] {
                        cost[c.index()] = via;
                        changed = true;
                    }
                }
            }
        }
        cost
    }

    #[test]
    fn goal_costs_price_moves_against_lanes() {
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let plain = generate_map("24x24:0.3".parse().unwrap(), conn, 5);
            let laned = plain.clone().with_lanes(true);
            let goal = (0..plain.cell_count() as u32)
                .map(Cell)
                .find(|&c| plain.is_passable(c))
                .unwrap();
            assert_eq!(goal_costs(&plain, goal), bfs_distances(&plain, goal));
            let costs = goal_costs(&laned, goal);
            assert_eq!(costs, relaxed(&laned, goal), "{conn:?}");
            let bfs = bfs_distances(&laned, goal);
            assert!(costs.iter().zip(&bfs).all(|(c, b)| c >= b));
            assert!(
                costs.iter().zip(&bfs).any(|(c, b)| c > b),
                "lanes cost something"
            );
        }
    }
}
